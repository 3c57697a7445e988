"""Reference NumPy implementations of the Transformer pieces that claims simulate.

They follow the textbook definitions and nothing else, so a claim's randomized check exercises
the premises (the definitions) rather than the conclusion it tests.
"""

from __future__ import annotations

import numpy as np


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    """exp(z_i) / Σ_j exp(z_j) along ``axis``, computed stably (shifted by the max)."""
    z = np.asarray(z, dtype=float)
    shifted = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def softmax_jacobian_fd(z: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Jacobian of softmax at a single vector ``z`` by central finite differences."""
    z = np.asarray(z, dtype=float)
    n = z.size
    jac = np.empty((n, n))
    for j in range(n):
        step = np.zeros(n)
        step[j] = h
        jac[:, j] = (softmax(z + step) - softmax(z - step)) / (2 * h)
    return jac


def entropy(p: np.ndarray, axis: int = -1) -> np.ndarray:
    """Shannon entropy in nats, with 0·log 0 = 0."""
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log(p), 0.0)
    return terms.sum(axis=axis)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None = None,
              scale: float | None = None) -> np.ndarray:
    """softmax(Q Kᵀ · scale + M) V, with scale = 1/√d_k unless given."""
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) * (1 / np.sqrt(d_k) if scale is None else scale)
    if mask is not None:
        scores = scores + mask
    return softmax(scores, axis=-1) @ v


def softmax_jacobian_complex_step(z: np.ndarray, h: float = 1e-30) -> np.ndarray:
    """Jacobian ∂softmax(z)_i/∂z_j at one vector ``z`` by complex steps: Im softmax(z + i·h·e_j)/h
    has no cancellation error, so unlike finite differences it is exact to rounding."""
    z = np.asarray(z, dtype=float)
    n = z.size
    shifted = z - z.max()
    columns = []
    for j in range(n):
        e = np.exp(shifted + 1j * h * np.eye(n)[j])
        columns.append((e / e.sum()).imag / h)
    return np.stack(columns, axis=1)


def entropy_slope_complex_step(z: np.ndarray, temperature: float, h: float = 1e-30) -> float:
    """d/dT of the entropy of softmax(z/T) at ``temperature``, by a complex step in T."""
    z = np.asarray(z, dtype=float)
    scaled = z / (temperature + 1j * h) - z.max() / temperature
    p = np.exp(scaled) / np.exp(scaled).sum()
    return float((-(p * np.log(p)).sum()).imag / h)


def scores_with_gap(rng: np.random.Generator, n: int, gap: float, spread: float = 2.0) -> np.ndarray:
    """``n`` scores whose largest entry, at index 0, leads each other entry by at least ``gap``:
    z_0 = 0 and z_l = −gap − |N(0, spread²)| for l ≥ 1."""
    rest = -gap - np.abs(rng.normal(0.0, spread, size=n - 1))
    return np.concatenate([[0.0], rest])


def gumbel_max_samples(rng: np.random.Generator, logits: np.ndarray, size: int) -> np.ndarray:
    """``size`` indices drawn from softmax(logits) by the Gumbel-max trick: argmax of
    logits + Gumbel noise, which never forms the softmax itself."""
    logits = np.asarray(logits, dtype=float)
    return np.argmax(logits + rng.gumbel(size=(size, logits.size)), axis=1)
