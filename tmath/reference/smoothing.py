"""Label smoothing in numbers: the loss of a logit gap against a smoothed target, its
numerical minimiser, and the curves that show it.

Everything is computed from the definitions (the smoothed label, softmax, cross-entropy), not
from the closed form g* = log(1 + K(1 − ε)/ε) that a claim states, so a check comparing the
two tests the statement.
"""

from __future__ import annotations

import numpy as np

from tmath.reference.information import cross_entropy, smooth_labels
from tmath.reference.nn import softmax

__all__ = ["gap_loss", "numeric_gap", "gap_loss_plot", "saturation_logits"]


def gap_loss(gap: float, classes: int, epsilon: float) -> float:
    """Cross-entropy of the logits (g, 0, …, 0) against the label of class 1 smoothed by ε."""
    logits = np.zeros(classes)
    logits[0] = gap
    target = smooth_labels(np.eye(1, classes)[0], epsilon)
    return float(cross_entropy(target, softmax(logits)))


def numeric_gap(classes: int, epsilon: float) -> tuple[float, float]:
    """The gap g that minimises :func:`gap_loss` (a convex function of g, smallest at some g > 0
    for 0 < ε < 1), by golden-section search, and how far from the true minimiser it may be: a loss known to within its rounding
    error δL (Higham's bound over its 3K + 10 operations) pins the minimum down to √(2δL/L''),
    with the curvature L'' from a central difference."""
    from tmath.engine.stats import rounding_tolerance

    def loss(g: float) -> float:
        return gap_loss(g, classes, epsilon)

    low, high = -1.0, 1.0
    while loss(high) < loss(high / 2):  # walk right until the minimum is bracketed
        high *= 2
    ratio = (np.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    while high - low > 1e-12 * (1 + abs(high)):
        if loss(a) <= loss(b):
            high, b = b, a
            a = high - ratio * (high - low)
        else:
            low, a = a, b
            b = low + ratio * (high - low)
    g, h = (low + high) / 2, 1e-2
    curvature = (loss(g + h) - 2 * loss(g) + loss(g - h)) / h**2
    rounding = rounding_tolerance(3 * classes + 10, 1 + abs(g))
    return g, 1e-9 * (1 + abs(g)) + float(np.sqrt(2 * rounding / curvature))


def gap_loss_plot(classes: int = 5):
    """The smoothed loss against g for a few ε (ε = 0: the one-hot loss, which has no
    minimum), and the curve of the minima g*(ε) = log(1 + K(1−ε)/ε)."""
    from tmath.engine.plots import Plot, Series

    gs = np.linspace(0, 9, 181)
    series = [Series(f"ε = {e:g}" + (" (one-hot: no minimum)" if e == 0 else ""), tuple(gs),
                     tuple(gap_loss(v, classes, e) for v in gs))
              for e in (0.0, 0.05, 0.1, 0.2, 0.3)]
    eps_grid = np.linspace(0.035, 0.5, 60)
    g_star = np.log(1 + classes * (1 - eps_grid) / eps_grid)
    series.append(Series("minima: g* = log(1 + K(1−ε)/ε), ε from 0.035 to 0.5", tuple(g_star),
                         tuple(gap_loss(v, classes, e) for v, e in zip(g_star, eps_grid)),
                         "dashed"))
    zeros = ", ".join(["0"] * (classes - 1))
    return Plot(f"Smoothed loss for logits (g, {zeros}), K = {classes}", tuple(series),
                xlabel="logit gap g", ylabel="cross-entropy with smoothed target (nats)")


def saturation_logits(rng: np.random.Generator, rows: int, others: int, scale: float,
                      least: float = 40.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Logit vectors of ``others`` + 1 classes, class 0 first, to watch softmax_0 saturate:
    ``plain`` (normal with sd ``scale``); ``grown``, where every gap z_0 − z_j is at least
    ``least`` (random directions, scaled up); ``held``, the same but with the first gap at a
    random d (returned last), so only the other gaps are large."""
    plain = rng.normal(0, scale, size=(rows, others + 1))
    slopes = np.abs(rng.normal(0, 2, size=(rows, others))) + 0.1
    far = -slopes * (least / slopes.min(-1, keepdims=True))
    zeros, d = np.zeros((rows, 1)), rng.normal(0, 3, size=rows)
    held = np.concatenate([zeros, -d[:, None], far[:, 1:]], -1)
    return plain, np.concatenate([zeros, far], -1), held, d
