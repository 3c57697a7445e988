"""Section 13: label smoothing, and why it keeps the optimal logits finite."""

import numpy as np
import sympy as sp
from scipy.optimize import minimize, minimize_scalar

from tmath import Figure, Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.reference.information import cross_entropy, kl_divergence, random_simplex
from tmath.reference.nn import softmax
from tmath.reference.optim import VASWANI_2017
from tmath.engine.plots import Plot, Series
from tmath.engine.proof import Rule

SZEGEDY = Source("Szegedy et al. (2016), Rethinking the Inception Architecture for Computer "
                 "Vision, §7", arxiv="1512.00567")
VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §5.4", arxiv="1706.03762")
MULLER = Source("Müller, Kornblith & Hinton (2019), When Does Label Smoothing Help?",
                arxiv="1906.02629")

x = sp.Symbol("x", positive=True, integer=True)
K = sp.Symbol("K", positive=True, integer=True)
eps = sp.Symbol("epsilon", positive=True)
y_onehot = sp.Symbol("y", nonnegative=True)
y, q = sp.IndexedBase("y", nonnegative=True), sp.IndexedBase("q", positive=True)
H_yq, H_uq, D_uq = sp.Symbol("H(y,q)"), sp.Symbol("H(u,q)"), sp.Symbol("D_KL(u‖q)")
g = sp.Symbol("g", real=True)


def smooth(onehot: np.ndarray, epsilon: float) -> np.ndarray:
    """(1 − ε)·y + ε/K, the definition applied to label vectors of length K."""
    onehot = np.asarray(onehot, dtype=float)
    return (1 - epsilon) * onehot + epsilon / onehot.shape[-1]


def _sum(term):
    return sp.Sum(term, (x, 1, K))


NOTES_EXAMPLE = smooth(np.eye(5)[1], 0.1)  # K = 5, correct class second, ε = 0.1


@claim(
    id="smoothed-label-vector",
    title="Smoothed labels put 1 − ε + ε/K on the correct class and ε/K elsewhere",
    section="13.2",
    statement=Statement("y_smooth has 1 − ε + ε/K at the correct class and ε/K at the other "
                        "K − 1, summing to 1", (1 - eps + eps / K, eps / K),
                        lhs=(sp.Symbol("y_smooth,correct"), sp.Symbol("y_smooth,other"))),
    premises=("y_smooth = (1 − ε)·y_onehot + ε/K", "0 < ε < 1, K classes"),
    foils=(Foil("1 − ε at the correct class (ε/K only elsewhere)", (1 - eps, eps / K)),
           Foil("1 − ε at the correct class, ε/(K − 1) elsewhere", (1 - eps, eps / (K - 1)))),
    sources=(SZEGEDY, VASWANI),
    tags=("label-smoothing", "loss"),
    figures=(
        Figure("smoothed label, K = 5, class 2, ε = 0.1", "[0.02, 0.92, 0.02, 0.02, 0.02]",
               near="smoothed:", compute=lambda: NOTES_EXAMPLE),
        Figure("target confidence of the correct class in that example, in percent", "92%",
               near="只需要输出", compute=lambda: 100 * NOTES_EXAMPLE.max()),
        Figure("target confidence under a one-hot label, in percent", "100%", near="不再需要输出",
               compute=lambda: 100 * np.eye(5)[1].max()),
        Figure("label smoothing ε of the original Transformer (Vaswani et al. §5.4)", "0.1",
               near="原始 Transformer 用", compute=lambda: VASWANI_2017["label_smoothing"]),
    ),
    formulas=(r"y_{smooth} = (1 - \epsilon) \cdot y_{onehot} + \frac{\epsilon}{K}",),
)
class SmoothedLabelVector:
    """The uniform share ε/K is added to every class, the correct one included, after the
    one-hot part has been scaled down to 1 − ε."""

    def prove(self, value, proof):
        definition = (1 - eps) * y_onehot + eps / K
        correct = proof.chain(definition, "correct class").substitute(
            {y_onehot: 1}, premise="y_onehot = 1 at the correct class")
        other = proof.chain(definition, "other class").substitute(
            {y_onehot: 0}, premise="y_onehot = 0 elsewhere")
        proof.fact(correct.value + (K - 1) * other.value, 1, "the entries sum to 1")
        proof.conclude(value, correct, other)

    def check(self, value, experiment):
        rng = experiment.rng
        entries = sp.lambdify((eps, K), value, "numpy")
        for k in (2, 5, 100):
            epsilon, labels = rng.uniform(0.01, 0.5, size=500), rng.integers(0, k, size=500)
            onehot = np.eye(k)[labels]
            on, off = (np.asarray(v, dtype=float) * np.ones(500) for v in entries(epsilon, k))
            built = np.where(onehot == 1, on[:, None], off[:, None])
            experiment.close(smooth(onehot, epsilon[:, None]), built, tolerance(4),
                             f"definition vs stated entries, K={k}", inputs="500 random ε, labels")
        target = smooth(np.eye(5)[1], 0.1)  # what a model fitting this target should output
        fitted = softmax(minimize(lambda z: cross_entropy(target, softmax(z)), np.zeros(5)).x)
        stated = np.where(np.eye(5)[1] == 1, *entries(0.1, 5))
        # two 5-term cross-entropies (≈ 3 operations a term, 20 in all) of size ≤ log 5
        loss_gap = cross_entropy(target, stated) - cross_entropy(target, fitted)
        experiment.holds(bool(np.isclose(stated.sum(), 1, rtol=0, atol=tolerance(5))
                              and loss_gap <= tolerance(20, np.log(5))),
                         "the stated vector is the best output for the smoothed target (K=5)",
                         f"loss(stated) − loss(BFGS optimum) = {loss_gap:.2g}")


H_Y_SUM, H_U_SUM = _sum(-y[x] * sp.log(q[x])), _sum(-sp.log(q[x]) / K)


def _random_case(rng, k, rows=2000):
    """Random logits → q, random one-hot labels y, random ε: the premises of §13.3."""
    Q = softmax(rng.normal(0, 3, size=(rows, k)))
    Y = np.eye(k)[rng.integers(0, k, size=rows)]
    return Q, Y, rng.uniform(0.01, 0.5, size=(rows, 1))


@claim(
    id="label-smoothing-loss-split",
    title="The smoothed loss is (1 − ε)·H(y,q) + ε·H(u,q)",
    section="13.3",
    statement=Statement("H(y_smooth, q) = (1 − ε)·H(y,q) + ε·H(u,q), u uniform on K classes",
                        (1 - eps, eps), lhs=(sp.Symbol("weight of H(y,q)"),
                                             sp.Symbol("weight of H(u,q)"))),
    premises=("y_smooth = (1 − ε)·y + ε/K", "H(a,q) = −Σ a log q"),
    foils=(Foil("H(y,q) keeps weight 1 and ε·H(u,q) is added", (sp.Integer(1), eps)),
           Foil("the uniform term has weight ε/K", (1 - eps, eps / K))),
    depends_on=("smoothed-label-vector",),
    sources=(SZEGEDY, MULLER),
    tags=("label-smoothing", "loss"),
    formulas=(r"L_{smooth} = (1 - \epsilon) \cdot H(y, q) + \epsilon \cdot H(u, q)",),
)
class LabelSmoothingLossSplit:
    """Cross-entropy is linear in its first argument, and the smoothed label is a mixture of
    the one-hot label and the uniform distribution."""

    def prove(self, weights, proof):
        loss = (proof.chain(_sum(-((1 - eps) * y[x] + eps / K) * sp.log(q[x])), "H(y_smooth, q)")
                .equals((1 - eps) * H_Y_SUM + eps * H_U_SUM, "linear in the first argument")
                .substitute({H_Y_SUM: H_yq, H_U_SUM: H_uq}, premise="definitions of H(y,q), "
                                                                   "H(u,q)"))
        proof.conclude(weights[0] * H_yq + weights[1] * H_uq, loss)

    def check(self, weights, experiment):
        w = sp.lambdify((eps, K), weights, "numpy")
        for k in (2, 10, 1000):
            Q, Y, epsilon = _random_case(experiment.rng, k)
            a, b = w(epsilon[:, 0], k)
            lhs = cross_entropy(smooth(Y, epsilon), Q)
            rhs = a * cross_entropy(Y, Q) + b * cross_entropy(np.full(k, 1 / k), Q)
            experiment.close(lhs, rhs, tolerance(3 * (k + 4), np.max(lhs)),
                             f"H(y_smooth,q) vs weighted split, K={k}", inputs="2000 cases")


@claim(
    id="uniform-cross-entropy-kl",
    title="H(u,q) = D_KL(u‖q) + log K: the uniform term penalises distance from uniform",
    section="13.3",
    statement=Statement("H(u,q) = D_KL(u‖q) + log K, so H(u,q) ≥ log K with equality iff q = u",
                        sp.log(K), lhs=sp.Symbol("H(u,q) − D_KL(u‖q)")),
    premises=("u(x) = 1/K for K classes", "q has full support"),
    foils=(Foil("the constant is log(K − 1)", sp.log(K - 1)),
           Foil("H(u,q) = D_KL(u‖q)", sp.Integer(0))),
    depends_on=("cross-entropy-kl-decomposition", "gibbs-inequality"),
    sources=(MULLER, SZEGEDY),
    tags=("label-smoothing", "information"),
)
class UniformCrossEntropyKl:
    """The decomposition H = entropy + divergence, with the entropy of the uniform law."""

    def prove(self, constant, proof):
        h_u = sp.Symbol("H(p)")
        split = (proof.chain(sp.Symbol("H(p,q)"), "H(u,q): the lemma with p = u")
                 .substitute({sp.Symbol("H(p,q)"): h_u + D_uq},
                             lemma="cross-entropy-kl-decomposition")
                 .substitute({h_u: _sum(-sp.log(sp.Integer(1) / K) / K)}, premise="H(u), u = 1/K")
                 .evaluate("K equal terms"))
        proof.conclude(constant + D_uq, split)

    def check(self, constant, experiment):
        for k in (2, 10, 1000):
            Q = random_simplex(experiment.rng, 2000, k, 0.5)
            u = np.full(k, 1 / k)
            h, d = cross_entropy(u, Q), kl_divergence(u, Q)
            experiment.close(h - d, float(constant.subs(K, k)) * np.ones(2000),
                             tolerance(3 * (k + 4), np.max(h)), f"H(u,q) − D_KL(u‖q), K={k}")
            experiment.holds(bool(np.all(h >= float(constant.subs(K, k)))),
                             f"H(u,q) ≥ stated constant, K={k}", f"min H(u,q) = {h.min():.4g}")


a = sp.Symbol("z_i", real=True)
w, gap = sp.IndexedBase("z", real=True), sp.IndexedBase("Delta", real=True)
jj = sp.Symbol("j", positive=True, integer=True)
P_GAPS = 1 / (1 + sp.Sum(sp.exp(-gap[jj]), (jj, 1, K - 1)))


def _numeric(expr, k):
    """The stated expression for K = k, as a function of an array of the k − 1 gaps."""
    d = sp.symbols(f"d1:{k}", real=True)
    body = expr.subs(K, k).doit().subs({gap[m + 1]: d[m] for m in range(k - 1)})
    f = sp.lambdify(d, body, "numpy")
    return lambda gaps: f(*np.moveaxis(gaps, -1, 0))


@claim(
    id="softmax-saturates-only-in-limit",
    title="softmax_i approaches 1 only when every gap z_i − z_j grows without bound",
    section="13.1",
    statement=Statement("softmax_i(z) = 1/(1 + Σ_{j≠i} e^{−Δ_j}) with Δ_j = z_i − z_j: below 1 "
                        "for finite logits, → 1 iff every Δ_j → ∞", P_GAPS,
                        lhs=sp.Symbol("softmax_i(z)")),
    premises=("softmax_i(z) = e^{z_i} / Σ_j e^{z_j} over K classes; z_j, j ≠ i, listed as "
              "z[1..K−1]",),
    foils=(Foil("softmax_i = 1/(1 + Σ e^{+Δ_j}) (sign of the gap flipped)",
                1 / (1 + sp.Sum(sp.exp(gap[jj]), (jj, 1, K - 1)))),
           Foil("softmax_i = 1/Σ_{j≠i} e^{−Δ_j} (own term dropped)",
                1 / sp.Sum(sp.exp(-gap[jj]), (jj, 1, K - 1)))),
    sources=(SZEGEDY, MULLER),
    tags=("softmax", "label-smoothing"),
    formulas=(r"\text{softmax}(z_i) \to 1 \quad \text{当且仅当} \quad z_i - z_j \to \infty, "
              r"\forall j \neq i",),
    formula_spellings={r"\text{softmax}(z_i) \to 1 \quad \text{当且仅当} \quad z_i - z_j \to \infty, "
                       r"\forall j \neq i": (r"\text{softmax}(z_i) \to 1 \quad \text{if and only if} "
                                              r"\quad z_i - z_j \to \infty, \forall j \neq i",)},
)
class SoftmaxSaturatesOnlyInLimit:
    """Dividing through by e^{z_i} leaves 1 over one plus positive terms e^{−Δ_j}; the sum
    vanishes only when each term does, and one bounded gap keeps the value below 1."""

    def prove(self, value, proof):
        g_fixed = sp.Symbol("c", real=True)
        form = (proof.chain(sp.exp(a) / (sp.exp(a) + sp.Sum(sp.exp(w[jj]), (jj, 1, K - 1))),
                            "softmax_i(z)")
                .equals(1 / (1 + sp.Sum(sp.exp(w[jj] - a), (jj, 1, K - 1))), "divide by e^{z_i}")
                .substitute({w[jj]: a - gap[jj]}, premise="Δ_j = z_i − z_j"))
        (proof.chain(form.value.xreplace({gap[jj]: g}), "all gaps equal to g")
         .evaluate("K − 1 equal terms").limit(g, sp.oo))
        bounded = (proof.chain(1 / (1 + sp.exp(-g_fixed) + (K - 2) * sp.exp(-g)),
                               "one gap held at c, the other K − 2 equal to g")
                   .limit(g, sp.oo))
        proof.holds(1 - bounded.value > 0, "with one gap bounded the limit stays below 1")
        proof.conclude(value, form)

    def check(self, value, experiment):
        rng = experiment.rng
        for k in (2, 5, 50):
            stated = _numeric(value, k)
            z = rng.normal(0, 4, size=(3000, k))
            experiment.close(softmax(z)[:, 0], stated(z[:, :1] - z[:, 1:]), tolerance(3 * k + 6),
                             f"softmax_0 vs stated gap form, K={k}", inputs="3000 logit vectors")
            scales = np.array([1.0, 2.0, 4.0, 8.0, 16.0])  # all gaps grow (finite throughout)
            gaps = np.abs(rng.normal(0, 2, size=(200, 1, k - 1))) + 0.1
            probs = softmax(np.concatenate([np.zeros((200, 5, 1)), -scales[:, None] * gaps], -1))
            rest = probs[..., 1:].sum(-1)  # 1 − softmax_0, without cancellation
            experiment.holds(bool(np.all(rest > 0) and np.all(np.diff(rest, axis=1) < 0)),
                             f"1 − softmax_0 > 0 and falls as all gaps grow, K={k}",
                             f"smallest 1 − softmax_0 = {rest.min():.3g}")
            if k > 2:  # keep gap 1 at 1.0, push the others to 30
                held = softmax(np.array([[1.0, 0.0] + [-29.0] * (k - 2)]))[0, 0]
                experiment.holds(bool(held <= 1 / (1 + np.exp(-1.0)) + tolerance(3 * k)),
                                 f"one bounded gap keeps softmax_0 ≤ 1/(1+e^-1), K={k}",
                                 f"softmax_0 = {held:.6f}")


Y_TRUE = 1 - eps + eps / K  # smoothed target of the correct class (smoothed-label-vector)
Q_TRUE = sp.exp(g) / (sp.exp(g) + K - 1)  # correct logit g ahead of K − 1 equal logits
GAP_CASES = ((5, 0.1), (10, 0.3), (1000, 0.1), (2, 0.02))  # (K, ε) checked below


def _gap_loss(g_val, k, epsilon):
    """Smoothed cross-entropy of the logits (g, 0, …, 0), straight from the definitions."""
    target = smooth(np.eye(k)[0], epsilon)
    return cross_entropy(target, softmax(np.concatenate([[g_val], np.zeros(k - 1)])))


@claim(
    id="smoothed-optimal-logit-gap",
    title="With label smoothing the loss-minimising logit gap is finite: log(1 + K(1−ε)/ε)",
    section="13.3",
    statement=Statement("for logits (g, 0, …, 0) the smoothed loss is minimised at "
                        "g* = log(1 + K(1 − ε)/ε), which → ∞ as ε → 0",
                        sp.log(1 + K * (1 - eps) / eps), lhs=sp.Symbol("g*")),
    premises=("target y_smooth: 1 − ε + ε/K on the correct class, ε/K on the others",
              "logits: the correct one ahead of K − 1 equal others by g", "0 < ε < 1, K ≥ 2"),
    foils=(Foil("g* = log(K(1 − ε)/ε) (the 1 + dropped)", sp.log(K * (1 - eps) / eps)),
           Foil("g* = log((1 − ε)/ε), independent of K", sp.log((1 - eps) / eps))),
    depends_on=("smoothed-label-vector", "softmax-saturates-only-in-limit"),
    sources=(SZEGEDY, MULLER),
    tags=("label-smoothing", "softmax", "optimisation"),
)
class SmoothedOptimalLogitGap:
    """The loss is convex in g with derivative softmax_correct(g) − target_correct, so the
    optimum is where the model's probability equals the smoothed target, which is below 1."""

    def prove(self, g_star, proof):
        loss = -Y_TRUE * sp.log(Q_TRUE) - (K - 1) * eps / K * sp.log(1 / (sp.exp(g) + K - 1))
        proof.fact(sp.diff(loss, g, 2), (K - 1) * sp.exp(g) / (sp.exp(g) + K - 1) ** 2,
                   "L'' = (K−1)e^g/(e^g+K−1)² > 0 for K ≥ 2: L is strictly convex in g")
        opt = (proof.chain(sp.diff(loss, g), "dL/dg")
               .equals(Q_TRUE - Y_TRUE, "softmax probability minus target")
               .apply(Rule("the minimum of a convex L is where dL/dg = 0: solve for g",
                           lambda e: sp.solve(e, g)[0]))
               .equals(sp.log(1 + K * (1 - eps) / eps), "rearrange", method="expand_log"))
        proof.chain(opt.value, "g* without smoothing").limit(eps, 0, "+")
        proof.conclude(g_star, opt)

    def check(self, g_star, experiment):
        stated = sp.lambdify((K, eps), g_star, "numpy")
        for k, epsilon in GAP_CASES:
            g_s = float(stated(k, epsilon))
            loss = lambda v: _gap_loss(v, k, epsilon)  # noqa: E731
            found = minimize_scalar(loss, bracket=(0.0, 1.0)).x
            grid = np.linspace(0, 3 * abs(g_s) + 5, 400)
            best = min(loss(found), min(loss(v) for v in grid))
            tol = 2 * tolerance(3 * k + 10, loss(g_s))  # two k-term losses compared
            experiment.holds(bool(loss(g_s) <= best + tol), f"g* attains the minimum, K={k}, "
                             f"ε={epsilon}", f"L(g*) − min L = {loss(g_s) - best:.2g}")
        plain = [cross_entropy(np.eye(5)[0], softmax(np.array([v, 0, 0, 0, 0.0])))
                 for v in np.linspace(0, 30, 61)]
        experiment.holds(bool(np.all(np.diff(plain) < 0)),
                         "without smoothing the loss keeps falling as g grows (K=5, g ≤ 30)")

    def plot(self):
        # Deterministic curves from the definitions (no randomness); K = 5 as in the notes.
        k, gs = 5, np.linspace(0, 9, 181)
        series = [Series(f"ε = {e:g}" + (" (one-hot: no minimum)" if e == 0 else ""), tuple(gs),
                         tuple(_gap_loss(v, k, e) for v in gs)) for e in (0.0, 0.05, 0.1, 0.2, 0.3)]
        eps_grid = np.linspace(0.035, 0.5, 60)
        g_star = np.log(1 + k * (1 - eps_grid) / eps_grid)  # the statement's g*(ε)
        series.append(Series("minima: g* = log(1 + K(1−ε)/ε), ε from 0.035 to 0.5", tuple(g_star),
                             tuple(_gap_loss(v, k, e) for v, e in zip(g_star, eps_grid)), "dashed"))
        return Plot("Smoothed loss for logits (g, 0, 0, 0, 0), K = 5", tuple(series),
                    xlabel="logit gap g", ylabel="cross-entropy with smoothed target (nats)")
