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


def count_by_ufunc(norm, x: np.ndarray, **kwargs) -> Counter:
    """Scalar operations ``norm(x, **kwargs)`` performs, per NumPy ufunc (add, multiply, ...)."""
    Counted.tally = Counter()
    norm(np.asarray(x).view(Counted), **kwargs)
    tally, Counted.tally = Counted.tally, Counter()
    return tally


# What the reference implementations above do to one d-vector, step by step, as
# (step, ufunc, size): size "d" is one operation per feature, "d-1" a sum of d numbers, 1 a
# single scalar operation. tmath.reference.norms.count_by_ufunc measures the same code.
LAYER_NORM_STEPS = (("μ: sum", "add", "d-1"), ("μ: divide by d", "divide", 1),
                    ("x − μ", "subtract", "d"), ("(x − μ)²", "multiply", "d"),
                    ("Var: sum", "add", "d-1"), ("Var: divide by d", "divide", 1),
                    ("+ ε", "add", 1), ("√", "sqrt", 1), ("· γ", "multiply", "d"),
                    ("divide by σ", "divide", "d"))
RMS_NORM_STEPS = (("x²", "multiply", "d"), ("mean square: sum", "add", "d-1"),
                  ("mean square: divide by d", "divide", 1), ("+ ε", "add", 1),
                  ("√", "sqrt", 1), ("· γ", "multiply", "d"), ("divide by the RMS", "divide", "d"))
BETA_STEPS = (("+ β", "add", "d"),)


def step_counts(steps, d) -> dict[str, Any]:
    """Operations per ufunc of ``steps`` for dimension ``d`` (an int, or a SymPy symbol: then
    each per-feature count is the sum Σ_{k=1}^{d} 1 and a reduction Σ_{k=2}^{d} 1)."""
    try:
        import sympy as sp
    except ImportError:  # pragma: no cover
        sp = None
    symbolic = sp is not None and isinstance(d, sp.Basic)
    k = sp.Symbol("k", integer=True) if symbolic else None
    sizes = {"d": sp.Sum(1, (k, 1, d)) if symbolic else d,
             "d-1": sp.Sum(1, (k, 2, d)) if symbolic else d - 1, 1: 1}
    counts: dict[str, Any] = {}
    for _, ufunc, size in steps:
        counts[ufunc] = counts.get(ufunc, 0) + sizes[size]
    return counts


def formula_values(expr: Any, values: dict, shape: tuple | None = None) -> np.ndarray:
    """A SymPy formula evaluated at arrays or numbers (``values`` maps its symbols), broadcast
    to ``shape``; NaN where it does not evaluate to real numbers (a symbolic foil), so the
    test that compares it fails instead of raising."""
    import sympy as sp

    try:
        expr = sp.sympify(expr)
        symbols = sorted(expr.free_symbols, key=str)
        from tmath.reference.compiled import lambdified

        result = lambdified(symbols, expr)(*[values[s] for s in symbols])
        result = np.asarray(result, dtype=float)
        return result if shape is None else np.broadcast_to(result, shape).copy()
    except (TypeError, ValueError, KeyError, ZeroDivisionError, NameError, AttributeError,
            OverflowError, SyntaxError):
        return np.full(shape if shape is not None else (), np.nan)


def layer_norm_entry(y: Any, a: Any, k: Any, d: Any, eps: Any) -> Any:
    """LN(y)_a = (y_a − μ)/√(Var(y) + ε) as a SymPy expression of the entries y[k] of an
    IndexedBase ``y``, with μ = (1/d)Σ_k y_k and Var(y) = (1/d)Σ_k y_k² − μ² (γ = 1, β = 0)."""
    import sympy as sp

    mean = sp.Sum(y[k], (k, 1, d)) / d
    return (y[a] - mean) / sp.sqrt(sp.Sum(y[k] ** 2, (k, 1, d)) / d - mean**2 + eps)


def layer_norm_jacobian(y: Any, a: Any, b: Any, d: Any, mu: Any, v: Any, eps: Any) -> Any:
    """∂LN(y)_a/∂y_b = (δ_ab − 1/d)/σ − (y_a − μ)(y_b − μ)/(dσ³), σ = √(v + ε), in terms of
    the mean μ and variance v of y (claim norm-placement-skip-jacobian derives it)."""
    import sympy as sp

    sigma = sp.sqrt(v + eps)
    return (sp.KroneckerDelta(a, b) - 1 / d) / sigma - (y[a] - mu) * (y[b] - mu) / (d * sigma**3)


def padded_batch(rng: np.random.Generator, lengths: Any, width: int,
                 pad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(x, real): a [B, T, D] batch of sequences of the given lengths (tokens N(1, 4) per
    feature), padded to the longest with the vector ``pad``, and its real tokens stacked."""
    x = np.tile(pad, (len(lengths), max(lengths), 1))
    for row, n in enumerate(lengths):
        x[row, :n] = rng.standard_normal((n, width)) * 2 + 1
    return x, real_tokens(x, lengths)


def real_tokens(t: np.ndarray, lengths: Any) -> np.ndarray:
    """The entries of the first ``lengths[row]`` positions of each row of ``t``, stacked."""
    return np.concatenate([t[row, :n] for row, n in enumerate(lengths)])
