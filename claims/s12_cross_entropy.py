"""Section 12: cross-entropy, KL divergence and maximum likelihood."""

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from tmath import Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.reference.information import cross_entropy, entropy, kl_divergence, random_simplex
from tmath.reference.nn import softmax
from tmath.engine.proof import Rule

COVER_THOMAS = Source("Cover & Thomas (2006), Elements of Information Theory, 2nd ed., §2.3, "
                      "§2.6 (Theorem 2.6.3)")
LEI_MAO = Source("Lei Mao, Cross Entropy, KL Divergence, and Maximum Likelihood Estimation "
                 "(blog post, leimao.github.io)")

x, n, j, N = sp.symbols("x n j N", positive=True, integer=True)
p, q = sp.IndexedBase("p", positive=True), sp.IndexedBase("q", positive=True)
H_pq, H_p, lam = sp.Symbol("H(p,q)"), sp.Symbol("H(p)"), sp.Symbol("lambda", positive=True)
r = sp.Symbol("r", positive=True)


def _sum(term):
    return sp.Sum(term, (x, 1, n))


KL_SUM = _sum(p[x] * sp.log(p[x] / q[x]))
SETTINGS = ((2, 1.0), (5, 0.3), (50, 1.0))  # (alphabet size, Dirichlet concentration)


def _sum_tol(k, scale):
    # k log/divide/multiply terms summed, three such sums compared: 3·(k + 3) operations
    return tolerance(3 * (k + 3), scale)


@claim(
    id="cross-entropy-kl-decomposition",
    title="KL divergence is cross-entropy minus entropy",
    section="12.1",
    statement=Statement("D_KL(p‖q) = H(p,q) − H(p)", H_pq - H_p, lhs=sp.Symbol("D_KL(p‖q)")),
    premises=("p, q are distributions on n outcomes with q > 0 where p > 0",
              "H(p,q) = −Σ p log q, H(p) = −Σ p log p, D_KL(p‖q) = Σ p log(p/q)"),
    foils=(Foil("D_KL(p‖q) = H(p,q) + H(p)", H_pq + H_p),
           Foil("D_KL(p‖q) = H(p) − H(p,q)", H_p - H_pq)),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss"),
    formulas=(r"H(p, q) = -\sum_{x} p(x) \log q(x)",
              r"D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = H(p, q) - H(p)"),
)
class CrossEntropyKlDecomposition:
    """The log of a ratio splits into a difference of logs, and each half of the sum is one
    of the two entropies; so the model-independent H(p) separates from the divergence."""

    def prove(self, value, proof):
        kl = (proof.chain(KL_SUM, "D_KL(p‖q)")
              .equals(_sum(p[x] * sp.log(p[x])) - _sum(p[x] * sp.log(q[x])),
                      "log(p/q) = log p − log q; the sum splits", method="expand_log")
              .substitute({_sum(p[x] * sp.log(q[x])): -H_pq, _sum(p[x] * sp.log(p[x])): -H_p},
                          premise="definitions of H(p,q) and H(p)"))
        proof.conclude(value, kl)

    def check(self, value, experiment):
        stated = sp.lambdify((H_pq, H_p), value, "numpy")
        for k, conc in SETTINGS:
            P, Q = (random_simplex(experiment.rng, 4000, k, conc) for _ in range(2))
            h_pq, h_p = cross_entropy(P, Q), entropy(P)
            experiment.close(kl_divergence(P, Q), stated(h_pq, h_p),
                             _sum_tol(k, np.max(h_pq + h_p)), f"Σ p log(p/q) vs stated form, k={k}",
                             inputs="4000 Dirichlet pairs")


@claim(
    id="gibbs-inequality",
    title="Gibbs' inequality: D_KL(p‖q) ≥ 0, with equality only when q = p",
    section="12.1",
    statement=Statement("D_KL(p‖q) = Σ p(x)·φ(q(x)/p(x)) with φ(r) = r − 1 − log r ≥ 0, which "
                        "vanishes only at r = 1; hence D_KL ≥ 0, and = 0 iff q = p",
                        r - 1 - sp.log(r), lhs=sp.Function("phi")(r)),
    premises=("p, q are distributions on n outcomes with full support: Σp = Σq = 1",),
    foils=(Foil("the gap function is φ(r) = r − log r", r - sp.log(r)),
           Foil("the gap function is φ(r) = 1 − r + log r (log r ≥ r − 1)", 1 - r + sp.log(r))),
    depends_on=("cross-entropy-kl-decomposition",),
    sources=(COVER_THOMAS,),
    tags=("information", "inequality"),
)
class GibbsInequality:
    """Adding Σq − Σp = 0 turns every term of the divergence into p·(r − 1 − log r) with
    r = q/p; that function is convex, zero and flat at r = 1, hence positive elsewhere."""

    def prove(self, phi, proof):
        proof.fact(phi.subs(r, 1), 0, "φ(1) = 0")
        proof.fact(sp.diff(phi, r).subs(r, 1), 0, "φ'(1) = 0: r = 1 is a stationary point")
        proof.holds(sp.diff(phi, r, 2) > 0, "φ'' > 0 on r > 0: strictly convex, so r = 1 is "
                                            "the unique minimum and φ ≥ 0")
        add_zero = Rule("Σq − Σp = 1 − 1 = 0 may be added",
                        lambda e: e + _sum(q[x]) - _sum(p[x]))
        kl = (proof.chain(KL_SUM, "D_KL(p‖q)").apply(add_zero)
              .equals(_sum(p[x] * (q[x] / p[x] - 1 - sp.log(q[x] / p[x]))),
                      "collect the three sums term by term", method="expand_log"))
        proof.conclude(_sum(p[x] * phi.subs(r, q[x] / p[x])), kl)

    def check(self, phi, experiment):
        gap = sp.lambdify(r, phi, "numpy")
        grid = np.logspace(-4, 4, 2001)
        # r − 1 − log r at r = 1: three operations and a log on numbers of size 1
        experiment.close(gap(1.0), 0.0, tolerance(4), "φ(1) = 0")
        experiment.holds(bool(np.all(gap(grid[grid != 1.0]) > 0)), "φ(r) > 0 for r ≠ 1",
                         "on 2000 points of [1e-4, 1e4]")
        for k, conc in SETTINGS:
            P, Q = (random_simplex(experiment.rng, 4000, k, conc) for _ in range(2))
            D, tol = kl_divergence(P, Q), _sum_tol(k, np.max(cross_entropy(P, Q) + entropy(P)))
            experiment.close(D, (P * gap(Q / P)).sum(-1), tol, f"D_KL vs Σ p·φ(q/p), k={k}")
            pinsker = 0.5 * np.abs(P - Q).sum(-1) ** 2  # D ≥ ½‖p − q‖₁² > 0 when q ≠ p
            experiment.holds(bool(np.all(D >= pinsker - tol)), f"D_KL > 0 when q ≠ p, k={k}",
                             f"min D_KL − ½‖p−q‖₁² = {np.min(D - pinsker):.3g}")
            experiment.close(kl_divergence(P, P), np.zeros(len(P)), tol, f"D_KL(p‖p) = 0, k={k}")


@claim(
    id="cross-entropy-argmin",
    title="Cross-entropy and KL divergence are both minimised at q = p",
    section="12.1",
    statement=Statement("argmin_q H(p,q) = argmin_q D_KL(p‖q) = p, i.e. q*_j = p_j", p[j],
                        lhs=sp.Symbol("q*_j")),
    premises=("q ranges over distributions with full support on n outcomes", "Σ_x p(x) = 1"),
    foils=(Foil("the minimiser is the uniform distribution", 1 / n),
           Foil("the minimiser is p mixed half-and-half with uniform", (p[j] + 1 / n) / 2)),
    depends_on=("cross-entropy-kl-decomposition",),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss", "optimisation"),
    formulas=(r"\arg\min_\theta H(p, q_\theta) = \arg\min_\theta D_{KL}(p \| q_\theta)",),
)
class CrossEntropyArgmin:
    """H(p,q) and D_KL(p‖q) differ by H(p), which does not move with q; the Lagrangian of
    −Σ p log q under Σq = 1 is strictly convex with its one stationary point at q = p."""

    def prove(self, q_star, proof):
        qj = q[j]
        proof.fact(sp.diff(-p[j] * sp.log(qj), qj), sp.diff(p[j] * sp.log(p[j] / qj), qj),
                   "H and D_KL have the same gradient in q (they differ by H(p))")
        lagrangian = -p[j] * sp.log(qj) + lam * qj  # q_j-part of −Σ p log q + λ(Σ q − 1)
        proof.holds(sp.diff(lagrangian, qj, 2) > 0, "∂²L/∂q_j² = p_j/q_j² > 0: strictly convex")
        mult = (proof.chain(_sum(p[x] / lam), "Σ_x q_x at the stationary point")
                .equals(_sum(p[x]) / lam, "λ is constant")
                .substitute({_sum(p[x]): 1}, premise="Σ p = 1")
                .apply(Rule("the constraint Σ q = 1 fixes λ", lambda e: sp.solve(e - 1, lam)[0])))
        stat = (proof.chain(sp.diff(lagrangian, qj), "∂L/∂q_j")
                .apply(Rule("stationary point: solve ∂L/∂q_j = 0", lambda e: sp.solve(e, qj)[0]))
                .substitute({lam: mult.value}, premise="λ = 1 from the constraint"))
        proof.conclude(q_star, stat)

    def check(self, q_star, experiment):
        rule = sp.lambdify((p[j], n), q_star, "numpy")
        for k in (3, 8):
            P = random_simplex(experiment.rng, 40, k, 0.7)
            Q_star = np.broadcast_to(rule(P, k), P.shape)
            experiment.holds(bool(np.allclose(Q_star.sum(-1), 1, rtol=0, atol=tolerance(k))
                                  and np.all(Q_star >= 0)), f"q* is a distribution, k={k}")
            others = random_simplex(experiment.rng, (40, 500), k, 1.0)
            for loss, name in ((cross_entropy, "H(p,q)"), (kl_divergence, "D_KL(p‖q)")):
                at_star = loss(P, Q_star)
                tol = tolerance(3 * (k + 3), np.max(cross_entropy(P, Q_star) + entropy(P)))
                beaten = loss(P[:, None], others) < at_star[:, None] - tol
                found = [minimize(lambda z: loss(pk, softmax(z)), np.zeros(k)).x for pk in P[:5]]
                beaten_opt = loss(P[:5], softmax(np.array(found))) < at_star[:5] - tol
                experiment.holds(not beaten.any() and not beaten_opt.any(),
                                 f"no q does better than q* on {name}, k={k}",
                                 f"{beaten.sum()} of 20000 random q and {beaten_opt.sum()} of "
                                 f"5 BFGS optima beat q*")


c, s = sp.IndexedBase("c", nonnegative=True), sp.IndexedBase("s")  # counts, sampled labels
i = sp.Symbol("i", positive=True, integer=True)
GROUP_BY_LABEL = Rule(
    "group equal labels: Σ_i f(s_i) = Σ_x c_x f(x), c_x = #{i : s_i = x}",
    lambda e: e.replace(lambda a: isinstance(a, sp.Sum) and a.limits[0][0] == i,
                        lambda a: _sum(c[x] * a.function.subs(s[i], x))))


@claim(
    id="empirical-cross-entropy-is-mle",
    title="Mean negative log-likelihood is the cross-entropy from the empirical distribution",
    section="12.1",
    statement=Statement("−(1/N) Σ_i log q(x_i) = H(p̂, q) with p̂(x) = c_x/N, so the "
                        "maximum-likelihood q is p̂", c[x] / N, lhs=sp.Symbol("p̂(x)")),
    premises=("N samples x_1..x_N with labels in 1..n; c_x counts the samples equal to x",
              "q has full support"),
    foils=(Foil("the weights are the raw counts c_x (summed, not averaged, log-likelihood)",
                c[x]),
           Foil("the weights are uniform, 1/n", 1 / n)),
    depends_on=("cross-entropy-argmin",),
    sources=(LEI_MAO, COVER_THOMAS),
    tags=("information", "loss", "likelihood"),
    formulas=(r"\arg\max_\theta \frac{1}{N} \sum_{i=1}^{N} \log q_\theta(x_i) = "
              r"\arg\min_\theta \left(-\frac{1}{N} \sum_{i=1}^{N} \log q_\theta(x_i)\right)",),
)
class EmpiricalCrossEntropyIsMle:
    """Summing log q over samples groups into counts times log q; dividing by N turns the
    counts into the empirical distribution, and cross-entropy-argmin then puts the optimum
    there."""

    def prove(self, weight, proof):
        nll = (proof.chain(-sp.Sum(sp.log(q[s[i]]), (i, 1, N)) / N, "mean NLL")
               .apply(GROUP_BY_LABEL)
               .equals(-_sum(c[x] / N * sp.log(q[x])), "1/N moves inside the sum"))
        proof.conclude(-_sum(weight * sp.log(q[x])), nll)

    def check(self, weight, experiment):
        rng, k = experiment.rng, 6
        to_weights = sp.lambdify((c[x], N, n), weight, "numpy")
        p_true = random_simplex(rng, 1, k, 1.0)[0]
        for size in (10, 1000):
            labels = rng.choice(k, size=(50, size), p=p_true)
            counts = np.stack([np.bincount(row, minlength=k) for row in labels])
            Q = random_simplex(rng, 50, k, 1.0)
            logq = np.log(Q)
            nll = -np.take_along_axis(logq, labels, axis=1).mean(1)
            p_hat = np.broadcast_to(to_weights(counts, size, k), Q.shape)
            tol = tolerance(size + 3 * k + 5, np.max(np.abs(logq)))  # N-term mean, k-term sum
            experiment.close(nll, -(p_hat * logq).sum(1), tol, f"mean NLL vs H(p̂, q), N={size}")
            loglik = lambda qq: np.log(qq)[..., labels[0]].mean(-1)  # noqa: E731
            rivals = random_simplex(rng, 2000, k, 1.0)
            best = minimize(lambda z: -loglik(softmax(z)), np.zeros(k)).x
            is_dist = np.allclose(p_hat.sum(1), 1, rtol=0, atol=tolerance(k))
            beats = (loglik(rivals) > loglik(p_hat[0]) + tol).sum()
            experiment.holds(bool(is_dist and beats == 0
                                  and loglik(softmax(best)) <= loglik(p_hat[0]) + tol),
                             f"p̂ maximises the likelihood, N={size}",
                             f"sums to 1: {is_dist}; beaten by {beats} of 2000 random q")


Q_TRUE = q[sp.Symbol("k", positive=True, integer=True)]  # probability of the correct class k


@claim(
    id="one-hot-cross-entropy",
    title="With a one-hot label, cross-entropy is −log of the correct class's probability",
    section="12.2",
    statement=Statement("H(onehot_k, q) = −log q_k", -sp.log(Q_TRUE), lhs=sp.Symbol("H(p,q)")),
    premises=("p(x) = 1 if x = k else 0, for a class k among n ≥ k classes",),
    foils=(Foil("H = −q_k log q_k", -Q_TRUE * sp.log(Q_TRUE)), Foil("H = 1 − q_k", 1 - Q_TRUE)),
    depends_on=("cross-entropy-kl-decomposition",),
    sources=(COVER_THOMAS, LEI_MAO),
    tags=("information", "loss"),
    formulas=(r"H(p, q) = -\log q_\theta(x_{correct})",),
)
class OneHotCrossEntropy:
    """A Kronecker delta in the sum keeps only the term of the correct class."""

    def prove(self, value, proof):
        cls, after = Q_TRUE.indices[0], sp.Symbol("m", nonnegative=True, integer=True)
        h = (proof.chain(sp.Sum(-sp.KroneckerDelta(x, cls) * sp.log(q[x]), (x, 1, cls + after)),
                         "H(onehot_k, q) with n = k + m classes")
             .evaluate("only the term x = k survives"))
        proof.conclude(value, h)

    def check(self, value, experiment):
        stated = sp.lambdify(Q_TRUE, value, "numpy")
        for k in (2, 10, 1000):
            Q = softmax(experiment.rng.normal(0, 3, size=(2000, k)))
            labels = experiment.rng.integers(0, k, size=2000)
            onehot = np.eye(k)[labels]
            h = cross_entropy(onehot, Q)
            experiment.close(h, stated(Q[np.arange(2000), labels]),
                             tolerance(k + 3, np.max(h)), f"H(onehot, q) vs stated, k={k}")
