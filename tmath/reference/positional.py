"""Positional encodings built from their published definitions, for section 3's claims.

NumPy: the sinusoidal encoding of Vaswani et al. (2017, §3.5), RoPE's pairwise rotations
(Su et al. 2021), ALiBi's distance biases and head slopes (Press et al. 2021). SymPy: the
2 × 2 rotation matrix, and a numeric evaluator for expressions that contain a finite ``Sum``.
Each function follows the definition only, so a claim's check exercises premises, not the
conclusion it tests.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import sympy as sp

from tmath.reference.compiled import lambdified

BASE = 10000
FREQUENCY_OPS = 3 + math.ceil(math.log(BASE))
"""Roundings in ω_i = 10000^(−2i/d) as a relative error: the exponent takes 2, and its error is
multiplied by |exponent·ln 10000| ≤ ln 10000 in the power, which rounds once more."""


def angle_ops(extra: int = 0) -> int:
    """Roundings in sin/cos(x·ω_i), relative to the angle x·ω_i: those of ω_i, the product, and
    ``extra`` more (for :func:`tmath.engine.experiment.tolerance`)."""
    return FREQUENCY_OPS + 1 + extra


def frequencies(d_model: int, base: float = BASE) -> np.ndarray:
    """ω_i = base^(−2i/d_model) for the d_model/2 pairs i = 0 … d_model/2 − 1."""
    i = np.arange(d_model // 2)
    return float(base) ** (-2.0 * i / d_model)


def sinusoidal(positions: Any, d_model: int) -> np.ndarray:
    """PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i); shape (..., d_model)."""
    angles = np.asarray(positions, dtype=float)[..., None] * frequencies(d_model)
    out = np.empty(angles.shape[:-1] + (d_model,))
    out[..., 0::2], out[..., 1::2] = np.sin(angles), np.cos(angles)
    return out


def pe_pairs(positions: Any, d_model: int) -> np.ndarray:
    """The (PE(p, 2i), PE(p, 2i+1)) pairs of the encoding: shape (2, *positions' shape, d_model/2)."""
    pe = sinusoidal(positions, d_model)
    return np.stack([pe[..., 0::2], pe[..., 1::2]])


def turn_per_position(position: float, d_model: int) -> np.ndarray:
    """The angle each pair turns through from ``position`` to ``position`` + 1, read off the
    two encodings (atan2 of their cross and dot products), one entry per pair."""
    (s0, c0), (s1, c1) = pe_pairs(position, d_model), pe_pairs(position + 1, d_model)
    return np.arctan2(c0 * s1 - s0 * c1, s0 * s1 + c0 * c1)


def first_return(omega: float, horizon: float, step: float = 0.5) -> float:
    """Smallest shift s > 0 after which the point (sin(ω·p), cos(ω·p)) is back where it began.

    Follows the point's angle along a grid of step ``step`` (< π/ω, so the angle can be
    unwrapped) up to ``horizon`` and interpolates where it has turned by a full circle.
    """
    if omega * step >= math.pi:
        raise ValueError("grid too coarse to follow the angle")
    grid = np.arange(0.0, horizon + step, step)
    turned = np.unwrap(np.arctan2(np.sin(omega * grid), np.cos(omega * grid)))
    turned = np.abs(turned - turned[0])
    j = int(np.argmax(turned >= 2 * math.pi))
    if j == 0:
        raise ValueError("the point did not complete a circle within the horizon")
    frac = (2 * math.pi - turned[j - 1]) / (turned[j] - turned[j - 1])
    return float(grid[j - 1] + frac * step)


def rope(x: np.ndarray, position: Any, thetas: np.ndarray) -> np.ndarray:
    """Rotate each pair (x_{2j}, x_{2j+1}) by the angle position·θ_j with RoPE's matrix
    R = [[cos, −sin], [sin, cos]]."""
    angles = np.asarray(position, dtype=float)[..., None] * thetas
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(np.broadcast_shapes(x.shape, angles.shape[:-1] + (x.shape[-1],)))
    out[..., 0::2] = np.cos(angles) * even - np.sin(angles) * odd
    out[..., 1::2] = np.sin(angles) * even + np.cos(angles) * odd
    return out


def alibi_bias(query_positions: Any, key_positions: Any, slope: float) -> np.ndarray:
    """The bias −m·|i − j| added to the score of query i and key j (the notes' form)."""
    i = np.asarray(query_positions, dtype=float)[:, None]
    j = np.asarray(key_positions, dtype=float)[None, :]
    return -slope * np.abs(i - j)


def alibi_slopes(heads: int) -> np.ndarray:
    """Head slopes as Press et al. build them for a power-of-two head count: a geometric
    sequence whose first term and ratio are both 2^(−8/heads)."""
    if heads < 1 or heads & (heads - 1):
        raise ValueError("the closed form covers a power-of-two number of heads")
    start = 2.0 ** (-(2.0 ** -(math.log2(heads) - 3)))
    return np.array([start * start**j for j in range(heads)])


def rotation(angle: sp.Expr, sign: int = 1) -> sp.Matrix:
    """[[cos, −sign·sin], [sign·sin, cos]]: sign = 1 is RoPE's R(φ), sign = −1 the matrix
    printed in the notes' §3.3 (its transpose)."""
    c, s = sp.cos(angle), sp.sin(angle)
    return sp.Matrix([[c, -sign * s], [sign * s, c]])


def numeric(expr: Any, values: Mapping[sp.Symbol, Any]) -> np.ndarray:
    """Evaluate ``expr`` (an expression or a matrix) at ``values``: scalars, or float arrays
    that broadcast together. A matrix gives shape (rows, cols, *broadcast shape).

    A ``Sum`` whose limits are integers once the scalars are substituted is summed term by
    term with NumPy (``lambdify`` cannot print a Sum with a symbolic bound). An expression
    that does not evaluate to numbers there (a symbol left over, a sum with symbolic bounds)
    gives NaN, so a check comparing it fails instead of raising.
    """
    if isinstance(expr, sp.MatrixBase):
        entries = [numeric(e, values) for e in expr]
        shape = np.broadcast_shapes(*(e.shape for e in entries))
        return np.stack([np.broadcast_to(e, shape) for e in entries]).reshape(expr.shape + shape)
    arrays = {s: np.asarray(v, dtype=float) for s, v in values.items() if np.ndim(v) > 0}
    shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
    try:
        result = _evaluate(expr, values, arrays)
        return np.broadcast_to(np.asarray(result, dtype=float), shape)
    except (NameError, TypeError, ValueError, ZeroDivisionError, AttributeError):
        return np.full(shape, np.nan)


def _evaluate(expr: Any, values: Mapping[sp.Symbol, Any], arrays: Mapping[sp.Symbol, Any]) -> Any:
    # whole numbers are substituted exactly (they may bound a Sum); other scalars are passed
    # to the compiled function as floats, so no digit is lost in printing them
    exact = {s: sp.Integer(int(v)) for s, v in values.items()
             if np.ndim(v) == 0 and isinstance(v, (int, np.integer))}
    floats = {s: float(v) for s, v in values.items() if np.ndim(v) == 0 and s not in exact}
    arguments = {**floats, **arrays}
    expr = sp.sympify(expr).subs(exact)
    partial: dict[sp.Dummy, Any] = {}
    for total in expr.atoms(sp.Sum):
        (index, low, high), = total.limits
        term = lambdified([index, *arguments], total.function)
        name = sp.Dummy()
        partial[name] = sum(term(n, *arguments.values()) for n in range(int(low), int(high) + 1))
        expr = expr.xreplace({total: name})
    return lambdified([*partial, *arguments], expr)(*partial.values(),
                                                               *arguments.values())
