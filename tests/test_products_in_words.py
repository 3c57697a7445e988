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
])
def test_what_is_not_a_told_product_is_not_judged(sentence):
    assert _lines(f"# T\n\n{sentence}\n") == []
