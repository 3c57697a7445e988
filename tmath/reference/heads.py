"""Multi-head attention pieces: split the feature axis into heads, attend per head, merge.

Two independent implementations are kept on purpose: ``multi_head`` reshapes the projected
matrices (the way libraries do it), ``multi_head_by_slices`` slices the weight matrices column
by column (the way the per-head formulas are written). Claims compare the two.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tmath.engine.experiment import tolerance
from tmath.engine.parameters import Integers, Point
from tmath.reference.nn import attention


def split_heads(x: np.ndarray, h: int) -> np.ndarray:
    """(T, d_model) → (h, T, d_model/h): head i gets feature columns i·d_k … (i+1)·d_k − 1."""
    t, d_model = x.shape
    if d_model % h:
        raise ValueError(f"d_model={d_model} is not divisible by h={h}")
    return x.reshape(t, h, d_model // h).transpose(1, 0, 2)


def merge_heads(heads: np.ndarray) -> np.ndarray:
    """(h, T, d_k) → (T, h·d_k): Concat(head_1, …, head_h) along the feature axis."""
    h, t, d_k = heads.shape
    return heads.transpose(1, 0, 2).reshape(t, h * d_k)


def multi_head(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
               w_o: np.ndarray, h: int, mask: np.ndarray | None = None) -> np.ndarray:
    """Concat(head_1, …, head_h)·W_O with head_i = Attention(Q⁽ⁱ⁾, K⁽ⁱ⁾, V⁽ⁱ⁾) (reshape version)."""
    q, k, v = (split_heads(x @ w, h) for w in (w_q, w_k, w_v))
    return merge_heads(attention(q, k, v, mask=mask)) @ w_o


def multi_head_by_slices(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
                         w_o: np.ndarray, d_k: int) -> np.ndarray:
    """The same map written head by head with per-head weight blocks of width ``d_k``."""
    heads = []
    for start in range(0, w_q.shape[1], d_k):
        block = slice(start, start + d_k)
        heads.append(attention(x @ w_q[:, block], x @ w_k[:, block], x @ w_v[:, block]))
    return np.concatenate(heads, axis=1) @ w_o


def projection_parameters(d_model: int, h: int) -> dict[str, list[np.ndarray]]:
    """Zero-filled per-head weights and biases of the four projections (shapes only matter)."""
    d_k = d_model // h
    per_head = {name: [np.zeros((d_model, d_k)) for _ in range(h)]
                for name in ("W_Q", "W_K", "W_V")}
    biases = {f"b_{name[2]}": [np.zeros(d_k) for _ in range(h)] for name in ("W_Q", "W_K", "W_V")}
    return {**per_head, **biases, "W_O": [np.zeros((h * d_k, d_model))], "b_O": [np.zeros(d_model)]}


def multi_head_tolerance(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
                         w_o: np.ndarray, h: int) -> float:
    """Rounding bound for the difference of two float64 evaluations of multi-head attention.

    Counted per output entry: the projections are d_model-term dot products (γ_D on |X||W|);
    score errors of both projections and of the d_k-term score become relative errors of the
    softmax weights (factor 2 for the shift by the max), bounded by γ_{4D+2d_k}·B with B the
    largest scaled score built from |X||W_Q| and |X||W_K|; the softmax adds γ_{2T+3}; the value
    projection and the output projection add γ_{2D}. Everything is relative to
    A = max(|X||W_V|) times the largest column sum of |W_O|. Two evaluations: doubled.
    """
    t, d_model = x.shape
    d_k = d_model // h
    ax = np.abs(x)
    qa, ka = split_heads(ax @ np.abs(w_q), h), split_heads(ax @ np.abs(w_k), h)
    big = float(np.max(qa @ ka.transpose(0, 2, 1))) / np.sqrt(d_k)
    size = float(np.max(ax @ np.abs(w_v))) * float(np.max(np.abs(w_o).sum(axis=0)))
    return tolerance(6 * d_model + 2 * d_k + 2 * t + 3, 2 * (1 + 2 * big) * size)


def head_points(experiment: Any, count: int, d_model: Any, h: Any, heads: Integers,
                widths: Integers) -> list[Point]:
    """Points (d_model, h) with h dividing d_model: h and the per-head width are drawn from the
    claim's stream (edges first) and d_model = h · width."""
    drawn = experiment.draw({h: heads, "width": widths}, count)
    return [Point(((str(d_model), int(p[h]) * int(p.width)), (str(h), int(p[h]))), (d_model, h))
            for p in drawn]
