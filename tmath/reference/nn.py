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
