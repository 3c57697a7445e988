"""A whole formula → relations: split at \\quad, top-level commas, aligned rows and chains."""

from __future__ import annotations

import sympy as sp

from tmath.latex.limits import Unreadable
from tmath.latex.notation import DEFAULT, Notation
from tmath.latex.parser import ELLIPSIS, Parser, items, said_of
from tmath.latex.result import Reading, Relation
from tmath.latex.tokens import Token, split_at, tokenize

ROWS = frozenset({"aligned", "align", "align*", "split", "gathered", "gather", "gather*",
                  "equation", "equation*"})
SEPARATORS = frozenset({"quad", "qquad"})


def read(latex: str, notation: Notation = DEFAULT) -> Reading:
    """Read a LaTeX formula (without its ``$`` delimiters) against ``notation``.

    Returns a ``parsed`` :class:`Reading` with its relations and bare expressions, or an
    ``unparsed`` one with the reason. Never raises on document text.
    """
    try:
        tokens = tokenize(latex)
        relations, expressions, seen = _read(tokens, notation)
        for _ in range(3):   # names printed ^T, or multiplied by a matrix, are matrices: re-read
            if seen <= notation.matrices:
                break
            notation = notation.with_matrices(frozenset(seen))
            relations, expressions, seen = _read(tokens, notation)
        else:
            raise Unreadable("which names are matrices does not settle: declare them")
    except Unreadable as error:
        return Reading.unparsed(latex, str(error))
    except RecursionError:
        return Reading.unparsed(latex, "nested too deeply to read")
    except Exception as error:   # SymPy refused a construction: fail closed, say so
        return Reading.unparsed(latex, f"SymPy could not build it ({type(error).__name__}: {error})")
    if not relations and not expressions:
        return Reading.unparsed(latex, "an empty formula")
    return Reading(latex, "parsed", tuple(relations), tuple(expressions))


def _read(tokens: tuple[Token, ...], notation: Notation):
    seen: set[str] = set()
    relations: list[Relation] = []
    expressions: list[sp.Basic] = []
    for row in _rows(tokens):
        previous = relations[-1].rhs if relations else None
        if row and row[0].kind == "text" and row[0].value.rstrip().endswith(":"):
            row = row[1:]   # "\\text{attention weights: } α_t = …": the row's label
        row = [part for t in row for part in _joined_name(t)]
        row = [Token("cmd", "quad") if _joining(t) else t for t in row]
        for segment in split_at(row, SEPARATORS):
            r, e = _segment(_trim(segment), notation, seen, previous)
            relations += r
            expressions += e
            previous = None
    return relations, expressions, seen


JOINING = frozenset({"where", "and", "with", "hence", "thus", "so", "then"})
"""Words between two statements that join them (``a = b \\text{, where } c = d``): each
side is read as its own statement, as across ``\\quad``. Words that set a condition (if,
for) are not among them: a formula with one stays unread."""


def _joining(token: Token) -> bool:
    if token.kind != "text":
        return False
    words = token.value.partition(":")[2].replace(",", " ").replace(";", " ").split()
    return bool(words) and all(w.lower().strip(".:") in JOINING for w in words)


def _joined_name(token: Token) -> list[Token]:
    """``\\text{where head}_i``: a joining word and the name it introduces typed in one text
    (Lil'Log's style) → the word, then the name as its own text."""
    if token.kind != "text":
        return [token]
    style, _, words = token.value.partition(":")
    parts = words.split()
    if len(parts) == 2 and parts[0].lower() in JOINING and parts[1].isalpha():
        return [Token("text", f"{style}:{parts[0]}", token.spaced),
                Token("text", f"{style}:{parts[1]}", True)]
    return [token]


def _rows(tokens: tuple[Token, ...]) -> list[list[Token]]:
    """An aligned-like environment (or bare \\\\) → rows with & removed."""
    body = list(tokens)
    if len(body) >= 2 and body[0].value == "begin":
        name = "".join(t.value for t in body[2:body.index(Token("sym", "}", False), 2)]) \
            if Token("sym", "}", False) in body[2:] else ""
        closing = [k for k, t in enumerate(body) if t.value == "end"]
        if name in ROWS and closing:
            body = body[body.index(Token("sym", "}", False), 2) + 1:closing[-1]]
    rows = split_at(body, {"\\\\"})
    return [_unaligned(row) for row in rows]


def _unaligned(row: list[Token]) -> list[Token]:
    """A row without its alignment marks ``&``; those inside a nested environment (a
    matrix's columns, a cases' conditions) stay, for it to read. Where each pair of columns
    holds a relation (``u_1 &= a & v_1 &= b``), the pairs are separate equations. A column after the
    relation that opens with words (``& \\text{; the context vector for }y_t``) annotates the row: it is not
    read, unless its words set a condition (``& \\text{if } i > 0``), which stays, so the
    row is read with it or not at all."""
    columns = split_at(row, {"&"})
    kept = [part for k, part in enumerate(columns)
            if not (_annotation(part) and any(map(_has_relation, columns[:k])))]
    pairs = [kept[k] + kept[k + 1] if k + 1 < len(kept) else kept[k]
             for k in range(0, len(kept), 2)]
    if len(pairs) > 1 and all(map(_has_relation, pairs)) and \
            not any(_opens_with(pair, "text") for pair in pairs[1:]):
        # amsmath's align pairs its columns: ``a &= b & c &= d`` is two equations side by side
        return [t for k, pair in enumerate(pairs) for t in ([Token("cmd", "quad")] if k else [])
                + pair]
    return [t for part in kept for t in part]


CONDITIONS = frozenset({"if", "for", "when", "where", "whenever", "otherwise", "with",
                        "unless", "provided", "as", "s.t."})


def _opens_with(tokens: list[Token], kind: str) -> bool:
    first = next((t for t in tokens if not (t.kind == "sym" and t.value == "{")), None)
    return first is not None and first.kind == kind


def _annotation(tokens: list[Token]) -> bool:
    """Opens (after braces) with words that are not a condition."""
    first = next((t for t in tokens if not (t.kind == "sym" and t.value == "{")), None)
    if first is None or first.kind != "text":
        return False
    words = first.value.partition(":")[2].strip(" ;,.:").split()
    return bool(words) and words[0].lower() not in CONDITIONS


def _trim(segment: list[Token]) -> list[Token]:
    while segment and segment[-1].kind == "sym" and segment[-1].value in ",.;":
        segment = segment[:-1]
    return segment


def _segment(tokens: list[Token], notation: Notation, seen: set[str],
             previous: sp.Basic | None) -> tuple[list[Relation], list[sp.Basic]]:
    if not tokens:
        return [], []
    parts = split_at(tokens, {","})
    if any(len(p) == 1 and p[0].value in ELLIPSIS for p in parts):
        parser = Parser([], notation, seen)
        if any(_has_relation(p) for p in parts):
            raise Unreadable("an ellipsis list joined to a relation is not read: "
                             "state the relation for one item")
        return [], list(items(parser, parts))
    relations: list[Relation] = []
    expressions: list[sp.Basic] = []
    waiting: list[sp.Basic] = []   # a, b ∈ S: the names before a membership share its set
    for part in parts:
        parser = Parser(part, notation, seen)
        said = said_of(parser, part) if not _has_relation(part) else None
        if said is not None:   # a proposition in words alone (a notation's key)
            expressions.append(said)
            continue
        first = None
        if parser.relation_op() is not None:
            if previous is None:
                raise Unreadable("the formula starts with a relation (a fragment): not read")
            parser.i, first = 0, previous
        exprs, ops = parser.chain(first)
        parser.finish()
        if ops:
            if ops == ["in"] and waiting:
                relations += [Relation(w, "in", exprs[1]) for w in waiting]
                expressions = [e for e in expressions if all(e is not w for w in waiting)]
                waiting = []
            relations += [Relation(exprs[k], o, exprs[k + 1]) for k, o in enumerate(ops)]
        else:
            expressions.append(exprs[0])
            waiting.append(exprs[0])
    if relations and expressions:
        raise Unreadable("a list mixes relations and bare expressions (a, b ∈ S): "
                         "write one relation per item")
    return relations, expressions


def _has_relation(tokens: list[Token]) -> bool:
    parser = Parser(tokens, DEFAULT)
    return any(parser.at(t.kind, t.value, k) and (t.value in ("=", "<", ">") or t.kind == "cmd"
               and t.value in ("le", "leq", "ge", "geq", "in", "to", "rightarrow", "approx"))
               for k, t in enumerate(tokens))
