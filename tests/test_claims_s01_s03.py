"""Sections 1–3 beyond the generic claim tests: true statements written differently still
prove, the false values that used to slip through are rejected by both channels, the χ² tests
of attention-temperature resolve 2 % in T, and the reference helpers the checks rest on."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.results import PROVED
from tmath.engine.runner import run_check, run_proof
from tmath.reference.boltzmann import (boltzmann_weights, cohens_w, metropolis_states,
                                       resolvable_attention)
from tmath.reference.nn import gumbel_max_samples, softmax
from tmath.reference.positional import frequencies, numeric, rotation, turn_per_position
from tmath.reference.softmax_limits import LEAD, ByLeads

REGISTRY = load()
d_k = sp.Symbol("d_k", positive=True, integer=True)
h, j = sp.Symbol("h", positive=True, integer=True), sp.Symbol("j", positive=True, integer=True)
d = sp.Symbol("d_model", positive=True, integer=True, even=True)  # as the claims declare it
n = sp.Symbol("n", integer=True, positive=True)
i, k = sp.Symbol("i", integer=True, nonnegative=True), sp.Symbol("k", integer=True)
e_j, e_l = sp.symbols("e_j e_l", real=True)
T, V = sp.Symbol("T", positive=True), sp.Symbol("Var_p(z)", nonnegative=True)
m, theta = sp.Symbol("m", integer=True), sp.Symbol("theta", positive=True)
QV, KV = sp.Matrix(sp.symbols("q_1 q_2", real=True)), sp.Matrix(sp.symbols("k_1 k_2", real=True))
slope, delta = sp.Symbol("m", positive=True), sp.Symbol("delta", integer=True, nonnegative=True)


def both(claim_id: str, value):
    spec = REGISTRY.get(claim_id)
    return run_proof(spec, value), run_check(spec, value, DEFAULT_SEED)


@pytest.mark.parametrize("claim_id, restated", [
    ("alibi-head-slopes", sp.exp(-8 * j * sp.log(2) / h)),
    ("scaled-score-variance", d_k ** sp.Rational(-1, 2)),
    ("attention-temperature", sp.exp(sp.log(d_k) / 2)),
])
def test_a_true_statement_written_differently_still_proves_and_passes(claim_id, restated):
    proof, check = both(claim_id, restated)
    assert proof.status in PROVED, proof.reason
    assert check.status == "passed", check.headline


def test_the_period_ratio_written_as_an_exponential_still_proves():
    spec = REGISTRY.get("pe-period-range")
    value = spec.statement.value[:3] + (sp.exp(-2 * sp.log(10000) / d),)
    assert run_proof(spec, value).status in PROVED


@pytest.mark.parametrize("claim_id, false", [
    ("attention-temperature", d_k / 4),                       # equal to √d_k at d_k = 16 only
    ("attention-temperature", 1.02 * sp.sqrt(d_k)),           # 2 % off: the χ² resolution
    ("dot-product-variance", (0, d_k + 1)),
    ("scaled-score-variance", -1 / sp.sqrt(d_k)),             # the right variance, wrong sign
    ("softmax-temperature", (1, 0, 1 / n, 1 / (n + 1))),
    ("alibi-head-slopes", 2 ** (-8 * j / (h + 1))),
    ("sinusoidal-frequency-period", (10000 ** (-i / d), 2 * sp.pi * 10000 ** (i / d))),  # no 2
    ("pe-dot-depends-on-offset", sp.Sum(sp.cos(k * 10000 ** (-2 * i / d)), (i, 1, d / 2))),
    ("softmax-boltzmann", -(e_j - e_l) / (2 * T)),
    ("entropy-temperature", V / T**4),
    ("rope-relative-angle", (QV.T * rotation((sp.Symbol("n", integer=True) - m) * theta / 2)
                             * KV)[0, 0]),
    ("alibi-distance-bias", -slope * (delta + 1)),
])
def test_held_out_false_values_are_rejected_by_both_channels(claim_id, false):
    proof, check = both(claim_id, false)
    assert proof.status == "failed", proof.reason
    assert check.status == "failed"


def test_attention_temperature_chi_square_tests_each_reject_a_two_percent_error():
    check = run_check(REGISTRY.get("attention-temperature"), 1.02 * sp.sqrt(d_k), DEFAULT_SEED)
    statistical = [t for t in check.tests if t.kind == "statistical"]
    assert len(statistical) == 3 and not any(t.passed for t in statistical)


def test_entropy_temperature_is_proved_for_every_n_not_for_cases():
    result = run_proof(REGISTRY.get("entropy-temperature"),
                       REGISTRY.get("entropy-temperature").statement.value)
    assert result.status == "proved" and result.cases is None


def test_softmax_limits_are_derived_not_typed_in():
    """Every chain of the saturation and temperature proofs takes a limit."""
    for claim_id in ("softmax-saturation", "softmax-temperature"):
        spec = REGISTRY.get(claim_id)
        steps = run_proof(spec, spec.statement.value).steps
        chains = {s.chain for s in steps}
        limited = {s.chain for s in steps if s.why.startswith("limit")}
        assert chains == limited, chains - limited


# -- reference helpers ---------------------------------------------------------------------------

def test_numeric_gives_nan_for_an_expression_that_does_not_evaluate():
    x, y = sp.symbols("x y")
    assert np.all(np.isnan(numeric(x + y, {x: np.arange(3)})))
    assert numeric(sp.Rational(1, 3) * x, {x: 0.2228417116070135}) == pytest.approx(
        0.2228417116070135 / 3, rel=1e-16)


def test_turn_per_position_reads_the_frequencies_off_the_encoding():
    assert np.allclose(turn_per_position(1234, 64), frequencies(64), atol=1e-9)


def test_by_leads_writes_lone_terms_as_one_term_sums_and_back():
    c, a = sp.Symbol("c", positive=True), sp.Symbol("a", positive=True, integer=True)
    leads = ByLeads(lambda l: sp.exp(-c * LEAD[l]), n)
    assert leads.entry(a).has(sp.Sum) and leads.plain(leads.entry(a)).has(sp.exp(-c * LEAD[a]))
    assert not leads.plain(leads.entry(a)).xreplace({leads.denominator: 1}).has(sp.Sum)


def test_boltzmann_weights_and_their_simulations_agree():
    rng = np.random.default_rng(3)
    energies = np.array([0.0, 1.0, 2.5])
    weights = boltzmann_weights(energies, 0.7)
    assert np.allclose(weights, softmax(-energies / 0.7))
    states = metropolis_states(rng, energies, 0.7, 40_000, distance=1e-9)
    assert np.abs(np.bincount(states, minlength=3) / 40_000 - weights).max() < 0.02
    draws = gumbel_max_samples(rng, -energies / 0.7, 40_000)
    assert np.abs(np.bincount(draws, minlength=3) / 40_000 - weights).max() < 0.02


def test_resolvable_attention_redraws_scores_that_hide_the_temperature():
    q, k, weights, w = resolvable_attention(np.random.default_rng(0), 1, 2)
    slower = softmax((k @ q) / (1.02 * math.sqrt(1)))
    assert w >= 0.01 and w == pytest.approx(cohens_w(weights, slower))
