"""Tiled attention with an online softmax (the FlashAttention forward pass).

A block of scores is summarised by its running statistics: the max ``m``, the sum
``ℓ = Σ exp(s − m)`` and the weighted sum ``o = Σ exp(s − m) v``. Two summaries merge after
each is rescaled to the common max. The update of the running sums is passed in by the
caller, so a claim can run the algorithm with the update it states (Dao et al. 2022,
arXiv:2205.14135, Alg. 1).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np

from tmath.engine.experiment import tolerance

Update = Callable[..., tuple[np.ndarray, np.ndarray]]
"""``update(l, o, m_old, m_new, scores, v, n_old, n_new) -> (l, o)``: the running sums after
a key block; ``scores`` and ``v`` hold the whole key range (scores outside the current block
are NaN, so an update that reads them fails), the block is keys n_old+1..n_new (1-based)."""


class Summary(NamedTuple):
    """Running statistics of some scores (last axis) and their values."""

    m: np.ndarray
    l: np.ndarray
    o: np.ndarray


def summarise(s: np.ndarray, v: np.ndarray) -> Summary:
    """Max, exp-sum and exp-weighted sum of the scores ``s`` (rows) against values ``v``."""
    m = s.max(axis=-1)
    p = np.exp(s - m[..., None])
    return Summary(m, p.sum(axis=-1), p @ v)


def flash_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, update: Update,
                    block_q: int, block_k: int) -> np.ndarray:
    """softmax(QKᵀ/√d)V computed tile by tile, never holding more than a block of scores.

    For each query block the key/value blocks stream through; ``update`` folds each block
    into the running sums, with the running max m_old before the block and m_new after it
    (m starts at −∞, ℓ and o at 0). The output is o/ℓ after the last block.
    """
    scale = 1 / np.sqrt(q.shape[-1])
    out = np.empty((q.shape[0], v.shape[-1]))
    for qs in range(0, q.shape[0], block_q):
        qb = q[qs:qs + block_q] * scale
        m = np.full(qb.shape[0], -np.inf)
        l = np.zeros(qb.shape[0])
        o = np.zeros((qb.shape[0], v.shape[-1]))
        for ks in range(0, k.shape[0], block_k):
            ke = min(ks + block_k, k.shape[0])
            scores = np.full((k.shape[0], qb.shape[0]), np.nan)
            scores[ks:ke] = (qb @ k[ks:ke].T).T
            m_new = np.maximum(m, np.nanmax(scores[ks:ke], axis=0))
            l, o = update(l, o, m, m_new, scores, v, ks, ke)
            m = m_new
        out[qs:qs + block_q] = o / l[:, None]
    return out


def rescaling(factor: Callable[[np.ndarray, np.ndarray], Any]) -> Update:
    """The textbook update with rescaling factor ``factor(m_old, m_new)`` (e^{m_old − m_new}
    is the right one): ℓ ← c·ℓ + Σ_block e^{s − m_new}, o ← c·o + Σ_block e^{s − m_new} v."""
    def update(l, o, m_old, m_new, scores, v, n_old, n_new):
        c = np.broadcast_to(np.asarray(factor(m_old, m_new), dtype=float), np.shape(m_new))
        p = np.exp(scores[n_old:n_new] - m_new)
        return c * l + p.sum(axis=0), c[:, None] * o + p.T @ v[n_old:n_new]
    return update


def formula_update(formulas: Any, names: tuple) -> Update:
    """The update a claim states as SymPy formulas (ℓ_{t+1}, o_{t+1}) of the symbols ``names``
    = (ℓ_t, o_t, m_t, m_{t+1}, n_t, n_{t+1}) and of the scores ``s[j]`` and values ``v[j]`` of
    :mod:`tmath.reference.formulas`, evaluated for all rows at once (NaN if it does not
    evaluate, so a test on its output fails)."""
    from tmath.reference import indexed
    from tmath.reference.formulas import s, v

    def update(l, o, m_old, m_new, scores, values, n_old, n_new):
        bound = dict(zip(names, (l[:, None], o, m_old[:, None], m_new[:, None], n_old, n_new)))
        found = [np.broadcast_to(indexed.values(part, arrays={s: scores[:, :, None],
                                                              v: values[:, None, :]},
                                                values=bound, batch=o.shape), o.shape)
                 for part in formulas]
        return found[0][:, 0], found[1]
    return update


def attention_tolerance(q: np.ndarray, k: np.ndarray, v: np.ndarray, computations: int = 2,
                        extra_ops: int = 0) -> float:
    """Rounding bound on the gap between computations of softmax(QKᵀ/√d)V (Higham's γ_n).

    A score s_ij carries ≤ γ_{d+1}·Σ_c|q_ic k_jc|/√d; shifting the scores by δ moves each
    softmax weight by a relative ≤ 2δ (numerator and normaliser). The weights add γ_{T+3}
    (subtract, exp, a T-term sum, divide) plus ``extra_ops`` (e.g. online rescalings), and the
    weighted sum γ_T, all relative to Σ_j w_ij|v_j| ≤ max|v|. ``computations`` results, each
    with this error, enter the comparison.
    """
    d, n = q.shape[-1], k.shape[0]
    score = float((np.abs(q) @ np.abs(k).T).max()) / np.sqrt(d)
    each = 2 * tolerance(d + 1, score) + tolerance(2 * n + 3 + extra_ops, 1.0)
    return computations * each * float(np.abs(v).max())
