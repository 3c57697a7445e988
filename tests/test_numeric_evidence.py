"""The numeric evidence behind every symbolic step: sums written out term by term must agree
with SymPy's own evaluation, including the empty and reversed ranges of Karr's convention."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from tmath.engine.numeric import SYMPY_TRIES, TRIES, disagreement, unroll

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
    assert disagreement(sp.Sum(i, (i, 1, n)), n * (n + 1) / 2) == (None, TRIES)


# -- the mpmath walk gives the value SymPy's road gives ----------------------------------------

x, y = sp.symbols("x y", real=True)
p = sp.Symbol("p", positive=True)
f = sp.Function("f")
WALKED = [
    sp.exp(-x / p) / sp.Sum(sp.exp(-q[i] / p), (i, 1, 3)),
    sp.log(p) * sp.sqrt(x**2 + 1) - sp.cos(x) * sp.sin(y),
    (x - 3) ** sp.Rational(1, 3),               # a negative base: the principal complex root
    sp.Sum(i**2, (i, 5, 1)) + sp.Product(i, (i, 5, 2)),   # Karr's reversed ranges
    sp.Sum(i * j * q[j], (i, 1, j), (j, 1, n)),
    sp.Sum(sp.KroneckerDelta(i, j) * q[i], (i, 1, 3), (j, 1, 3)),
    sp.Piecewise((x, x > 0), (-x, True)) + sp.Abs(y) + sp.Max(x, y) - sp.floor(p),
    f(x, n) * f(x, n) - f(n, x) + sp.tanh(x) * sp.pi,
    sp.atan(x) / (1 + sp.erf(y)) + sp.E ** x,
]


@pytest.mark.parametrize("expr", WALKED)
def test_the_mpmath_walk_agrees_with_sympys_evaluation(expr):
    from tmath.engine import numeric
    from tmath.engine.point_values import Walker

    for seed in range(5):
        point = next(numeric.points([expr], seed, 1))
        opaque = numeric._Opaque(random.Random(seed))  # shared: the same atom, the same value
        walked = complex(Walker(point, opaque).value(expr))
        by_sympy = numeric._evaluated_by_sympy(expr, point, opaque)
        assert by_sympy is not None
        assert abs(walked - by_sympy) <= 1e-14 * max(1.0, abs(by_sympy)), (expr, point)


def test_derivatives_are_taken_numerically():
    """SymPy's road cannot evaluate an unevaluated derivative at a point (it substitutes into
    the variable), so differentiation steps had no numeric evidence; mpmath differentiates."""
    assert disagreement(sp.Derivative(x**3 * sp.exp(p * x), x, 2),
                        sp.diff(x**3 * sp.exp(p * x), x, 2)) == (None, TRIES)
    assert disagreement(sp.Derivative(x**3, x), 3 * x**2 + x)[0]
    assert disagreement(sp.Derivative(x * y**2, x, y), 2 * y) == (None, TRIES)


def test_what_the_walk_does_not_know_goes_to_sympy():
    from tmath.engine import numeric
    from tmath.engine.point_values import Unsupported, Walker

    expr = sp.Integral(x, (x, 0, p))
    with pytest.raises(Unsupported):
        Walker({p: sp.Rational(1, 2)}, numeric._Opaque(random.Random(0))).value(expr)
    assert disagreement(expr, p**2 / 2) == (None, SYMPY_TRIES)  # SymPy's road: its points only
    assert disagreement(expr, p**2 / 3)[0]


def test_undefined_functions_get_numeric_evidence():
    """The deliberately broken case: SymPy's road used to fail on every expression holding
    an undefined function (its class has no module), so such steps had no numeric point at
    all. A wrong step of that kind is now caught by the numbers alone."""
    d_k = sp.Function("d_k")
    h = sp.Symbol("h", positive=True, integer=True)
    right = (sp.Sum(3 * d_k(x, h), (i, 1, h)), 3 * h * d_k(x, h))
    assert disagreement(*right) == (None, TRIES)
    found, checked = disagreement(right[0], 3 * (h + 1) * d_k(x, h))
    assert found and checked >= 1


def test_derivatives_in_an_entry_move_every_copy_of_it():
    """∂/∂q[j] of Σ_i q[i]² is 2·q[j]: the entry is moved wherever its indices match."""
    expr = sp.Derivative(sp.Sum(q[i] ** 2, (i, 1, 3)), q[j])
    inside = sp.Piecewise((1, (j >= 1) & (j <= 3)), (0, True))
    assert disagreement(expr, 2 * q[j] * inside) == (None, TRIES)
    # j ≤ 0 is an edge the points reach now: forgetting the lower end of the range is caught
    assert disagreement(expr, 2 * q[j] * sp.Piecewise((1, j <= 3), (0, True)))[0]
    assert disagreement(expr, q[j])[0]


def test_the_point_is_held_at_the_walks_precision():
    """The deliberately broken case: a point rounded to double precision turns an exact zero
    times 10³⁰ into about 10¹³. The walk converts the point at 50 digits, like every node."""
    from tmath.engine import numeric
    from tmath.engine.point_values import Walker

    expr = sp.Integer(10) ** 30 * (x - sp.Rational(7, 13))
    value = complex(Walker({x: sp.Rational(7, 13)}, numeric._Opaque(random.Random(0))).value(expr))
    assert abs(value) < 1e-10


def test_a_derivative_of_an_expectation_is_not_taken_numerically():
    """E(x·y) is an opaque value at the point; moving x would not move it, so its derivative
    in x is not evaluated (a constant would claim ∂E/∂x = 0)."""
    from tmath.engine import numeric
    from tmath.engine.moments import E
    from tmath.engine.point_values import Unsupported, Walker

    walker = Walker({x: sp.Rational(1, 3), y: sp.Rational(2, 5)}, numeric._Opaque(random.Random(0)))
    with pytest.raises(Unsupported):
        walker.value(sp.Derivative(E(x * y), x))
    assert walker.value(E(x * y)) == walker.value(E(x * y))  # the same atom, the same value


def test_expectations_of_numbers_get_numeric_points():
    """The deliberately broken step: 2·E[x] = 3·E[x]. SymPy, asked whether E(25/13) is
    positive, evaluated the function by its name (mpmath's constant e) and raised, so every
    point was unusable and the step had no numeric evidence; now the numbers refute it."""
    from tmath.engine.moments import E

    assert disagreement(2 * E(x), E(x) + E(x)) == (None, TRIES)
    found, checked = disagreement(2 * E(x), 3 * E(x))
    assert found and checked >= 1
