"""The kernel view of attention: Nadaraya–Watson weights, Performer random features, and the
floating-point tolerance for comparing two evaluations of softmax attention.

Symbolic helpers (rules for finite sums and the Gaussian projection) are here too, so the
claims that need them share one definition.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from sympy import stats
from sympy.simplify.simplify import factor_sum

from tmath.engine.experiment import tolerance
from tmath.engine.moments import E
from tmath.engine.proof import Rule


# -- numeric ----------------------------------------------------------------------------------
def nadaraya_watson(query: np.ndarray, keys: np.ndarray, values: np.ndarray, kernel) -> np.ndarray:
    """Σ_j κ(q, k_j) v_j / Σ_j κ(q, k_j) for one query, with ``kernel(q, keys) -> (T,)``."""
    weights = kernel(query, keys)
    return weights @ values / weights.sum()


def positive_features(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Performer's positive random features φ(x) = exp(Wx − |x|²/2)/√m.

    ``x`` has shape (..., d); ``w`` has shape (..., m, d) with rows w_r ~ N(0, I_d) and must
    broadcast against ``x``. Returns shape (..., m).
    """
    m = w.shape[-2]
    projections = np.einsum("...md,...d->...m", w, x)
    return np.exp(projections - 0.5 * np.sum(x * x, axis=-1, keepdims=True)) / np.sqrt(m)


def performer_draw(x: np.ndarray, y: np.ndarray, m: int):
    """draw(rng, n): n independent estimates φ(x)ᵀφ(y), each with m fresh features."""
    d = x.shape[-1]

    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        w = rng.standard_normal((n, m, d))
        return np.sum(positive_features(x, w) * positive_features(y, w), axis=-1)

    return draw


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


# -- symbolic ---------------------------------------------------------------------------------
def gaussian_projection(wx: sp.Basic, wy: sp.Basic, norm: sp.Symbol) -> Rule:
    """E[exp(a·wᵀx)·exp(a·wᵀy)] = E[exp(a·|x+y|·W)], W ~ N(0, 1), since wᵀ(x+y) ~ N(0, |x+y|²).

    ``wx``/``wy`` are the random atoms standing for wᵀx and wᵀy; ``norm`` stands for |x+y|.
    """
    unit = stats.Normal("W", 0, 1)

    def rewrite(arg: sp.Basic) -> sp.Basic:
        combined = sp.powsimp(arg, force=True)
        if isinstance(combined, sp.exp):
            exponent = sp.expand(combined.args[0])
            a = exponent.coeff(wx)
            if a != 0 and sp.expand(exponent - a * (wx + wy)) == 0:
                return stats.E(sp.exp(a * norm * unit), evaluate=False)
        return E(arg)

    return Rule("wᵀx + wᵀy = wᵀ(x+y) = |x+y|·W, W ~ N(0, 1), for w ~ N(0, I) (Gaussian sums)",
                lambda e: e.replace(E, rewrite))


def _sum_index(s: sp.Sum) -> set:
    return {limit[0] for limit in s.limits}


def _into_sum(e: sp.Basic) -> sp.Basic:
    """c·Σ_r f_r → Σ_r c·f_r when c does not involve r."""
    if isinstance(e, sp.Mul):
        sums = [a for a in e.args if isinstance(a, sp.Sum)]
        if len(sums) == 1:
            rest = sp.Mul(*[a for a in e.args if a is not sums[0]])
            if not rest.free_symbols & _sum_index(sums[0]):
                return sp.Sum(sums[0].function * rest, *sums[0].limits)
    return e


def _swap(e: sp.Basic) -> sp.Basic:
    """Σ_l Σ_r f → Σ_r Σ_l f for independent finite ranges (SymPy stores Σ_l Σ_r f as one Sum
    whose limits list r first)."""
    if isinstance(e, sp.Sum) and len(e.limits) >= 2:
        return sp.Sum(e.function, e.limits[1], e.limits[0], *e.limits[2:])
    return e


def _factor_innermost(e: sp.Basic) -> sp.Basic:
    """Σ_r Σ_l c_r·f_l → Σ_r c_r·Σ_l f_l: constants of the innermost sum leave it."""
    if isinstance(e, sp.Sum) and len(e.limits) >= 2:
        return sp.Sum(factor_sum(sp.Sum(e.function, e.limits[0])), *e.limits[1:])
    return e


DISTRIBUTE = Rule("distributivity: c·Σ_r f_r = Σ_r c·f_r",
                  lambda e: e.replace(lambda x: _into_sum(x) != x, _into_sum))
INTERCHANGE = Rule("finite sums can be interchanged", _swap)
FACTOR_OUT = Rule("distributivity: Σ_l c·f_l = c·Σ_l f_l (c free of l)", _factor_innermost)


def softmax_tolerance(logits: np.ndarray) -> float:
    """Rounding bound for the difference of two float64 evaluations of softmax weights (≤ 1).

    Per weight: the max shift puts an absolute error ≤ u·2·max|z| into the exponent (a relative
    error of exp), exp and the division add one rounding each, the normaliser is a T-term sum;
    so γ_{T+2}·(1 + 2·max|z|) relatively, doubled for two evaluations. Masked (−∞) entries are
    ignored when taking max|z|.
    """
    finite = np.abs(logits[np.isfinite(logits)])
    return tolerance(logits.shape[-1] + 2, 2 * (1 + 2 * float(finite.max(initial=0.0))))
