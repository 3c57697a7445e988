"""The kernel view of attention: Performer's positive random features, vectors with a given
geometry for checking them, formulas of indexed entries evaluated on arrays, and the
floating-point tolerances for comparing two evaluations of softmax attention.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp

from tmath.engine.experiment import tolerance
from tmath.engine.parameters import Integers, Point, Reals


# -- formulas on arrays -----------------------------------------------------------------------
class _Entries:
    """An array read with a formula's indices (the first one is ``base``); an index outside
    the array raises instead of wrapping around, so a shifted index in a false formula makes
    its test fail."""

    def __init__(self, array: Any, base: int) -> None:
        self.array, self.base = np.asarray(array, dtype=float), base

    def __getitem__(self, index: Any) -> np.ndarray:
        index = index if isinstance(index, tuple) else (index,)
        if len(index) > self.array.ndim:
            raise IndexError("too many indices")
        at = []
        for k, size in zip(index, self.array.shape):
            k = np.asarray(k)
            if k.dtype.kind not in "iu":
                if np.any(k != np.round(k)):
                    raise IndexError("an index is not a whole number")
                k = k.astype(int)
            k = k - self.base
            if np.any(k < 0) or np.any(k >= size):
                raise IndexError("an index leaves the array")
            at.append(k)
        return self.array[tuple(at)]


def formula_values(expr: Any, arrays: Mapping[sp.IndexedBase, Any],
                   values: Mapping[Any, Any] | None = None, base: int = 1,
                   shape: tuple[int, ...] | None = None) -> Any:
    """``expr`` with each IndexedBase read from its array (first index ``base``) and each
    symbol bound to a number or an array (broadcast): a float array (broadcast to ``shape``
    when given), or NaN when the formula does not evaluate to real numbers here (a symbol left
    over, an index out of range, a complex value, a shape that does not fit), so the test that
    uses a false formula fails instead of raising."""
    out = _formula_values(expr, arrays, values, base)
    if shape is None:
        return out
    try:
        return np.broadcast_to(out, shape)
    except ValueError:
        return np.full(shape, math.nan)


@functools.lru_cache(maxsize=256)
def _lambdified(expr: sp.Basic, bases: tuple, symbols: tuple) -> Callable:
    return sp.lambdify([*bases, *symbols], expr, modules="numpy")


def _formula_values(expr: Any, arrays: Mapping[sp.IndexedBase, Any],
                    values: Mapping[Any, Any] | None, base: int) -> Any:
    values = dict(values or {})
    try:
        expr = sp.sympify(expr)
        known = {b.label for b in arrays} | set(values)
        if any(not (isinstance(f, sp.Indexed) and f.base in arrays) and f not in known
               for f in expr.free_symbols):
            return math.nan
        function = _lambdified(expr, tuple(arrays), tuple(values))
        with np.errstate(all="ignore"):
            out = np.asarray(function(*(_Entries(a, base) for a in arrays.values()),
                                      *values.values()))
    except Exception:  # a false formula may fail in any way: it is then not a number
        return math.nan
    if np.iscomplexobj(out):
        if np.any(np.abs(out.imag) > 1e-12 * np.maximum(1.0, np.abs(out.real))):
            return math.nan
        out = out.real
    try:
        return out.astype(float)
    except (TypeError, ValueError):
        return math.nan


# -- Performer random features ------------------------------------------------------------------
def positive_features(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Performer's positive random features φ(x) = exp(Wx − |x|²/2)/√m.

    ``x`` has shape (..., d); ``w`` has shape (..., m, d) with rows w_r ~ N(0, I_d) and must
    broadcast against ``x``. Returns shape (..., m).
    """
    m = w.shape[-2]
    projections = np.einsum("...md,...d->...m", w, x)
    return np.exp(projections - 0.5 * np.sum(x * x, axis=-1, keepdims=True)) / np.sqrt(m)


def performer_draw(x: np.ndarray, y: np.ndarray, m: int) -> Callable:
    """draw(rng, n): n independent estimates φ(x)ᵀφ(y), each with m fresh features (the same
    numbers as ``positive_features``, with the two exponentials of a feature multiplied as
    one)."""
    pair, half = np.stack([x, y], axis=-1), 0.5 * float(x @ x + y @ y)

    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        projections = rng.standard_normal((n, m, x.shape[-1])) @ pair
        return np.exp(projections.sum(axis=-1) - half).sum(axis=-1) / m

    return draw


def vectors_with(rng: np.random.Generator, d: int, s: float, rho2: float,
                 split: float) -> tuple[np.ndarray, np.ndarray]:
    """x, y ∈ R^d with xᵀy = s and |x + y|² = rho2 (which needs rho2 ≥ 4·max(s, 0)), in a
    random plane. ``split`` ∈ [0, 1] shares |x|² + |y|² = rho2 − 2s between the two as far as
    |x||y| ≥ |s| allows; in R¹ the vectors are collinear, which fixes the share."""
    total = max(rho2 - 2 * s, 0.0)
    room = math.sqrt(max(0.0, 1 - (2 * s / total) ** 2)) if total else 0.0
    t = room if d == 1 else (2 * split - 1) * room
    nx, ny = total / 2 * (1 + t), total / 2 * (1 - t)
    cos = float(np.clip(s / math.sqrt(nx * ny), -1, 1)) if nx * ny > 0 else 1.0
    if d == 1:
        u, v = np.ones(1), np.zeros(1)
    else:
        u, v = np.linalg.qr(rng.standard_normal((d, 2)))[0].T
    return math.sqrt(nx) * u, math.sqrt(ny) * (cos * u + math.sqrt(1 - cos * cos) * v)


def performer_points(experiment: Any, symbols: tuple, count: int, dims: Integers,
                     features: Integers, s_low: float, rho2_max: Callable[[int], float],
                     s_edges: tuple[float, ...] = (1, 0)) -> list[tuple[Point, np.ndarray, np.ndarray]]:
    """Points (d, m, xᵀy, |x|², |y|²) with their vectors x, y, drawn from the claim's stream.

    ``symbols`` are the SymPy symbols of d, m, xᵀy, |x|² and |y|². The cost and the tails of
    the estimate grow with |x + y|², so ``rho2_max(m)`` bounds it for m features; xᵀy then
    ranges over [s_low, 0.9·rho2_max(m)/4] (xᵀy > 0 needs |x + y|² ≥ 4xᵀy), its upper end
    and s_low among the edges (``s_edges``: 1 is the upper end, 0 is s_low), and |x + y|² over
    what remains up to rho2_max(m)."""
    drawn = experiment.draw({symbols[0]: dims, symbols[1]: features, "u": Reals(0, 1, s_edges),
                             "e": Reals(0, 1, (0.5,)), "t": Reals(0, 1, (0.5,))}, count)
    out = []
    for p in drawn:
        d, m, cap = int(p[symbols[0]]), int(p[symbols[1]]), rho2_max(int(p[symbols[1]]))
        s = s_low + p.u * (0.9 * cap / 4 - s_low)
        low = 4 * max(s, 0.0)
        x, y = vectors_with(experiment.rng, d, s, low + (0.05 + 0.95 * p.e) * (cap - low), p.t)
        numbers = (d, m, float(x @ y), float(x @ x), float(y @ y))
        out.append((Point(tuple((str(k), v) for k, v in zip(symbols, numbers)), symbols), x, y))
    return out


# -- rounding bounds ------------------------------------------------------------------------------
def attention_tolerance(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> float:
    """Rounding bound for the difference of two float64 evaluations of softmax attention.

    Counted per output entry: a score is a d-term dot product, off by at most γ_d·B absolutely,
    B the largest scale·Σ_i|q_i k_i|; the shift by the row max can double that, and an absolute
    error of the exponent is a relative error of exp. The shift, exp and division add 3
    roundings and the normaliser is a T-term sum, so a weight is off by at most
    2γ_d·B + γ_{T+3} relatively; the weighted sum of values adds γ_T. With γ_a + γ_b ≤ γ_{a+b}
    the output error is at most γ_{d+2T+3}·(1 + 2B)·max|v|. Two evaluations: twice that.
    """
    t, d = k.shape[-2], q.shape[-1]
    big = float(np.max(np.abs(q) @ np.swapaxes(np.abs(k), -1, -2))) * scale
    return tolerance(d + 2 * t + 3, 2 * (1 + 2 * big) * float(np.max(np.abs(v))))


def softmax_tolerance(logits: np.ndarray) -> float:
    """Rounding bound for the difference of two float64 evaluations of softmax weights (≤ 1).

    Per weight: the max shift puts an absolute error ≤ u·2·max|z| into the exponent (a relative
    error of exp), exp and the division add one rounding each, the normaliser is a T-term sum;
    so γ_{T+2}·(1 + 2·max|z|) relatively, doubled for two evaluations. Masked (−∞) entries are
    ignored when taking max|z|.
    """
    finite = np.abs(logits[np.isfinite(logits)])
    return tolerance(logits.shape[-1] + 2, 2 * (1 + 2 * float(finite.max(initial=0.0))))


# -- masks ------------------------------------------------------------------------------------------
def masked_logits(rng: np.random.Generator, rows: int, t: int,
                  masked_share: float) -> tuple[np.ndarray, np.ndarray]:
    """Logits N(0, 2²) of shape (rows, t) and a mask hiding about ``masked_share`` of each row,
    always leaving one position visible."""
    z = rng.normal(0.0, 2.0, (rows, t))
    masked = rng.random((rows, t)) < masked_share
    masked[np.arange(rows), rng.integers(0, t, rows)] = False
    return z, masked


def mask_entry(factor: Any) -> float:
    """The additive mask entry M = log(factor) of a weight factor e^M: −∞ for a factor that is
    exactly 0, computed exactly (e^{−1000} gives −1000, not the −∞ of a float64 underflow),
    NaN when the factor is not a nonnegative real number."""
    try:
        factor = sp.sympify(factor)
        if factor.is_zero:
            return -math.inf
        entry = complex(sp.N(sp.log(factor), 30))
    except (TypeError, ValueError, sp.SympifyError):
        return math.nan
    return entry.real if abs(entry.imag) < 1e-12 and math.isfinite(entry.real) else math.nan


def log10_of(log_value: Any) -> float:
    """log₁₀ of a number given by its natural log, as a SymPy expression evaluated with 30
    digits (for gaps such as e^{−10⁹} that no float holds); NaN when it is not real."""
    try:
        number = complex(sp.N(sp.sympify(log_value), 30))
    except (TypeError, ValueError):
        return math.nan
    return number.real / math.log(10) if abs(number.imag) < 1e-9 else math.nan


# -- Performer, symbolically --------------------------------------------------------------------------
def normal_feature_moments(proof: Any, chain: Any, w: sp.IndexedBase, vectors: tuple,
                           norms: Any, law: Any) -> Any:
    """Replace each E[exp(c·w_rᵀx + c·w_rᵀy)] of ``chain`` by exp(c²|x + y|²/2), each derived
    in a chain of its own with the vetted rules of :mod:`tmath.engine.rules_gaussian` (the
    entries of ``w`` independent N(0, 1), as the declared premise ``law`` says); |x + y|² = Σ_i (x_i + y_i)² is written in the
    symbols of the declared premise ``norms`` (|x|², |y|², xᵀy). ``vectors`` is
    (x, y, i, d): the two IndexedBase vectors, their index and their length."""
    from tmath.engine.moments import E
    from tmath.engine.rules import FACTOR_OUT, SPLIT_SUM
    from tmath.engine.rules_gaussian import PRODUCT_OF_EXPS, StandardNormal

    x, y, i, d = vectors
    gauss = StandardNormal((w,), law=law)
    norm = (proof.chain(sp.Sum((x[i] + y[i]) ** 2, (i, 1, d)), "|x + y|²").apply(SPLIT_SUM)
            .apply(FACTOR_OUT).substitute(dict(norms.equations), premise=norms))
    for mean in sorted(chain.value.atoms(E), key=sp.default_sort_key):
        moment = (proof.chain(mean, "E[exp(w_rᵀ(c·x + c·y))]").apply(gauss.independence)
                  .apply(gauss.mgf).apply(PRODUCT_OF_EXPS).apply(FACTOR_OUT)
                  .substitute(from_chain=norm))
        chain = chain.substitute(from_chain=moment)
    return chain
