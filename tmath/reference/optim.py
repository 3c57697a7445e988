"""Optimiser pieces for claims about learning-rate schedules and Adam.

NumPy side: the inverse-square-root warmup schedule and Adam's moment recursions, written
straight from their published definitions, gradients of several shapes to feed them, and the
exact first two moments of an exponential moving average (EMA) of independent inputs, got by
composing the recursion's affine maps (never from the closed forms the claims state). SymPy
side: the closed form of an EMA started at 0, and evaluating a statement's value (a sum over
the inputs, or a function of one gradient) on arrays, NaN where it does not evaluate.
Published settings are kept here with their sources, so figures cite one record instead of
retyping numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp

from tmath.reference.compiled import lambdified
from tmath.reference.configurations import TRANSFORMER_BASE

from tmath.reference.distributions import STANDARDIZED

# Vaswani et al. (2017), arXiv:1706.03762: §5.2 (steps), §5.3 (optimizer, schedule),
# §5.4 (label smoothing), Table 3 (d_model of the base model).
VASWANI_2017 = {"warmup_steps": TRANSFORMER_BASE.value("warmup_steps"),
                "beta1": TRANSFORMER_BASE.value("beta_1"), "beta2": TRANSFORMER_BASE.value("beta_2"),
                "epsilon": TRANSFORMER_BASE.value("adam_epsilon"),
                "label_smoothing": TRANSFORMER_BASE.value("label_smoothing"),
                "d_model_base": TRANSFORMER_BASE.value("d_model"),
                "train_steps_base": 100_000, "train_steps_big": 300_000}
# Kingma & Ba (2015), arXiv:1412.6980, Algorithm 1: "good default settings".
ADAM_DEFAULTS = {"alpha": 1e-3, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}


def noam_lr(step, d_model: float, warmup: float) -> np.ndarray:
    """lr = d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)."""
    step = np.asarray(step, dtype=float)
    return d_model**-0.5 * np.minimum(step**-0.5, step * warmup**-1.5)


def adam_moments(grads: np.ndarray, beta1: float, beta2: float):
    """Run m_t = β1 m_{t−1} + (1−β1) g_t and v_t = β2 v_{t−1} + (1−β2) g_t² from m_0 = v_0 = 0.

    ``grads`` has shape (t, ...): one gradient per step. Returns (m_t, v_t) after the last step.
    """
    grads = np.asarray(grads, dtype=float)
    m = np.zeros(grads.shape[1:])
    v = np.zeros(grads.shape[1:])
    for g in grads:
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
    return m, v


def gradients(law: str, mean: float, sd: float, steps: int) -> Callable:
    """A sampler of i.i.d. gradients g_1..g_t with the given law's shape (a name of
    :data:`tmath.reference.distributions.STANDARDIZED`), mean and standard deviation:
    ``sampler(rng, m)`` has shape (t, m)."""
    shape = STANDARDIZED[law]
    return lambda rng, m: mean + sd * shape(rng, (steps, m))


@dataclass(frozen=True)
class GradientLaw:
    """A parameter domain (for ``experiment.draw``): the shape of the gradients' law, one of
    :data:`tmath.reference.distributions.STANDARDIZED`, drawn at random; its one edge value is
    the skewed centred exponential."""

    options: tuple[str, ...] = tuple(STANDARDIZED)
    edge: str = "centred exponential"

    def edge_values(self) -> tuple[str, ...]:
        return (self.edge,)

    def draw(self, rng: np.random.Generator) -> str:
        return self.options[int(rng.integers(len(self.options)))]


def iterate_affine(slope: float, offset: float, times: int, start: float = 0.0) -> float:
    """x_t for x_k = slope·x_{k−1} + offset, x_0 = ``start``: the t-fold composition of the
    affine map, by repeated squaring (log t compositions, so t may be 10⁶)."""
    a, c = 1.0, 0.0          # the composition so far: x ↦ a·x + c
    pa, pc = slope, offset   # the map composed with itself 2^k times
    while times:
        if times & 1:
            a, c = pa * a, pa * c + pc
        pa, pc = pa * pa, pa * pc + pc
        times >>= 1
    return a * start + c


def ema_mean_variance(beta: float, steps: int, mean: float, variance: float) -> tuple[float, float]:
    """Exact mean and variance of m_t = β m_{t−1} + (1−β) g_t, m_0 = 0, for independent g_k
    with the given mean and variance: E[m_k] = β E[m_{k−1}] + (1−β) E[g] by linearity, and
    Var(m_k) = β² Var(m_{k−1}) + (1−β)² Var(g) because g_k is independent of m_{k−1}."""
    return (iterate_affine(beta, (1 - beta) * mean, steps),
            iterate_affine(beta * beta, (1 - beta) ** 2 * variance, steps))


def one_minus_power(beta: float, steps: int) -> float:
    """1 − β^t without cancellation for β near 1."""
    return -math.expm1(steps * math.log(beta))


# -- symbolic ---------------------------------------------------------------------------------

def ema_closed_form(beta: sp.Expr, term: sp.Expr, t: sp.Expr, i: sp.Symbol) -> sp.Sum:
    """Σ_{i=1}^{t} (1−β) β^{t−i} x_i, where ``term`` is x_i written in the index ``i``: the EMA
    m_t = β m_{t−1} + (1−β) x_t unrolled from m_0 = 0."""
    return sp.Sum((1 - beta) * beta**(t - i) * term, (i, 1, t))


def sum_over_inputs(expr: Any, inputs: sp.IndexedBase, values: np.ndarray,
                    at: Mapping[Any, Any]) -> np.ndarray:
    """``expr`` (a sum over ``inputs[i]``, i = 1..t, say) with the symbols of ``at`` set and
    ``inputs[k]`` = ``values[k − 1]`` (shape (t, samples)): one number per sample. An input
    outside 1..t, or anything that does not evaluate, gives NaN, so the test fails."""
    padded = np.concatenate([np.full((1,) + values.shape[1:], np.nan), values])
    symbols = list(at)
    try:
        f = lambdified([inputs, *symbols], sp.sympify(expr))
        with np.errstate(all="ignore"):
            out = np.asarray(f(padded, *[_exact(at[s]) for s in symbols]), dtype=float)
        return np.broadcast_to(out, values.shape[1:]).copy()
    except (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, NameError,
            AttributeError, OverflowError):
        return np.full(values.shape[1:], np.nan)


def as_function_of(expr: Any, variable: sp.Symbol, samples: np.ndarray,
                   at: Mapping[Any, Any]) -> np.ndarray:
    """``expr`` as a function of ``variable`` evaluated on ``samples``, the symbols of ``at``
    set; NaN where it does not evaluate to a real number."""
    try:
        body = sp.sympify(expr).xreplace({sp.sympify(k): sp.sympify(v) for k, v in at.items()})
        f = lambdified([variable], body)
        with np.errstate(all="ignore"):
            out = np.asarray(f(samples))
        if np.iscomplexobj(out):
            out = np.where(np.abs(out.imag) > 1e-12, np.nan, out.real)
        return np.broadcast_to(out.astype(float), np.shape(samples)).copy()
    except (TypeError, ValueError, ZeroDivisionError, NameError, AttributeError, OverflowError):
        return np.full(np.shape(samples), np.nan)


def _exact(value: Any) -> Any:
    """Whole numbers stay ints (a sum's bound must be one for ``range``)."""
    return int(value) if isinstance(value, (int, np.integer)) else value


def not_one(text: str, *betas: sp.Symbol):
    """A premise 0 < β < 1 in the forms SymPy's geometric series asks about: β^k = 1 (for
    k = ±1, ±2) is false, so a ``Piecewise`` keeps only its β ≠ 1 branch when substituted.
    (Built unevaluated: SymPy cannot decide them anyway, so the forms are the same, and asking
    it cost 30 ms at every import.)"""
    from tmath.engine.model import Premise

    return Premise(text, {sp.Eq(b**k, 1, evaluate=False): sp.false
                          for b in betas for k in (1, -1, 2, -2)})


# -- illustrations (fixed seeds; never part of a check) ----------------------------------------

def schedule_plot(d_model: int, warmup: int):
    """The warmup schedule for one setting, with its two branches and its peak at step = w."""
    from tmath.engine.plots import Plot, Series

    steps = np.linspace(1, 5 * warmup, 500)
    up, down = steps[steps <= 1.6 * warmup], steps[steps >= 0.5 * warmup]
    peak = noam_lr(warmup, d_model, warmup)
    return Plot(f"Warmup schedule, d_model = {d_model}, warmup w = {warmup}", (
        Series("lr = d^−½·min(step^−½, step·w^−3/2)", tuple(steps),
               tuple(noam_lr(steps, d_model, warmup))),
        Series("rising branch d^−½·step·w^−3/2", tuple(up),
               tuple(d_model**-0.5 * up * warmup**-1.5), "dashed"),
        Series("falling branch d^−½·step^−½", tuple(down), tuple(d_model**-0.5 * down**-0.5),
               "dashed"),
        Series(f"step = w: peak lr = (d·w)^−½ = {peak:.2e}", (warmup, warmup), (0.0, peak),
               "dashed")), xlabel="training step", ylabel="learning rate")


def first_moment_plot(beta1: float, runs: int = 2000, steps: int = 50, seed: int = 1412):
    """Adam's first moment from m_0 = 0 averaged over ``runs`` runs of Gaussian gradients with
    E[g] = 1 and σ = 1, with and without the bias correction, against (1 − β1^t)·E[g]."""
    from tmath.engine.plots import Plot, Series

    rng, ts = np.random.default_rng(seed), np.arange(1, steps + 1)
    moment, raw, corrected = np.zeros(runs), [], []
    for step in ts:
        moment = beta1 * moment + (1 - beta1) * (1.0 + rng.standard_normal(runs))
        raw.append(moment.mean())
        corrected.append(moment.mean() / (1 - beta1**step))
    return Plot(f"Adam's first moment from m_0 = 0, β1 = {beta1}, E[g] = 1", (
        Series(f"mean of m_t over {runs} runs (no correction)", tuple(ts), tuple(raw)),
        Series(f"mean of m̂_t = m_t/(1 − β1^t) over {runs} runs", tuple(ts), tuple(corrected)),
        Series("statement: E[m_t] = (1 − β1^t)·E[g]", tuple(ts), tuple(1 - beta1**ts), "dashed"),
        Series("E[g] = 1", (1.0, float(ts[-1])), (1.0, 1.0), "dashed")),
        xlabel="step t", ylabel="average first moment")
