"""Matrix products told in words, held to the rule of shapes.

The sentences are written for these tests: a product whose inner sizes differ, or whose
output is given another size, contradicts the rule on the size's line; sizes that fit, a
number where a name is expected, and sizes not joined by a product are never judged.
"""

from __future__ import annotations

import pytest

from tmath.gate.document import parse_as
from tmath.gate.products_in_words import judged, products_said

TOLD = ("# Cost\n\nHere a $t \\times w$ matrix is multiplied by a $w \\times t$ matrix,\n"
        "and the output $t \\times t$ matrix is multiplied by a $t \\times w$ matrix.\n")


def _lines(text: str) -> list[int]:
    document = parse_as(".md", text, "t.md")
    return [judged(document, w).line for w in products_said(document)]


def test_products_that_fit_have_no_finding():
    assert _lines(TOLD) == []


@pytest.mark.parametrize("old, new, lines", [
    ("output $t \\times t$", "output $w \\times w$", [4, 4]),   # and then it no longer fits
    ("by a $w \\times t$", "by a $t \\times t$", [3]),
])
def test_a_size_that_does_not_fit_is_found_on_its_line(old, new, lines):
    assert old in TOLD
    assert _lines(TOLD.replace(old, new)) == lines


@pytest.mark.parametrize("sentence", [
    "A $t \\times 64$ matrix is multiplied by a $w \\times t$ matrix.",    # a number: its value
    "We keep a $t \\times w$ matrix and a $t \\times t$ matrix of scores.",   # no product
    "A $t \\times w$ matrix multiplied by its transpose gives a $t \\times t$ matrix.",
])
def test_what_is_not_a_told_product_is_not_judged(sentence):
    assert _lines(f"# T\n\n{sentence}\n") == []


@pytest.mark.parametrize("sentence, lines", [
    ("Multiplication of the $d \\times d$ weight matrix and the $d$-dimensional state has a "
     "complexity of $\\mathcal{O}(d^2)$.", []),
    ("Multiplication of the $d \\times d$ weight matrix and the $d$-dimensional state has a "
     "complexity of $\\mathcal{O}(d)$.", [3]),
    ("The product of an $n \\times d$ matrix and a $d \\times n$ matrix costs $O(n^2 d)$.", []),
    ("The product of an $n \\times d$ matrix and a $d \\times n$ matrix costs $O(n d^2)$.", [3]),
    ("The cost of the whole layer is $O(n d^2)$ for a $d \\times d$ matrix.", []),   # no product
])
def test_the_cost_of_a_product_told_in_words_is_its_multiplications(sentence, lines):
    from tmath.gate.products_in_words import costs_told

    document = parse_as(".md", f"# T\n\n{sentence}\n", "t.md")
    assert [judged(document, w).line for w in costs_told(document)] == lines
