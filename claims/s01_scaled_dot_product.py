"""Section 1: why attention scores are divided by √d_k."""

import math

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED, dot_products
from tmath.engine.experiment import tolerance
from tmath.engine.moments import E, Moments, Var
from tmath.reference.nn import softmax
from tmath.engine.plots import Plot, Series

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.1", arxiv="1706.03762")

q, k = sp.symbols("q_i k_i", real=True)
d_k = sp.Symbol("d_k", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
qv, kv = sp.IndexedBase("q"), sp.IndexedBase("k")
DOT = sp.Sum(qv[i] * kv[i], (i, 1, d_k))
UNIT_MOMENTS = {E(q): 0, E(k): 0, Var(q): 1, Var(k): 1}
PAIRS = (("Rademacher", "uniform"), ("centred exponential", "Gaussian"))
VARIANCE_DIMS, SCALE_DIMS = (4, 64), (16, 128)  # d_k used by the checks below


def _pair(name_q: str, name_k: str, d: int):
    dq, dk = STANDARDIZED[name_q], STANDARDIZED[name_k]
    return lambda rng, m: dot_products(rng, m, d, dq, dk)


@claim(
    id="product-term-moments",
    title="Each product q_i·k_i has mean 0 and variance 1",
    section="1.1",
    statement=Statement("E[q_i k_i] = 0 and Var(q_i k_i) = 1", (0, 1), lhs=(E(q * k), Var(q * k))),
    premises=("q_i and k_i are independent", "E[q_i] = E[k_i] = 0", "Var(q_i) = Var(k_i) = 1"),
    foils=(Foil("Var(q_i k_i) = 2 (the two variances added)", (0, 2)),
           Foil("E[q_i k_i] = 1", (1, 1))),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    formulas=(r"E[q_i k_i] = E[q_i] \cdot E[k_i] = 0 \times 0 = 0",
              r"\text{Var}(q_i k_i) = E[q_i^2 k_i^2] - (E[q_i k_i])^2 = E[q_i^2] \cdot E[k_i^2] "
              r"= 1 \times 1 = 1"),
    statistical_tests=4,
)
class ProductTermMoments:
    """The product of two independent standardized variables is again standardized; no
    Gaussian assumption is needed, only independence and the first two moments."""

    def prove(self, value, proof):
        rules = Moments(random=(q, k))
        mean = (proof.chain(E(q * k), "E[q_i k_i]")
                .apply(rules.independence)
                .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        var = (proof.chain(Var(q * k), "Var(q_i k_i)")
               .apply(rules.variance_definition)
               .apply(rules.independence)
               .apply(rules.second_moment)
               .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = (float(v) for v in value)
        for name_q, name_k in PAIRS:
            draw = _pair(name_q, name_k, 1)
            experiment.mean(draw, mean, f"E[q_i k_i] ({name_q} × {name_k})")
            experiment.variance(draw, var, f"Var(q_i k_i) ({name_q} × {name_k})")


@claim(
    id="dot-product-variance",
    title="The dot product qᵀk has mean 0 and variance d_k",
    section="1.1",
    statement=Statement("E[qᵀk] = 0 and Var(qᵀk) = d_k", (0, d_k), lhs=(E(DOT), Var(DOT))),
    premises=("all components q_i, k_i are mutually independent",
              "each component has mean 0 and variance 1"),
    foils=(Foil("Var(qᵀk) = √d_k", (0, sp.sqrt(d_k))),
           Foil("Var(qᵀk) = d_k²", (0, d_k**2))),
    depends_on=("product-term-moments",),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    figures=(
        Figure("standard deviation of qᵀk at d_k = 64", "8", near="d_k = 64",
               compute=lambda: math.sqrt(64)),
        Figure("standard deviation of qᵀk at d_k = 512", "≈ 22.6", near="d_k = 512",
               compute=lambda: math.sqrt(512)),
    ),
    formulas=(r"E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k",),
    statistical_tests=4,
)
class DotProductVariance:
    """Summing d_k independent unit-variance products adds their variances, so the spread
    of raw attention scores grows like √d_k."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        term = qv[i] * kv[i]
        mean = (proof.chain(E(DOT), "E[qᵀk]")
                .apply(rules.linearity)
                .substitute({E(term): 0}, lemma="product-term-moments")
                .evaluate("sum of d_k zeros"))
        var = (proof.chain(Var(DOT), "Var(qᵀk)")
               .apply(rules.bienayme)
               .substitute({Var(term): 1}, lemma="product-term-moments")
               .evaluate("sum of d_k ones"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = value
        for d, (name_q, name_k) in zip(VARIANCE_DIMS, PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.mean(draw, float(mean), f"E[qᵀk] at d_k={d} ({name_q} × {name_k})")
            experiment.variance(draw, float(var.subs(d_k, d)),
                                f"Var(qᵀk) at d_k={d} ({name_q} × {name_k})")

    def plot(self) -> Plot:
        # An illustration, not part of the check: a fixed stream keeps the picture the same.
        rng = np.random.default_rng(1706)
        bars, densities = [], []
        for d in (256, 64, 4):                    # widest first, so the narrow ones stay visible
            sd = math.sqrt(d)
            samples = dot_products(rng, 4000, d, STANDARDIZED["Rademacher"],
                                   STANDARDIZED["uniform"])
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


@claim(
    id="scaled-score-variance",
    title="Dividing by √d_k brings the score variance back to 1",
    section="1.3",
    statement=Statement("Var(qᵀk · c) = 1 for the scale c = 1/√d_k", 1 / sp.sqrt(d_k),
                        lhs=sp.Symbol("c")),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)", "c is a constant"),
    foils=(Foil("the scale 1/d_k gives unit variance", 1 / d_k),
           Foil("no scaling is needed (c = 1)", sp.Integer(1))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    formulas=(r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \frac{\text{Var}(q^T k)}{d_k} "
              r"= \frac{d_k}{d_k} = 1",),
    statistical_tests=2,
)
class ScaledScoreVariance:
    """Var(c·X) = c²·Var(X), so the only positive scale that makes the variance 1 is
    c = 1/√Var(X) = 1/√d_k."""

    def prove(self, c, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(c * DOT), "Var(c·qᵀk)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(1, var)

    def check(self, c, experiment):
        for d, (name_q, name_k) in zip(SCALE_DIMS, PAIRS):
            scale = float(c.subs(d_k, d))
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: scale * draw(rng, m), 1.0,
                                f"Var(c·qᵀk) at d_k={d} ({name_q} × {name_k})")


@claim(
    id="dk-scaling-overshrinks",
    title="Dividing by d_k instead would shrink the score variance to 1/d_k",
    section="1.3",
    statement=Statement("Var(qᵀk / d_k) = 1/d_k", 1 / d_k, lhs=Var(DOT / d_k)),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)",),
    foils=(Foil("Var(qᵀk / d_k) = 1", sp.Integer(1)),
           Foil("Var(qᵀk / d_k) = 1/√d_k", 1 / sp.sqrt(d_k))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    statistical_tests=2,
)
class DkScalingOvershrinks:
    """With 1/d_k the scores' spread falls as 1/√d_k, flattening the softmax more and more
    as the head dimension grows."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(DOT / d_k), "Var(qᵀk/d_k)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(value, var)

    def check(self, value, experiment):
        for d, (name_q, name_k) in zip(SCALE_DIMS, PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: draw(rng, m) / d, float(value.subs(d_k, d)),
                                f"Var(qᵀk/d_k) at d_k={d} ({name_q} × {name_k})")


# -- 1.2: what large scores do to softmax ------------------------------------------------------

z_i, z_j, c = sp.symbols("z_i z_j c", real=True)
p_i, p_j = sp.symbols("p_i p_j", positive=True)
REST = sp.Symbol("R", nonnegative=True)  # Σ exp(z_l) over the other entries l ≠ i, j
SOFT_I = sp.exp(z_i) / (sp.exp(z_i) + sp.exp(z_j) + REST)
SOFT_J = sp.exp(z_j) / (sp.exp(z_i) + sp.exp(z_j) + REST)


def _complex_softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - np.max(z.real))
    return e / e.sum()


def _jacobian_complex_step(z: np.ndarray, h: float = 1e-30) -> np.ndarray:
    """Exact-to-rounding Jacobian: Im softmax(z + i·h·e_j) / h has no cancellation error."""
    n = z.size
    columns = [_complex_softmax(z + 1j * h * np.eye(n)[j]).imag / h for j in range(n)]
    return np.stack(columns, axis=1)


def _stated_jacobian(value, p: np.ndarray) -> np.ndarray:
    diag = sp.lambdify(p_i, value[0], "numpy")
    off = sp.lambdify((p_i, p_j), value[1], "numpy")
    jac = off(p[:, None], p[None, :]) * np.ones((p.size, p.size))
    np.fill_diagonal(jac, diag(p) * np.ones(p.size))
    return jac


@claim(
    id="softmax-jacobian",
    title="The softmax Jacobian is diag(p) − p pᵀ",
    section="1.2",
    statement=Statement("∂p_i/∂z_i = p_i(1 − p_i) and ∂p_i/∂z_j = −p_i p_j for j ≠ i",
                        (p_i * (1 - p_i), -p_i * p_j)),
    premises=("p = softmax(z) for z ∈ ℝⁿ, n ≥ 2",
              "R = Σ_{l≠i,j} exp(z_l) ≥ 0 does not depend on z_i or z_j"),
    foils=(Foil("the Jacobian is diag(p) (no coupling between entries)", (p_i, sp.Integer(0))),
           Foil("∂p_i/∂z_j = +p_i p_j", (p_i * (1 - p_i), p_i * p_j))),
    sources=(VASWANI,),
    tags=("softmax", "gradient"),
)
class SoftmaxJacobian:
    """Differentiating exp(z_i)/Σ exp(z_l) gives the familiar diag(p) − ppᵀ; every entry is
    a product of probabilities, which is why it vanishes when p becomes one-hot."""

    def prove(self, value, proof):
        diag = proof.chain(sp.Derivative(SOFT_I, z_i), "∂p_i/∂z_i").evaluate("differentiate")
        off = proof.chain(sp.Derivative(SOFT_I, z_j), "∂p_i/∂z_j").evaluate("differentiate")
        in_z = {p_i: SOFT_I, p_j: SOFT_J}
        proof.conclude(tuple(v.subs(in_z) for v in value), diag, off)

    def check(self, value, experiment):
        worst, tol = 0.0, 0.0
        for _ in range(200):
            n = int(experiment.rng.integers(2, 11))
            z = experiment.rng.normal(0, 3, size=n)
            defect = np.abs(_jacobian_complex_step(z) - _stated_jacobian(value, softmax(z)))
            worst = max(worst, float(defect.max()))
            # softmax costs ~2n+4 operations (shift, exp, sum, divide); entries are ≤ 1
            tol = max(tol, tolerance(2 * n + 8))
        experiment.close(worst, 0.0, tol, "complex-step Jacobian vs stated formula",
                         inputs="200 random z, n = 2..10")


u, g = sp.IndexedBase("u"), sp.IndexedBase("g")
n_ent = sp.Symbol("n", integer=True, positive=True)
a_, b_, l_ = sp.symbols("a b l", integer=True, positive=True)
_DENOM = 1 + sp.Sum(u[l_], (l_, 2, n_ent))  # entry 1 is the maximum; u_l = exp(−c·g_l)
_P = {1: 1 / _DENOM, a_: u[a_] / _DENOM, b_: u[b_] / _DENOM}
_ENTRIES = {"J[1,1]": _P[1] * (1 - _P[1]), "J[1,b]": -_P[1] * _P[b_],
            "J[a,1]": -_P[a_] * _P[1], "J[a,a]": _P[a_] * (1 - _P[a_]),
            "J[a,b]": -_P[a_] * _P[b_]}
_VANISH = {u[l_]: 0, u[a_]: 0, u[b_]: 0}
_CONTINUITY = ("u_l = exp(−c·g_l) → 0 for every l ≥ 2, and the expression is continuous at "
               "u = 0 (its denominator 1 + Σu_l is ≥ 1)")


@claim(
    id="softmax-saturation",
    title="Scaling the scores up drives softmax to one-hot and its gradient to zero",
    section="1.2",
    statement=Statement("for scores c·z with a unique maximum, as c → ∞: p_max → 1 and every "
                        "Jacobian entry p_i(δ_ij − p_j) → 0", (sp.Integer(1), sp.Integer(0))),
    premises=("z has a unique largest entry, ahead of every other by a gap g_l > 0",
              "the Jacobian is diag(p) − ppᵀ (claim softmax-jacobian)"),
    foils=(Foil("the largest weight's gradient p(1 − p) stays at its peak 1/4",
                (sp.Integer(1), sp.Rational(1, 4))),),
    depends_on=("softmax-jacobian",),
    sources=(VASWANI,),
    tags=("softmax", "gradient"),
    figures=(
        Figure("softmax([1.0, 0.5, 0.2])", "[0.49, 0.30, 0.22]", near="[1.0, 0.5, 0.2]",
               compute=lambda: softmax(np.array([1.0, 0.5, 0.2]))),
        Figure("softmax([20.0, 10.0, 4.0])", "[≈1.00, ≈0.00, ≈0.00]", near="[20.0, 10.0, 4.0]",
               compute=lambda: softmax(np.array([20.0, 10.0, 4.0]))),
    ),
)
class SoftmaxSaturation:
    """Divide through by the largest exponential: p_max = 1/(1 + Σ exp(−c·g_l)). Every
    exp(−c·g_l) vanishes, so p becomes one-hot and each Jacobian entry, a product with a
    vanishing factor, tends to 0 (entries a, b stand for any two non-maximal indices)."""

    def prove(self, value, proof):
        gap = sp.Symbol("g_l", positive=True)
        proof.chain(sp.exp(-c * gap), "u_l = exp(−c·g_l)").limit(c, sp.oo)
        top = (proof.chain(_P[1], "p_max")
               .substitute(_VANISH, premise=_CONTINUITY).evaluate("empty sum"))
        proof.conclude(value[0], top)
        for name, entry in _ENTRIES.items():
            chain = (proof.chain(entry, name + " (lemma softmax-jacobian)")
                     .substitute(_VANISH, premise=_CONTINUITY).evaluate("empty sum"))
            proof.conclude(value[1], chain)

    def check(self, value, experiment):
        top_limit, jac_limit = float(value[0]), float(value[1])
        worst_top = worst_jac = 0.0
        increasing = True
        for _ in range(200):
            n = int(experiment.rng.integers(2, 9))
            z = experiment.rng.normal(0, 2, size=n)
            gap = np.sort(z)[-1] - np.sort(z)[-2]
            if gap < 1e-3:
                continue
            ladder = [softmax(s * z).max() for s in np.geomspace(1, 60 / gap, 12)]
            increasing &= bool(np.all(np.diff(ladder) >= 0))
            p = softmax((60 / gap) * z)  # remaining mass ≤ (n−1)·e^−60 ≈ 1e-25: below rounding
            worst_top = max(worst_top, abs(p.max() - top_limit))
            worst_jac = max(worst_jac, float(np.abs(np.diag(p) - np.outer(p, p) - jac_limit).max()))
        tol = tolerance(2 * 8 + 8)  # softmax of n ≤ 8 entries, values ≤ 1
        experiment.close(worst_top, 0.0, tol, "p_max at c = 60/gap vs stated limit",
                         inputs="200 random score vectors")
        experiment.close(worst_jac, 0.0, tol, "Jacobian entries at c = 60/gap vs stated limit")
        experiment.holds(increasing, "p_max increases with c", "on every sampled vector")

    def plot(self) -> Plot:
        scales = np.linspace(0, 20, 201)  # c = 1 and 20 on [1.0, 0.5, 0.2] are the notes' cases
        curves = {}
        for z in ([1.0, 0.5, 0.2], [1.0, 0.9, 0.0], [2.0, 0.5, 0.3, 0.0, -1.0]):
            worst = [np.abs(np.diag(p) - np.outer(p, p)).max()
                     for p in (softmax(c * np.array(z)) for c in scales)]
            gap = z[0] - z[1]
            curves[f"z = {z}, gap {gap:g}"] = (scales, worst)
        return Plot.curves("Largest softmax Jacobian entry at scores c·z: falls like e^(−c·gap)",
                           curves,
                           xlabel="scale c  (c = 20 turns [1.0, 0.5, 0.2] into [20, 10, 4])",
                           ylabel="max |∂p_i/∂z_j|", logy=True)
