"""Reference helpers of §12–13: evaluating indexed values on arrays, Gibbs' chain, bound
near-misses, the label-smoothing minimiser; each with a false input it must reject."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from tmath import Premise, Statement
from tmath.engine.proof import Derivation, ProofFailure
from tmath.reference.bounds import stronger_near_misses
from tmath.reference.information import (divergence_bound, evaluate_indexed, kl_divergence,
                                         random_simplex)
from tmath.reference.smoothing import numeric_gap

x, n, j = sp.symbols("x n j", positive=True, integer=True)
p, q = sp.IndexedBase("p", positive=True), sp.IndexedBase("q", positive=True)
SUMS = Premise("p, q sum to 1", {sp.Sum(p[x], (x, 1, n)): 1, sp.Sum(q[x], (x, 1, n)): 1})
KL = sp.Sum(p[x] * sp.log(p[x] / q[x]), (x, 1, n))


def test_evaluate_indexed_sums_and_entries():
    rng = np.random.default_rng(1)
    P, Q = random_simplex(rng, 7, 5), random_simplex(rng, 7, 5)
    stated = sp.Sum(-p[x] * sp.log(q[x]), (x, 1, n)) - sp.Sum(-p[x] * sp.log(p[x]), (x, 1, n))
    assert np.allclose(evaluate_indexed(stated, {p: P, q: Q}, {n: 5}), kl_divergence(P, Q))
    assert np.array_equal(evaluate_indexed(p[j], {p: P}, index=j), P)
    eps = sp.Symbol("epsilon")
    assert np.allclose(evaluate_indexed(eps * p[j], {p: P}, {eps: np.arange(7.0)}, index=j),
                       np.arange(7.0)[:, None] * P)


def test_evaluate_indexed_gives_nan_for_a_value_that_does_not_evaluate():
    P = random_simplex(np.random.default_rng(2), 3, 4)
    shifted = evaluate_indexed(p[j + 1], {p: P}, index=j)
    assert np.isnan(shifted[:, -1]).all() and np.array_equal(shifted[:, :-1], P[:, 1:])
    assert np.isnan(evaluate_indexed(p[1] + sp.Symbol("unknown"), {p: P})).all()
    assert np.isnan(evaluate_indexed(sp.log(-p[1]), {p: P})).all()
    assert np.isnan(evaluate_indexed(sp.Sum(p[x + 1], (x, 1, n)), {p: P}, {n: 4})).all()


def test_divergence_bound_proves_gibbs_and_no_stronger_bound():
    for stated, holds in ((0, True), (-1, True), (1, False)):
        proof = Derivation(statement=Statement("D ≥ c", stated, KL, ">="), value=stated,
                           premises=(SUMS,))
        chain = divergence_bound(proof, p[x], q[x], (x, 1, n), SUMS)
        if holds:
            proof.conclude(stated, chain)
            proof.finish()
            assert proof.level() == ("proved", ())
        else:
            with pytest.raises(ProofFailure):
                proof.conclude(stated, chain)


def test_divergence_bound_needs_the_sums_from_a_premise():
    half = Premise("only p sums to 1", {sp.Sum(p[x], (x, 1, n)): 1})
    proof = Derivation(statement=Statement("D ≥ 0", 0, KL, ">="), value=0, premises=(half,))
    with pytest.raises(ProofFailure):
        proof.conclude(0, divergence_bound(proof, p[x], q[x], (x, 1, n), half))


def test_stronger_near_misses_drop_only_weaker_bounds():
    kept = [v for _, v in stronger_near_misses((sp.Integer(0), sp.Integer(1)), None, (">=", "="))]
    assert (sp.Integer(1), sp.Integer(1)) in kept  # D ≥ 1: false, kept
    assert (sp.Integer(-1), sp.Integer(1)) not in kept  # D ≥ −1: true, dropped
    assert any(v[1] == 2 for v in kept)  # the equality part is mutated as usual


def test_numeric_gap_precision_covers_its_error_and_rejects_a_wrong_gap():
    for classes, epsilon in ((2, 0.001), (5, 0.1), (1000, 0.999), (50, 1e-6)):
        found, precision = numeric_gap(classes, epsilon)
        truth = np.log(1 + classes * (1 - epsilon) / epsilon)
        assert abs(found - truth) <= precision
        if epsilon >= 1e-3:  # the "1 +" dropped: a gap the precision resolves (not at ε → 0)
            assert abs(found - np.log(classes * (1 - epsilon) / epsilon)) > precision
