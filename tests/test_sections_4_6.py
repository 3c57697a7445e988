"""The defects the issues found in sections 4–6, each with the false value that used to pass or
raise: both channels now reject it, and a false formula makes a check fail instead of raising."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.runner import run_check, run_proof
from tmath.reference.kernels import formula_values, mask_entry, vectors_with

REGISTRY = load()


def _both_reject(claim_id, value):
    spec = REGISTRY.get(claim_id)
    proof, check = run_proof(spec, value), run_check(spec, value, DEFAULT_SEED)
    assert proof.status == "failed", proof.reason
    assert check.status == "failed", check.reason
    return check


def _module(claim_id):
    return __import__(REGISTRY.get(claim_id).implementation.__class__.__module__,
                      fromlist=["*"])


def test_a_second_order_taylor_exp_is_rejected_by_the_performer_check():
    """xᵀy used to be sampled near 0 only, where 1 + s + s²/2 ≈ exp(s)."""
    s = _module("performer-unbiased").sxy
    _both_reject("performer-unbiased", 1 + s + s**2 / 2)


def test_a_norm_identity_over_other_symbols_no_longer_proves_the_variance():
    """|x+y|² is tied to |x|², |y|², xᵀy: dropping its 2xᵀy is caught by the proof."""
    mod = _module("performer-variance")
    _both_reject("performer-variance", sp.exp(2 * mod.sxy) * (sp.exp(mod.nx + mod.ny) - 1) / mod.m)


@pytest.mark.parametrize("penalty", [-40, -1000])
def test_padding_penalties_that_float64_cannot_tell_from_minus_infinity(penalty):
    _both_reject("padding-mask-invariance", sp.exp(penalty))


def test_a_compound_causal_relation_fails_and_does_not_raise():
    mod = _module("causal-mask-no-future")
    window = mod._dependence(sp.And(sp.Ge(mod.i, mod.p), sp.Lt(mod.i - mod.p, 2)))
    check = _both_reject("causal-mask-no-future", window)
    assert check.reason is None            # failed tests, not an error


def test_a_symbolic_foil_makes_the_masked_softmax_check_fail_not_raise():
    stray = sp.Symbol("q")
    check = run_check(REGISTRY.get("masked-softmax-renormalises"), (stray, sp.Integer(0)),
                      DEFAULT_SEED)
    assert check.status == "failed" and check.reason is None


def test_the_multi_head_width_is_a_citable_lemma():
    for claim_id in ("projection-parameters", "single-head-reduction"):
        spec = REGISTRY.get(claim_id)
        result = run_proof(spec, spec.statement.value)
        assert result.status == "proved" and not result.rests_on, result.reason
        assert any(step.kind == "lemma" for step in result.steps)


def test_formula_values_refuses_shifted_indices_and_stray_symbols():
    v = sp.IndexedBase("v")
    j = sp.Symbol("j", integer=True)
    data = np.arange(1.0, 5.0)
    positions = np.arange(1, 5)
    assert np.array_equal(formula_values(v[j], {v: data}, {j: positions}), data)
    assert math.isnan(formula_values(v[j + 1], {v: data}, {j: positions}))   # leaves the array
    assert math.isnan(formula_values(v[j] + sp.Symbol("z"), {v: data}, {j: positions}))
    assert np.isnan(formula_values(sp.sqrt(-v[j]), {v: data}, {j: positions})).all()
    assert np.isnan(formula_values(v[j], {v: data}, {j: positions}, shape=(3,))).all()


def test_mask_entries_are_computed_exactly():
    assert mask_entry(0) == -math.inf
    assert mask_entry(sp.exp(-1000)) == pytest.approx(-1000)   # float64 would say −∞
    assert math.isnan(mask_entry(-1))


@pytest.mark.parametrize("d", [1, 2, 7])
@pytest.mark.parametrize("s, rho2", [(-5.0, 0.2), (0.5, 2.5), (0.0, 1.0)])
def test_vectors_with_the_requested_geometry(d, s, rho2):
    x, y = vectors_with(np.random.default_rng(3), d, s, rho2, 0.8)
    assert x @ y == pytest.approx(s, abs=1e-12)
    assert (x + y) @ (x + y) == pytest.approx(rho2, abs=1e-12)
