"""``tmath new --from DOC:LINE``: the skeleton of a claim for what a document prints at a line.

The skeleton records the display formula at that line verbatim (``formulas=``), each number
printed in the running text of that line as a :class:`~tmath.engine.model.Figure` with its
anchor (the text before and after it), and a ``Statement`` stub with the formula's symbols
declared; when the reader (:mod:`tmath.latex`) parses the formula, the statement's lhs,
relation and value are its first relation as parsed (``PARSED``), for the author to correct.
Its ``prove`` and ``check`` raise "not written yet": the claim loads, and until it
is written it is an error, never a pass, so ``tmath check`` reports its formula as
claimed-but-unverified.

The formula's symbols are found by a tokenizer that reads names (``d_k``, ``W_Q``,
``\\alpha``, ``warmup\\_steps``) and never builds an expression: SymPy's LaTeX parser needs
ANTLR or Lark (neither is a dependency of tmath), and its Lark backend builds SymPy objects
that evaluate what the document writes (``9^{9^{9}}`` would be computed). Document text is data.
"""

from __future__ import annotations

import ast
import keyword
import re
from dataclasses import dataclass, field
from typing import Any, Collection, Sequence

from tmath.gate.document import Document
from tmath.gate.numbers import scan
from tmath.gate.skeleton_symbols import declaration_lines, declarations

MAX_SYMBOLS = 40
"""Symbols declared at most (a longer formula gets the first ones and a note)."""
ANCHOR_CHARS = 24
"""Characters of the text before (``near``) and after (``after``) a figure recorded."""

_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
          "iota", "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi",
          "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Sigma", "Phi",
          "Psi", "Omega"}
_TEXT_NAME = re.compile(r"\\(?:text|mathrm|operatorname|textrm)\{([A-Za-z][A-Za-z0-9 ]{0,40})\}")
_TRANSPOSE = re.compile(r"\^\s*(?:\{\s*(?:T|\\top)\s*\}|T(?![A-Za-z])|\\top(?![A-Za-z]))")
_EULER = re.compile(r"(?<![A-Za-z\\])e(?=\s*\^)")
_NAME = re.compile(r"(?:\\([A-Za-z]{1,20})|((?<![A-Za-z\\])[A-Za-z](?:[A-Za-z]|\\_){0,40}))"
                   r"(?:_(?:\{([A-Za-z0-9, ]{1,20})\}|([A-Za-z0-9])))?")


@dataclass(frozen=True)
class AtLine:
    """What a document prints at one line: a display formula, and numbers in running text."""

    document: Document
    line: int
    section: str
    formula: str | None = None
    figures: tuple[tuple[str, str, str], ...] = ()
    """(printed, near, after) of each number printed in the line's running text."""
    functions: tuple[str, ...] = field(default=())


def at_line(document: Document, line: int) -> AtLine:
    """The display formula that covers ``line`` and the numbers of its running text."""
    formula = next((m for m in document.formulas if m.line <= line <= m.end_line), None)
    start = document.line_starts[line - 1]
    end = start + len(document.line_text(line))
    figures = []
    if formula is None:
        tokens, _ = scan(document, start, end, 50)
        for token in tokens:
            if token.role != "text" or not token.plain:
                continue
            printed = document.text[token.start:token.end].strip()
            near = _anchor(document.masked[max(start, token.start - ANCHOR_CHARS):token.start],
                           last=True)
            after = _anchor(document.masked[token.end:min(end, token.end + ANCHOR_CHARS)],
                            last=False)
            figures.append((printed, near, after))
    offset = formula.start if formula else start
    section = document.section_at(offset)
    return AtLine(document, line, section.number if section and section.number else "1",
                  formula.latex if formula else None, tuple(figures))


def _anchor(text: str, last: bool) -> str:
    """The words next to a figure, cut at a word boundary on the far side."""
    text = " ".join(text.split())
    if len(text) < ANCHOR_CHARS - 2:
        return text
    parts = text.split(" ")
    return " ".join(parts[1:] if last else parts[:-1]).strip() or text


def symbol_names(latex: str) -> list[str]:
    """The names a formula uses, in order, as Python identifiers (``d_{model}`` → ``d_model``;
    a Python keyword gets a trailing ``_``). Named operators (``\\text{softmax}``) and LaTeX
    commands other than Greek letters are not symbols."""
    operators = {m.group(1).replace(" ", "") for m in _TEXT_NAME.finditer(latex)}
    stripped = _TEXT_NAME.sub(" ", latex)
    stripped = _TRANSPOSE.sub(" ", stripped)  # ^T, ^{T}, ^\top: a transpose, not a name
    stripped = _EULER.sub(" ", stripped)      # e^{…} is Euler's number, never a symbol
    found: dict[str, None] = {}
    for match in _NAME.finditer(stripped):
        command, word, braced, single = match.groups()
        if command:
            if command not in _GREEK:
                continue
            base = command
        else:
            base = word.replace("\\_", "_")
        sub = braced or single
        name = f"{base}_{sub.replace(',', '').replace(' ', '')}" if sub else base
        if base in operators or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            continue
        found[name + ("_" if keyword.iskeyword(name) else "")] = None
        if len(found) >= MAX_SYMBOLS:
            break
    return _split_products(list(found))


def _split_products(names: list[str]) -> list[str]:
    """``QK`` next to ``Q`` and ``K`` is their product, not a name of its own (``PE`` is)."""
    singles = {n for n in names if len(n) == 1}
    out: dict[str, None] = {}
    for name in names:
        if 1 < len(name) <= 4 and name.isalpha() and name.isupper() and set(name) <= singles:
            out.update(dict.fromkeys(name))
        else:
            out[name] = None
    return list(out)


SKELETON_NAMES = frozenset({"sp", "Figure", "Foil", "Statement", "claim", "FORMULA",
                            "not_written_yet", "NotImplementedError", "read", "PARSED"})
"""Names the skeleton itself defines or uses: a symbol or a class never takes one of them."""


def claim_source(content: AtLine, claim_id: str, where: str) -> str:
    """The Python source of the skeleton claim (``where`` names DOC:LINE for people).

    It is built as data: every text (``where``, the id, the formula, figures, anchors) enters
    as a string literal checked by parsing it back, and every name is a valid identifier that
    is not a keyword and shadows nothing the skeleton uses, so any document, file name or id
    gives a module that compiles, loads and runs nothing of what it records."""
    reading = _read(content.formula)
    declared = declarations(symbol_names(content.formula), _trees(reading)) \
        if content.formula else []
    symbols = python_names([d.printed for d in declared])
    class_name = _class_name(claim_id, taken=set(symbols))
    lines = [
        _literal(f"A claim for {where}, started by `tmath new`: write its statement, premises, "
                 "foils,\nprove() and check(). Until then it is an error, never a pass.",
                 docstring=True),
        "",
        "import sympy as sp",
        "",
        "from tmath import Figure, Foil, Statement, claim",
        "",
    ]
    if symbols:
        lines += ["# The formula's symbols (names read by a tokenizer, kinds by tmath's reader;",
                  "# nothing was evaluated).", *declaration_lines(declared, symbols), ""]
    parsed = _first_relation(reading) if reading is not None else None
    if parsed is not None:
        lines.insert(lines.index("from tmath import Figure, Foil, Statement, claim") + 1,
                     "from tmath.latex import read")
    if content.formula is not None:
        lines += [f"FORMULA = {_literal(content.formula)}"]
        if parsed is not None:
            shown, relation = parsed
            lines += ["# Its first relation as tmath's LaTeX reader parses it (nothing is evaluated)"
                      + (f":\n# {shown}" if shown else ""),
                      "PARSED = read(FORMULA).relations[0]"]
        else:
            lines += _unread_comment(unread_reason(content.formula))
        lines += ["", ""]
    lines += [
        "def not_written_yet(what):",
        f"    raise NotImplementedError(what + {_literal(f' of claim {claim_id} not written yet')})",
        "",
        "",
        "@claim(",
        f"    id={_literal(claim_id)},",
        f"    title={_literal('TODO: what ' + where + ' states')},",
        f"    section={_literal(content.section)},",
        '    statement=Statement("TODO: the statement, in your own words", None),'
        if parsed is None else
        '    statement=Statement("TODO: the statement, in your own words", PARSED.rhs,\n'
        f'                        lhs=PARSED.lhs, relation={parsed[1]!r}),',
        "    premises=(),",
        '    foils=(Foil("TODO: the nearest false statement", None),),',
    ]
    if content.formula is not None:
        lines.append("    formulas=(FORMULA,),")
    if content.figures:
        lines.append("    figures=(")
        for printed, near, after in content.figures:
            lines.append(f"        Figure({_literal('TODO: what ' + printed + ' is')}, "
                         f"{_literal(printed)}, lambda: not_written_yet('the figure'),")
            lines.append(f"               near={_literal(near)}, after={_literal(after)}),")
        lines.append("    ),")
    lines += [
        ")",
        f"class {class_name}:",
        '    """TODO: why the statement holds, in a few words."""',
        "",
        "    def prove(self, value, proof):",
        '        not_written_yet("prove()")',
        "",
        "    def check(self, value, experiment):",
        '        not_written_yet("check()")',
        "",
    ]
    return "\n".join(lines)


_STATED = {"=": "=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}


def _read(formula: str | None) -> Any:
    """The reader's :class:`~tmath.latex.Reading` of ``formula`` (None without one)."""
    from tmath.latex import read

    return read(formula) if formula is not None else None


def _trees(reading: Any) -> list | None:
    """The SymPy sides of a parsed reading's relations and expressions, or None."""
    if reading is None or not reading.parsed:
        return None
    return [side for r in reading.relations for side in (r.lhs, r.rhs)] + \
        list(reading.expressions)


def unread_reason(formula: str) -> str | None:
    """Why the skeleton of ``formula`` has no statement to start from (the reader did not
    read it, or it states no relation a Statement holds), or None when it has one."""
    reading = _read(formula)
    if not reading.parsed:
        return f"tmath's LaTeX reader did not read it: {reading.reason}"
    if _first_relation(reading) is None:
        return "it states no relation a Statement can hold (=, <, ≤, >, ≥)"
    return None


def _unread_comment(reason: str | None) -> list[str]:
    """Comment lines saying the formula was not read, and what that leaves to the author."""
    shown = reason if reason and len(reason) <= 200 and reason.isprintable() else \
        "tmath's LaTeX reader did not read it"
    return ["# NOT READ: this formula gives the Statement nothing to start from, because",
            f"# {shown}.",
            "# Write its value and lhs yourself. Until the formula is read, tmath check matches",
            "# it by its spelling only, not by its meaning."]


def _first_relation(reading: Any) -> tuple[str, str] | None:
    """The first relation of a ``reading`` when it is one a Statement can state: (its text
    for a comment, or "" if unprintable; the relation)."""
    if not reading.parsed or not reading.relations or reading.relations[0].op not in _STATED:
        return None
    relation = reading.relations[0]
    shown = str(relation)
    if len(shown) > 120 or not shown.isprintable():
        shown = ""
    return shown, _STATED[relation.op]


def is_free_name(name: str, taken: Collection[str] = ()) -> bool:
    """Whether ``name`` can be a variable of the skeleton: an identifier, not a keyword (so
    not ``None``/``True``/``False``), not one of :data:`SKELETON_NAMES` nor of ``taken``."""
    return name.isidentifier() and not keyword.iskeyword(name) \
        and name not in SKELETON_NAMES and name not in taken


def python_names(names: Sequence[str]) -> list[str]:
    """``names`` made free (:func:`is_free_name`) and distinct: ``_`` appended until they are
    (``sp`` → ``sp_``, ``None`` → ``None_``)."""
    free: list[str] = []
    for name in names:
        while not is_free_name(name, free):
            name += "_"
        free.append(name)
    return free


def _class_name(claim_id: str, taken: Collection[str]) -> str:
    """``attention-formula`` → ``AttentionFormula``; prefixed with ``Claim`` when that is not a
    free name (``none`` → ``ClaimNone``, ``1abc`` → ``Claim1abc``)."""
    name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", claim_id))
    if not is_free_name(name, taken):
        name = "Claim" + name
    while not is_free_name(name, taken):
        name += "_"
    return name


def _literal(text: str, docstring: bool = False) -> str:
    """A Python string literal whose value is exactly ``text``: raw (triple-quoted over several
    lines, or for a docstring) when that reads back the same, otherwise ``repr``."""
    for candidate in _readable_forms(text, docstring):
        if _reads_back(candidate, text):
            return candidate
    return repr(text)


def _readable_forms(text: str, docstring: bool) -> list[str]:
    if any(c not in "\n\t" and not c.isprintable() for c in text):
        return []  # control characters, line separators, surrogates: escaped by repr
    if docstring or "\n" in text:
        plain = [] if "\\" in text else [f'"""{text}"""']  # escapes would be read as such
        return plain + [f'r"""{text}"""', f"r'''{text}'''"]
    return [f'r"{text}"', f"r'{text}'"]


def _reads_back(candidate: str, text: str) -> bool:
    """Whether ``candidate`` parses as one string whose value is ``text`` (quotes that end the
    literal early or join two literals always lose characters, so they fail here)."""
    try:
        tree = ast.parse(candidate, mode="eval")
    except (SyntaxError, ValueError):
        return False
    return isinstance(tree.body, ast.Constant) and tree.body.value == text
