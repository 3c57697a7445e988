"""Reading printed figures and comparing them at the precision printed."""

from __future__ import annotations

import math

import pytest

from tmath.engine.figures import FigureSyntaxError, compare, parse_number, parse_printed
from tmath.engine.model import Figure


@pytest.mark.parametrize("text, value, half", [
    ("8", 8, 0.5), ("≈ 22.6", 22.6, 0.05), ("0.30", 0.30, 0.005), ("61400", 61400, 50),
    ("61,400", 61400, 50), ("628", 628, 0.5), ("26万", 260000, 5000), ("1600万", 1.6e7, 5e5),
    ("10亿", 1e9, 5e8), ("≈0.00", 0.0, 0.005), ("92%", 92, 0.5), ("26 万", 260000, 5000),
])
def test_parse_number(text, value, half):
    printed = parse_number(text)
    assert printed.value == pytest.approx(value)
    assert printed.half_unit == pytest.approx(half)


def test_fraction_tolerance_propagates_from_the_denominator():
    printed = parse_number("1/9770")
    assert printed.value == pytest.approx(1 / 9770)
    assert printed.half_unit == pytest.approx(5 / 9770**2, rel=1e-9)


def test_lists():
    assert [p.value for p in parse_printed("[0.49, 0.30, 0.22]")] == [0.49, 0.30, 0.22]
    assert [p.value for p in parse_printed("[≈1.00, ≈0.00, ≈0.00]")] == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("bad", ["abc", "1..2", "", "exp(3)"])
def test_unreadable(bad):
    with pytest.raises(FigureSyntaxError):
        parse_printed(bad)


def test_compare_accurate_and_inaccurate():
    assert compare(Figure("√512", "≈ 22.6", lambda: math.sqrt(512))).status == "accurate"
    wrong = compare(Figure("4096²", "1600万", lambda: 4096**2))
    assert wrong.status == "inaccurate" and wrong.true_value == (16777216.0,)
    assert compare(Figure("list", "[0.5, 0.5]", lambda: [0.5])).status == "inaccurate"


def test_rough_figures_use_the_declared_tolerance():
    fig = Figure("rough", "1600万", lambda: 4096**2, rough="the notes round loosely", rel_tol=0.05)
    assert compare(fig).status == "accurate"


def test_a_broken_computation_is_an_error_not_a_pass():
    assert compare(Figure("boom", "1", lambda: 1 / 0)).status == "error"


def test_a_small_integer_printed_plainly_is_a_count_exact_to_the_unit():
    """BERT-base has 12 heads: "10 heads" is wrong, though 10 ± 5 would contain 12."""
    from tmath.engine.figures import parse_number

    assert parse_number("10").half_unit == 0.5 and parse_number("1,000").half_unit == 0.5
    assert parse_number("≈ 10").half_unit == 5          # a rough mark: trailing zero loose
    assert parse_number("61400").half_unit == 50        # a large integer: as before
    assert parse_number("10%").half_unit == 0.5 and parse_number("1.0").half_unit == 0.05


# -- the true value beside a printed one ---------------------------------------------------------

@pytest.mark.parametrize("printed, shown", [
    ("≈ 1000.693", "1000.693"),        # 7 digits printed: 7 shown (6 is the floor)
    ("≈ 1000.3012", "1000.6931"),
    ("0.25", "1000.69"),               # fewer digits printed: the usual 6
    (None, "1000.69"),
])
def test_the_true_value_shows_at_least_the_digits_printed(printed, shown):
    from tmath.engine.figures import show_values

    assert show_values((1000 + math.log(2),), printed) == shown


def test_a_figure_row_does_not_round_the_true_value_below_the_printed_digits():
    """The trial read "printed 1000.693, true 1000.69" as a mismatch at first glance."""
    from tmath.gate.findings import Finding
    from tmath.render.gate import describe

    finding = Finding("figure", "inaccurate", "notes.md", "1.3", 47, label="log-sum-exp",
                      printed="1000.301", expected=(1000 + math.log(2),), relative_error=4e-4)
    assert "printed 1000.301, true 1000.693," in describe(finding)
