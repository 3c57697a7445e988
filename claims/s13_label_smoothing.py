"""Section 13: label smoothing, and why it keeps the optimal logits finite."""

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.rules import FACTOR_OUT, SPLIT_SUM
from tmath.reference.bounds import stronger_only
from tmath.reference.information import (batch_rows, cross_entropy, divergence_bound,
                                         evaluate_indexed, kl_divergence, random_simplex,
                                         smooth_labels)
from tmath.reference.nn import softmax
from tmath.reference.optim import VASWANI_2017
from tmath.reference.smoothing import gap_loss_plot, numeric_gap, saturation_logits
from ._bibliography import MULLER2019, SZEGEDY2016, VASWANI2017
from ._notes import formula, printed

SZEGEDY = SZEGEDY2016.at("§7", unverified="§7 was read only in reading notes")
VASWANI = VASWANI2017.at("§5.4")
MULLER = MULLER2019

x, k, j, K = sp.symbols("x k j K", positive=True, integer=True)  # index, class, other, count
eps = sp.Symbol("epsilon", positive=True)
y, q = sp.IndexedBase("y", nonnegative=True), sp.IndexedBase("q", positive=True)
H_yq, H_uq = sp.Symbol("H(y,q)"), sp.Symbol("H(u,q)")
CLASSES_AND_EPS = {K: Integers(2, 1000), eps: Reals(0.001, 0.999)}
_sum = lambda term: sp.Sum(term, (x, 1, K))  # noqa: E731  (a sum over the K classes)
SMOOTH = (1 - eps) * y[x] + eps / K  # the smoothed label at class x
SMOOTHING = Definition("y_smooth,x = (1 − ε)·y_x + ε/K at every class x",
                       {sp.IndexedBase("y_smooth")[x]: SMOOTH})
ONE_HOT = Premise("y is one-hot: 1 at the correct class k, 0 at any other class j, Σ_x y_x = 1",
                  {y[k]: 1, y[j]: 0, _sum(y[x]): 1})
VECTOR_LHS = (SMOOTH.subs(x, k), SMOOTH.subs(x, j), _sum(SMOOTH))


@claim(
    id="smoothed-label-vector",
    title="Smoothed labels put 1 − ε + ε/K on the correct class and ε/K elsewhere",
    section="13.2",
    statement=Statement("y_smooth = (1 − ε)·y_onehot + ε/K has 1 − ε + ε/K at the correct class "
                        "and ε/K at the other K − 1, summing to 1", (1 - eps + eps / K, eps / K, 1),
                        lhs=VECTOR_LHS),
    premises=(ONE_HOT, "0 < ε < 1, K classes"),
    foils=(Foil("1 − ε at the correct class (ε/K only elsewhere)", (1 - eps, eps / K, 1)),
           Foil("1 − ε at the correct class, ε/(K − 1) elsewhere", (1 - eps, eps / (K - 1), 1)),
           Foil("ε/K added on top of the one-hot label, not taken from it",
                (1 + eps / K, eps / K, 1 + eps))),
    sources=(SZEGEDY, VASWANI), tags=("label-smoothing", "loss"),
    figures=(
        Figure("smoothed label, K = 5, class 2, ε = 0.1", "[0.02, 0.92, 0.02, 0.02, 0.02]",
               near="smoothed:", compute=lambda: smooth_labels(np.eye(5)[1], 0.1)),
        Figure("target confidence of the correct class in that example, in percent",
               compute=lambda: 100 * smooth_labels(np.eye(5)[1], 0.1).max(),
               **printed("target confidence of the correct class in that example, in percent")),
        Figure("target confidence under a one-hot label, in percent",
               compute=lambda: 100 * np.eye(5)[1].max(),
               **printed("target confidence under a one-hot label, in percent")),
        Figure("label smoothing ε of the original Transformer (Vaswani et al. §5.4)",
               compute=lambda: VASWANI_2017["label_smoothing"],
               **printed("label smoothing ε of the original Transformer (Vaswani et al. §5.4)")),
    ),
    formulas=(r"y_{smooth} = (1 - \epsilon) \cdot y_{onehot} + \frac{\epsilon}{K}",),
    definitions=(SMOOTHING,),  # the notes' vectors, entry x
    notation={r"y_{smooth}": sp.IndexedBase("y_smooth")[x], r"y_{onehot}": y[x]},
)
class SmoothedLabelVector:
    """The uniform share ε/K is added to every class, the correct one included, after the
    one-hot part has been scaled down to 1 − ε."""

    def prove(self, value, proof):
        correct = proof.chain(VECTOR_LHS[0], "correct class").substitute({y[k]: 1}, premise=ONE_HOT)
        other = proof.chain(VECTOR_LHS[1], "other class").substitute({y[j]: 0}, premise=ONE_HOT)
        total = (proof.chain(VECTOR_LHS[2], "Σ_x y_smooth,x").apply(SPLIT_SUM).apply(FACTOR_OUT)
                 .substitute({_sum(y[x]): 1}, premise=ONE_HOT).evaluate("K equal terms ε/K"))
        proof.conclude(value, correct, other, total)

    def check(self, value, experiment):
        for point in experiment.draw(CLASSES_AND_EPS, count=3):
            size, (on, off, total) = point[K], point.value(value)
            hit = np.eye(size, dtype=bool)[experiment.rng.integers(0, size, size=200)]
            smoothed = smooth_labels(hit, point[eps])
            stated = np.c_[np.where(hit, on, off), np.full(200, total)]  # entries, then their sum
            experiment.close(np.c_[smoothed, smoothed.sum(-1)], stated, tolerance(size + 4),
                             "entries and their sum vs stated", "200 labels", at=point)


LOSS = _sum(-SMOOTH * sp.log(q[x]))
DEFINITIONS = Premise("H(a,q) = −Σ a log q; u is uniform, u_x = 1/K",
                      {H_yq: _sum(-y[x] * sp.log(q[x])), H_uq: _sum(-sp.log(q[x]) / K)})


@claim(
    id="label-smoothing-loss-split",
    title="The smoothed loss is (1 − ε)·H(y,q) + ε·H(u,q)",
    section="13.3",
    statement=Statement("H(y_smooth, q) = (1 − ε)·H(y,q) + ε·H(u,q), u uniform on K classes",
                        (1 - eps) * H_yq + eps * H_uq, lhs=LOSS),
    premises=(DEFINITIONS, "y_smooth = (1 − ε)·y + ε/K"),
    foils=(Foil("H(y,q) keeps weight 1 and ε·H(u,q) is added", H_yq + eps * H_uq),
           Foil("the uniform term has weight ε/K", (1 - eps) * H_yq + eps / K * H_uq),
           Foil("the weights swapped", eps * H_yq + (1 - eps) * H_uq)),
    depends_on=("smoothed-label-vector",),
    sources=(SZEGEDY, MULLER), tags=("label-smoothing", "loss"),
    formulas=(r"L_{smooth} = (1 - \epsilon) \cdot H(y, q) + \epsilon \cdot H(u, q)",),
    notation={r"L_{smooth}": LOSS, r"H(y, q)": H_yq, r"H(u, q)": H_uq},
)
class LabelSmoothingLossSplit:
    """Cross-entropy is linear in its first argument, and the smoothed label is a mixture of
    the one-hot label and the uniform distribution."""

    def prove(self, value, proof):
        loss = proof.chain(LOSS, "H(y_smooth, q)").apply(SPLIT_SUM).apply(FACTOR_OUT)
        proof.conclude(value, loss, using=DEFINITIONS)

    def check(self, value, experiment):
        for point in experiment.draw(CLASSES_AND_EPS, count=3):
            size, rows, rng = point[K], batch_rows(point[K]), experiment.rng
            Q = softmax(rng.normal(0, 3, (rows, size)))
            Y = np.eye(size)[rng.integers(0, size, rows)]
            lhs = cross_entropy(smooth_labels(Y, point[eps]), Q)
            parts = {H_yq: cross_entropy(Y, Q), H_uq: cross_entropy(np.full(size, 1 / size), Q)}
            experiment.close(lhs, evaluate_indexed(value, {}, {eps: point[eps], K: size, **parts}),
                             tolerance(3 * (size + 4), np.max(lhs)),
                             "H(y_smooth,q) vs weighted split", f"{rows} cases", at=point)


H_U, D_U = _sum(-sp.log(q[x]) / K), _sum(sp.log(1 / (K * q[x])) / K)  # u_x = 1/K
UNIFORM_LHS = (H_U - D_U, D_U)
Q_DISTRIBUTION = Premise("q is a distribution with full support: Σ_x q_x = 1", {_sum(q[x]): 1})


@claim(
    id="uniform-cross-entropy-kl",
    title="H(u,q) = D_KL(u‖q) + log K: the uniform term penalises distance from uniform",
    section="13.3",
    statement=Statement("H(u,q) − D_KL(u‖q) = log K and D_KL(u‖q) ≥ 0: H(u,q) ≥ log K, "
                        "attained at q = u", (sp.log(K), 0), lhs=UNIFORM_LHS, relation=("=", ">=")),
    premises=("u(x) = 1/K for K classes", Q_DISTRIBUTION),
    foils=(Foil("the constant is log(K − 1)", (sp.log(K - 1), 0)),
           Foil("H(u,q) = D_KL(u‖q)", (sp.Integer(0), 0)),
           Foil("the constant is the entropy in bits, log₂ K", (sp.log(K) / sp.log(2), 0))),
    depends_on=("cross-entropy-kl-decomposition",),
    sources=(MULLER, SZEGEDY), tags=("label-smoothing", "information"),
)
class UniformCrossEntropyKl:
    """The decomposition H(u,q) = H(u) + D_KL(u‖q) with the entropy of the uniform law,
    log K; and log t ≤ t − 1 at t = K·q(x) bounds the divergence below by 1 − Σq = 0."""

    def prove(self, value, proof):
        split = (proof.chain(UNIFORM_LHS[0], "H(u,q) − D_KL(u‖q)")
                 .substitute({D_U: H_U - _sum(sp.log(K) / K)},
                             lemma="cross-entropy-kl-decomposition")
                 .evaluate("K equal terms log(K)/K"))
        bound = divergence_bound(proof, 1 / K, q[x], (x, 1, K), Q_DISTRIBUTION, "D_KL(u‖q)")
        proof.conclude(value, split, bound)

    perturbations = stronger_only(UNIFORM_LHS, ("=", ">="))  # D_KL ≥ −1 is true

    def check(self, value, experiment):
        for point in experiment.draw({K: Integers(2, 1000), "concentration": Reals(0.3, 3.0)}):
            size, (constant, floor) = point[K], point.value(value)
            rows, u = batch_rows(size), np.full(size, 1 / size)
            Q = np.concatenate([random_simplex(experiment.rng, rows, size, point["concentration"]),
                                softmax(experiment.rng.normal(0, 1e-3, (rows, size)))])
            h, d = cross_entropy(u, Q), kl_divergence(u, Q)
            tol = tolerance(3 * (size + 4), np.max(h))  # k-term sums of logs, compared
            experiment.close(h - d, np.full(len(Q), constant), tol, "H(u,q) − D_KL(u‖q)",
                             f"{len(Q)} q, half near uniform", at=point)
            experiment.holds(bool(np.all(d >= floor - tol)), "D_KL(u‖q) ≥ the stated bound",
                             f"min D_KL(u‖q) = {d.min():.3g}", at=point)
            experiment.close(cross_entropy(u, u), constant + floor, tol,
                             "H(u,u) equals the stated lower bound", at=point)


z_i, d = sp.Symbol("z_i", real=True), sp.Symbol("d", real=True)  # d: a gap held fixed
z, gap = sp.IndexedBase("z", real=True), sp.IndexedBase("Delta", real=True)
g, c = sp.IndexedBase("g", positive=True), sp.Symbol("c", positive=True)  # Δ_j = c·g_j
M = sp.Symbol("M", positive=True, integer=True)  # the K − 1 other classes
SOFTMAX = sp.exp(z_i) / (sp.exp(z_i) + sp.Sum(sp.exp(z[j]), (j, 1, M)))
GAP_FORM = 1 / (1 + sp.Sum(sp.exp(-gap[j]), (j, 1, M)))
ALL_GROW = 1 / (1 + sp.Sum(sp.exp(-c * g[j]), (j, 1, M)))
ONE_HELD = 1 / (1 + sp.exp(-d) + sp.Sum(sp.exp(-c * g[j]), (j, 2, M)))
SATURATION_VALUE = (GAP_FORM, 1, 1 / (1 + sp.exp(-d)), 0)
SATURATION_LHS = (SOFTMAX, sp.Limit(ALL_GROW, c, sp.oo), sp.Limit(ONE_HELD, c, sp.oo),
                  1 - GAP_FORM)
SATURATES = formula("softmax saturates only in the limit")
SATURATES_EN = (r"\text{softmax}(z_i) \to 1 \quad \text{if and only if} \quad z_i - z_j \to "
                r"\infty, \forall j \neq i")
GAPS = Premise("Δ_j = z_i − z_j for the M = K − 1 other classes: z_j = z_i − Δ_j",
               {z[j]: z_i - gap[j]})


@claim(
    id="softmax-saturates-only-in-limit",
    title="softmax_i approaches 1 only when every gap z_i − z_j grows without bound",
    section="13.1",
    statement=Statement("softmax_i(z) = 1/(1 + Σ_{j≠i} e^{−Δ_j}), Δ_j = z_i − z_j: → 1 when every "
                        "gap grows as c·g_j, c → ∞; → 1/(1 + e^{−d}) < 1 when one gap stays at d; "
                        "1 − softmax_i > 0 for finite logits", SATURATION_VALUE, lhs=SATURATION_LHS,
                        relation=("=", "=", "=", ">")),
    premises=(GAPS, "growing gaps: Δ_j = c·g_j with fixed g_j > 0; one held: Δ_1 = d"),
    foils=(Foil("the sign of the gaps flipped",
                (1 / (1 + sp.Sum(sp.exp(gap[j]), (j, 1, M))), 1, 1 / (1 + sp.exp(d)), 0)),
           Foil("the own term dropped: 1/Σ_{j≠i} e^{−Δ_j}",
                (1 / sp.Sum(sp.exp(-gap[j]), (j, 1, M)), 1, 1, 0)),
           Foil("one bounded gap does not matter: the limit is 1 anyway", (GAP_FORM, 1, 1, 0))),
    sources=(SZEGEDY, MULLER), tags=("softmax", "label-smoothing"),
    formulas=(SATURATES,), formula_spellings={SATURATES: (SATURATES_EN,)},
)
class SoftmaxSaturatesOnlyInLimit:
    """Dividing by e^{z_i} leaves 1 over one plus positive terms e^{−Δ_j}: below 1 for finite
    logits; the finite sum vanishes term by term when every gap grows, but keeps e^{−d} when one
    gap is held at d, and the limit stays below 1."""

    def prove(self, value, proof):
        divided = 1 / (1 + sp.Sum(sp.exp(z[j] - z_i), (j, 1, M)))
        form = (proof.chain(SOFTMAX, "softmax_i(z)").equals(divided, "divide by e^{z_i}")
                .substitute({z[j]: z_i - gap[j]}, premise=GAPS))
        below = proof.chain(1 - GAP_FORM, "1 − softmax_i").ge(0, "a positive sum over one plus "
                                                              "itself", strict=True)
        grow = proof.chain(ALL_GROW, "every gap grows").limit(c, sp.oo)
        held = proof.chain(ONE_HELD, "one gap held at d").limit(c, sp.oo)
        proof.conclude(value, form, grow, held, below)

    perturbations = stronger_only(SATURATION_LHS, ("=", "=", "=", ">"))

    def check(self, value, experiment):
        for point in experiment.draw({M: Integers(1, 200), "logit scale": Reals(0.5, 8.0)}):
            m, rows = point[M], 500
            plain, grown, held, d_held = saturation_logits(experiment.rng, rows, m,
                                                           point["logit scale"])
            stated = evaluate_indexed(value[0], {gap: plain[:, :1] - plain[:, 1:]}, {M: m})
            experiment.close(softmax(plain)[:, 0], stated, tolerance(3 * m + 6),
                             "softmax_i vs the stated gap form", at=point)
            tol = tolerance(3 * m + 6) + m * np.exp(-40.0)  # rounding + what is left of Σ e^{−Δ}
            experiment.close(softmax(grown)[:, 0], np.full(rows, point.value(value[1])), tol,
                             "softmax_i with every gap ≥ 40 vs the stated limit", at=point)
            probs = softmax(held)
            experiment.close(probs[:, 0], evaluate_indexed(value[2], {}, {d: d_held}), tol,
                             "one gap held at d, the others ≥ 40, vs the stated limit", at=point)
            rest = probs[:, 1:].sum(-1)  # 1 − softmax_i without cancellation
            experiment.holds(bool(np.all(rest > point.value(value[3]))),
                             "1 − softmax_i exceeds the stated bound", f"min {rest.min():.3g}",
                             at=point)


G_STAR, logit = sp.Symbol("g*"), sp.Symbol("g", real=True)  # the optimal gap, a gap
GAP_LHS = (G_STAR, sp.Limit(G_STAR + sp.log(eps), eps, 0, "+"))
eta = sp.Symbol("eta", positive=True)  # 1 − ε; M (above) is K − 1
RANGES = Premise("0 < ε < 1, K ≥ 2: written 1 − ε = η with η > 0, and K = M + 1 with M ≥ 1 "
                 "a whole number", {1 - eps: eta, eta: 1 - eps, K: M + 1, M: K - 1})


@claim(
    id="smoothed-optimal-logit-gap",
    title="With label smoothing the loss-minimising logit gap is finite: log(1 + K(1−ε)/ε)",
    section="13.3",
    statement=Statement("for logits (g, 0, …, 0) the smoothed loss is minimised at "
                        "g* = log(1 + K(1 − ε)/ε), which grows without bound like log(K/ε) as "
                        "ε → 0: g* + log ε → log K", (sp.log(1 + K * (1 - eps) / eps), sp.log(K)),
                        lhs=GAP_LHS),
    premises=("target 1 − ε + ε/K on the correct class, ε/K on the others (smoothed-label-vector)",
              "logits: the correct one ahead of K − 1 equal others by g", RANGES),
    foils=(Foil("g* = log(K(1 − ε)/ε) (the 1 + dropped)",
                (sp.log(K * (1 - eps) / eps), sp.log(K))),
           Foil("g* = log((1 − ε)/ε), independent of K", (sp.log((1 - eps) / eps), 0)),
           Foil("the correct class's target taken as 1 − ε, without its ε/K",
                (sp.log((K - 1) * (1 - eps) / eps), sp.log(K - 1)))),
    depends_on=("smoothed-label-vector",),
    sources=(SZEGEDY, MULLER), tags=("label-smoothing", "softmax", "optimisation"),
)
class SmoothedOptimalLogitGap:
    """Against the smoothed target the loss is strictly convex in g, so its one critical point,
    where softmax matches the target 1 − ε + ε/K < 1, is the minimum; it recedes as ε → 0."""

    def prove(self, value, proof):
        others = 1 / (sp.exp(logit) + K - 1)  # softmax probability of each other class
        # −Σ y log softmax with the targets still as the lemma's left sides (kept unexpanded)
        loss = (proof.chain(-(sp.log(sp.exp(logit) * others) * VECTOR_LHS[0])
                            - (K - 1) * sp.log(others) * VECTOR_LHS[1], "loss(g)")
                .substitute(lemma="smoothed-label-vector", rename={})  # its parts, as stated
                .equals(-(K * (1 - eps) + eps) / K * sp.log(sp.exp(logit) * others)
                        - (K - 1) * eps / K * sp.log(others), "1 − ε kept together")
                .substitute({1 - eps: eta, K: M + 1}, premise=RANGES))  # signs SymPy sees
        best = (proof.minimizer(loss, logit, G_STAR, "g*")
                .substitute({eta: 1 - eps, M: K - 1}, premise=RANGES))
        rate = (proof.chain(G_STAR + sp.log(eps), "g* + log ε").substitute(from_chain=best)
                .limit(eps, 0, "+"))
        proof.conclude(value, best, rate)

    def check(self, value, experiment):
        for point in experiment.draw(CLASSES_AND_EPS, count=3):
            size, (stated, rate) = point[K], point.value(value)
            found, precision = numeric_gap(size, point[eps])
            experiment.close(stated, found, precision,
                             "g* vs the numerical minimiser of the smoothed loss", at=point)
            found, precision = numeric_gap(size, 1e-6)  # g* + log ε is within 2ε of its limit
            experiment.close(rate, found + np.log(1e-6), precision + 2e-6,
                             "numerical minimiser + log ε at ε = 1e-6 vs the stated limit",
                             at=point)

    def plot(self):
        return gap_loss_plot(5)  # deterministic curves from the definitions; K = 5 as in the notes
