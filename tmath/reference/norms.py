"""Reference LayerNorm, BatchNorm and RMSNorm, written from their definitions.

Statistics are computed by hand (mean, then the mean of squared deviations, 1/n convention)
instead of ``np.var``: ``np.var`` takes |x − μ|² and so is not analytic, which would break
complex-step differentiation. Everything here accepts real or complex arrays.

:class:`Counted` is an ndarray that tallies the scalar operations NumPy's ufuncs perform on it,
so the cost of a normalisation can be measured on the same code that computes it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np


def centred_moments(x: np.ndarray, axis: Any = -1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, deviations x − μ and (biased, 1/n) variance over ``axis`` (kept dimensions)."""
    mu = np.mean(x, axis=axis, keepdims=True)
    centred = x - mu
    return mu, centred, np.mean(centred * centred, axis=axis, keepdims=True)


def _normalise(x: np.ndarray, axis: Any, eps: float, gamma: Any, beta: Any) -> np.ndarray:
    _, centred, var = centred_moments(x, axis)
    out = gamma * centred / np.sqrt(var + eps)
    return out if beta is None else out + beta


def layer_norm(x: np.ndarray, eps: float, gamma: Any = 1.0, beta: Any = None) -> np.ndarray:
    """γ·(x − μ)/√(Var + ε) + β with μ, Var over the last (feature) axis of each token."""
    return _normalise(x, -1, eps, gamma, beta)


def batch_norm(x: np.ndarray, eps: float, gamma: Any = 1.0, beta: Any = None) -> np.ndarray:
    """Training-mode BatchNorm of a [B, T, D] tensor: statistics per feature over (B, T)."""
    return _normalise(x, (0, 1), eps, gamma, beta)


def rms_norm(x: np.ndarray, eps: float, gamma: Any = 1.0) -> np.ndarray:
    """γ·x/√(mean(x²) + ε) over the last axis (no centring, no shift)."""
    mean_square = np.mean(x * x, axis=-1, keepdims=True)
    return gamma * x / np.sqrt(mean_square + eps)


class Counted(np.ndarray):
    """An ndarray whose ufunc calls add their scalar operation count to ``Counted.tally``.

    An element-wise call counts one operation per output element; a reduction of n elements
    to m results counts n − m (n − 1 additions per reduced group).
    """

    tally: Counter = Counter()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [np.asarray(a) if isinstance(a, Counted) else a for a in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) for o in kwargs["out"])
        result = getattr(ufunc, method)(*plain, **kwargs)
        size = np.size(result)
        if method == "reduce":
            Counted.tally[ufunc.__name__] += np.size(plain[0]) - size
        else:
            Counted.tally[ufunc.__name__] += size
        return np.asarray(result).view(Counted) if isinstance(result, np.ndarray) else result


def count_operations(norm, x: np.ndarray, **kwargs) -> int:
    """Scalar operations ``norm(x, **kwargs)`` performs, counted on the ufunc calls it makes."""
    Counted.tally = Counter()
    norm(np.asarray(x).view(Counted), **kwargs)
    total = sum(Counted.tally.values())
    Counted.tally = Counter()
    return total
