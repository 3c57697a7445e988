"""Section 4: attention as kernel regression, and Performer's random-feature kernel estimate."""

import math

import numpy as np
import sympy as sp

from tmath import Definition, Foil, Premise, Statement, claim
from tmath.engine.experiment import Choice, Integers, tolerance
from tmath.engine.moments import E, Moments, Var
from tmath.engine.plots import Plot, Series
from tmath.engine.rules import DISTRIBUTE, FACTOR_OUT, SWAP_SUMS
from tmath.engine.rules_sums import FACTOR_OUT_OF_INNER
from tmath.reference.distributions import STANDARDIZED
from tmath.reference.kernels import (attention_tolerance, formula_values, normal_feature_moments,
                                     performer_draw, performer_points, positive_features)
from tmath.reference.nn import attention
from ._bibliography import CHOROMANSKI2021, KATHAROPOULOS2020, TSAI2019

TSAI = TSAI2019
PERFORMER = CHOROMANSKI2021.at("Lemma 1 (positive random features)",
                               unverified="the lemma number was not checked against the paper")
LINEAR = KATHAROPOULOS2020.at("§3.2",
                              unverified="the section number was not checked against the paper")

d_k, T, d, m = sp.symbols("d_k T d m", positive=True, integer=True)
j, l, r, i = sp.symbols("j l r i", integer=True, positive=True)
s, v, a = sp.IndexedBase("s", real=True), sp.IndexedBase("v", real=True), sp.IndexedBase("a")
w, x_, y_ = sp.IndexedBase("w"), sp.IndexedBase("x", real=True), sp.IndexedBase("y", real=True)
sxy = sp.Symbol("s", real=True)                            # xᵀy
nx, ny = sp.symbols("n_x n_y", positive=True)              # |x|², |y|²


def _nadaraya_watson(kernel, y, size):
    """Σ_j κ_j y_j / Σ_l κ_l over 1..size: the mean of the y_j weighted by κ_j = kernel(j)."""
    return sp.Sum(kernel(j) * y[j], (j, 1, size)) / sp.Sum(kernel(l), (l, 1, size))


def _nw(scale):
    """Σ_j κ(q, k_j) v_j / Σ_l κ(q, k_l) with κ(q, k_j) = exp(scale · s_j), s_j = qᵀk_j."""
    return _nadaraya_watson(lambda at: sp.exp(scale * s[at]), v, T)


# f̂(x) from n pairs (x_j, y_j) with a kernel κ: names of its own, not Performer's x, y
x0, xs, ys, n = sp.Symbol("x"), sp.IndexedBase("x"), sp.IndexedBase("y"), sp.Symbol("n")
kappa, fhat = sp.Function("kappa"), sp.Function("fhat")
NADARAYA_WATSON = Definition("the Nadaraya–Watson estimate at x from n pairs (x_j, y_j), kernel κ",
                             {fhat(x0): _nadaraya_watson(lambda at: kappa(x0, xs[at]), ys, n)})
ATTN = sp.Sum(a[j] * v[j], (j, 1, T))                        # Attn(q) for one query q
KERNEL = sp.exp(s[j] / sp.sqrt(d_k))                          # κ(q, k_j), s_j = qᵀk_j
# the notes print query q as q_i, κ(q, k_j) as \kappa(q_i, k_j) and Σ over the T keys as \sum_j
PRINTED_KERNEL_SUMS = {r"\text{Attn}(q_i)": ATTN, r"q_i^T k_j": s[j], r"q_i^T k_l": s[l],
                       r"\sum_j \kappa(q_i, k_j) \cdot v_j": sp.Sum(KERNEL * v[j], (j, 1, T)),
                       r"\sum_j \kappa(q_i, k_j)": sp.Sum(KERNEL, (j, 1, T))}


SOFTMAX = Premise("a_j = softmax_j(s_1/√d_k, …, s_T/√d_k) with s_j = qᵀk_j",
                  {a[j]: sp.exp(s[j] / sp.sqrt(d_k)) / sp.Sum(sp.exp(s[l] / sp.sqrt(d_k)), (l, 1, T))})


def _phi(vector, norm):
    return sp.exp(sp.Sum(w[r, i] * vector[i], (i, 1, d)) - norm / 2) / sp.sqrt(m)


ESTIMATE = sp.Sum(_phi(x_, nx) * _phi(y_, ny), (r, 1, m))   # φ(x)ᵀφ(y), φ_r = e^{w_rᵀx−|x|²/2}/√m
GAUSSIAN = "the entries w_ri of w_1, …, w_m are independent N(0, 1) (w_r ~ N(0, I_d))"
NORMS = Premise("|x|² = Σ_i x_i², |y|² = Σ_i y_i², xᵀy = Σ_i x_i y_i",
                {sp.Sum(x_[i] ** 2, (i, 1, d)): nx, sp.Sum(y_[i] ** 2, (i, 1, d)): ny,
                 sp.Sum(x_[i] * y_[i], (i, 1, d)): sxy})
VARIANCE = sp.exp(2 * sxy) * (sp.exp(nx + 2 * sxy + ny) - 1) / m
PERFORMER_SYMBOLS = (d, m, sxy, nx, ny)
MARGIN = 0.018  # 1.8 %: heavy tails make the pilot under-read the spread; resolution stays ≤ 2 %


@claim(
    id="attention-kernel-regression",
    title="Softmax attention for one query is a Nadaraya–Watson estimate, exponential kernel",
    section="4.2",
    statement=Statement("Attn(q) = Σ_j a_j v_j = Σ_j κ(q,k_j) v_j / Σ_l κ(q,k_l) with "
                        "κ(q,k) = exp(qᵀk/√d_k)", _nw(1 / sp.sqrt(d_k)), lhs=ATTN),
    premises=(SOFTMAX, "any T ≥ 1 keys and values, any d_k ≥ 1"),
    foils=(Foil("the kernel is exp(qᵀk/d_k)", _nw(1 / d_k)),
           Foil("the kernel is the unscaled exp(qᵀk)", _nw(sp.Integer(1)))),
    sources=(TSAI,),
    tags=("kernel", "attention"),
    definitions=(NADARAYA_WATSON,),
    notation=PRINTED_KERNEL_SUMS,
    formulas=(r"\hat{f}(x) = \frac{\sum_{j=1}^{n} \kappa(x, x_j) \cdot y_j}{\sum_{j=1}^{n} \kappa(x, x_j)}",
              r"\text{Attn}(q_i) = \sum_{j=1}^{T} \frac{\exp(q_i^T k_j / \sqrt{d_k})}{\sum_{l=1}^{T} \exp(q_i^T k_l / \sqrt{d_k})} \cdot v_j",
              r"\text{Attn}(q_i) = \frac{\sum_j \kappa(q_i, k_j) \cdot v_j}{\sum_j \kappa(q_i, k_j)}"),
)
class AttentionKernelRegression:
    """The softmax denominator does not depend on j, so it leaves the sum; what remains is a
    kernel-weighted average of the values, the kernel being exp of the scaled score."""

    def prove(self, value, proof):
        attn = (proof.chain(ATTN, "Attn(q) for one query")
                .substitute(dict(SOFTMAX.equations), premise=SOFTMAX)
                .apply(FACTOR_OUT))
        proof.conclude(value, attn)

    def check(self, value, experiment):
        points = experiment.draw({d_k: Integers(1, 1024, (1, 1024, 64)), T: Integers(1, 512, (512, 2)),
                                  "law": Choice(("Rademacher", "centred exponential", "Gaussian"))},
                                 count=4)
        for p in points:
            dk, t, law = int(p[d_k]), int(p[T]), p.law
            q, keys, vals = (STANDARDIZED[law](experiment.rng, shape) for shape in ((dk,), (t, dk), (t, 3)))
            stated = formula_values(value, {s: keys @ q, v: vals}, {T: t, d_k: dk})
            experiment.close(stated, attention(q[None], keys, vals)[0],
                             attention_tolerance(q[None], keys, vals, 1 / math.sqrt(dk)),
                             "stated kernel estimate vs softmax attention", inputs=law, at=p)


@claim(
    id="performer-unbiased",
    title="Positive random features give an unbiased estimate of exp(xᵀy)",
    section="4.3",
    statement=Statement("E_w[φ(x)ᵀφ(y)] = exp(xᵀy), φ(x) = exp(Wx − |x|²/2)/√m, "
                        "rows of W ~ N(0, I)", sp.exp(sxy), lhs=E(ESTIMATE)),
    premises=(GAUSSIAN, NORMS, "x, y fixed vectors in R^d, any d, m ≥ 1"),
    foils=(Foil("they estimate the Gaussian kernel exp(−|x−y|²/2)",
                sp.exp(-(nx - 2 * sxy + ny) / 2),
                why="that kernel belongs to random Fourier features, not to these"),
           Foil("the estimate is exp(xᵀy) to second order only: 1 + xᵀy + (xᵀy)²/2",
                1 + sxy + sxy**2 / 2, why="the two agree only while |xᵀy| is small")),
    sources=(PERFORMER,),
    tags=("kernel", "performer", "random-features"),
    statistical_tests=3,
)
class PerformerUnbiased:
    """w_rᵀx + w_rᵀy = Σ_i w_ri(x_i + y_i) has independent normal terms, so its exponential has
    mean exp(½|x+y|²); the −|x|²/2 − |y|²/2 corrections leave exactly exp(xᵀy). Apply to
    q/d_k^¼, k/d_k^¼ for the scaled kernel exp(qᵀk/√d_k). The check draws d, m and the geometry
    of x, y, with xᵀy from −5 up to where |x+y|² ≥ 4xᵀy makes the estimate costly
    (|x+y|² ≤ log(1 + m/4): the relative variance of one estimate stays ≤ ¼)."""

    def prove(self, value, proof):
        moments = Moments(random=(w,))
        mean = proof.chain(E(ESTIMATE), "E[φ(x)ᵀφ(y)]").apply(moments.linearity)
        mean = normal_feature_moments(proof, mean, w, (x_, y_, i, d), NORMS, GAUSSIAN)
        proof.conclude(value, mean.evaluate("m equal terms; the exponents cancel"))

    def check(self, value, experiment):
        points = performer_points(experiment, PERFORMER_SYMBOLS, 3, Integers(1, 16, (1, 16)),
                                  Integers(1, 64, (64, 1)), -5.0,
                                  lambda feats: min(math.log1p(feats / 4), 2.5))
        for p, x, y in points:
            experiment.mean(performer_draw(x, y, int(p[m])), p.value(value),
                            "mean of φ(x)ᵀφ(y) over fresh features", min_effect=MARGIN, at=p)


@claim(
    id="performer-variance",
    title="The random-feature estimate has variance exp(2xᵀy)(exp|x+y|² − 1)/m",
    section="4.3",
    statement=Statement("Var[φ(x)ᵀφ(y)] = e^{2xᵀy}(e^{|x+y|²} − 1)/m, so the error falls like 1/√m",
                        VARIANCE, lhs=Var(ESTIMATE)),
    premises=(GAUSSIAN, NORMS, "x, y fixed vectors in R^d, any d, m ≥ 1"),
    foils=(Foil("the variance falls like 1/m² (error like 1/m)",
                sp.exp(2 * sxy) * (sp.exp(nx + 2 * sxy + ny) - 1) / m**2),
           Foil("Var = e^{2xᵀy}·e^{|x+y|²}/m (second moment taken for the variance)",
                sp.exp(2 * sxy) * sp.exp(nx + 2 * sxy + ny) / m),
           Foil("Var = e^{2xᵀy}(e^{|x|²+|y|²} − 1)/m (|x+y|² read as |x|² + |y|²)",
                sp.exp(2 * sxy) * (sp.exp(nx + ny) - 1) / m)),
    sources=(PERFORMER,),
    tags=("kernel", "performer", "random-features", "variance"),
    statistical_tests=2,
)
class PerformerVariance:
    """The m products are independent, so their variances add; each has second moment
    e^{2|x+y|²−|x|²−|y|²} (the normal MGF at 2) and mean e^{xᵀy}. The check keeps
    |x+y|² ≤ min(0.3, 0.09·m): the excess kurtosis of the estimate, about 16|x+y|²/m for small
    |x+y|², sets the sample a 2 % variance test needs; xᵀy still ranges over [−3, 0.07]."""

    def prove(self, value, proof):
        moments = Moments(random=(w,), independent=GAUSSIAN)
        var = (proof.chain(Var(ESTIMATE), "Var[φ(x)ᵀφ(y)]").apply(moments.bienayme)
               .apply(moments.variance_definition).apply(moments.linearity))
        var = normal_feature_moments(proof, var, w, (x_, y_, i, d), NORMS, GAUSSIAN)
        proof.conclude(value, var.evaluate("m identical terms"))

    def check(self, value, experiment):
        points = performer_points(experiment, PERFORMER_SYMBOLS, 2, Integers(1, 4, (1,)),
                                  Integers(1, 16, (16,)), -3.0, lambda feats: min(0.3, 0.09 * feats),
                                  s_edges=(1,))
        for p, x, y in points:
            experiment.variance(performer_draw(x, y, int(p[m])), p.value(value),
                                "variance of φ(x)ᵀφ(y) over fresh features", min_effect=MARGIN,
                                at=p)

    def plot(self):
        # Illustrative only, not part of the check: a fixed seed, one pair x, y in R^4.
        rng = np.random.default_rng(404)
        x, y = (rng.standard_normal(4) * 0.35 for _ in range(2))
        sizes = 2 ** np.arange(11)                                 # m = 1 … 1024
        rms = [float(np.sqrt(np.mean((performer_draw(x, y, int(f))(rng, 1000) / np.exp(x @ y) - 1) ** 2)))
               for f in sizes]
        stated = sp.lambdify((sxy, nx, ny, m), sp.sqrt(VARIANCE) / sp.exp(sxy))
        law = [float(stated(x @ y, x @ x, y @ y, int(f))) for f in sizes]
        logm = [float(v_) for v_ in np.log2(sizes)]
        return Plot(
            "Performer estimate of exp(xᵀy): relative error vs features m",
            (Series("measured RMS relative error (1000 draws per m)", logm, rms),
             Series("statement: √((exp|x+y|² − 1)/m), slope −½", logm, law, "dashed"),
             Series("foil: error ∝ 1/m (same start)", logm, [law[0] / f for f in sizes], "dashed")),
            xlabel="log₂ m  (m = 1 … 1024 random features)",
            ylabel="relative error (log scale)", logy=True)


PQ, PK, VV = sp.IndexedBase("PhiQ"), sp.IndexedBase("PhiK"), sp.IndexedBase("V")  # φ(Q), φ(K), V
QUADRATIC = sp.Sum(sp.Sum(PQ[i, r] * PK[l, r], (r, 1, m)) * VV[l, j], (l, 1, T))


@claim(
    id="linear-attention-associativity",
    title="φ(Q)(φ(K)ᵀV) equals (φ(Q)φ(K)ᵀ)V, computed in time linear in T",
    section="4.3",
    statement=Statement("((φ(Q)φ(K)ᵀ)V)_ij = Σ_r φ(Q)_ir Σ_l φ(K)_lr V_lj",
                        sp.Sum(PQ[i, r] * sp.Sum(PK[l, r] * VV[l, j], (l, 1, T)), (r, 1, m)),
                        lhs=QUADRATIC),
    premises=("φ(Q), φ(K) are T×m matrices, V is T×d_v", "entries are real numbers"),
    foils=(Foil("the roles of queries and keys may be swapped: φ(K)(φ(Q)ᵀV)",
                sp.Sum(PK[i, r] * sp.Sum(PQ[l, r] * VV[l, j], (l, 1, T)), (r, 1, m))),),
    sources=(PERFORMER, LINEAR),
    tags=("kernel", "linear-attention", "complexity"),
)
class LinearAttentionAssociativity:
    """Matrix products associate: summing over keys first (an m×d_v matrix φ(K)ᵀV) never forms
    the T×T matrix, which is what makes kernelised attention linear in T."""

    def prove(self, value, proof):
        regrouped = (proof.chain(QUADRATIC, "((φ(Q)φ(K)ᵀ)V)_ij").apply(DISTRIBUTE)
                     .apply(SWAP_SUMS).apply(FACTOR_OUT_OF_INNER))
        proof.conclude(value, regrouped)

    def check(self, value, experiment):
        rng = experiment.rng
        points = experiment.draw({T: Integers(1, 128, (1, 128)), m: Integers(1, 32, (32, 1)),
                                  "d_v": Integers(1, 8), "d": Integers(1, 32)})
        for p in points:
            t, feats, dv = int(p[T]), int(p[m]), int(p.d_v)
            q, k = (rng.standard_normal((t, p.d)) / p.d ** 0.25 for _ in range(2))
            w_ = rng.standard_normal((feats, p.d))
            fq, fk, vals = positive_features(q, w_), positive_features(k, w_), rng.standard_normal((t, dv))
            stated = formula_values(value, {PQ: fq, PK: fk, VV: vals},
                                    {i: np.arange(1, t + 1)[:, None], j: np.arange(1, dv + 1)[None, :],
                                     T: t, m: feats})
            # m + T products and sums per entry, on the size of Σ|φq||φk||v|
            tol = tolerance(feats + t, 2 * float(np.max(fq @ fk.T @ np.abs(vals))))
            experiment.close(stated, (fq @ fk.T) @ vals, tol,
                             "stated entries vs (φ(Q)φ(K)ᵀ)V, Performer features", at=p)
