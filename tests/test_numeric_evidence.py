"""The numeric evidence behind every symbolic step: sums written out term by term must agree
with SymPy's own evaluation, including the empty and reversed ranges of Karr's convention."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from tmath.engine.numeric import disagreement, unroll

i, j, n = sp.symbols("i j n", integer=True)
q = sp.IndexedBase("q")


@pytest.mark.parametrize("expr", [
    sp.Sum(i * q[i], (i, 1, 4)),
    sp.Sum(i, (i, 3, 2)),                      # empty: 0
    sp.Sum(i**2, (i, 5, 1)),                   # reversed: −Σ_{2}^{4}
    sp.Product(i + 1, (i, 1, 3)),
    sp.Product(i, (i, 5, 2)),                  # reversed product: 1/Π_{3}^{4}
    sp.Sum(i * j, (i, 1, j), (j, 1, 3)),       # an inner bound that depends on the outer index
    sp.Sum(i * j, (i, j, 4), (j, 0, 3)),
    sp.Sum(sp.exp(q[i]), (i, 1, 3)) * sp.Sum(j, (j, 2, 4)),
    sp.Sum(sp.KroneckerDelta(i, j) * q[i], (i, 1, 3), (j, 1, 3)),
])
def test_written_out_sums_equal_sympys_evaluation(expr):
    assert sp.simplify(unroll(expr).doit() - expr.doit()) == 0


def test_random_nested_sums_agree_with_doit():
    rng = random.Random(0)
    for _ in range(40):
        a, b, c, d = (rng.randint(-2, 4) for _ in range(4))
        expr = sp.Sum(i**2 + i * j - 3 * j, (i, a, j + b), (j, c, d))
        assert sp.simplify(unroll(expr) - expr.doit()) == 0, expr


def test_symbolic_bounds_are_left_to_sympy():
    assert unroll(sp.Sum(i, (i, 1, n))) == sp.Sum(i, (i, 1, n))


def test_a_wrong_closed_form_of_a_sum_is_caught_numerically():
    """The deliberately broken case: a closed form off by one term."""
    found, checked = disagreement(sp.Sum(i, (i, 1, n)), n * (n - 1) / 2)
    assert found and checked >= 1
    assert disagreement(sp.Sum(i, (i, 1, n)), n * (n + 1) / 2) == (None, 3)
