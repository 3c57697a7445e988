"""SymPy formulas of attention that proofs start from and checks evaluate.

* :func:`exp_sum` — Σ_{j=lo}^{hi} e^{s_j − m}·w_j over scores ``s[j]`` and values ``v[j]``,
  the running sums of an online softmax;
* :func:`attention_entry` — component e of Σ_t softmax_t(q·k_t/√d_k) v_t for one query;
* :func:`row_softmax` — softmax by rows of a matrix expression in matrix algebra,
  E ⊙ ((E·1)^{∘−1}·1ᵀ) with E = exp∘(scale·S), so that shape rules see every product it takes.
"""

from __future__ import annotations

from typing import Any, Callable

import sympy as sp

s, v = sp.IndexedBase("s"), sp.IndexedBase("v")
j = sp.Symbol("j", integer=True)


def exp_sum(lo: Any, hi: Any, ref: Any, weight: Any = 1) -> sp.Sum:
    """Σ_{j=lo}^{hi} exp(s_j − ref)·weight."""
    return sp.Sum(sp.exp(s[j] - ref) * weight, (j, lo, hi))


def attention_entry(q_of: Callable[[sp.Symbol], sp.Expr], keys: sp.IndexedBase,
                    values: sp.IndexedBase, n_keys: Any, width: Any, component: Any,
                    t: sp.Symbol, c: sp.Symbol) -> sp.Expr:
    """Component ``component`` of Σ_t softmax_t(q·k_t/√width) v_t for the query whose c-th
    feature is ``q_of(c)``, over keys t = 1..n_keys."""
    score = sp.exp(sp.Sum(q_of(c) * keys[t, c], (c, 1, width)) / sp.sqrt(width))
    return sp.Sum(score * values[t, component], (t, 1, n_keys)) / sp.Sum(score, (t, 1, n_keys))


def row_softmax(scores: sp.MatrixExpr, scale: Any = 1) -> sp.MatrixExpr:
    """softmax of each row of ``scale``·``scores``, written with matrix products and entrywise
    maps (the scale inside the entrywise exp, so no product carries a scalar factor)."""
    z = sp.Symbol("z")
    exp = scores.applyfunc(sp.Lambda(z, sp.exp(scale * z)))
    normaliser = (exp * sp.OneMatrix(scores.shape[1], 1)).applyfunc(sp.Lambda(z, 1 / z))
    return sp.HadamardProduct(exp, normaliser * sp.OneMatrix(1, scores.shape[1]))
