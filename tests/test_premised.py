"""A dot product's variance, held to the component variance its passage states.

The passages are written for these tests. Components of variance 1 give variance d; of
variance σ², dσ⁴; a passage whose premise and conclusion do not fit is reported on both lines.
"""

from __future__ import annotations

import pytest

from tmath.gate.document import parse_as
from tmath.gate.premised import judged, unfit_passages

PASSAGE = """# Why scale

Take the components of $u$ and $w$ to be independent, with mean $0$ and variance $1$.
Their dot product, $u \\cdot w = \\sum_{j=1}^{m} u_j w_j$, then has mean $0$ and variance $m$.
"""


def _lines(text: str) -> list[int]:
    document = parse_as(".md", text, "t.md")
    return [f.line for unfit in unfit_passages(document) for f in judged(document, unfit)]


def test_a_passage_whose_premise_gives_its_conclusion_is_not_reported():
    assert _lines(PASSAGE) == []
    assert _lines(PASSAGE.replace("variance $1$", "variance $\\sigma^2$")
                  .replace("variance $m$", "variance $m \\sigma^4$")) == []


@pytest.mark.parametrize("old, new", [
    ("variance $1$", "variance $m$"),                 # the premise changed
    ("variance $m$.", "variance $m^2$."),             # the conclusion changed
    ("variance $1$", "variance $2$"),                 # a number: 4m, not m
])
def test_a_premise_and_a_conclusion_that_do_not_fit_are_both_reported(old, new):
    assert old in PASSAGE
    assert _lines(PASSAGE.replace(old, new)) == [3, 4]


def test_a_conclusion_with_no_premise_for_both_vectors_is_not_judged():
    alone = PASSAGE.replace("the components of $u$ and $w$", "the components of $u$")
    assert _lines(alone.replace("variance $1$", "variance $m$")) == []
    far = PASSAGE.replace("\nTheir dot", "\n\nTheir dot")   # another paragraph
    assert _lines(far.replace("variance $1$", "variance $m$")) == []


def test_an_infinite_or_undefined_variance_is_not_judged():
    assert _lines(PASSAGE.replace("variance $1$", "variance $\\infty$")) == []
    assert _lines(PASSAGE.replace("variance $m$.", "variance $1/0$.")) == []
