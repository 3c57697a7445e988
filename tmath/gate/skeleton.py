"""``tmath new --from DOC:LINE``: the skeleton of a claim for what a document prints at a line.

The skeleton records the display formula at that line verbatim (``formulas=``), each number
printed in the running text of that line as a :class:`~tmath.engine.model.Figure` with its
anchor (the text before and after it), and a ``Statement`` stub with the formula's symbols
declared. Its ``prove`` and ``check`` raise "not written yet": the claim loads, and until it
is written it is an error, never a pass, so ``tmath check`` reports its formula as
claimed-but-unverified.

The formula's symbols are found by a tokenizer that reads names (``d_k``, ``W_Q``,
``\\alpha``, ``warmup\\_steps``) and never builds an expression: SymPy's LaTeX parser needs
ANTLR or Lark (neither is a dependency of tmath), and its Lark backend builds SymPy objects
that evaluate what the document writes (``9^{9^{9}}`` would be computed). Document text is data.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from tmath.gate.document import Document
from tmath.gate.numbers import scan

MAX_SYMBOLS = 40
"""Symbols declared at most (a longer formula gets the first ones and a note)."""
ANCHOR_CHARS = 24
"""Characters of the text before (``near``) and after (``after``) a figure recorded."""

_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
          "iota", "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi",
          "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Sigma", "Phi",
          "Psi", "Omega"}
_TEXT_NAME = re.compile(r"\\(?:text|mathrm|operatorname|textrm)\{([A-Za-z][A-Za-z0-9 ]{0,40})\}")
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
    stripped = re.sub(r"\^\{[^{}]{0,60}\}|\^.", " ", stripped)  # exponents name nothing new
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


def claim_source(content: AtLine, claim_id: str, where: str) -> str:
    """The Python source of the skeleton claim (``where`` names DOC:LINE for people)."""
    symbols = symbol_names(content.formula) if content.formula else []
    class_name = "".join(part.title() for part in claim_id.split("-"))
    lines = [
        f'"""A claim for {where}, started by `tmath new`: write its statement, premises, foils,',
        'prove() and check(). Until then it is an error, never a pass."""',
        "",
        "import sympy as sp",
        "",
        "from tmath import Figure, Foil, Statement, claim",
        "",
    ]
    if symbols:
        lines += ["# The formula's symbols (read by a tokenizer; nothing was evaluated).",
                  f"{', '.join(symbols)}{',' if len(symbols) == 1 else ''} = "
                  f"sp.symbols({' '.join(s.rstrip('_') for s in symbols)!r})", ""]
    if content.formula is not None:
        lines += [f"FORMULA = {_literal(content.formula)}", "", ""]
    lines += [
        "def not_written_yet(what):",
        f'    raise NotImplementedError(f"{{what}} of claim {claim_id} not written yet")',
        "",
        "",
        "@claim(",
        f"    id={claim_id!r},",
        f"    title={('TODO: what ' + where + ' states')!r},",
        f"    section={content.section!r},",
        '    statement=Statement("TODO: the statement, in your own words", None),',
        "    premises=(),",
        '    foils=(Foil("TODO: the nearest false statement", None),),',
    ]
    if content.formula is not None:
        lines.append("    formulas=(FORMULA,),")
    if content.figures:
        lines.append("    figures=(")
        for printed, near, after in content.figures:
            lines.append(f"        Figure({('TODO: what ' + printed + ' is')!r}, {printed!r}, "
                         f"lambda: not_written_yet('the figure'),")
            lines.append(f"               near={near!r}, after={after!r}),")
        lines.append("    ),")
    lines += [
        ")",
        f"class {class_name}:",
        f'    """TODO: why the statement holds, in a few words."""',
        "",
        "    def prove(self, value, proof):",
        '        not_written_yet("prove()")',
        "",
        "    def check(self, value, experiment):",
        '        not_written_yet("check()")',
        "",
    ]
    return "\n".join(lines)


def _literal(text: str) -> str:
    """A Python string literal for LaTeX, raw when it can be."""
    if '"""' not in text and not text.endswith("\\") and "\r" not in text:
        return f'r"""{text}"""' if "\n" in text else (
            f'r"{text}"' if '"' not in text else f"r'{text}'" if "'" not in text
            else repr(text))
    return repr(text)
