"""Matrix products told in words, held to the rule of shapes.

"An $n \\times d$ matrix is multiplied by a $d \\times n$ matrix, then the output $n \\times n$
matrix is multiplied by an $n \\times d$ matrix": a sentence that names matrices by their
sizes (``$a \\times b$`` followed by "matrix" or "matrices") says two things a reader can
check without any claim. Two sizes joined by "multiplied by" (or "times") are a product: the
columns of the first must be the rows of the second. A size called the output (result,
product) of the product before it must be the first's rows by the second's columns. Sizes are
compared as the shapes check does (:mod:`tmath.gate.shapes`): two different expressions of
names disagree, a number never disagrees with a name. A disagreement contradicts the rule,
on the line of the second size (or of the output).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

_SIZE = re.compile(r"^\s*(?P<a>[^×]+?)\s*(?:\\times|×)\s*(?P<b>[^×]+?)\s*$")
_MATRIX_AFTER = re.compile(r"\s*matri(?:x|ces)\b", re.I)
_TIMES = re.compile(r"\b(?:multiplied\s+(?:by|with)|times)\b", re.I)
_OUTPUT = re.compile(r"\b(?:output|result|product|resulting)\b", re.I)


@dataclass(frozen=True)
class Wrong:
    """A product told in words whose sizes do not fit."""

    math: Math
    said: str
    should: str


def products_said(document: Document) -> list[Wrong]:
    """Every size in a sentence that does not fit the product it is part of."""
    from tmath.gate.prose_relations import sentences_with_math

    found = []
    for text, start, end, maths in sentences_with_math(document):
        sizes = [(m, _sizes(m.latex)) for m in maths
                 if _MATRIX_AFTER.match(text, m.end) and _SIZE.match(m.latex)]
        sizes = [(m, s) for m, s in sizes if s is not None]
        product = None   # (rows, cols) of the last product told
        for (left, a), (right, b) in zip(sizes, sizes[1:]):
            between = text[left.end:right.start]
            if _TIMES.search(between) and not _OUTPUT.search(between):
                if _differ(a[1], b[0]):
                    found.append(Wrong(right, f"{b[0]} rows", f"{a[1]} rows, the columns of the "
                                                              f"{a[0]}×{a[1]} matrix before it"))
                product = (a[0], b[1])
            elif product is not None and _OUTPUT.search(between):
                if _differ(b[0], product[0]) or _differ(b[1], product[1]):
                    found.append(Wrong(right, f"{b[0]}×{b[1]}",
                                       f"{product[0]}×{product[1]}, the rows of the first "
                                       f"factor by the columns of the second"))
                product = None
    return found


def _sizes(latex: str):
    from tmath.latex import read

    match = _SIZE.match(latex)
    found = []
    for side in (match.group("a"), match.group("b")):
        reading = read(side)
        if not reading.parsed or reading.relations or len(reading.expressions) != 1:
            return None
        found.append(reading.expressions[0])
    return tuple(found)


def _differ(a, b) -> bool:
    """Two sizes the document keeps apart: different, and neither a number."""
    import sympy as sp

    if getattr(a, "is_Number", False) or getattr(b, "is_Number", False):
        return False
    try:
        return sp.simplify(a - b) != 0
    except (TypeError, ValueError, AttributeError):
        return False


def judged(document: Document, wrong: Wrong) -> Finding:
    section = document.section_at(wrong.math.start)
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=wrong.math.line,
        column=document.column_of(wrong.math.start), formula=wrong.math.latex,
        compared_with=("shapes",),
        detail=f"a matrix product in words: this size gives {wrong.said}, the product needs "
               f"{wrong.should}")
