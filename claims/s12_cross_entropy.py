"""Section 12: cross-entropy, KL divergence and maximum likelihood."""

import numpy as np
import sympy as sp

from tmath import Definition, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.rules import DISTRIBUTE, FACTOR_OUT, SPLIT_SUM, SWAP_SUMS, sift
from tmath.engine.rules_sums import FACTOR_OUT_OF_INNER
from tmath.latex.operators import KL, H
from tmath.reference.bounds import stronger_only
from tmath.reference.information import (batch_rows, cross_entropy, divergence_bound,
                                         evaluate_indexed, kl_divergence, random_simplex)
from tmath.reference.nn import softmax
from ._bibliography import COVER_THOMAS2006, LEI_MAO

COVER_THOMAS = COVER_THOMAS2006.at(
    "§2.3, §2.6 (Theorem 2.6.3)",
    unverified="the theorem number 2.6.3 was not checked against the book (the sections were)")

x, n, j = sp.symbols("x n j", positive=True, integer=True)
p, q = sp.IndexedBase("p", positive=True), sp.IndexedBase("q", positive=True)
t, lam = sp.Symbol("t", positive=True), sp.Symbol("lambda", positive=True)
q_j = sp.Symbol("q_j", positive=True)  # one coordinate of q, the variable of the Lagrangian


_sum = lambda term, upper=n: sp.Sum(term, (x, 1, upper))  # noqa: E731  (a sum over outcomes)
KL_SUM = _sum(p[x] * sp.log(p[x] / q[x]))
H_PQ, H_P = _sum(-p[x] * sp.log(q[x])), _sum(-p[x] * sp.log(p[x]))
DISTRIBUTIONS = Premise("p, q are distributions on n outcomes with full support: Σp = Σq = 1",
                        {_sum(p[x]): 1, _sum(q[x]): 1})
OUTCOMES = {n: Integers(2, 1000), "concentration": Reals(0.3, 3.0, log=True)}
ENTROPIES = Definition("H(p,q) = −Σ_x p_x log q_x, H(p) = H(p,p), D_KL(p‖q) = Σ_x p_x log(p_x/q_x)",
                       {H(p, q): H_PQ, H(p): H_P, KL(p, q): KL_SUM})


def _pairs(experiment, point):
    """Random p, q (Dirichlet) at a drawn alphabet size and concentration, half of the q's
    close to their p; and the rounding tolerance of sums of k log terms compared three at a
    time, 3·(k + 3) operations."""
    k, conc, rows = point[n], point["concentration"], batch_rows(point[n], low=10, high=1000)
    P, Q = (random_simplex(experiment.rng, rows, k, conc) for _ in range(2))
    near = softmax(np.log(P) + experiment.rng.normal(0, 1e-3, P.shape))
    P, Q = np.concatenate([P, P]), np.concatenate([Q, near])
    return k, P, Q, tolerance(3 * (k + 3), np.max(cross_entropy(P, Q)))


@claim(
    id="cross-entropy-kl-decomposition",
    title="KL divergence is cross-entropy minus entropy",
    section="12.1",
    statement=Statement("D_KL(p‖q) = Σ p log(p/q) equals H(p,q) − H(p), with H(p,q) = −Σ p log q "
                        "and H(p) = −Σ p log p", H_PQ - H_P, lhs=KL_SUM),
    premises=("p, q are distributions on n outcomes with q > 0 where p > 0",),
    foils=(Foil("D_KL(p‖q) = H(p,q) + H(p)", H_PQ + H_P),
           Foil("D_KL(p‖q) = H(q,p) − H(q) (the arguments swapped)",
                _sum(-q[x] * sp.log(p[x])) - _sum(-q[x] * sp.log(q[x]))),
           Foil("D_KL(p‖q) = H(p,q) (the entropy term forgotten)", H_PQ)),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss"),
    formulas=(r"H(p, q) = -\sum_{x} p(x) \log q(x)",
              r"D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = H(p, q) - H(p)"),
    definitions=(ENTROPIES,),
    notation={r"\sum_{x} p(x) \log q(x)": -H_PQ,  # a sum over x runs over the n outcomes
              r"\sum_{x} p(x) \log \frac{p(x)}{q(x)}": KL_SUM},
)
class CrossEntropyKlDecomposition:
    """The log of a ratio splits into a difference of logs, and each half of the sum is one
    of the two entropies; so the model-independent H(p) separates from the divergence."""

    def prove(self, value, proof):
        kl = (proof.chain(KL_SUM, "D_KL(p‖q)")
              .equals(_sum(p[x] * sp.log(p[x]) - p[x] * sp.log(q[x])), "log(p/q) = log p − log q",
                      method="expand_log")
              .apply(SPLIT_SUM))
        proof.conclude(value, kl)

    def check(self, value, experiment):
        for point in experiment.draw(OUTCOMES, count=3):
            k, P, Q, tol = _pairs(experiment, point)
            experiment.close(kl_divergence(P, Q), evaluate_indexed(value, {p: P, q: Q}, {n: k}),
                             tol, "Σ p log(p/q) vs the stated form", f"{len(P)} pairs", at=point)


GIBBS_LHS = (KL_SUM, sp.Symbol("t*"))


@claim(
    id="gibbs-inequality",
    title="Gibbs' inequality: D_KL(p‖q) ≥ 0, with equality only when q = p",
    section="12.1",
    statement=Statement("D_KL(p‖q) ≥ 0, from log t ≤ t − 1 applied to t = q/p; that bound is "
                        "tight only at t* = 1, so D_KL(p‖q) = 0 only when q = p", (0, 1),
                        lhs=GIBBS_LHS, relation=(">=", "=")),
    premises=(DISTRIBUTIONS,),
    foils=(Foil("D_KL(p‖q) ≥ ½·Σ|p − q| (Pinsker's bound without its square)",
                (_sum(sp.Abs(p[x] - q[x])) / 2, 1)),
           Foil("the bound log t ≤ t − 1 is tight at t = e", (0, sp.E))),
    sources=(COVER_THOMAS,),
    tags=("information", "inequality"),
)
class GibbsInequality:
    """−log lies above its tangent at 1, so each term of the divergence is at least p − q and
    the sum at least Σp − Σq = 0. The gap t − 1 − log t of that bound is convex with its only
    critical point at t = 1, where it vanishes: equality needs q(x) = p(x) for every x."""

    def prove(self, value, proof):
        bound = divergence_bound(proof, p[x], q[x], (x, 1, n), DISTRIBUTIONS)
        tight = proof.minimizer(t - 1 - sp.log(t), t, GIBBS_LHS[1], "where log t = t − 1")
        proof.conclude(value, bound, tight)

    perturbations = stronger_only(GIBBS_LHS, (">=", "="))  # D_KL ≥ −1 is true

    def check(self, value, experiment):
        for point in experiment.draw(OUTCOMES, count=3):
            k, P, Q, tol = _pairs(experiment, point)
            D, floor = kl_divergence(P, Q), evaluate_indexed(value[0], {p: P, q: Q}, {n: k})
            experiment.holds(bool(np.all(D >= floor - tol)), "D_KL(p‖q) ≥ the stated bound",
                             f"min D_KL − bound = {np.min(D - floor):.3g}", at=point)
            pinsker = 0.5 * np.abs(P - Q).sum(-1) ** 2  # D ≥ ½‖p − q‖₁² > 0 when q ≠ p
            experiment.holds(bool(np.all(D - floor >= pinsker - tol)),
                             "D_KL exceeds the bound when q ≠ p (Pinsker)", at=point)
            scaled = point.value(value[1]) * P[:k]  # the equality case q = t*·p: a distribution
            gaps = np.abs([scaled.sum(-1) - 1, kl_divergence(P[:k], scaled) - floor[:k]])
            experiment.close(gaps, np.zeros_like(gaps), tol,
                             "q = t*·p is a distribution with D_KL at the bound", at=point)


ARGMIN = (sp.Symbol("argmin_q H(p,q)_j"), sp.Symbol("argmin_q D_KL(p‖q)_j"))


@claim(
    id="cross-entropy-argmin",
    title="Cross-entropy and KL divergence are both minimised at q = p",
    section="12.1",
    statement=Statement("argmin over distributions q of H(p,q), and of D_KL(p‖q), is q = p: "
                        "q*_j = p_j", (p[j], p[j]), lhs=ARGMIN),
    premises=("q ranges over distributions with full support on n outcomes",
              Premise("Σ_x p(x) = 1", {_sum(p[x]): 1})),
    foils=(Foil("the minimiser is the uniform distribution", (1 / n, 1 / n)),
           Foil("the minimiser is p mixed half-and-half with uniform",
                ((p[j] + 1 / n) / 2, (p[j] + 1 / n) / 2)),
           Foil("the minimiser is p sharpened, p_j²/Σp²",
                (p[j] ** 2 / _sum(p[x] ** 2), p[j] ** 2 / _sum(p[x] ** 2)))),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss", "optimisation"),
    depends_on=("cross-entropy-kl-decomposition",), definitions=(ENTROPIES,),   # D_KL = H − H(p)
    notation={r"q_\theta": q, r"\theta": q},   # θ moves the minimisation through q alone
    formulas=(r"\arg\min_\theta H(p, q_\theta) = \arg\min_\theta D_{KL}(p \| q_\theta)",),
)
class CrossEntropyArgmin:
    """With a multiplier λ for Σq = 1 the Lagrangian separates over the coordinates; each part
    is convex in q_j with its one critical point at p_j/λ, and the constraint then forces
    λ = Σp = 1. H and D_KL differ by H(p), which does not move with q: same minimiser."""

    def prove(self, value, proof):
        # the q_j parts of loss + λ(Σq − 1), a Lagrangian that separates over the coordinates
        cross = proof.minimizer(-p[j] * sp.log(q_j) + lam * q_j, q_j, ARGMIN[0], "argmin H")
        divergence = proof.minimizer(p[j] * sp.log(p[j] / q_j) + lam * q_j, q_j, ARGMIN[1],
                                     "argmin D_KL")
        constraint = (proof.chain(_sum(cross.value.subs(j, x)) - 1, "Σ_x q*_x − 1")
                      .apply(FACTOR_OUT)
                      .substitute({_sum(p[x]): 1}, premise="Σ_x p(x) = 1"))
        multiplier = proof.root(constraint, lam, lam, "λ")
        proof.conclude(value, cross.substitute(from_chain=multiplier),
                       divergence.substitute(from_chain=multiplier))

    def check(self, value, experiment):
        for point in experiment.draw(OUTCOMES, count=3):
            k, rows, count = point[n], 20, max(10, 20_000 // point[n])
            P = random_simplex(experiment.rng, rows, k, point["concentration"])
            rivals = random_simplex(experiment.rng, (rows, count), k, 1.0)
            for part, loss, name in ((0, cross_entropy, "H(p,q)"), (1, kl_divergence, "D_KL")):
                q_star = evaluate_indexed(value[part], {p: P}, {n: k}, index=j)
                experiment.holds(bool(np.all(np.abs(q_star.sum(-1) - 1) <= tolerance(k))
                                      and np.all(q_star >= 0)), "q* is a distribution", at=point)
                near = softmax(np.log(np.abs(q_star[:, None]) + 1e-300)
                               + experiment.rng.normal(0, 1e-2, (rows, count, k)))
                at_star = loss(P, q_star)
                tol = tolerance(3 * (k + 3), np.max(cross_entropy(P, P)))
                beaten = [(loss(P[:, None], other) < at_star[:, None] - tol).sum()
                          for other in (rivals, near)]
                experiment.holds(bool(np.isfinite(at_star).all() and sum(beaten) == 0),
                                 f"no q does better than q* on {name}",
                                 f"beaten by {beaten[0]} random q and {beaten[1]} nearby q",
                                 at=point)


c, s = sp.IndexedBase("c", nonnegative=True), sp.IndexedBase("s", positive=True)
i, N = sp.symbols("i N", positive=True, integer=True)
MEAN_NLL = -sp.Sum(sp.log(q[s[i]]), (i, 1, N)) / N
LABELS = Premise("each label s_i is one of the outcomes 1..n: log q(s_i) = Σ_x δ(x, s_i) log q(x)",
                 {sp.log(q[s[i]]): _sum(sp.KroneckerDelta(x, s[i]) * sp.log(q[x]))})
COUNTS = Premise("c_x = Σ_i δ(x, s_i) counts the samples equal to x",
                 {sp.Sum(sp.KroneckerDelta(x, s[i]), (i, 1, N)): c[x]})
MLE = sp.Symbol("argmax_q likelihood_x")
# cross-entropy-argmin's left side is a bare symbol whose meaning depends on p, so it has no
# instance at p = p̂: its Lagrangian argument is repeated here for p̂, which needs p̂_x > 0
P_HAT = sp.IndexedBase("p̂", positive=True)
OBSERVED = Premise("every outcome occurs in the sample (c_x ≥ 1, as a full-support optimum "
                   "needs), so p̂_x = c_x/N > 0; the counts add up to N, so Σ_x p̂_x = 1",
                   {P_HAT[x]: c[x] / N, _sum(P_HAT[x]): 1})


@claim(
    id="empirical-cross-entropy-is-mle",
    title="Mean negative log-likelihood is the cross-entropy from the empirical distribution",
    section="12.1",
    statement=Statement("−(1/N) Σ_i log q(s_i) = H(p̂, q) = −Σ_x (c_x/N) log q(x), so the "
                        "maximum-likelihood q is p̂, q_x = c_x/N",
                        (_sum(-c[x] / N * sp.log(q[x])), c[x] / N), lhs=(MEAN_NLL, MLE)),
    premises=(LABELS, COUNTS, "q ranges over distributions with full support on the n outcomes",
              OBSERVED),
    foils=(Foil("the weights are the raw counts c_x (summed, not averaged, log-likelihood)",
                (_sum(-c[x] * sp.log(q[x])), c[x])),
           Foil("the weights are uniform, 1/n", (_sum(-sp.log(q[x]) / n), 1 / n)),
           Foil("add-one smoothing gives the maximum likelihood",
                (_sum(-c[x] / N * sp.log(q[x])), (c[x] + 1) / (N + n)))),
    depends_on=("cross-entropy-argmin",),
    sources=(LEI_MAO, COVER_THOMAS),
    tags=("information", "loss", "likelihood"),
    formulas=(r"\arg\max_\theta \frac{1}{N} \sum_{i=1}^{N} \log q_\theta(x_i) = "
              r"\arg\min_\theta \left(-\frac{1}{N} \sum_{i=1}^{N} \log q_\theta(x_i)\right)",),
)
class EmpiricalCrossEntropyIsMle:
    """Writing each sample's log q as a delta-weighted sum over outcomes and exchanging the
    two sums groups equal labels into counts; dividing by N turns them into the empirical
    distribution. Maximising the likelihood is minimising that H(p̂, q) over distributions:
    as in cross-entropy-argmin, the Lagrangian's q_x part is convex with its critical point at
    p̂_x/λ, and Σ p̂ = 1 forces λ = 1."""

    def prove(self, value, proof):
        nll = (proof.chain(MEAN_NLL, "mean NLL").substitute(dict(LABELS.equations), premise=LABELS)
               .apply(SWAP_SUMS).apply(FACTOR_OUT_OF_INNER)
               .substitute(dict(COUNTS.equations), premise=COUNTS).apply(DISTRIBUTE))
        # the q_x part of H(p̂, q) + λ(Σq − 1), the Lagrangian of the mean NLL
        best = proof.minimizer(-P_HAT[x] * sp.log(q_j) + lam * q_j, q_j, MLE, "maximum likelihood")
        constraint = (proof.chain(_sum(best.value) - 1, "Σ_x q*_x − 1").apply(FACTOR_OUT)
                      .substitute({_sum(P_HAT[x]): 1}, premise=OBSERVED))
        multiplier = proof.root(constraint, lam, lam, "λ")
        proof.conclude(value, nll, best.substitute(from_chain=multiplier)
                       .substitute({P_HAT[x]: c[x] / N}, premise=OBSERVED))

    def check(self, value, experiment):
        rng = experiment.rng
        for point in experiment.draw({n: Integers(2, 50), N: Integers(1, 2000)}, count=3):
            k, size = point[n], point[N]
            labels = rng.choice(k, size=(50, size), p=random_simplex(rng, 1, k, 1.0)[0])
            counts = np.stack([np.bincount(row, minlength=k) for row in labels])
            Q = random_simplex(rng, 50, k, 1.0)
            nll = -np.take_along_axis(np.log(Q), labels, axis=1).mean(1)
            stated = evaluate_indexed(value[0], {c: counts, q: Q}, {N: size, n: k})
            tol = tolerance(size + 3 * k + 5, np.max(np.abs(np.log(Q))))  # N-term mean, k-term sum
            experiment.close(nll, stated, tol, "mean NLL vs H(p̂, q)", at=point)
            p_hat = evaluate_indexed(value[1], {c: counts[:1]}, {N: size, n: k}, index=x)[0]
            loglik = lambda qq: np.log(qq)[..., labels[0]].mean(-1)  # noqa: E731
            rivals = np.concatenate([random_simplex(rng, 2000, k, 1.0), softmax(
                np.log(np.abs(p_hat) + 1e-300) + rng.normal(0, 1e-2, (200, k)))])
            is_dist = bool(np.all(p_hat >= 0) and abs(p_hat.sum() - 1) <= tolerance(k))
            beats = int((loglik(rivals) > loglik(p_hat) + tol).sum())
            experiment.holds(is_dist and beats == 0 and np.isfinite(loglik(p_hat)),
                             "p̂ maximises the likelihood",
                             f"sums to 1: {is_dist}; beaten by {beats} of 2200 q", at=point)


Y = sp.IndexedBase("y", nonnegative=True)
k, m = sp.Symbol("k", positive=True, integer=True), sp.Symbol("m", nonnegative=True, integer=True)
ONE_HOT = Premise("the label is one-hot at the correct class k of n = k + m classes: "
                  "y_x = δ(x, k)", {Y[x]: sp.KroneckerDelta(x, k)})


@claim(
    id="one-hot-cross-entropy",
    title="With a one-hot label, cross-entropy is −log of the correct class's probability",
    section="12.2",
    statement=Statement("H(onehot_k, q) = −Σ_x y_x log q_x = −log q_k", -sp.log(q[k]),
                        lhs=_sum(-Y[x] * sp.log(q[x]), k + m)),
    premises=(ONE_HOT,),
    foils=(Foil("H = −q_k log q_k", -q[k] * sp.log(q[k])), Foil("H = 1 − q_k", 1 - q[k]),
           Foil("H = −log of the largest probability", -sp.log(sp.Max(q[k], q[k + 1])))),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss"),
    formulas=(r"H(p, q) = -\log q_\theta(x_{correct})",),
    notation={r"H(p, q)": _sum(-Y[x] * sp.log(q[x]), k + m),  # p: the one-hot label y
              r"q_\theta(x_{correct})": q[k]},
)
class OneHotCrossEntropy:
    """A Kronecker delta in the sum keeps only the term of the correct class."""

    def prove(self, value, proof):
        h = (proof.chain(_sum(-Y[x] * sp.log(q[x]), k + m), "H(onehot_k, q)")
             .substitute({Y[x]: sp.KroneckerDelta(x, k)}, premise=ONE_HOT)
             .apply(sift(1, k + m)))
        proof.conclude(value, h)

    def check(self, value, experiment):
        for point in experiment.draw({n: Integers(2, 1000), "logit scale": Reals(0.1, 10.0)}):
            size = point[n]
            rows = max(50, min(2000, 100_000 // size))
            Q = softmax(experiment.rng.normal(0, point["logit scale"], size=(rows, size)))
            labels = experiment.rng.integers(0, size, size=rows)
            h = cross_entropy(np.eye(size)[labels], Q)
            stated = evaluate_indexed(value, {q: Q}, index=k)[np.arange(rows), labels]
            experiment.close(h, stated, tolerance(size + 3, np.max(h)), "H(onehot, q) vs stated",
                             f"{rows} random labels and q", at=point)
