"""Section 4: attention as kernel regression, and Performer's random-feature kernel estimate."""

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED
from tmath.engine.experiment import tolerance
from tmath.reference.kernels import (DISTRIBUTE, FACTOR_OUT, INTERCHANGE, attention_tolerance,
                           gaussian_projection, nadaraya_watson, performer_draw,
                           positive_features)
from tmath.engine.moments import E, Moments, Var
from tmath.reference.nn import attention
from tmath.engine.plots import Plot, Series

TSAI = Source("Tsai et al. (2019), Transformer Dissection: A Unified Understanding of "
              "Transformer's Attention via the Lens of Kernel", arxiv="1908.11775")
PERFORMER = Source("Choromanski et al. (2021), Rethinking Attention with Performers, "
                   "Lemma 1 (positive random features)", arxiv="2009.14794")
LINEAR = Source("Katharopoulos et al. (2020), Transformers are RNNs, §3.2", arxiv="2006.16236")

d_k = sp.Symbol("d_k", positive=True, integer=True)
T, m = sp.symbols("T m", positive=True, integer=True)
j, l, r, i = sp.symbols("j l r i", integer=True, nonnegative=True)
c = sp.Symbol("c", positive=True)                         # the kernel's scale
s, v = sp.IndexedBase("s"), sp.IndexedBase("v")          # s_j = qᵀk_j, v_j a value entry
wx, wy = sp.IndexedBase("wx"), sp.IndexedBase("wy")      # w_rᵀx and w_rᵀy, random
x_, y_ = sp.IndexedBase("x"), sp.IndexedBase("y")
PQ, PK, VV = sp.IndexedBase("PhiQ"), sp.IndexedBase("PhiK"), sp.IndexedBase("V")  # φ(Q), φ(K), V
sxy = sp.Symbol("s", real=True)                           # xᵀy
nx, ny, rho = sp.symbols("n_x n_y rho", positive=True)    # |x|², |y|², |x+y|
NORM = {rho: sp.sqrt(nx + 2 * sxy + ny)}
PERFORMER_SIZES = ((8, 1), (64, 4))   # (d, m) in the unbiasedness check
VARIANCE_FEATURES = (2, 32)           # m in the variance check: a 16-fold change checks the 1/m law
VARIANCE = sp.exp(2 * sxy) * (sp.exp(nx + 2 * sxy + ny) - 1) / m   # Var[φ(x)ᵀφ(y)], m features

# Chinese texts shared by several claims (premises, and rule names from tmath.kernels)


def _nw(kappa_scale):
    """Nadaraya–Watson estimate with κ(q, k_j) = exp(kappa_scale · qᵀk_j)."""
    kappa = sp.exp(kappa_scale * s[j])
    return sp.Sum(kappa * v[j], (j, 1, T)) / sp.Sum(kappa.subs(j, l), (l, 1, T))


def _floats(values):
    return tuple(float(v) for v in values)


def _norm_fact(proof):
    ii = sp.Symbol("i", integer=True, positive=True)
    proof.fact(sp.Sum((x_[ii] + y_[ii]) ** 2, (ii, 1, d_k)),
               sp.Sum(x_[ii] ** 2, (ii, 1, d_k)) + 2 * sp.Sum(x_[ii] * y_[ii], (ii, 1, d_k))
               + sp.Sum(y_[ii] ** 2, (ii, 1, d_k)), "|x+y|² = |x|² + 2xᵀy + |y|²")


@claim(
    id="attention-kernel-regression",
    title="Softmax attention for one query is a Nadaraya–Watson estimate, exponential kernel",
    section="4.2",
    statement=Statement("Attn(q) = Σ_j κ(q,k_j) v_j / Σ_j κ(q,k_j) with κ(q,k) = exp(c·qᵀk), "
                        "c = 1/√d_k", 1 / sp.sqrt(d_k), lhs=c),
    premises=("Attn(q) = Σ_j softmax_j(qᵀk_1/√d_k, …, qᵀk_T/√d_k) v_j",
              "any T ≥ 1 keys and values"),
    foils=(Foil("the kernel is exp(qᵀk/d_k)", 1 / d_k),
           Foil("the kernel is the unscaled exp(qᵀk)", sp.Integer(1))),
    sources=(TSAI,),
    tags=("kernel", "attention"),
    formulas=(r"\hat{f}(x) = \frac{\sum_{j=1}^{n} \kappa(x, x_j) \cdot y_j}{\sum_{j=1}^{n} \kappa(x, x_j)}",
              r"\text{Attn}(q_i) = \sum_{j=1}^{T} \frac{\exp(q_i^T k_j / \sqrt{d_k})}{\sum_{l=1}^{T} \exp(q_i^T k_l / \sqrt{d_k})} \cdot v_j",
              r"\text{Attn}(q_i) = \frac{\sum_j \kappa(q_i, k_j) \cdot v_j}{\sum_j \kappa(q_i, k_j)}"),
)
class AttentionKernelRegression:
    """The softmax denominator does not depend on j, so it leaves the sum; what remains is a
    kernel-weighted average of the values, the kernel being exp of the scaled score."""

    def prove(self, scale, proof):
        weight = sp.exp(s[j] / sp.sqrt(d_k)) / sp.Sum(sp.exp(s[l] / sp.sqrt(d_k)), (l, 1, T))
        attn = (proof.chain(sp.Sum(weight * v[j], (j, 1, T)), "Attn(q) for one query")
                .equals(_nw(1 / sp.sqrt(d_k)), "the normaliser is free of j: take it out"))
        proof.conclude(_nw(scale), attn)

    def check(self, scale, experiment):
        rng = experiment.rng
        for d, t, law in ((4, 10, "Rademacher"), (64, 100, "centred exponential")):
            q, keys, vals = (STANDARDIZED[law](rng, shape) for shape in ((d,), (t, d), (t, 3)))
            c_num = float(scale.subs(d_k, d))
            nw = nadaraya_watson(q, keys, vals, lambda a, b: np.exp(c_num * (b @ a)))
            experiment.close(nw, attention(q[None], keys, vals)[0],
                             attention_tolerance(q[None], keys, vals, 1 / np.sqrt(d)),
                             "Nadaraya–Watson vs softmax attention",
                             inputs=f"{law} q, k, v, d_k={d}, T={t}")


@claim(
    id="performer-unbiased",
    title="Positive random features give an unbiased estimate of exp(xᵀy)",
    section="4.3",
    statement=Statement("E_w[φ(x)ᵀφ(y)] = exp(xᵀy), φ(x) = exp(Wx − |x|²/2)/√m, "
                        "rows of W ~ N(0, I)", sp.exp(sxy), lhs=E(sp.Symbol("φ(x)ᵀφ(y)"))),
    premises=("w_1, …, w_m independent N(0, I_d)", "x, y fixed vectors in R^d"),
    foils=(Foil("they estimate the Gaussian kernel exp(−|x−y|²/2)",
                sp.exp(-(nx - 2 * sxy + ny) / 2),
                why="that kernel belongs to random Fourier features, not to these"),),
    sources=(PERFORMER,),
    tags=("kernel", "performer", "random-features"),
    statistical_tests=2,
)
class PerformerUnbiased:
    """wᵀx + wᵀy is Gaussian with variance |x+y|², so its MGF gives exp(|x+y|²/2); the
    −|x|²/2 − |y|²/2 corrections leave exactly exp(xᵀy). Apply to q/d_k^¼, k/d_k^¼ for the
    scaled kernel exp(qᵀk/√d_k)."""

    def prove(self, value, proof):
        _norm_fact(proof)
        rules = Moments(random=(wx, wy))
        feature = sp.exp(wx[r] - nx / 2) * sp.exp(wy[r] - ny / 2)
        mean = (proof.chain(E(sp.Sum(feature, (r, 1, m)) / m), "E[φ(x)ᵀφ(y)]")
                .apply(rules.linearity).apply(rules.linearity)
                .apply(gaussian_projection(wx[r], wy[r], rho))
                .evaluate("Gaussian MGF E[e^{ρW}] = e^{ρ²/2}; m equal terms", method="expand")
                .substitute(NORM, premise="|x+y|² = |x|² + 2xᵀy + |y|² (checked above)")
                .equals(sp.exp(sxy), "exponents cancel"))
        proof.conclude(value, mean)

    def check(self, value, experiment):
        rng, kernel = experiment.rng, sp.lambdify((sxy, nx, ny), value)
        for d, feats in PERFORMER_SIZES:
            q, k = (rng.standard_normal(d) * (0.5 / np.sqrt(d)) ** 0.5 for _ in range(2))
            x, y = q / d ** 0.25, k / d ** 0.25          # φ(x)ᵀφ(y) then estimates exp(qᵀk/√d)
            expected = float(kernel(x @ y, x @ x, y @ y))
            experiment.mean(performer_draw(x, y, feats), expected,
                            f"mean of φ(q/d^¼)ᵀφ(k/d^¼), d={d}, m={feats}")


@claim(
    id="performer-variance",
    title="The random-feature estimate has variance exp(2xᵀy)(exp|x+y|² − 1)/m",
    section="4.3",
    statement=Statement("Var[φ(x)ᵀφ(y)] = e^{2xᵀy}(e^{|x+y|²} − 1)/m, so the error falls like 1/√m",
                        VARIANCE, lhs=Var(sp.Symbol("φ(x)ᵀφ(y)"))),
    premises=("w_1, …, w_m independent N(0, I_d)", "x, y fixed vectors in R^d"),
    foils=(Foil("the variance falls like 1/m² (error like 1/m)",
                sp.exp(2 * sxy) * (sp.exp(nx + 2 * sxy + ny) - 1) / m**2),
           Foil("Var = e^{2xᵀy}·e^{|x+y|²}/m (second moment taken for the variance)",
                sp.exp(2 * sxy) * sp.exp(nx + 2 * sxy + ny) / m)),
    depends_on=("performer-unbiased",),
    sources=(PERFORMER,),
    tags=("kernel", "performer", "random-features", "variance"),
    statistical_tests=2,
)
class PerformerVariance:
    """Each feature product has second moment e^{2|x+y|²−|x|²−|y|²} (Gaussian MGF at 2); the
    m products are independent, so the variance of their mean is one product's variance / m."""

    def prove(self, value, proof):
        _norm_fact(proof)
        rules = Moments(random=(wx, wy))
        z = sp.exp(wx[r] - nx / 2) * sp.exp(wy[r] - ny / 2)
        second = (proof.chain(E(z**2), "E[Z_r²], Z_r = e^{w_rᵀx−|x|²/2}e^{w_rᵀy−|y|²/2}")
                  .apply(rules.linearity).apply(gaussian_projection(wx[r], wy[r], rho))
                  .evaluate("Gaussian MGF E[e^{2ρW}] = e^{2ρ²}", method="expand")
                  .substitute(NORM, premise="|x+y|² = |x|² + 2xᵀy + |y|² (checked above)")
                  .equals(sp.exp(nx + ny + 4 * sxy), "collect exponents"))
        big_z = sp.IndexedBase("Z")
        zr, products = big_z[r], Moments(random=(big_z,))     # Z_r independent over r
        var = (proof.chain(Var(sp.Sum(zr, (r, 1, m)) / m), "Var[φ(x)ᵀφ(y)] = Var(Σ_r Z_r / m)")
               .apply(products.variance_scaling).apply(products.bienayme)
               .apply(products.variance_definition)
               .substitute({E(zr): sp.exp(sxy)}, lemma="performer-unbiased")
               .substitute({E(zr**2): second.value}, premise="E[Z_r²] (chain above)")
               .evaluate("m identical terms"))
        proof.conclude(value, var)

    def check(self, value, experiment):
        rng, formula = experiment.rng, sp.lambdify((sxy, nx, ny, m), value)
        x, y = (rng.standard_normal(4) * 0.35 for _ in range(2))
        for feats in VARIANCE_FEATURES:
            experiment.variance(performer_draw(x, y, feats),
                                float(formula(x @ y, x @ x, y @ y, feats)),
                                f"Var of φ(x)ᵀφ(y) with m={feats} features", min_effect=0.03)

    def plot(self):
        # Illustrative only, not part of the check: a fixed seed, one pair x, y in R^4.
        rng = np.random.default_rng(404)
        x, y = (rng.standard_normal(4) * 0.35 for _ in range(2))
        exact = np.exp(x @ y)
        sizes = 2 ** np.arange(11)                                 # m = 1 … 1024
        rms = [np.sqrt(np.mean((performer_draw(x, y, int(f))(rng, 1000) - exact) ** 2)) / exact
               for f in sizes]
        stated = sp.lambdify((sxy, nx, ny, m), sp.sqrt(VARIANCE) / sp.exp(sxy))
        law = [float(stated(x @ y, x @ x, y @ y, int(f))) for f in sizes]
        logm, foil = np.log2(sizes), law[0] / sizes
        return Plot(
            "Performer estimate of exp(xᵀy): relative error vs features m",
            (Series("measured RMS relative error (1000 draws per m)", _floats(logm), _floats(rms)),
             Series("statement: √((exp|x+y|² − 1)/m), slope −½", _floats(logm), _floats(law),
                    "dashed"),
             Series("foil: error ∝ 1/m (same start)", _floats(logm), _floats(foil), "dashed")),
            xlabel="log₂ m  (m = 1 … 1024 random features)",
            ylabel="relative error (log scale)", logy=True)


@claim(
    id="linear-attention-associativity",
    title="φ(Q)(φ(K)ᵀV) equals (φ(Q)φ(K)ᵀ)V, computed in time linear in T",
    section="4.3",
    statement=Statement("((φ(Q)φ(K)ᵀ)V)_ij = Σ_r φ(Q)_ir Σ_l φ(K)_lr V_lj",
                        sp.Sum(PQ[i, r] * sp.Sum(PK[l, r] * VV[l, j], (l, 0, T - 1)),
                               (r, 0, m - 1)),
                        lhs=sp.Symbol("((φ(Q)φ(K)ᵀ)V)_ij")),
    premises=("φ(Q), φ(K) are T×m matrices, V is T×d_v", "entries are real numbers"),
    foils=(Foil("the roles of queries and keys may be swapped: φ(K)(φ(Q)ᵀV)",
                sp.Sum(PK[i, r] * sp.Sum(PQ[l, r] * VV[l, j], (l, 0, T - 1)), (r, 0, m - 1))),),
    sources=(PERFORMER, LINEAR),
    tags=("kernel", "linear-attention", "complexity"),
)
class LinearAttentionAssociativity:
    """Matrix products associate: summing over keys first (an m×d_v matrix φ(K)ᵀV) never forms
    the T×T matrix, which is what makes kernelised attention linear in T."""

    def prove(self, value, proof):
        quadratic = sp.Sum(sp.Sum(PQ[i, r] * PK[l, r], (r, 0, m - 1)) * VV[l, j], (l, 0, T - 1))
        sizes = {T: 3, m: 2}
        proof.fact(quadratic.subs(sizes), value.subs(sizes), "sanity: T=3, m=2 written out",
                   method="doit")
        chain = (proof.chain(quadratic, "((φ(Q)φ(K)ᵀ)V)_ij")
                 .apply(DISTRIBUTE).apply(INTERCHANGE).apply(FACTOR_OUT))
        proof.conclude(value, chain)

    def check(self, value, experiment):
        rng = experiment.rng
        entry = sp.lambdify((PQ, PK, VV, i, j, T, m), value)
        t, feats, dv = 7, 5, 3
        pq, pk, vals = rng.exponential(size=(t, feats)), rng.exponential(size=(t, feats)), \
            rng.standard_normal((t, dv))
        quad = (pq @ pk.T) @ vals
        lin = np.array([[entry(pq, pk, vals, a, b, t, feats) for b in range(dv)] for a in range(t)])
        # m + T products and sums per entry, on the size of Σ|φq||φk||v|
        tol = tolerance(feats + t, 2 * float(np.max(pq @ pk.T @ np.abs(vals))))
        experiment.close(lin, quad, tol, "statement's entries vs (φ(Q)φ(K)ᵀ)V", inputs="T=7, m=5")
        q, k, vals = (rng.standard_normal((512, 16)) / 16**0.25 for _ in range(3))
        w = rng.standard_normal((64, 16))
        fq, fk = positive_features(q, w), positive_features(k, w)
        quad, lin = (fq @ fk.T) @ vals, fq @ (fk.T @ vals)
        tol = tolerance(64 + 512, 2 * float(np.max(fq @ fk.T @ np.abs(vals))))
        experiment.close(lin, quad, tol, "φ(Q)(φ(K)ᵀV) vs (φ(Q)φ(K)ᵀ)V, Performer features",
                         inputs="T=512, m=64, d=16")
