"""Toy experiments for the heuristic prose claims.

The toys are small on purpose: they test what can be tested at initialisation on random
weights and data, and the claims that use them say what they do not show.
"""

from __future__ import annotations

import math

import numpy as np

EPS = 1e-12  # LayerNorm's ε in the toy: far below the spread of its inputs


def _layer_norm(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu = y.mean(-1, keepdims=True)
    sd = np.sqrt(((y - mu) ** 2).mean(-1, keepdims=True) + EPS)
    return (y - mu) / sd, sd


def _layer_norm_backward(normed: np.ndarray, sd: np.ndarray, grad: np.ndarray) -> np.ndarray:
    g = grad / sd
    return g - g.mean(-1, keepdims=True) - normed * (g * normed).mean(-1, keepdims=True)


def block_gradients(rng: np.random.Generator, placement: str, depth: int,
                    stacks: int = 1, width: int = 32, batch: int = 64) -> np.ndarray:
    """‖∂loss/∂W₂‖ of every block (bottom first) at initialisation, for ``stacks``
    independent stacks: an array of shape (stacks, depth).

    A stack of ``depth`` residual blocks F(x) = W₂ relu(W₁ x) (He-initialised W₁, W₂ with
    variance 1/width, so a block roughly preserves the variance of its input), with LayerNorm
    after each addition (``"post-norm"``: x ← LN(x + F(x))) or at each branch's input
    (``"pre-norm"``: x ← x + F(LN(x)), and a final LN). The loss is a random linear read-out
    of the output, averaged over a batch of standard-normal inputs.
    """
    if placement not in ("pre-norm", "post-norm"):
        raise ValueError(f"unknown placement {placement!r}")
    pre = placement == "pre-norm"
    w1 = rng.normal(0.0, math.sqrt(2.0 / width), (depth, stacks, width, width))
    w2 = rng.normal(0.0, math.sqrt(1.0 / width), (depth, stacks, width, width))
    t1, t2 = w1.transpose(0, 1, 3, 2), w2.transpose(0, 1, 3, 2)
    x = rng.standard_normal((stacks, batch, width))
    saved = []
    for layer in range(depth):
        if pre:
            u, sd = _layer_norm(x)
            h = u @ t1[layer]
            r = np.maximum(h, 0.0)
            saved.append((u, sd, h, r))
            x = x + r @ t2[layer]
        else:
            h = x @ t1[layer]
            r = np.maximum(h, 0.0)
            u, sd = _layer_norm(x + r @ t2[layer])
            saved.append((u, sd, h, r))
            x = u
    readout = rng.standard_normal((stacks, 1, width))
    grad = np.broadcast_to(readout, (stacks, batch, width)) / batch
    if pre:
        out, sd_out = _layer_norm(x)
        grad = _layer_norm_backward(out, sd_out, grad)
    norms = np.empty((stacks, depth))
    for layer in reversed(range(depth)):
        u, sd, h, r = saved[layer]
        g = grad if pre else _layer_norm_backward(u, sd, grad)
        norms[:, layer] = np.linalg.norm(g.transpose(0, 2, 1) @ r, axis=(1, 2))
        back = ((g @ w2[layer]) * (h > 0)) @ w1[layer]
        grad = grad + _layer_norm_backward(u, sd, back) if pre else g + back
    return norms
