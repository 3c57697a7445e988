"""Published per-layer costs of the layers self-attention is compared with.

Table 1 of Vaswani et al. (2017), arXiv:1706.03762 (read from its LaTeX source), gives the
complexity per layer of a recurrent layer, O(n·d²), and of a convolutional layer with kernel
width k, O(k·n·d²), for n positions of width d. The gate holds a document's big-O for those
layers to this record (:mod:`tmath.gate.complexity`); self-attention's own cost is proved by
claim ``attention-cost-table``, not recorded here. Restricted self-attention (a neighbourhood of
r positions) costs O(r·n·d).

The same table gives each layer's sequential operations and maximum path length
(:data:`ORDERS`), as big-O arguments in n (positions), k (kernel width) and r
(neighbourhood): self-attention 1 and 1, recurrent n and n, convolutional 1 and log_k(n) (the
paper's text, §4, also gives n/k for contiguous kernels), restricted self-attention 1 and n/r.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LayerCost:
    """A layer's time per layer as powers of the sequence length, width and kernel width."""

    layer: str
    length: int
    width: int
    kernel: int
    printed: str
    source: str
    letter: str = "k"
    """The layer's own size whose power is ``kernel`` (k the kernel width, r the
    neighbourhood)."""


_TABLE_1 = "Vaswani et al. (2017), arXiv:1706.03762, Table 1"
LAYER_COSTS = {
    "recurrent": LayerCost("recurrent", 1, 2, 0, "O(n \\cdot d^2)", _TABLE_1),
    "convolutional": LayerCost("convolutional", 1, 2, 1, "O(k \\cdot n \\cdot d^2)", _TABLE_1),
    "restricted": LayerCost("restricted self-attention", 1, 1, 1, "O(r \\cdot n \\cdot d)",
                            _TABLE_1, letter="r"),
}

ORDERS = {   # (layer, what): the big-O arguments Table 1 (and §4's text) accepts
    ("self-attention", "sequential"): ("1",), ("self-attention", "path"): ("1",),
    ("recurrent", "sequential"): ("n",), ("recurrent", "path"): ("n",),
    ("convolutional", "sequential"): ("1",),
    ("convolutional", "path"): ("\\log_k(n)", "n/k"),
    ("restricted", "sequential"): ("1",), ("restricted", "path"): ("n/r",),
}
"""Sequential operations and maximum path length of each layer of Table 1."""
