"""The check channel's two blind spots (issue 24, item 6), shown with deliberately false values
run through the claims' checks as ``tmath audit`` runs a foil (:func:`run_check`).

(a) A value equal to the truth on a check's edge grid only: the drawn parameters now always
    include a point off the edges (:func:`tmath.engine.parameters.draw`).
(b) Factors far below 1 compared with an absolute tolerance: ``close`` now takes a bound per
    entry and ``close_relative`` derives it from each entry's size.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from tmath.defaults import DEFAULT_SEED
from tmath.engine import stats
from tmath.engine.experiment import Experiment
from tmath.engine.registry import load
from tmath.engine.runner import run_check

REGISTRY = load()
SEEDS = (DEFAULT_SEED, 11, 12, 15, 20)
"""The default seed and the seeds at which a false value below passed before the fix."""


def _symbol(value: sp.Basic, name: str) -> sp.Symbol:
    return next(s for s in value.free_symbols if s.name == name)


# -- (a) a value right on the edge grid only ----------------------------------------------------

def _right_on_the_edges_only() -> sp.Basic:
    """The kernel estimate with the scale 1/√d_k replaced by one that agrees with it at
    d_k = 1, 64 and 1024 (the check's edges) and nowhere else in between."""
    value = REGISTRY.get("attention-kernel-regression").statement.value
    d_k = _symbol(value, "d_k")
    wrong = 1 / sp.sqrt(d_k) + (d_k - 1) * (d_k - 64) * (d_k - 1024) / sp.Integer(10**6)
    false = value.xreplace({d_k ** sp.Rational(-1, 2): wrong})
    assert false != value and all(sp.simplify((wrong - 1 / sp.sqrt(d_k)).subs(d_k, edge)) == 0
                                  for edge in (1, 64, 1024))
    return false


@pytest.mark.parametrize("seed", SEEDS)
def test_a_value_right_only_on_the_edge_grid_is_rejected(seed):
    spec = REGISTRY.get("attention-kernel-regression")
    result = run_check(spec, _right_on_the_edges_only(), seed)
    assert result.status == "failed", [t.summary for t in result.tests]
    off_edge = [t for t in result.tests if dict(t.parameters)["d_k"] not in (1, 64, 1024)]
    assert off_edge and not all(t.passed for t in off_edge)


def test_the_true_kernel_estimate_still_passes_at_those_seeds():
    spec = REGISTRY.get("attention-kernel-regression")
    for seed in SEEDS:
        assert run_check(spec, spec.statement.value, seed).status == "passed", seed


# -- (b) tiny factors ---------------------------------------------------------------------------

def _experiment() -> Experiment:
    return Experiment(np.random.default_rng(0), 0.0, 0)


def test_an_absolute_tolerance_cannot_resolve_factors_far_below_it_and_says_so():
    truth, false = math.exp(-40.1), math.exp(-40.0)   # e^{a+b} vs e^{min(a, b)}
    blind = _experiment().close([1.0, false], [1.0, truth], stats.rounding_tolerance(3), "abs")
    assert blind.passed and "1 of 2 nonzero entries below tol, not resolved" in blind.summary
    sharp = _experiment().close_relative([1.0, false], [1.0, truth], 3, "rel")
    assert not sharp.passed and sharp.estimate > 1e12


def test_a_relative_comparison_accepts_rounding_and_exact_zeros():
    exp = _experiment()
    tiny = np.exp(np.array([-0.5, -40.0, -80.0, -700.0]))
    assert exp.close_relative(tiny * (1 + 2.5e-16), tiny, 3, "a few roundings").passed
    assert not exp.close_relative(tiny * (1 + 1e-13), tiny, 3, "too far").passed
    assert exp.close_relative([0.0, 1.0], [0.0, 1.0], 1, "zeros are exact").passed
    assert not exp.close_relative([1e-300, 1.0], [0.0, 1.0], 1, "zero is not 1e-300").passed
    assert not exp.close_relative([math.nan], [1.0], 1, "NaN").passed
    assert not exp.close_relative([1.0, 2.0], [1.0], 1, "shape").passed


def test_close_takes_one_bound_per_entry():
    exp = _experiment()
    assert exp.close([1.0, 1e-20], [1.0 + 1e-12, 1.0000001e-20], [1e-11, 1e-26], "both").passed
    assert not exp.close([1.0, 1e-20], [1.0, 1.1e-20], [1e-11, 1e-22], "second").passed


@pytest.mark.parametrize("seed", SEEDS)
def test_e_to_the_min_of_the_two_penalties_is_rejected(seed):
    """Where both masks apply, e^{min(a, b)} and e^{a+b} are both below e^−39 at the edges:
    an absolute tolerance let the false value pass (at the default seed and at 11)."""
    spec = REGISTRY.get("masks-combine")
    value = spec.statement.value
    a, b = _symbol(value, "a"), _symbol(value, "b")
    result = run_check(spec, sp.exp(sp.Min(a, b)), seed)
    assert result.status == "failed"
    finite = [t for t in result.tests if "finite penalties" in t.label]
    assert finite and not any(t.passed for t in finite if t.label.startswith("stated factor"))
