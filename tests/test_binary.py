"""Whole numbers printed with their binary representation, held to it.

The documents are written for these tests: a position spelt in binary in a sentence, and a
table of counts whose bits are set one by one in colour. A flipped bit is found on its line;
numbers that only look like bits (a year, a ratio, a decimal) are never judged.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, strategies as st

from tmath.gate.binary import judged, pairs_in
from tmath.gate.document import parse_as

COUNTS = textwrap.dedent(r"""
    # Counting in bits

    Position 37, written in binary, is (100101), one bit per component.

    $$
    \begin{align}
      4: \ \ \color{orange}{\texttt{1}} \ \ \color{green}{\texttt{0}} \ \ \color{blue}{\texttt{0}} & &
      6: \ \ \color{orange}{\texttt{1}} \ \ \color{green}{\texttt{1}} \ \ \color{blue}{\texttt{0}} \\
      5: 101 & & 7: 111
    \end{align}
    $$

    Since 2017, binary masks come in 10 sizes; the ratio is 3:1 and the rate 2: 0.1.
    """).lstrip()


def _found(text: str) -> list[tuple[int, str, str]]:
    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.status, f.printed) for f in map(lambda p: judged(document, p),
                                                       pairs_in(document))]


def test_numbers_and_their_bits_agree():
    assert sorted(_found(COUNTS)) == [(3, "accurate", "100101"), (7, "accurate", "100"),
                                      (8, "accurate", "110"), (9, "accurate", "101"),
                                      (9, "accurate", "111")]


def test_a_flipped_bit_is_found_on_its_line():
    broken = COUNTS.replace(r"\color{green}{\texttt{1}} \ \ \color{blue}{\texttt{0}} \\",
                            r"\color{green}{\texttt{1}} \ \ \color{blue}{\texttt{1}} \\")
    assert broken != COUNTS
    assert [f for f in _found(broken) if f[1] == "inaccurate"] == [(8, "inaccurate", "111")]
    prose = COUNTS.replace("(100101)", "(100111)")
    assert [f for f in _found(prose) if f[1] == "inaccurate"] == [(3, "inaccurate", "100111")]


@given(st.integers(min_value=4, max_value=10**6))
def test_any_number_with_its_own_bits_is_accurate(n):
    text = f"# Bits\n\nIn binary, {n} is {n:b}.\n"
    assert _found(text) == [(3, "accurate", f"{n:b}")]


BITS = textwrap.dedent("""
    # Bits as clocks

    Counting up, the lowest bit, the second-lowest bit and the 3rd-lowest bit flip on every
    number, every two numbers and every four numbers, respectively.

    The LSB alternates on every token, and the second-lowest bit on every other token; the
    fourth-lowest bit turns every 8 positions.
    """).lstrip()


def _periods(text: str) -> list[tuple[int, str, str]]:
    from tmath.gate.binary import period_judged, periods_in

    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.status, f.printed) for f in map(lambda p: period_judged(document, p),
                                                       periods_in(document))]


def test_how_often_each_bit_flips_is_held_to_its_place():
    assert _periods(BITS) == [(3, "accurate", "every number"), (4, "accurate", "every two numbers"),
                              (4, "accurate", "every four numbers"), (6, "accurate", "every token"),
                              (6, "accurate", "every other token"),
                              (7, "accurate", "every 8 positions")]
    broken = BITS.replace("every four numbers", "every three numbers")
    assert [f for f in _periods(broken) if f[1] == "inaccurate"] == [
        (4, "inaccurate", "every three numbers")]
    unpaired = BITS.replace(", respectively", "")   # each bit with the first period after it
    assert {f[1] for f in _periods(unpaired)} == {"accurate"}
    assert len(_periods(unpaired)) == 6


def test_numbers_that_are_not_a_binary_representation_are_not_read():
    """'binary cross-entropy' is not a number in binary, and one 'N: bits' alone may be a
    ratio."""
    text = ("# Loss\n\nThe binary cross-entropy fell from 1000 to 10.\n\n"
            "The classes were mixed $1:100$ in the data.\n")
    assert _found(text) == []


def test_a_row_ends_where_the_next_rows_label_starts():
    """'2: 0010 & & 10: 1010' is two rows: the next label's digits are not bits of this one."""
    text = ("# Bits\n\n$$\n\\begin{align}\n"
            "2: \\texttt{0}\\texttt{0}\\texttt{1}\\texttt{0} & & 10: \\texttt{1}\\texttt{0}"
            "\\texttt{1}\\texttt{0} \\\\\n3: 0011 & & 11: 1011\n\\end{align}\n$$\n")
    assert sorted(_found(text)) == [(5, "accurate", "0010"), (5, "accurate", "1010"),
                                    (6, "accurate", "0011"), (6, "accurate", "1011")]


@pytest.mark.parametrize("sentence, status", [
    ("When counting, a higher bit has a lower frequency than a lower bit.", "accurate"),
    ("When counting, a higher bit has a higher frequency than a lower bit.", "inaccurate"),
    ("When counting, a lower bit has a lower frequency than a higher bit.", "inaccurate"),
    ("When counting, the less significant bit flips with a higher frequency than the more "
     "significant bit.", "accurate"),
])
def test_two_bits_compared_by_how_often_they_flip(sentence, status):
    from tmath.gate.binary import bit_order_judged, bit_orders_in

    document = parse_as(".md", f"# Bits\n\n{sentence}\n", "doc.md")
    assert [bit_order_judged(document, s).status for s in bit_orders_in(document)] == [status]
