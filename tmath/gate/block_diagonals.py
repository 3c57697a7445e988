"""Block-diagonal matrices printed with ``\\ddots``, held to the vector they multiply.

A rotation such as RoPE's is printed as a block-diagonal matrix times a vector, with a few
blocks shown and the rest left to ``\\ddots``:
``\\begin{pmatrix} M_1 & & \\\\ & \\ddots & \\\\ & & M_{d/2} \\end{pmatrix}
\\begin{pmatrix} q_1 \\\\ \\vdots \\\\ q_d \\end{pmatrix}``. When the document defines the blocks
as k×k matrices (``M_i = \\begin{bmatrix} … \\end{bmatrix}``), the product needs k times the
number of blocks to be the number of rows of the vector: k·(d/2) = d.

A matrix is read when every row has at most one entry, on the diagonal, one row is
``\\ddots``, the shown blocks are one name numbered 1, 2, … before the dots and one index
after them (the count), and a column vector numbered from 1 to its length follows it in the
formula. The count times the block size is compared with the length by SymPy: when they
differ and the count is written in the length's names (``d`` against ``d``), that is
``contradicts``, on the line of the last block. A count or length that is a number, or a
block the document does not define as a square matrix, is not judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding

_STYLE = re.compile(r"\\(?:mathbf|boldsymbol|bm|mathrm|mathit|vec)\s*")
_NUMBERED = re.compile(r"^(?P<name>\\?[A-Za-z]+)_(?P<index>.+)$")
_DDOTS = re.compile(r"^\s*\\ddots\s*$")
_VDOTS = re.compile(r"^\s*\\(?:vdots|dots|ldots|cdots)\s*$")


@dataclass(frozen=True)
class Uneven:
    """A block-diagonal product whose blocks do not cover the vector it multiplies."""

    start: int        # where the last block is, in the document's text
    block: str        # the blocks' name
    size: int         # each block is size × size
    count: str        # the last block's index, as printed
    length: str       # the vector's last index, as printed
    should: str       # the count that would fit


def uneven_products(document: Document) -> list[Uneven]:
    """Every block-diagonal product of the document whose blocks and vector disagree."""
    from tmath.latex.split import MATRIX

    sizes = _block_sizes(document)
    found = []
    for math in document.formulas:
        if math.inner < 0 or "\\ddots" not in math.latex or not sizes:
            continue
        matrices = list(MATRIX.finditer(math.latex))
        for matrix, vector in zip(matrices, matrices[1:]):
            if math.latex[matrix.end():vector.start()].strip():
                continue   # not a product of the two
            uneven = _judged(matrix, vector, sizes)
            if uneven is not None:
                found.append(Uneven(math.inner + uneven[0], *uneven[1:]))
    return found


def _plain(entry: str) -> str:
    return re.sub(r"[{}\s]", "", _STYLE.sub("", entry))


def _numbered(entries: list[str]) -> tuple[str, list[str]] | None:
    """The common name of ``entries`` and their indices (``M_1``, ``M_{d/2}`` → M, [1, d/2])."""
    parts = [_NUMBERED.match(_plain(e)) for e in entries]
    if not entries or None in parts or len({p.group("name") for p in parts}) != 1:
        return None
    return parts[0].group("name"), [p.group("index") for p in parts]


def _judged(matrix: re.Match, vector: re.Match, sizes: dict[str, int]):
    from tmath.latex.split import rows

    diagonal, at, dots = [], [], 0
    for k, (start, row) in enumerate(rows(matrix.group(2))):
        cells = row.split("&")
        filled = [(c, cell) for c, cell in enumerate(cells) if cell.strip()]
        if len(filled) != 1 or filled[0][0] != k:
            return None   # an entry off the diagonal: not block-diagonal
        if _DDOTS.match(filled[0][1]):
            dots += 1
            continue
        diagonal.append(filled[0][1])
        at.append(matrix.start(2) + start + sum(len(c) + 1 for c in cells[:k]))
    column = [row for _, row in rows(vector.group(2))]
    if dots != 1 or len(diagonal) < 2 or any("&" in row for row in column):
        return None
    blocks, shown = _numbered(diagonal), _numbered([r for r in column if not _VDOTS.match(r)])
    if blocks is None or shown is None or blocks[0] not in sizes or \
            blocks[1][:-1] != [str(k + 1) for k in range(len(blocks[1]) - 1)] or \
            shown[1][0] != "1":
        return None
    return _compared(at[-1], blocks[0], sizes[blocks[0]], blocks[1][-1], shown[1][-1])


def _compared(at: int, name: str, size: int, count: str, length: str):
    from tmath.latex import read

    values = []
    for text in (count, length):
        reading = read(text)
        if not reading.parsed or reading.relations or len(reading.expressions) != 1:
            return None
        values.append(reading.expressions[0])
    blocks, rows = values
    if not blocks.free_symbols or not rows.free_symbols or \
            not blocks.free_symbols <= rows.free_symbols:
        return None   # a number, or names the length does not use: nothing to hold
    import sympy as sp

    if sp.simplify(size * blocks - rows) == 0:
        return None
    return at, name, size, count, length, str(sp.simplify(rows / size))


def _block_sizes(document: Document) -> dict[str, int]:
    """Each name the document defines, at a generic index, as a square matrix:
    ``M_i = \\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}`` gives M → 2."""
    from tmath.latex.split import MATRIX, rows

    sizes: dict[str, int] = {}
    for math in document.formulas:
        left, _, right = math.latex.partition("=")
        named = _NUMBERED.match(_plain(left))
        matrix = MATRIX.match(right.strip())
        if named is None or matrix is None or not re.fullmatch(r"[a-z]", named.group("index")):
            continue
        shape = [len(row.split("&")) for _, row in rows(matrix.group(2))]
        if len(shape) >= 2 and set(shape) == {len(shape)}:
            sizes.setdefault(named.group("name"), len(shape))
    return sizes


def judged(document: Document, uneven: Uneven) -> Finding:
    section = document.section_at(uneven.start)
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=document.line_of(uneven.start),
        column=document.column_of(uneven.start), formula=f"{uneven.block}_{{{uneven.count}}}",
        compared_with=("shape",),
        detail=f"each block {uneven.block}_i is {uneven.size}×{uneven.size}, so blocks "
               f"{uneven.block}_1 … {uneven.block}_{{{uneven.count}}} cover {uneven.size}·"
               f"{uneven.count} rows, but the vector they multiply has {uneven.length}: the "
               f"last block is {uneven.block}_{{{uneven.should}}}")
