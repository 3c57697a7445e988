"""A physical simulation of the Boltzmann distribution, independent of the softmax formula.

Independent Metropolis chains hop between ``n`` states with energies ``e`` at temperature
``T``: propose a state uniformly at random, accept with probability min(1, exp(−ΔE/T)).
The final state of each chain is one sample. Downhill moves are always accepted, so from any
state a chain reaches the ground state with probability ≥ 1/n per step; coupling then bounds
the distance to the stationary law by (1 − 1/n)^steps, and :func:`mixing_steps` picks the
steps that push it below ``1e-12`` — far under any effect a test here can resolve.
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
                      chains: int) -> np.ndarray:
    """Final states of ``chains`` independent Metropolis chains (one sample each)."""
    energies = np.asarray(energies, dtype=float)
    n = energies.size
    state = rng.integers(0, n, size=chains)
    for _ in range(mixing_steps(n)):
        proposal = rng.integers(0, n, size=chains)
        delta = energies[proposal] - energies[state]
        accept = rng.random(chains) < np.exp(-np.maximum(delta, 0.0) / temperature)
        state = np.where(accept, proposal, state)
    return state
