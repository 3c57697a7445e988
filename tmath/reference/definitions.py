"""Definitions claims share, built from each claim's own symbols (a claim's meaning is
compared in its objects, :mod:`tmath.meaning`)."""

from __future__ import annotations

import sympy as sp

from tmath.engine.model import Definition
from tmath.latex.operators import Attention, Softmax, Transpose


def attention(queries: sp.Basic, keys: sp.Basic, values: sp.Basic, d_k: sp.Basic,
              mask: sp.Basic = 0, name: sp.Basic | None = None) -> Definition:
    """``name(Q, K, V) = softmax((QKᵀ + mask)/√d_k)·V`` (``name``: Attention by default)."""
    head = (name or Attention)(queries, keys, values)
    scores = (queries * Transpose(keys) + mask) / sp.sqrt(d_k)
    what = "attention" + (" with a mask added to QKᵀ before the division by √d_k" if mask else "")
    return Definition(f"{what}: the rows of softmax(QKᵀ/√d_k) weight the rows of V",
                      {head: Softmax(scores) * values})
