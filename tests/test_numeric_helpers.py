"""The shared numeric helpers claims are built on: operation counting, tiled attention,
positional encodings, Metropolis sampling."""

from __future__ import annotations

import numpy as np

from tmath.reference import flops
from tmath.reference import tiling
from tmath.reference.boltzmann import metropolis_states, mixing_steps
from tmath.reference.nn import attention, softmax
from tmath.reference.positional import alibi_slopes, frequencies, sinusoidal


def test_tracked_scalars_count_a_matrix_product():
    meter = flops.Meter()
    a, b = meter.track(np.ones((2, 3))), meter.track(np.ones((3, 4)))
    out = flops.matmul(meter, "ab", a, b)
    stage = meter.stages["ab"]
    assert stage.stored == 8 and stage.ops.mul == 2 * 3 * 4
    assert np.all(flops.values(out) == 3.0)


def test_metered_attention_matches_the_reference():
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 2))
    meter = flops.Meter()
    out = flops.attention(meter, q, k, v)
    assert np.max(np.abs(out - attention(q, k, v))) <= tiling.attention_tolerance(q, k, v)
    assert meter.stages["softmax"].ops.exp == 3 * 4


def test_flash_attention_equals_standard_attention_with_correct_rescaling():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(7, 4)), rng.normal(size=(11, 4)), rng.normal(size=(11, 3))
    exact = attention(q, k, v)
    tiled = tiling.flash_attention(q, k, v, tiling.rescaling(lambda old, new: np.exp(old - new)), 3, 4)
    assert np.max(np.abs(tiled - exact)) <= tiling.attention_tolerance(q, k, v)
    wrong = tiling.flash_attention(q, k, v, tiling.rescaling(lambda old, new: 1.0), 3, 4)
    assert np.max(np.abs(wrong - exact)) > 1e-3


def test_sinusoidal_encoding_and_alibi_slopes():
    pe = sinusoidal(np.arange(3), 8)
    assert pe.shape == (3, 8)
    assert np.allclose(pe[0, 0::2], 0) and np.allclose(pe[0, 1::2], 1)
    assert frequencies(512)[0] == 1.0
    assert np.allclose(alibi_slopes(8), 2.0 ** -np.arange(1, 9))


def test_metropolis_reaches_the_boltzmann_distribution():
    energies = np.array([0.0, 1.0, 2.0])
    assert mixing_steps(3) > 50
    states = metropolis_states(np.random.default_rng(2), energies, 1.0, 40_000)
    observed = np.bincount(states, minlength=3) / states.size
    # 5 binomial standard deviations at n = 40,000 (σ ≤ 0.0025): a false alarm is < 10⁻⁶
    assert np.max(np.abs(observed - softmax(-energies))) < 5 * 0.0025
