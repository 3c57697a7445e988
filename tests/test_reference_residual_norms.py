"""Reference code behind the section 10-11 claims: no blind spots for off-by-one foils, symbolic
foils give NaN instead of raising, and the operation tallies the proofs start from are the
implementation's."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from tmath.reference.gradients import (entry_matrix, indexed_values, jacobian, random_block,
                                       stack_bound)
from tmath.reference.norms import (BETA_STEPS, LAYER_NORM_STEPS, RMS_NORM_STEPS, count_by_ufunc,
                                   formula_values, layer_norm, rms_norm, step_counts)

i, j = sp.symbols("i j", positive=True, integer=True)
y = sp.IndexedBase("y")


def test_deltas_are_evaluated_by_their_arguments():
    """tmath.gradients.entry_matrix used to turn every δ into the identity, so δ(i, j+1)
    passed for the skip term of a residual block."""
    assert np.array_equal(entry_matrix(sp.KroneckerDelta(i, j), i, j, 4), np.eye(4))
    assert np.array_equal(entry_matrix(sp.KroneckerDelta(i, j + 1), i, j, 4), np.eye(4, k=-1))
    assert np.array_equal(entry_matrix(sp.KroneckerDelta(j, i + 1), i, j, 4), np.eye(4, k=1))
    assert not np.array_equal(entry_matrix(sp.KroneckerDelta(i, j + 1), i, j, 4), np.eye(4))


def test_vector_entries_follow_their_index_and_foils_give_nan():
    vector = np.array([1.0, 2.0, 3.0])
    got = entry_matrix(y[i] * y[j], i, j, 3, vectors={y: vector})
    assert np.array_equal(got, np.outer(vector, vector))
    shifted = entry_matrix(y[i + 1], i, j, 3, vectors={y: vector})
    assert np.isnan(shifted[2]).all() and np.array_equal(shifted[:2, 0], [2.0, 3.0])
    assert np.isnan(entry_matrix(sp.Symbol("unknown"), i, j, 3)).all()


def test_indexed_values_reads_rows_and_fails_closed():
    k, l, L = sp.symbols("k l L", integer=True)
    x, F = sp.IndexedBase("x"), sp.IndexedBase("F")
    xs, fs = np.arange(12.0).reshape(6, 2), np.ones((6, 2))
    unrolled = x[l] + sp.Sum(F[k], (k, l, L - 1))
    assert np.array_equal(indexed_values(unrolled, {x: xs, F: fs}, {l: 1, L: 4}), xs[1] + 3)
    beyond = indexed_values(x[l] + sp.Sum(F[k], (k, l, L + 3)), {x: xs, F: fs}, {l: 1, L: 4})
    assert np.isnan(beyond).all()
    assert np.isnan(indexed_values(x[l] * sp.Symbol("s"), {x: xs}, {l: 1})).all()


def test_the_stack_bound_bounds_the_stack_jacobian():
    rng = np.random.default_rng(0)
    blocks = [random_block(rng, 4, 8, gain=0.3) for _ in range(12)]
    x = rng.standard_normal(4)

    def stack(z):
        for block in blocks:
            z = z + block(z)
        return z

    assert np.abs(jacobian(stack, x)).max() <= stack_bound(blocks, x)


@pytest.mark.parametrize("d", [1, 3, 64])
def test_the_step_tallies_are_what_the_implementations_do(d):
    x, beta = np.random.default_rng(d).standard_normal((2, d))
    for norm, steps, extra in ((layer_norm, LAYER_NORM_STEPS, {}), (rms_norm, RMS_NORM_STEPS, {}),
                               (layer_norm, LAYER_NORM_STEPS + BETA_STEPS, {"beta": beta})):
        assert dict(count_by_ufunc(norm, x, eps=1e-8, **extra)) == step_counts(steps, d)
    size = sp.Symbol("d", positive=True, integer=True)
    symbolic = step_counts(LAYER_NORM_STEPS, size)
    assert sum(symbolic.values()).doit().subs(size, d) == 6 * d + 2
    assert step_counts(RMS_NORM_STEPS, d) != step_counts(LAYER_NORM_STEPS, d)


def test_formula_values_broadcasts_and_a_symbolic_foil_is_nan():
    v, eps = sp.symbols("v epsilon", positive=True)
    got = formula_values(v / (v + eps), {v: np.array([1.0, 3.0]), eps: 1.0}, (2,))
    assert np.allclose(got, [0.5, 0.75])
    assert np.isnan(formula_values(v + sp.Symbol("w"), {v: 1.0}, (2,))).all()


def test_the_complex_step_keeps_its_digits_for_a_tiny_direction():
    """A direction of size 1e-300 (deep in a stack whose Jacobians shrink) would put the step
    1e-20·u among the subnormal numbers; scaled to size 1 first, the JVP keeps full precision."""
    from tmath.reference.gradients import jvp

    x = np.linspace(-2.0, 2.0, 7)
    u = np.full(7, 3e-300)
    exact = (1 - np.tanh(x) ** 2) * u
    assert np.allclose(jvp(np.tanh, x, u), exact, rtol=1e-14, atol=0)
    rows = np.stack([u, np.full(7, 1.0)])  # rows of very different sizes, scaled one by one
    got = np.stack([jvp(np.tanh, x, r) for r in rows])
    from tmath.reference.gradients import value_and_jvp

    _, both = value_and_jvp(np.tanh, np.stack([x, x]), rows, per_row=True)
    assert np.allclose(both, got, rtol=1e-14, atol=0)


def test_a_deep_post_norm_stack_of_two_features_is_no_false_alarm():
    """At d = 2 and depth 65 the post-norm response is ~1e-290: before the scaled step, its
    rounding exceeded the tolerance for 53 of 60 seeds (false alarm at seed 140 of 200)."""
    from tmath.reference.gradients import mean_direction_draw

    for seed in range(20):
        mean, tol = mean_direction_draw(np.random.default_rng(seed), 65, 2, post_norm=True)
        assert np.abs(mean).max() <= tol
