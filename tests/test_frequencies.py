"""The frequency of a sinusoid filling a pair of encoding dimensions, held to the claim.

The documents are written for these tests: an encoding of a position and a time step joined
with ⊕, by cases on the dimension, and a renamed encoding with the dimension in its left side.
An exponent that is not 2k/d for the pair k is found on its row; others are not judged.
"""

from __future__ import annotations

import textwrap

import pytest

from tmath.gate.document import parse_as
from tmath.gate.frequencies import judged, wrong_frequencies

JOINED = textwrap.dedent(r"""
    # Two clocks

    Each dimension mixes a position signal with a step signal:

    $$
    T(p, s, c) =
    \begin{cases}
    \sin(p / 10000^{2c'/D}) \oplus \sin(s / 10000^{2c'/D}) & \text{if } c = 2c' \\
    \cos(p / 10000^{2c'/D}) \oplus \cos(s / 10000^{2c'/D}) & \text{if } c = 2c' + 1
    \end{cases}
    $$

    A plainer one: $g(t, 2m) = \sin(t \cdot 500^{-2m/n})$.
    """).lstrip()


def _found(text: str) -> list[tuple[int, str]]:
    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.detail) for f in map(lambda w: judged(document, w),
                                            wrong_frequencies(document))]


def test_exponents_of_2k_over_a_width_are_not_reported():
    assert _found(JOINED) == []


@pytest.mark.parametrize("old, new, line", [
    (r"\cos(p / 10000^{2c'/D}) \oplus", r"\cos(p / 10000^{c'/D}) \oplus", 9),   # 2k → k
    (r"\sin(s / 10000^{2c'/D}) & \text{if } c = 2c' \\", r"\sin(s / 10000^{4c'/D}) & "
     r"\text{if } c = 2c' \\", 8),                                              # 2k → 4k
    (r"500^{-2m/n}", r"500^{-m/n}", 13),                                       # in its left side
])
def test_another_factor_of_the_pair_index_is_found_on_its_row(old, new, line):
    assert old in JOINED
    found = _found(JOINED.replace(old, new))
    assert [at for at, _ in found] == [line]
    assert "sinusoidal-frequency-period" in found[0][1]


@pytest.mark.parametrize("formula", [
    r"$h(t, i) = \sin(t / 10000^{i/d})$",             # the dimension not given as 2k
    r"$h(t, 2i+1) = \cos(t / 10000^{(2i+1)/d})$",     # k not a plain factor: not read
    r"$h(t, 2i) = \sin(t / 10^{i/d})$",               # a base below 100
    r"$x_{2i} = \sin(3 i)$",                          # no power of a base
])
def test_what_does_not_name_a_pair_and_its_rate_is_not_judged(formula):
    assert _found(f"# T\n\n{formula}\n") == []


@pytest.mark.parametrize("old, new, line", [
    (r"\sin(p / 10000^{2c'/D}) \oplus \sin(s", r"\cos(p / 10000^{2c'/D}) \oplus \sin(s", 8),
    (r"\cos(s / 10000^{2c'/D}) & \text{if } c = 2c' + 1", r"\sin(s / 10000^{2c'/D}) & "
     r"\text{if } c = 2c' + 1", 9),
])
def test_a_cosine_in_an_even_row_or_a_sine_in_an_odd_one_is_found(old, new, line):
    assert old in JOINED
    found = _found(JOINED.replace(old, new))
    assert [at for at, _ in found] == [line]
    assert "this row should be" in found[0][1]


@pytest.mark.parametrize("exponent, wrong", [
    (r"\frac{4m}{2n}", False),            # 2m/n, once the fraction is cancelled
    (r"\frac{2m}{2n}", True),             # m/n
    (r"\frac{2m \cdot n}{n^2}", False),   # 2m/n
    (r"\frac{6m}{2n}", True),             # 3m/n
])
def test_the_exponent_is_judged_once_its_fraction_is_cancelled(exponent, wrong):
    found = _found(f"$g(t, 2m) = \\sin(t \\cdot 500^{{-{exponent}}})$\n")
    assert bool(found) is wrong
