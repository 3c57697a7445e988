"""Published per-layer costs of the layers self-attention is compared with.

Table 1 of Vaswani et al. (2017), arXiv:1706.03762 (read from its LaTeX source), gives the
complexity per layer of a recurrent layer, O(n·d²), and of a convolutional layer with kernel
width k, O(k·n·d²), for n positions of width d. The gate holds a document's big-O for those
layers to this record (:mod:`tmath.gate.complexity`); self-attention's own cost is proved by
claim ``attention-cost-table``, not recorded here.
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


_TABLE_1 = "Vaswani et al. (2017), arXiv:1706.03762, Table 1"
LAYER_COSTS = {
    "recurrent": LayerCost("recurrent", 1, 2, 0, "O(n \\cdot d^2)", _TABLE_1),
    "convolutional": LayerCost("convolutional", 1, 2, 1, "O(k \\cdot n \\cdot d^2)", _TABLE_1),
}
