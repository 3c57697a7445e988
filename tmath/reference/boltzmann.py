"""A physical simulation of the Boltzmann distribution, independent of the softmax formula.

Independent Metropolis chains hop between ``n`` states with energies ``e`` at temperature
``T``: propose a state uniformly at random, accept with probability min(1, exp(−ΔE/T)).
The final state of each chain is one sample. Downhill moves are always accepted, so from any
state a chain reaches the ground state with probability ≥ 1/n per step; coupling then bounds
the distance to the stationary law by (1 − 1/n)^steps, and :func:`mixing_steps` picks the
steps that push it below ``1e-12`` — far under any effect a test here can resolve.

Also here, to size χ² tests of a temperature: the Boltzmann law from its definition, Cohen's w
between two laws, energies and attention inputs whose laws show a 2 % change of T.
"""

from __future__ import annotations

import math

import numpy as np


def mixing_steps(n_states: int, distance: float = 1e-12) -> int:
    """Steps after which (1 − 1/n)^steps ≤ distance."""
    if n_states < 2:
        return 0
    return math.ceil(math.log(distance) / math.log(1 - 1 / n_states))


def metropolis_states(rng: np.random.Generator, energies: np.ndarray, temperature: float,
                      chains: int, distance: float = 1e-12) -> np.ndarray:
    """Final states of ``chains`` independent Metropolis chains (one sample each), run until
    their law is within ``distance`` (total variation) of the Boltzmann law."""
    energies = np.asarray(energies, dtype=float)
    n = energies.size
    # acceptance[i, j]: the chance to move from i to a proposed j, tabulated once
    acceptance = np.exp(-np.maximum(energies[None, :] - energies[:, None], 0.0) / temperature)
    state = rng.integers(0, n, size=chains)
    for _ in range(mixing_steps(n, distance)):
        proposal = rng.integers(0, n, size=chains)
        accept = rng.random(chains) < acceptance[state, proposal]
        state = np.where(accept, proposal, state)
    return state


def boltzmann_weights(energies: np.ndarray, temperature: float) -> np.ndarray:
    """P(i) = exp(−e_i/T) / Σ_j exp(−e_j/T), written from the definition (shifted by the lowest
    energy so that nothing overflows)."""
    energies = np.asarray(energies, dtype=float)
    w = np.exp(-(energies - energies.min()) / temperature)
    return w / w.sum()


def cohens_w(p0: np.ndarray, p1: np.ndarray) -> float:
    """Cohen's effect size w = sqrt(Σ (p₁ − p₀)² / p₀) of ``p1`` against ``p0``: what a χ² test
    of counts drawn from p₁ against p₀ must detect."""
    p0, p1 = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
    return float(np.sqrt(np.sum((p1 - p0) ** 2 / p0)))


def temperature_resolution(energies: np.ndarray, temperature: float, relative: float = 0.02) -> float:
    """The Cohen's w between the Boltzmann laws at T and at (1 + relative)·T: a χ² test sized
    with it tells temperatures that far apart (2 % by default)."""
    return cohens_w(boltzmann_weights(energies, temperature),
                    boltzmann_weights(energies, (1 + relative) * temperature))


def log_odds_distribution(log_odds: np.ndarray) -> np.ndarray:
    """The distribution whose log-odds against state 0 are ``log_odds`` (NaN stays NaN)."""
    weights = np.exp(np.asarray(log_odds, dtype=float) - np.max(log_odds))
    return weights / weights.sum()


def spread_energies(rng: np.random.Generator, n: int, temperature: float) -> np.ndarray:
    """``n`` ≥ 2 energies whose Boltzmann law at ``temperature`` is far from flat and from one-hot:
    two states 2.4·T apart, the rest uniform within ±2T, so a 2 % change of T moves the law by
    Cohen's w ≈ 0.013 or more."""
    return temperature * np.r_[-1.2, 1.2, rng.uniform(-2.0, 2.0, n - 2)]


def resolvable_attention(rng: np.random.Generator, d: int, keys: int, relative: float = 0.02,
                         floor: float = 0.01, tries: int = 100):
    """A query q ∈ R^d and ``keys`` keys (standard normal) whose attention weights move by
    Cohen's w ≥ ``floor`` when the scale 1/√d is divided by 1 + ``relative``; returns
    (q, k, weights, w). Scores that are nearly equal make every temperature look alike, so
    such draws are redrawn (at most ``tries`` times)."""
    from tmath.reference.nn import attention

    for _ in range(tries):
        q, k = rng.standard_normal(d), rng.standard_normal((keys, d))
        weights = attention(q[None, :], k, np.eye(keys))[0]  # V = I returns the weights
        slower = attention(q[None, :], k, np.eye(keys), scale=1 / ((1 + relative) * math.sqrt(d)))
        w = cohens_w(weights, slower[0])
        if w >= floor:
            break
    return q, k, weights, w
