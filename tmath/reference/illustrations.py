"""Pictures for the claims of sections 1–3 (``tmath explain ID --plot``): plain plot data, built
from the reference implementations with fixed inputs, so a picture is the same on every run.

None of them is part of a check; they show what a claim states: the spread of qᵀk growing like
√d_k, the softmax Jacobian vanishing as scores are scaled up, softmax at three temperatures,
entropy rising with temperature, the sinusoidal encoding matrix, and a shift turning a PE pair.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from tmath.engine.plots import Plot, Series
from tmath.reference.distributions import STANDARDIZED, dot_products
from tmath.reference.nn import entropy, softmax
from tmath.reference.positional import frequencies, sinusoidal


def dot_product_spread() -> Plot:
    """Histograms of qᵀk (Rademacher q × uniform k) at d_k = 4, 64, 256 against N(0, d_k)."""
    rng = np.random.default_rng(1706)
    bars, densities = [], []
    for d in (256, 64, 4):                    # widest first, so the narrow ones stay visible
        sd = math.sqrt(d)
        samples = dot_products(rng, 4000, d, STANDARDIZED["Rademacher"], STANDARDIZED["uniform"])
        counts, edges = np.histogram(samples, bins=30, range=(-4 * sd, 4 * sd))
        centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
        bars.append(Series(f"qᵀk, d_k = {d} (4000 draws)", tuple(centres),
                           tuple(counts / (samples.size * width)), "bar"))
        x = np.linspace(-4 * sd, 4 * sd, 161)
        densities.append(Series(f"N(0, {d}) density", tuple(x),
                                tuple(np.exp(-x**2 / (2 * d)) / math.sqrt(2 * math.pi * d)),
                                "dashed"))
    return Plot("qᵀk spreads out like √d_k (Rademacher q × uniform k)",
                tuple(bars + densities), xlabel="qᵀk", ylabel="density")


def saturation() -> Plot:
    """The largest softmax Jacobian entry at scores c·z, for three z, as c grows."""
    scales = np.linspace(0, 20, 201)  # c = 1 and 20 on [1.0, 0.5, 0.2] are the notes' cases
    curves = {}
    for z in ([1.0, 0.5, 0.2], [1.0, 0.9, 0.0], [2.0, 0.5, 0.3, 0.0, -1.0]):
        worst = [np.abs(np.diag(p) - np.outer(p, p)).max()
                 for p in (softmax(c * np.array(z)) for c in scales)]
        curves[f"z = {z}, gap {z[0] - z[1]:g}"] = (scales, worst)
    return Plot.curves("Largest softmax Jacobian entry at scores c·z: falls like e^(−c·gap)",
                       curves, xlabel="scale c  (c = 20 turns [1.0, 0.5, 0.2] into [20, 10, 4])",
                       ylabel="max |∂p_i/∂z_j|", logy=True)


def temperatures(scores: np.ndarray, values: tuple[float, ...] = (0.5, 1.0, 5.0)) -> Plot:
    """softmax(scores/T) at each T, drawn as step outlines, with the uniform limit."""
    # token j's weight is the flat top over [j − ½, j + ½]
    edges = np.repeat(np.arange(scores.size + 1) + 0.5, 2)[1:-1]
    curves = {f"T = {t}": (edges, np.repeat(softmax(scores / t), 2)) for t in values}
    uniform = Series(f"uniform 1/{scores.size}, the limit T → ∞", (0.5, scores.size + 0.5),
                     (1 / scores.size,) * 2, "dashed")
    shown = ", ".join(f"{s:.1f}" for s in scores)
    picture = Plot.curves(f"softmax([{shown}] / T): colder is sharper, hotter is flatter",
                          curves, xlabel=f"token j (scores {shown})", ylabel="weight p_j")
    return dataclasses.replace(picture, series=picture.series + (uniform,))


def entropy_against_temperature() -> Plot:
    """H(softmax(z/T)) for three z over T from 0.01 to 100."""
    grid = np.geomspace(0.01, 100, 200)
    curves = {}
    for name, z in (("[2, 1, 0.5]", [2.0, 1.0, 0.5]), ("[3, 0, 0, 0, 0]", [3.0, 0, 0, 0, 0]),
                    ("[1, 0.8, …, −2]", [1.0, 0.8, 0.5, 0.2, 0.0, -0.5, -1.0, -2.0])):
        curves[f"z = {name}: n = {len(z)}, log n = {np.log(len(z)):.2f}"] = (
            np.log10(grid), [entropy(softmax(np.array(z) / t)) for t in grid])
    return Plot.curves("Entropy of softmax(z/T) rises from 0 towards log n", curves,
                       xlabel="log₁₀ T", ylabel="H (nats)")


def encoding_matrix(d_model: int = 64) -> Plot:
    """The sinusoidal encoding PE(pos, ·) for positions 0 … d_model − 1 as a heat map."""
    return Plot(f"PE(pos, ·) for d_model = {d_model}: pairs turn slower to the right",
                heatmap=tuple(map(tuple, sinusoidal(np.arange(d_model), d_model))),
                xlabel="dimension (2i: sin, 2i+1: cos)", ylabel="position pos")


def shift_rotation(d_model: int = 64, pair: int = 4, shift: int = 3) -> Plot:
    """A shift by k turns pair i of the encoding by k·ω_i on its circle, from two positions."""
    omega = frequencies(d_model)[pair]
    turn = np.linspace(0, 2 * math.pi, 181)
    # long axes frame the circle: it shows round in the wide panel, with room for the legend
    series = [Series("axes", (-2.85, 2.85, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.6, -1.6), "dashed"),
              Series("(sin pos·ω, cos pos·ω)", tuple(np.sin(turn)), tuple(np.cos(turn)))]
    for start in (1, 9):
        # origin → PE(start) → along the circle → PE(start + k) → origin
        arc = np.linspace(start, start + shift, 30) * omega
        xs, ys = np.r_[0.0, np.sin(arc), 0.0], np.r_[0.0, np.cos(arc), 0.0]
        series.append(Series(f"PE({start}) → PE({start + shift}): kω = {shift * omega:.2f} rad",
                             tuple(xs), tuple(ys)))
    return Plot(f"Shift k = {shift} turns pair i = {pair} (d_model = {d_model}) by kω, wherever "
                "pos is", tuple(series), xlabel="PE(pos, 2i) = sin(pos·ω_i)",
                ylabel="PE(pos, 2i+1) = cos(pos·ω_i)")
