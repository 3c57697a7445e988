"""Section 15: the information bottleneck view of attention, and the theorems beneath it."""

import numpy as np
import sympy as sp

from tmath import Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals
from tmath.engine.parameters import evaluate
from tmath.engine.rules import LOG_BOUND, SPLIT_SUM
from tmath.engine.rules_finite_sums import separate_sums
from tmath.reference.joint_tables import (
    K_x, K_y, K_z, P, P_x, P_xy, P_xz, P_y, P_yx, P_yz, P_z, bottleneck_lagrangian, bottleneck_terms,
    conditional_mutual_informations, data_processing_plot, entropy_tolerance, expected_over_chains,
    information_lost, markov_chains, mutual_informations, near_independent, tightened, total, x, y, z)
from ._bibliography import COVER_THOMAS2006, SAXE2018, SHWARTZ_ZIV_TISHBY2017, TISHBY1999

COVER_THOMAS = COVER_THOMAS2006.at("§2.3, §2.6 (Jensen's and Gibbs' inequalities), §2.8 "
                                   "(data-processing inequality)")
SHWARTZ_ZIV = SHWARTZ_ZIV_TISHBY2017
TISHBY_1999 = TISHBY1999
SAXE = SAXE2018

Q, r, r_star = sp.IndexedBase("q", positive=True), sp.Symbol("r", positive=True), sp.Symbol("r*")
RATIO = P_x[x] * P_y[y] / P_xy[x, y]  # r(x, y) = p(x)p(y)/p(x,y)
MI = total(P_xy[x, y] * sp.log(P_xy[x, y] / (P_x[x] * P_y[y])), x, y)
NORMALISED = Premise("p(x,y) > 0 is a distribution on K_x × K_y cells; so are p(x) and p(y)", {
    total(P_xy[x, y], x, y): 1, total(P_x[x], x): 1, total(P_y[y], y): 1})
INDEPENDENT = Premise("an independent pair has the joint q(x,y) = p(x)p(y)",
                      {Q[x, y]: P_x[x] * P_y[y]})


@claim(
    id="mutual-information-nonnegative",
    title="Mutual information is ≥ 0, and 0 exactly when the variables are independent",
    section="15.1",
    statement=Statement("I(X;Y) = −Σ p·log r ≥ −Σ p·(r − 1) = 0 for r = p(x)p(y)/p(x,y), as log r ≤ "
                        "r − 1, tight only at r* = 1: I = 0 iff p(x,y) = p(x)p(y) in every cell",
                        (0, 0, 1), lhs=(MI, MI.xreplace({P_xy: Q}), r_star), relation=(">=", "=", "=")),
    premises=(NORMALISED, INDEPENDENT),
    foils=(Foil("any two variables share some information: I(X;Y) ≥ 0.01 nats", (0.01, 0, 1)),
           Foil("independent variables still share one bit", (0, sp.log(2), 1)),
           Foil("the bound is tight where p(x)p(y) = 2·p(x,y)", (0, 0, 2))),
    sources=(COVER_THOMAS,),
    tags=("information", "inequality"),
)
class MutualInformationNonnegative:
    """Gibbs' argument: p·log(1/r) ≥ p·(1 − r) in every cell, and these add up to Σp −
    Σp(x)·Σp(y) = 0; as p > 0, I = 0 needs every cell's bound tight, i.e. r = 1 everywhere."""

    def prove(self, value, proof):
        reciprocal = proof.fact(sp.log(1 / RATIO), -sp.log(RATIO), "log of the reciprocal", "expand_log")
        bound = (proof.chain(MI, "I(X;Y)").substitute(from_chain=reciprocal)
                 .ge(total(-P_xy[x, y] * (RATIO - 1), x, y), "log r ≤ r − 1", rule=LOG_BOUND)
                 .apply(SPLIT_SUM).apply(separate_sums())
                 .substitute(dict(NORMALISED.equations), premise=NORMALISED))
        product = (proof.chain(MI.xreplace({P_xy: Q}), "I for q = p(x)p(y)")
                   .substitute(dict(INDEPENDENT.equations), premise=INDEPENDENT)
                   .evaluate("every term is p(x)p(y)·log 1 = 0"))
        tight = proof.root(sp.log(r) - (r - 1), r, r_star, "where log r = r − 1")
        proof.conclude(value, bound, product, tight)

    def perturbations(self, value):  # I ≥ c with c < 0 is true: only stronger floors are near
        return tightened(value, (">=", "=", "="), [("part 1: 0.001", (0.001, *value[1:]))])

    def check(self, value, experiment):
        floor, independent, ratio = evaluate(tuple(value))
        for point in experiment.draw({K_x: Integers(2, 12), K_y: Integers(2, 12)}, count=3):
            joints, margins, product = near_independent(experiment.rng, 300, point[K_x], point[K_y])
            found, tol = mutual_informations(joints, (0,), (1,)), entropy_tolerance(joints[0].size)
            experiment.holds(bool(found.min() >= floor - tol), "I(X;Y) ≥ stated floor",
                             f"min I = {found.min():.3g} over 300 joints", at=point)
            experiment.close(mutual_informations(product, (0,), (1,)), np.full(300, independent),
                             tol, "I(X;Y) = stated for independent X, Y", at=point)
            tight = product / ratio  # ratio r* in every cell: a joint with these marginals?
            experiment.close(np.hstack([tight.sum(2), tight.sum(1)]), np.hstack(margins), tol,
                             "ratio r* everywhere gives a joint with the marginals", at=point)


CELL = sp.log(P_yx[y, x] / (P_y[y] * P_x[x])) - sp.log(P_yz[y, z] / (P_y[y] * P_z[z]))
SPLIT = P_xz[x, z] * P_yz[y, z] / (P[y, x, z] * P_z[z])  # p(x|z)p(y|z)/p(y,x|z)
MARKOV = Premise("Y → X → Z: p(y,x,z) = p(y,x)·p(x,z)/p(x) (Z depends on Y only via X)",
                 {P_yx[y, x]: P[y, x, z] * P_x[x] / P_xz[x, z]})
MARGINS = Premise("p(y,x,z) > 0 is a distribution; Σ_x p(x,z) = Σ_y p(y,z) = p(z); Σ_z p(z) = 1",
                  {total(P[y, x, z], y, x, z): 1, total(P_xz[x, z], x): P_z[z],
                   total(P_yz[y, z], y): P_z[z], total(P_z[z], z): 1})


@claim(
    id="data-processing-inequality",
    title="Data processing cannot add information: Y → X → Z implies I(Y;Z) ≤ I(Y;X)",
    section="15.1",
    statement=Statement("for a Markov chain Y → X → Z, I(Y;X) − I(Y;Z) = E[−log p(x|z)p(y|z)/"
                        "p(y,x|z)] = I(Y;X|Z) ≥ 0, so I(Y;Z) ≤ I(Y;X)", (-sp.log(SPLIT), 0),
                        lhs=(CELL, total(P[y, x, z] * CELL, y, x, z)), relation=("=", ">=")),
    premises=(MARKOV, MARGINS, "both informations are expectations over p(y,x,z)"),
    foils=(Foil("the gap is I(Y;Z|X)", (sp.log(P[y, x, z] * P_x[x] / (P_yx[y, x] * P_xz[x, z])), 0)),
           Foil("the gap is E[log p(y,x,z)/(p(x,z)p(y,z))] (p(z) dropped)",
                (-sp.log(P_xz[x, z] * P_yz[y, z] / P[y, x, z]), 0)),
           Foil("processing loses at least 0.01 nats", (-sp.log(SPLIT), 0.01))),
    sources=(COVER_THOMAS, SHWARTZ_ZIV),
    tags=("information", "inequality", "bottleneck"),
)
class DataProcessingInequality:
    """By the Markov condition the pointwise gap is the pointwise I(Y;X|Z); its average is ≥ 0
    by Gibbs' argument (as for I(X;Y) ≥ 0), with the sums over x and y inside the one over z."""

    def prove(self, value, proof):
        cell = (proof.chain(CELL, "pointwise I(Y;X) − I(Y;Z)")
                .substitute(dict(MARKOV.equations), premise=MARKOV)
                .equals(-sp.log(SPLIT), "combine the logs", method="expand_log"))
        gap = (proof.chain(total(P[y, x, z] * CELL, y, x, z), "I(Y;X) − I(Y;Z)").substitute(from_chain=cell)
               .ge(total(-P[y, x, z] * (SPLIT - 1), y, x, z), "log r ≤ r − 1", rule=LOG_BOUND)
               .apply(SPLIT_SUM).apply(separate_sums(outer=z))
               .substitute(dict(MARGINS.equations[:3]), premise=MARGINS)  # then Σ_z p(z) = 1:
               .substitute(dict(MARGINS.equations[3:]), premise=MARGINS))
        proof.conclude(value, cell, gap)

    def perturbations(self, value):  # a gap ≥ c with c < 0 is true: only stronger floors
        return tightened(value, ("=", ">="))

    def check(self, value, experiment):
        sizes = {K_y: Integers(2, 8), K_x: Integers(2, 8), K_z: Integers(2, 8, edges=(2, 8))}
        for point in experiment.draw(sizes, count=3):
            chains = markov_chains(experiment.rng, 200, point[K_y], point[K_x], point[K_z])
            gap, lost, tol = (expected_over_chains(value[0], chains), information_lost(chains),
                              entropy_tolerance(chains[0].size))
            experiment.close(np.stack([gap, gap]), np.stack([lost, conditional_mutual_informations(
                chains, 0, 1, given=2)]), tol, "E[stated gap] = I(Y;X) − I(Y;Z) = I(Y;X|Z)", at=point)
            experiment.holds(bool(lost.min() >= evaluate(value[1]) - tol), "I(Y;X) − I(Y;Z) ≥ "
                             "stated floor", f"smallest gap {lost.min():.3g}", at=point)

    def plot(self):
        return data_processing_plot()  # an illustration with a fixed seed, not the check


a_star, TRADE_OFF, GRID = sp.Symbol("a*"), sp.Symbol("beta", positive=True), np.linspace(0, 1, 101)


@claim(
    id="information-bottleneck-analogy",
    title="Attention as an information bottleneck is an analogy; a toy case shows what holds",
    section="15.2",
    statement=Statement("no theorem makes attention solve max I(Z;Y) s.t. min I(Z;X); in a toy "
                        "where Z is the token attention reads and Y = token 1, every IB trade-off "
                        "β ≥ 1 is optimised by weight a* = 1 on token 1, keeping I(Z;Y) = I(X;Y) "
                        "with I(Z;X|Y) = 0", sp.Integer(1), lhs=a_star),
    premises=("X = (X1, X2) independent fair bits, target Y = X1; Z = X_J, J = 1 with probability "
              "a (the attention weight), independent of X", "IB Lagrangian L(a) = I(Z;X) − β·I(Z;Y)"),
    foils=(Foil("uniform attention (a = ½) is IB-optimal", sp.Rational(1, 2)),
           Foil("attending to the irrelevant token (a = 0) is IB-optimal", sp.Integer(0))),
    depends_on=("data-processing-inequality",),
    sources=(SHWARTZ_ZIV, TISHBY_1999, SAXE),
    tags=("information", "bottleneck", "attention", "heuristic"),
    formulas=(r"\max I(Z; Y) \quad \text{subject to} \quad \min I(Z; X)",),
    no_proof="an analogy, not a theorem: nothing shows that trained attention optimises the IB "
             "objective, and its compression picture is disputed (Saxe et al. 2018); a toy is checked",
)
class InformationBottleneckAnalogy:
    """The toy is exact: sharpening attention on the relevant token lifts I(Z;Y) to its ceiling,
    drives I(Z;X|Y) to 0, yet I(Z;X) grows: selection is not compression of I(Z;X)."""

    def check(self, a, experiment):
        a, tol = evaluate(a), entropy_tolerance(8, np.log(4))
        experiment.holds(0 <= a <= 1, "a* is an attention weight in [0, 1]", f"a* = {a}")
        (i_zx, i_zy), uniform = bottleneck_terms(a if 0 <= a <= 1 else np.nan), bottleneck_terms(0.5)[0]
        for point in experiment.draw({TRADE_OFF: Reals(1.0, 100.0, (1.0, 100.0), True)}, 3):
            gap = i_zx - point[TRADE_OFF] * i_zy - bottleneck_lagrangian(GRID, point[TRADE_OFF]).min()
            experiment.holds(bool(gap <= tol), "a* minimises I(Z;X) − β·I(Z;Y)", f"{gap:.3g}", at=point)
        experiment.close(np.array([i_zy, i_zx - i_zy]), np.array([np.log(2), 0.0]), tol,
                         "at a*: I(Z;Y) = I(X;Y) = log 2 and I(Z;X|Y) = 0")
        experiment.holds(bool(i_zx > uniform + tol), "a* keeps more of X than uniform "
                         "attention: I(Z;X) grows", f"I(Z;X) = {i_zx:.3g} at a*, {uniform:.3g} at ½")
