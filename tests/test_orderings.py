"""The order of a sinusoidal encoding's frequencies, said in words.

The sentences are written for these tests: earlier columns change faster (the frequency
1/10000^{2i/d} falls with i), so a sentence that says otherwise contradicts the claim, and
one that says nothing about numbered columns is never read.
"""

from __future__ import annotations

import pytest

from tmath.gate.document import parse_as
from tmath.gate.orderings import comparisons_said, judged


def _judged(sentence: str) -> list[str | None]:
    document = parse_as(".md", f"# Encoding\n\n{sentence}\n", "t.md")
    return [getattr(judged(document, said), "status", None) for said in comparisons_said(document)]


@pytest.mark.parametrize("sentence, status", [
    ("In the plot, the 2nd column has a higher frequency than the 10th column.", "recognised"),
    ("In the plot, the 2nd column has a lower frequency than the 10th column.", "contradicts"),
    ("Column 12 has a longer wavelength than column 4.", "recognised"),
    ("Column 12 has a shorter wavelength than column 4.", "contradicts"),
    ("The $6^{\\textrm{th}}$ and $7^{\\textrm{th}}$ columns have a lower frequency than the "
     "$8^{\\textrm{th}}$ and $9^{\\textrm{th}}$ columns.", "contradicts"),
    # true counted from 0, where columns 6, 7 share a frequency; not sure counted from 1
    ("The 6th and 7th columns have a higher frequency than the 8th and 9th columns.", None),
])
def test_a_comparison_of_numbered_columns_is_held_to_the_claim(sentence, status):
    assert _judged(sentence) == [status]


@pytest.mark.parametrize("sentence", [
    "A higher bit has a lower frequency than a lower bit.",            # no columns numbered
    "The 3rd layer runs at a lower frequency than the 5th.",           # no columns
    "Columns 2 and 4 are plotted; the frequency is high.",             # no comparison
])
def test_what_compares_no_numbered_columns_is_not_read(sentence):
    assert _judged(sentence) == []


def _trends(sentence: str) -> list[str]:
    from tmath.gate.orderings import trend_judged, trends_said

    document = parse_as(".md", f"# Encoding\n\n{sentence}\n", "t.md")
    return [trend_judged(document, said).status for said in trends_said(document)]


@pytest.mark.parametrize("sentence, status", [
    ("The encoding lowers its pace: it decreases frequencies along the encoding dimension.",
     "recognised"),
    ("The encoding increases frequencies along the encoding dimension.", "contradicts"),
    ("Wavelengths grow across the dimensions, from 2π upwards.", "recognised"),
    ("Wavelengths shrink across the dimensions.", "contradicts"),
    ("The frequencies $\\omega_i$ form a geometric progression that decreases with dimension "
     "index $i$.", "recognised"),
    ("The frequencies $\\omega_i$ form a geometric progression that increases with dimension "
     "index $i$.", "contradicts"),
    ("Each position gets a vector drawn from sinusoids of slowly decreasing frequencies.",
     "recognised"),
    ("Each position gets a vector drawn from sinusoidal functions of increasing frequencies.",
     "contradicts"),
    ("Each position gets a vector drawn from sinusoids of growing wavelengths.", "recognised"),
    ("Its entries come from $\\sin$ and $\\cos$ with gradually increasing wavelengths.",
     "recognised"),
    ("Its entries come from $\\sin$ and $\\cos$ with gradually decreasing wavelengths.",
     "contradicts"),
])
def test_the_direction_of_the_frequency_along_the_dimension_is_held_to_the_claim(sentence,
                                                                                  status):
    assert _trends(sentence) == [status]


@pytest.mark.parametrize("sentence", [
    "The frequency does not increase along the dimension.",          # a negation
    "The frequency falls as the position grows along the dimension.",  # two directions
    "The error rate decreases along the dimension.",                 # no frequency
    "The frequency decreases over time.",                            # not the dimension
    "These are not sinusoids of increasing frequencies.",            # a negation
    "Its entries come from $a$ and $b$ with increasing wavelengths.",  # not a sine and cosine
])
def test_what_is_not_a_plain_trend_along_the_dimension_is_not_read(sentence):
    assert _trends(sentence) == []


@pytest.mark.parametrize("sentence, status", [
    ("The wavelengths form a geometric progression from $2\\pi$ to $10000 \\cdot 2\\pi$.",
     "recognised"),
    ("The wavelengths form an arithmetic progression from $2\\pi$ to $10000 \\cdot 2\\pi$.",
     "contradicts"),
    ("Its frequencies make a linear sequence over the dimensions.", "contradicts"),
])
def test_the_kind_of_progression_of_the_wavelengths_is_held_to_the_claim(sentence, status):
    from tmath.gate.orderings import progression_judged, progressions_said

    document = parse_as(".md", f"# Encoding\n\n{sentence}\n", "t.md")
    assert [progression_judged(document, s).status for s in progressions_said(document)] == \
        [status]


@pytest.mark.parametrize("sentence", [
    "The wavelengths do not form an arithmetic progression.",        # negated
    "The learning rate follows an arithmetic progression.",          # no wavelength
    "Periods and frequencies both form a geometric progression.",    # two quantities
])
def test_what_names_no_progression_of_the_wavelengths_is_not_read(sentence):
    from tmath.gate.orderings import progressions_said

    assert progressions_said(parse_as(".md", f"# E\n\n{sentence}\n", "t.md")) == []
