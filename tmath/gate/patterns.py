"""Vectors printed with ``\\vdots``, held to the pattern their shown rows follow.

A column vector written ``[sin(ω₁t); cos(ω₁t); sin(ω₂t); cos(ω₂t); ⋮; sin(ω_{d/2}t);
cos(ω_{d/2}t)]`` or ``[−q₂; q₁; −q₄; q₃; ⋮; −q_d; q_{d−1}]`` shows a few blocks of rows and
leaves the rest to a pattern. Each block must be the same pattern at its own index: a block
is one or two rows; its subscripts are written relative to the block's smallest one
(``q_3, q_4`` → ``q_b, q_{b+1}``; ``ω_{d/2}`` → ``ω_b``), and the blocks then read alike.

The smallest block size at which every shown block reads alike is the vector's pattern; none
is a finding. When no size does, and at one size all blocks but one read alike (at least two
of them), that one block breaks the pattern the others follow (a swapped sin and cos, a lost
minus sign): ``contradicts``, on the line of its first row that differs from the pattern.
Vectors whose rows have no
subscript that changes from block to block (``[1; 0; ⋮; 0]``), matrices with columns, and
rows that do not divide into blocks are not judged; nor are the steps between the blocks'
indices (``y_1, y_2, y_5``: each block reads ``y_b``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

_SUBSCRIPT = re.compile(r"_(?:\{([^{}]+)\}|([0-9A-Za-z]))")
_DOTS = re.compile(r"^\s*\\(?:vdots|dots|ldots|cdots)\s*$")


@dataclass(frozen=True)
class Broken:
    """A block of a ``\\vdots`` vector that does not follow the pattern of the others."""

    start: int           # where its first row is, in the document's text
    rows: tuple[str, ...]
    pattern: tuple[str, ...]   # the rows the other blocks follow, at this block's index
    size: int


def broken_blocks(document: Document) -> list[Broken]:
    """Every block of a displayed ``\\vdots`` vector that breaks its vector's pattern."""
    found = []
    for math in document.formulas:
        if math.inner < 0 or "\\vdots" not in math.latex:
            continue
        from tmath.latex.split import MATRIX

        for vector in MATRIX.finditer(math.latex):
            found += _judged(math, vector)
    return found


def _judged(math: Math, vector: re.Match) -> list[Broken]:
    from tmath.latex.split import rows as rows_of

    rows = [(vector.start(2) + at, text) for at, text in rows_of(vector.group(2))]
    if any("&" in text for _, text in rows):
        return []   # a matrix with columns
    dots = [k for k, (_, text) in enumerate(rows) if _DOTS.match(text)]
    if len(dots) != 1:
        return []
    before, after = rows[:dots[0]], rows[dots[0] + 1:]
    for size in (1, 2):
        if len(before) % size or len(after) % size:
            continue
        blocks = [before[k:k + size] for k in range(0, len(before), size)] + \
                 [after[k:k + size] for k in range(0, len(after), size)]
        forms = [_relative(tuple(text for _, text in block)) for block in blocks]
        if len(blocks) < 3 or any(f is None for f in forms) or \
                len({f[1] for f in forms}) < 2:
            continue   # too few blocks, or no subscript that moves with the block
        shapes = [f[0] for f in forms]
        if len(set(shapes)) == 1:
            return []   # the pattern holds at this size
        common = max(set(shapes), key=shapes.count)
        odd = [k for k, s in enumerate(shapes) if s != common]
        if len(odd) == 1 and shapes.count(common) >= 2:
            block = blocks[odd[0]]
            first = next(r for r, (mine, theirs) in enumerate(zip(shapes[odd[0]], common))
                         if mine != theirs)   # the row that breaks it: where to report
            return [Broken(math.inner + block[first][0], tuple(t for _, t in block),
                           _at(common, forms[odd[0]][1]), size)]
    return []


def _relative(rows: tuple[str, ...]) -> tuple[tuple[str, ...], object] | None:
    """The rows with each subscript written from the block's smallest one (``b``), and that
    smallest subscript; None when a subscript is not a fixed offset from the others. The
    subscripts are read by the LaTeX reader (document text is never evaluated)."""
    subscripts = [m.group(1) or m.group(2) for row in rows for m in _SUBSCRIPT.finditer(row)]
    values = {text: _index(text) for text in subscripts}
    if not subscripts or None in values.values():
        return None
    base = next((candidate for candidate in values.values()
                 if all(_gap(v, candidate) is not None for v in values.values())), None)
    if base is None:
        return None

    def written(match: re.Match) -> str:
        gap = _gap(values[match.group(1) or match.group(2)], base)
        return "_{b}" if gap == 0 else f"_{{b+{gap}}}"

    shape = tuple(re.sub(r"\s+", "", _SUBSCRIPT.sub(written, row)) for row in rows)
    return shape, base


def _index(text: str):
    """A subscript as the reader reads it (``d/2``, ``n-1``, ``3``); None if it reads no
    single expression."""
    from tmath.latex import read

    reading = read(text)
    if not reading.parsed or reading.relations or len(reading.expressions) != 1:
        return None
    return reading.expressions[0]


def _gap(value, base):
    """``value − base`` when it is a number ≥ 0 (a fixed offset), else None."""
    try:
        gap = value - base
        return gap if gap.is_Rational and gap >= 0 else None
    except (TypeError, ValueError, AttributeError):
        return None


def _at(shape: tuple[str, ...], base) -> tuple[str, ...]:
    """The rows of ``shape`` at the block whose smallest subscript is ``base``."""
    from fractions import Fraction

    import sympy as sp

    def index(match: re.Match) -> str:
        gap = Fraction(match.group(1) or 0)   # a number this module wrote, parsed as one
        text = str(base + sp.Rational(gap.numerator, gap.denominator)).replace(" ", "")
        return f"_{text}" if len(text) == 1 else f"_{{{text}}}"

    return tuple(re.sub(r"_\{b(?:\+([^{}]+))?\}", index, row) for row in shape)


def judged(document: Document, broken: Broken) -> Finding:
    section = document.section_at(broken.start)
    rows = "; ".join(broken.rows)
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=document.line_of(broken.start),
        column=document.column_of(broken.start), formula=rows, compared_with=("pattern",),
        detail=f"the other rows of this vector follow one pattern, blocks of {broken.size} "
               f"row{'s' if broken.size > 1 else ''}; at this block it gives "
               f"{'; '.join(broken.pattern)}, not {rows}")
