"""Tiled attention with an online softmax (the FlashAttention forward pass).

A block of scores is summarised by its running statistics: the max ``m``, the sum
``ℓ = Σ exp(s − m)`` and the weighted sum ``o = Σ exp(s − m) v``. Two summaries merge after
each is rescaled to the common max; the rescaling factor is passed in by the caller, so a claim
can run the algorithm with the factor it states (Dao et al. 2022, arXiv:2205.14135, Alg. 1).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from tmath.engine.experiment import tolerance

Rescale = Callable[[np.ndarray, np.ndarray], np.ndarray]


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


def merge(a: Summary, b: Summary, factor_a: Rescale, factor_b: Rescale) -> Summary:
    """Combine two summaries at the common max; ``factor_x(m_x, m)`` rescales summary x."""
    m = np.maximum(a.m, b.m)
    ca, cb = _factor(factor_a, a.m, m), _factor(factor_b, b.m, m)
    return Summary(m, ca * a.l + cb * b.l, ca[..., None] * a.o + cb[..., None] * b.o)


def _factor(rescale: Rescale, m_old: np.ndarray, m_new: np.ndarray) -> np.ndarray:
    """The rescaling factors as a float array of the rows' shape (a constant is broadcast)."""
    return np.broadcast_to(np.asarray(rescale(m_old, m_new), dtype=float), np.shape(m_new))


def flash_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, rescale: Rescale,
                    block_q: int, block_k: int) -> np.ndarray:
    """softmax(QKᵀ/√d)V computed tile by tile, never holding more than a block of scores.

    For each query block the key/value blocks stream through; the running sums are multiplied
    by ``rescale(m_old, m_new)`` whenever the running max grows.
    """
    scale = 1 / np.sqrt(q.shape[-1])
    out = np.empty((q.shape[0], v.shape[-1]))
    for qs in range(0, q.shape[0], block_q):
        qb = q[qs:qs + block_q] * scale
        m = np.full(qb.shape[0], -np.inf)
        l = np.zeros(qb.shape[0])
        o = np.zeros((qb.shape[0], v.shape[-1]))
        for ks in range(0, k.shape[0], block_k):
            s = qb @ k[ks:ks + block_k].T
            m_new = np.maximum(m, s.max(axis=-1))
            p = np.exp(s - m_new[:, None])
            c = _factor(rescale, m, m_new)
            l = c * l + p.sum(axis=-1)
            o = c[:, None] * o + p @ v[ks:ks + block_k]
            m = m_new
        out[qs:qs + block_q] = o / l[:, None]
    return out


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
