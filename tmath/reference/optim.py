"""Optimiser pieces for claims about learning-rate schedules and Adam.

NumPy side: the inverse-square-root warmup schedule and Adam's moment recursions, written
straight from their published definitions. SymPy side: the closed form of an exponential moving
average started at 0, and two named rules that proofs about it need. Published settings are
kept here with their sources, so figures cite one record instead of retyping numbers.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from tmath.engine.proof import Rule

# Vaswani et al. (2017), arXiv:1706.03762: §5.2 (steps), §5.3 (optimizer, schedule),
# §5.4 (label smoothing), Table 3 (d_model of the base model).
VASWANI_2017 = {"warmup_steps": 4000, "beta1": 0.9, "beta2": 0.98, "epsilon": 1e-9,
                "label_smoothing": 0.1, "d_model_base": 512,
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


# -- symbolic ---------------------------------------------------------------------------------

def ema_closed_form(beta: sp.Expr, term: sp.Expr, t: sp.Expr, i: sp.Symbol) -> sp.Sum:
    """Σ_{i=1}^{t} (1−β) β^{t−i} x_i, where ``term`` is x_i written in the index ``i``: the EMA
    m_t = β m_{t−1} + (1−β) x_t unrolled from m_0 = 0."""
    return sp.Sum((1 - beta) * beta**(t - i) * term, (i, 1, t))


def _absorb_last_term(expr: sp.Expr) -> sp.Expr:
    """Σ_{i=a}^{u} f(i) + f(u+1) + rest → Σ_{i=a}^{u+1} f(i) + rest."""
    terms = sp.Add.make_args(expr)
    for s in (a for a in terms if isinstance(a, sp.Sum) and len(a.limits) == 1):
        i, low, high = s.limits[0]
        nxt = s.function.subs(i, high + 1)
        for a in terms:
            if a is not s and sp.simplify(a - nxt) == 0:
                return sp.Sum(s.function, (i, low, high + 1)) + (expr - s - a)
    return expr


ABSORB_LAST_TERM = Rule("a sum up to u plus its (u+1)-th term is the sum up to u+1",
                        _absorb_last_term)


def _general_branch(expr: sp.Expr) -> sp.Expr:
    return expr.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1].expr)


GEOMETRIC_BRANCH = Rule("0 < β < 1, so β ≠ 1: the geometric series takes its β ≠ 1 form",
                        _general_branch)
