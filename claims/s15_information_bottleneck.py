"""Section 15: the information bottleneck view of attention, and the theorems beneath it."""

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.reference.information import (conditional_mutual_information, markov_chain_joint,
                               mutual_information, random_simplex)
from tmath.engine.plots import Plot, Series

COVER_THOMAS = Source("Cover & Thomas (2006), Elements of Information Theory, 2nd ed., §2.3, "
                      "§2.8 (data-processing inequality)")
SHWARTZ_ZIV = Source("Shwartz-Ziv & Tishby (2017), Opening the Black Box of Deep Neural Networks "
                     "via Information", arxiv="1703.00810")
TISHBY_1999 = Source("Tishby, Pereira & Bialek (1999), The Information Bottleneck Method",
                     arxiv="physics/0004057")
SAXE = Source("Saxe et al. (2018), On the Information Bottleneck Theory of Deep Learning, ICLR",
              url="https://openreview.net/forum?id=ry_WPG-A-")

P_xy, P_x, P_y = sp.symbols("p_xy p_x p_y", positive=True)
P_xyz, P_xz, P_yz, P_z = sp.symbols("p_xyz p_xz p_yz p_z", positive=True)
MI_SHAPES = ((2, 2), (3, 7), (10, 4))  # (|X|, |Y|) checked below
DPI_SHAPES = ((2, 2, 2), (3, 5, 4), (6, 3, 8))  # (|Y|, |X|, |Z|) checked below
IB_BETAS = (1.0, 2.0, 10.0)  # trade-offs β checked below


def _tol(cells, scale):
    # entropies of ≤ 4 tables of `cells` terms (a log, a product, a sum each) compared
    return tolerance(4 * (3 * cells + 2), scale)


@claim(
    id="mutual-information-nonnegative",
    title="Mutual information is the KL divergence of p(x,y) from p(x)p(y), hence ≥ 0",
    section="15.1",
    statement=Statement("I(X;Y) = H(X) − H(X|Y) = E_p(x,y)[log p(x,y)/(p(x)p(y))] = "
                        "D_KL(p(x,y)‖p(x)p(y)) ≥ 0, = 0 iff X, Y independent",
                        sp.log(P_xy / (P_x * P_y)), lhs=sp.Symbol("pointwise I(X;Y)")),
    premises=("a joint distribution p(x,y) on finite alphabets with marginals p(x), p(y)",
              "H(X) − H(X|Y) = E_p(x,y)[−log p(x) + log p(x|y)]"),
    foils=(Foil("I(X;Y) = D_KL(p(x)p(y)‖p(x,y)) (arguments swapped)",
                P_x * P_y / P_xy * sp.log(P_x * P_y / P_xy)),
           Foil("I(X;Y) = E[log p(x,y)/p(x)]", sp.log(P_xy / P_x))),
    depends_on=("gibbs-inequality",),
    sources=(COVER_THOMAS,),
    tags=("information", "inequality"),
)
class MutualInformationNonnegative:
    """Pointwise, −log p(x) + log p(x|y) is the log-ratio of the joint to the product of the
    marginals, so I is a KL divergence and Gibbs' inequality applies."""

    def prove(self, value, proof):
        mi = (proof.chain(-sp.log(P_x) + sp.log(P_xy / P_y), "−log p(x) + log p(x|y)")
              .equals(sp.log(P_xy / (P_x * P_y)), "combine the logs", method="expand_log"))
        proof.conclude(value, mi)

    def check(self, value, experiment):
        rng, pointwise = experiment.rng, sp.lambdify((P_xy, P_x, P_y), value, "numpy")
        for kx, ky in MI_SHAPES:
            joints = random_simplex(rng, 200, kx * ky, 0.7).reshape(200, kx, ky)
            marg_x, marg_y = joints.sum(2, keepdims=True), joints.sum(1, keepdims=True)
            by_def = np.array([mutual_information(j) for j in joints])
            stated = (joints * pointwise(joints, marg_x, marg_y)).sum((1, 2))
            tol = _tol(kx * ky, np.log(kx * ky))
            experiment.close(by_def, stated, tol, f"H(X)+H(Y)−H(X,Y) vs stated, {kx}×{ky}")
            experiment.holds(bool(by_def.min() >= -tol), f"I ≥ 0, {kx}×{ky}",
                             f"min I = {by_def.min():.3g}")
            product = marg_x * marg_y  # independent X, Y with the same marginals
            experiment.close(np.array([mutual_information(j) for j in product]), np.zeros(200),
                             tol, f"I = 0 for independent X, Y, {kx}×{ky}")


@claim(
    id="data-processing-inequality",
    title="Data processing cannot add information: Y → X → Z implies I(Y;Z) ≤ I(Y;X)",
    section="15.1",
    statement=Statement("for a Markov chain Y → X → Z, I(Y;X) − I(Y;Z) = I(Y;X|Z) ≥ 0",
                        sp.log(P_xyz * P_z / (P_xz * P_yz)),
                        lhs=sp.Symbol("pointwise I(Y;X) − I(Y;Z)")),
    premises=("p(y,x,z) = p(y)·p(x|y)·p(z|x) on finite alphabets (Z depends on Y only via X)",
              "both mutual informations written as expectations over p(x,y,z)"),
    foils=(Foil("the gap is I(Y;Z|X)", sp.log(P_xyz * P_x / (P_xy * P_xz))),
           Foil("the gap is E[log p(x,y,z)/(p(x,z)p(y,z))] (p(z) dropped)",
                sp.log(P_xyz / (P_xz * P_yz)))),
    depends_on=("mutual-information-nonnegative", "gibbs-inequality"),
    sources=(COVER_THOMAS, SHWARTZ_ZIV),
    tags=("information", "inequality", "bottleneck"),
)
class DataProcessingInequality:
    """Under the Markov condition p(x,y) = p(x,y,z)·p(x)/p(x,z), and the two pointwise mutual
    informations differ by the pointwise I(Y;X|Z), a conditional KL divergence."""

    def prove(self, value, proof):
        gap = (proof.chain(sp.log(P_xy / (P_x * P_y)) - sp.log(P_yz / (P_y * P_z)),
                           "pointwise I(Y;X) − I(Y;Z)")
               .substitute({P_xy: P_xyz * P_x / P_xz},
                           premise="Markov: p(x,y,z) = p(x,y)·p(z|x) = p(x,y)·p(x,z)/p(x)")
               .equals(sp.log(P_xyz * P_z / (P_xz * P_yz)), "combine the logs",
                       method="expand_log"))
        proof.conclude(value, gap)

    def check(self, value, experiment):
        pointwise = sp.lambdify((P_xyz, P_xy, P_xz, P_yz, P_x, P_y, P_z), value, "numpy")
        for ky, kx, kz in DPI_SHAPES:
            diffs, stated, cmi = [], [], []
            for _ in range(150):
                p = markov_chain_joint(experiment.rng, ky, kx, kz, 0.7)  # axes (y, x, z)
                s = lambda axes: p.sum(axis=axes, keepdims=True)  # noqa: E731
                terms = pointwise(p, s(2), s(0), s(1), s((0, 2)), s((1, 2)), s((0, 1)))
                diffs.append(mutual_information(p, (0,), (1,)) - mutual_information(p, (0,), (2,)))
                stated.append((p * terms).sum())
                cmi.append(conditional_mutual_information(p, 0, 1, given=2))
            tol = _tol(kx * ky * kz, np.log(kx * ky * kz))
            experiment.close(np.array(diffs), np.array(stated), tol,
                             f"I(Y;X) − I(Y;Z) vs stated gap, {ky}×{kx}×{kz}")
            experiment.holds(bool(min(diffs) >= -tol and np.allclose(cmi, diffs, rtol=0, atol=tol)),
                             f"I(Y;Z) ≤ I(Y;X), gap = I(Y;X|Z), {ky}×{kx}×{kz}",
                             f"smallest gap {min(diffs):.3g}")

    def plot(self):
        # Illustrative only, not part of the check: a fixed seed, 1500 random chains Y → X → Z
        # with 4 symbols each, peaked or flat (Dirichlet concentration 0.05, 0.3 or 1). Plots
        # have no scatter style: the chains are sorted by I(Y;X) into 25 groups of 60, and each
        # group shows the chain with the largest I(Y;Z) (at its own coordinates) and its median.
        rng = np.random.default_rng(1508)
        chains = (markov_chain_joint(rng, 4, 4, 4, rng.choice([0.05, 0.3, 1.0]))
                  for _ in range(1500))
        ixy, iyz = np.array([(mutual_information(p, (0,), (1,)), mutual_information(p, (0,), (2,)))
                             for p in chains]).T
        groups = np.array_split(np.argsort(ixy), 25)
        top = [g[np.argmax(iyz[g])] for g in groups]
        end = float(ixy.max())
        return Plot("Data processing: 1500 random chains Y → X → Z (4 symbols each)", (
            Series("diagonal I(Y;Z) = I(Y;X)", (0.0, end), (0.0, end), "dashed"),
            Series("chain with the largest I(Y;Z) in each group of 60", tuple(ixy[top]),
                   tuple(iyz[top])),
            Series("median of each group", tuple(np.median(ixy[g]) for g in groups),
                   tuple(np.median(iyz[g]) for g in groups))),
            xlabel="I(Y;X) (nats), chains sorted into 25 groups of 60",
            ylabel="I(Y;Z) (nats)")


a_star = sp.Symbol("a*")


def _selection_joint(weight: float) -> np.ndarray:
    """p[x1, x2, z]: two independent fair-bit tokens; attention reads token 1 with
    probability `weight`, token 2 otherwise, and Z is the token it reads."""
    p = np.zeros((2, 2, 2))
    for x1 in (0, 1):
        for x2 in (0, 1):
            p[x1, x2, x1] += 0.25 * weight
            p[x1, x2, x2] += 0.25 * (1 - weight)
    return p


def _ib_terms(weight: float) -> tuple[float, float]:
    """(I(Z;X), I(Z;Y)) with X = (X1, X2) and target Y = X1."""
    p = _selection_joint(weight)
    return mutual_information(p, (0, 1), (2,)), mutual_information(p, (0,), (2,))


@claim(
    id="information-bottleneck-analogy",
    title="Attention as an information bottleneck is an analogy; a toy case shows what holds",
    section="15.2",
    statement=Statement("no theorem makes attention solve max I(Z;Y) s.t. min I(Z;X); in a toy "
                        "where Z is the token attention reads and Y = token 1, every IB "
                        "trade-off β ≥ 1 is optimised by weight a* = 1 on token 1, keeping "
                        "I(Z;Y) = I(X;Y) with I(Z;X|Y) = 0", sp.Integer(1), lhs=a_star),
    premises=("X = (X1, X2) independent fair bits, target Y = X1",
              "Z = X_J, J = 1 with probability a (the attention weight), independent of X",
              "IB Lagrangian L(a) = I(Z;X) − β·I(Z;Y)"),
    foils=(Foil("uniform attention (a = ½) is IB-optimal", sp.Rational(1, 2)),
           Foil("attending to the irrelevant token (a = 0) is IB-optimal", sp.Integer(0))),
    depends_on=("data-processing-inequality",),
    sources=(SHWARTZ_ZIV, TISHBY_1999, SAXE),
    tags=("information", "bottleneck", "attention", "heuristic"),
    formulas=(r"\max I(Z; Y) \quad \text{subject to} \quad \min I(Z; X)",),
    no_proof="the notes offer the information bottleneck as an analogy for attention; no "
             "theorem says trained attention optimises the IB objective, and the compression "
             "picture itself is disputed (Saxe et al. 2018). Only a toy model is checked.",
)
class InformationBottleneckAnalogy:
    """The toy is exact: sharpening attention on the relevant token raises I(Z;Y) to its
    ceiling and drives the irrelevant part I(Z;X|Y) to zero — though I(Z;X) itself grows, so
    'selection' is not 'compression' of I(Z;X)."""

    def check(self, a, experiment):
        a = float(a)
        experiment.holds(0 <= a <= 1, "a* is an attention weight in [0, 1]", f"a* = {a}")
        tol = _tol(8, np.log(4))
        grid = np.linspace(0, 1, 101)
        terms = np.array([_ib_terms(w) for w in grid])
        i_zx, i_zy = _ib_terms(min(max(a, 0.0), 1.0))
        for beta in IB_BETAS:
            best = (terms[:, 0] - beta * terms[:, 1]).min()
            experiment.holds(bool(i_zx - beta * i_zy <= best + tol),
                             f"a* minimises I(Z;X) − β·I(Z;Y), β={beta:g}",
                             f"L(a*) − min L = {i_zx - beta * i_zy - best:.3g}")
        experiment.close(np.array([i_zy, i_zx - i_zy]), np.array([np.log(2), 0.0]), tol,
                         "at a*: I(Z;Y) = I(X;Y) = log 2 and I(Z;X|Y) = 0")
