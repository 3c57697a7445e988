"""Standardized random variables (mean 0, variance 1) of different shapes.

Claims whose premises say only "mean 0, variance 1" are checked on several of these, so a
check does not quietly depend on Gaussian inputs.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

Sampler = Callable[[np.random.Generator, "tuple[int, ...] | int"], np.ndarray]


def rademacher(rng: np.random.Generator, shape) -> np.ndarray:
    """±1 with equal probability."""
    return rng.integers(0, 2, size=shape) * 2.0 - 1.0


def uniform(rng: np.random.Generator, shape) -> np.ndarray:
    """Uniform on [−√3, √3]."""
    return rng.uniform(-np.sqrt(3.0), np.sqrt(3.0), size=shape)


def centred_exponential(rng: np.random.Generator, shape) -> np.ndarray:
    """Exp(1) − 1: skewed, mean 0, variance 1."""
    return rng.standard_exponential(size=shape) - 1.0


def gaussian(rng: np.random.Generator, shape) -> np.ndarray:
    return rng.standard_normal(size=shape)


STANDARDIZED: dict[str, Sampler] = {
    "Rademacher": rademacher,
    "uniform": uniform,
    "centred exponential": centred_exponential,
    "Gaussian": gaussian,
}


def dot_products(rng: np.random.Generator, rows: int, d: int,
                 q_dist: Sampler = gaussian, k_dist: Sampler = gaussian) -> np.ndarray:
    """``rows`` samples of qᵀk for independent q, k in R^d with the given component laws."""
    return np.einsum("ij,ij->i", q_dist(rng, (rows, d)), k_dist(rng, (rows, d)))


def dot_product_sampler(q_law: str, k_law: str, d: int, scales: tuple[float, float] = (1.0, 1.0)
                        ) -> Callable[[np.random.Generator, int], np.ndarray]:
    """A sampler ``(rng, m) -> m samples of qᵀk`` for q, k in R^d whose components follow the
    named laws of :data:`STANDARDIZED`, each times its scale (its standard deviation), the
    form the statistical tests of a check take."""
    (q_law, q_scale), (k_law, k_scale) = zip((q_law, k_law), scales)
    q_dist, k_dist = (_scaled(STANDARDIZED[law], scale)
                      for law, scale in ((q_law, q_scale), (k_law, k_scale)))
    return lambda rng, m: dot_products(rng, m, d, q_dist, k_dist)


def _scaled(law: Sampler, scale: float) -> Sampler:
    return law if scale == 1.0 else (lambda rng, shape: scale * law(rng, shape))
