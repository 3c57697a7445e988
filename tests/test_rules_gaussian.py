"""rules_gaussian: expectations of exponentials of independent standard normal entries, and
the deliberately wrong applications the rules refuse."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from tmath import Statement
from tmath.engine.moments import E
from tmath.engine.proof import Derivation
from tmath.engine.rules import SideConditionFailed
from tmath.engine.rules_gaussian import PRODUCT_OF_EXPS, StandardNormal, normal_mgf

d, r = sp.symbols("d r", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
w, x, y = sp.IndexedBase("w"), sp.IndexedBase("x", real=True), sp.IndexedBase("y", real=True)
LAW = "the entries of w are independent N(0, 1)"
GAUSS = StandardNormal((w,), law=LAW)
PROJECTION = sp.Sum(w[r, i] * x[i], (i, 1, d))


def _chain(start):
    return Derivation(statement=Statement("s", start, start), value=start,
                      premises=(LAW,)).chain(start, "start")


def test_the_mgf_is_sympys_normal_mgf():
    t = sp.Symbol("t", real=True)
    assert sp.simplify(normal_mgf()(t) - sp.exp(t**2 / 2)) == 0


def test_two_projections_of_one_gaussian_vector():
    """E[e^{w_rᵀx}·e^{w_rᵀy}] = e^{|x+y|²/2}, the step behind Performer's estimate."""
    mean = E(sp.exp(PROJECTION) * sp.exp(sp.Sum(w[r, i] * y[i], (i, 1, d))))
    chain = (_chain(mean).apply(GAUSS.independence).apply(GAUSS.mgf).apply(PRODUCT_OF_EXPS))
    assert chain.value == sp.exp(sp.Sum((x[i] + y[i]) ** 2 / 2, (i, 1, d)))
    assert chain.kinds == ["rule", "rule", "rule"]


def test_the_result_matches_a_monte_carlo_estimate():
    rng = np.random.default_rng(7)
    xs, ys = rng.normal(0, 0.3, 3), rng.normal(0, 0.3, 3)
    draws = rng.standard_normal((400_000, 3))
    estimate = np.mean(np.exp(draws @ xs) * np.exp(draws @ ys))
    rule = E(sp.exp(PROJECTION) * sp.exp(sp.Sum(w[r, i] * y[i], (i, 1, d))))
    for step in (GAUSS.independence, GAUSS.mgf, PRODUCT_OF_EXPS):
        rule = step.apply(rule)
    values = {**{x[k + 1]: xs[k] for k in range(3)}, **{y[k + 1]: ys[k] for k in range(3)}, d: 3}
    exact = float(rule.xreplace({d: 3}).doit().xreplace(values))
    assert estimate == pytest.approx(exact, rel=0.01)


def test_a_shared_entry_is_not_independent_across_the_sum():
    """Σ_i w_r·x_i uses one entry for every i: the factors are not independent."""
    with pytest.raises(SideConditionFailed, match="same entry"):
        GAUSS.independence.apply(E(sp.exp(sp.Sum(w[r] * x[i], (i, 1, d)))))


def test_a_nonlinear_exponent_has_no_normal_mgf():
    with pytest.raises(SideConditionFailed, match="not linear"):
        GAUSS.mgf.apply(E(sp.exp(w[r, i] ** 2)))


def test_two_entries_in_one_term_are_refused():
    with pytest.raises(SideConditionFailed, match="not exactly one"):
        GAUSS.independence.apply(E(sp.exp(sp.Sum(w[r, i] * w[r + 1, i], (i, 1, d)))))


def test_sums_over_different_ranges_are_refused():
    two = sp.exp(PROJECTION) * sp.exp(sp.Sum(w[r, i] * y[i], (i, 1, d + 1)))
    with pytest.raises(SideConditionFailed, match="different ranges"):
        GAUSS.independence.apply(E(two))


def test_entries_not_declared_gaussian_are_left_alone():
    u = sp.IndexedBase("u")
    other = E(sp.exp(sp.Sum(u[r, i] * x[i], (i, 1, d))))
    assert GAUSS.independence.apply(other) == other
    assert GAUSS.mgf.apply(E(sp.exp(u[r, i]))) == E(sp.exp(u[r, i]))


def test_a_wrong_product_rewrite_is_caught_by_the_numbers():
    """PRODUCT_OF_EXPS is validated on random instances: a rewrite that drops a factor fails."""
    before = sp.Product(sp.exp(x[i]), (i, 1, d))
    assert PRODUCT_OF_EXPS.validate(before, PRODUCT_OF_EXPS.apply(before)) is None
    assert PRODUCT_OF_EXPS.validate(before, sp.exp(sp.Sum(x[i], (i, 1, d)) / 2)) is not None
