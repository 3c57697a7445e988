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

A sentence that tells one such product and its cost in big-O ("multiplication of the
$d \\times d$ weight matrix and the $d$-dimensional hidden state has a computational complexity
of $\\mathcal{O}(d^2)$") is held to the count of multiplications: a·b for an a×b matrix and a
vector, a·b·c for an a×b and a b×c matrix, up to a constant factor (:func:`costs_told`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

_SIZE = re.compile(r"^\s*(?P<a>[^×]+?)\s*(?:\\times|×)\s*(?P<b>[^×]+?)\s*$")
_MATRIX_AFTER = re.compile(r"\s*(?:[A-Za-z-]+\s+){0,2}?matri(?:x|ces)\b", re.I)
_TIMES = re.compile(r"\b(?:multiplied\s+(?:by|with)|times)\s+(?:an?\s+|the\s+)?$", re.I)
"""What stands right before the second factor of a product told in words."""
_OUTPUT = re.compile(r"\b(?:output|result|product|resulting)\s+(?:is\s+)?(?:an?\s+)?$", re.I)
"""What stands right before the size of a product's output."""


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
            if _TIMES.search(between):
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
    what = "this cost is" if wrong.said.startswith("O(") else "this size gives"
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=wrong.math.line,
        column=document.column_of(wrong.math.start), formula=wrong.math.latex,
        compared_with=("shapes",),
        detail=f"a matrix product in words: {what} {wrong.said}, the product needs "
               f"{wrong.should}")


_VECTOR_AFTER = re.compile(r"\s*-?\s*dimensional\b", re.I)
_COST_WORDS = re.compile(r"\b(?:complexity|cost|costs|multiplications|FLOPs?)\b", re.I)
_PRODUCT_WORDS = re.compile(r"\bmultipl\w*|\bproduct\b", re.I)



def costs_told(document: Document) -> list[Wrong]:
    """Every big-O told for a product of one matrix and a vector, or two matrices, that is
    not the count of its multiplications."""
    import sympy as sp

    from tmath.gate.complexity import _BIG_O
    from tmath.gate.prose_relations import sentences_with_math

    found = []
    for text, start, end, maths in sentences_with_math(document):
        sentence = text[start:end]
        if not _COST_WORDS.search(sentence) or not _PRODUCT_WORDS.search(sentence):
            continue
        big = [m for m in maths if _BIG_O.match(m.latex)]
        matrices = [s for m in maths if _MATRIX_AFTER.match(text, m.end) and _SIZE.match(m.latex)
                    for s in [_sizes(m.latex)] if s is not None]
        vectors = [m for m in maths if _VECTOR_AFTER.match(text, m.end)]
        if len(big) != 1 or not matrices or len(matrices) + len(vectors) != 2:
            continue
        if vectors:
            count = _expression(vectors[0].latex)
            expected = None if count is None or _differ(matrices[0][1], count) else \
                matrices[0][0] * matrices[0][1]
        else:
            (a, b), (b2, c) = matrices
            expected = None if _differ(b, b2) else a * b * c
        cost = _expression(_BIG_O.match(big[0].latex).group("arg"))
        if expected is None or cost is None:
            continue
        try:
            ratio = sp.simplify(cost / expected)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if not ratio.is_number:
            shown = str(expected).replace("**", "^")
            found.append(Wrong(big[0], f"O({str(cost).replace('**', '^')})",
                               f"O({shown}), the number of multiplications it takes"))
    return found


def _expression(latex: str):
    from tmath.latex import read

    reading = read(latex)
    if not reading.parsed or reading.relations or len(reading.expressions) != 1:
        return None
    return reading.expressions[0]
