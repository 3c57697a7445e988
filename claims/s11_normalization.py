"""Section 11: LayerNorm, BatchNorm and RMSNorm: axes, padding, moments, invariances, cost."""

import numpy as np
import sympy as sp

from tmath import Definition, Foil, Premise, Statement, claim
from tmath.engine.experiment import Choice, Integers, Reals, tolerance
from tmath.latex.operators import LayerNorm
from tmath.reference.distributions import STANDARDIZED
from tmath.reference.norms import (BETA_STEPS, LAYER_NORM_STEPS, RMS_NORM_STEPS,
                                   centred_moments, count_by_ufunc, formula_values, layer_norm,
                                   padded_batch, real_tokens, rms_norm, step_counts)
from ._bibliography import BA2016, IOFFE2015, ZHANG_SENNRICH2019

BA = BA2016
IOFFE = IOFFE2015
ZHANG = ZHANG_SENNRICH2019

k, j, d = sp.symbols("k j d", positive=True, integer=True)
(mu, shift), xv = sp.symbols("mu b", real=True), sp.IndexedBase("x")
v, eps, scale, eps_eff, q = sp.symbols("v epsilon a ε' q", positive=True)
delta, xi = sp.symbols("delta xi", real=True, nonzero=True)
SUM_X, SUM_DEV2 = sp.Sum(xv[k], (k, 1, d)), sp.Sum((xv[k] - mu) ** 2, (k, 1, d))
MEAN = Premise("μ = (1/d)·Σ x_k", [(SUM_X, d * mu), (sp.Sum(xv[j], (j, 1, d)), d * mu)])
VAR = Premise("Var(x) = (1/d)·Σ (x_k − μ)² = v", {SUM_DEV2: d * v})
LAWS = Choice(("Gaussian", "centred exponential", "uniform"))


def _tokens(rng, point, n, rows=16):
    """``rows`` tokens of dimension n: the drawn law, spread and offset (mean μ ≠ 0)."""
    return point["offset"] + point["spread"] * STANDARDIZED[point["law"]](rng, (rows, n))


def _centring_condition(x):
    """max|x|/spread per token: how much centring amplifies the rounding of x."""
    _, _, var = centred_moments(x)
    return float((np.abs(x).max(-1, keepdims=True) / np.sqrt(np.maximum(var, 1e-300))).max())


XHAT = (xv[k] - mu) / sp.sqrt(v + eps)
SUM_HAT = sp.Sum(XHAT, (k, 1, d))
gamma, beta = sp.IndexedBase("gamma"), sp.IndexedBase("beta")  # learned, one entry per feature
LAYER_NORM = Definition("LayerNorm(x) = γ·(x − μ)/√(Var(x) + ε) + β entry by entry, Var(x) = v: "
                        "the x̂ of the claim below is its γ = 1, β = 0 case",
                        {LayerNorm(xv): gamma * (xv - mu) / sp.sqrt(v + eps) + beta})
TOKEN = {d: Integers(1, 1024), eps: Reals(1e-8, 1.0, log=True), "law": LAWS,
         "spread": Reals(1e-4, 10.0, log=True), "offset": Reals(-5.0, 5.0)}


@claim(
    id="layernorm-output-moments",
    title="LayerNorm's output has mean 0 and variance Var/(Var + ε) — 1 only when ε = 0",
    section="11.4",
    statement=Statement("x̂ = (x − μ)/√(Var(x) + ε) has mean 0 and (1/d-)variance "
                        "Var(x)/(Var(x) + ε) over the features, so ‖x̂‖ = √(d·Var/(Var + ε)); "
                        "before γ, β", (sp.Integer(0), v / (v + eps)),
                        lhs=(SUM_HAT / d, sp.Sum(XHAT**2, (k, 1, d)) / d - (SUM_HAT / d) ** 2)),
    premises=(MEAN, VAR, "ε > 0"),
    foils=(Foil("the variance is exactly 1", (sp.Integer(0), sp.Integer(1))),
           Foil("ε lowers the variance by ε", (sp.Integer(0), 1 - eps))),
    sources=(BA,),
    tags=("layernorm", "normalisation"),
    formulas=(r"\hat{x} = \gamma \cdot \frac{x - \mu}{\sqrt{\text{Var}(x) + \epsilon}} + \beta",),
    definitions=(LAYER_NORM,),
    notation={r"\hat{x}": LayerNorm(xv), r"\text{Var}(x)": v},  # the notes' x̂ is the output
)
class LayerNormOutputMoments:
    """Centring removes the mean exactly; dividing by √(Var + ε) instead of √Var leaves the
    variance short of 1 by the factor Var/(Var + ε), which matters when Var is near ε."""

    def prove(self, value, proof):
        total = (proof.chain(SUM_HAT, "Σ x̂_k").equals((SUM_X - d * mu) / sp.sqrt(v + eps),
                                                     "split the sum")
                 .substitute({SUM_X: d * mu}, premise=MEAN))
        mean = proof.chain(SUM_HAT / d, "mean(x̂)").substitute(from_chain=total)
        var = (proof.chain(sp.Sum(XHAT**2, (k, 1, d)) / d - (SUM_HAT / d) ** 2,
                           "Var(x̂) = mean(x̂²) − mean(x̂)²").substitute(from_chain=total)
               .equals(SUM_DEV2 / (d * (v + eps)), "constant factor out of the sum")
               .substitute({SUM_DEV2: d * v}, premise=VAR))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        for point in experiment.draw(TOKEN, count=4):
            x, n, epsilon = _tokens(experiment.rng, point, point[d]), point[d], point[eps]
            out = layer_norm(x, epsilon)
            mean, _, var = centred_moments(out)
            shape = mean.shape
            expected = [formula_values(part, {v: centred_moments(x)[2], eps: epsilon, d: n},
                                       shape) for part in value]
            # ~4n dependent steps to build x̂ and take its moments; centring amplifies the
            # rounding of x by max|x|/spread: by that times |x̂| in the mean, |x̂|² in the variance
            size = float(np.abs(out).max())
            tol = tolerance(4 * n + 8, _centring_condition(x) * size * max(1.0, size))
            experiment.close(np.concatenate([mean, var], -1), np.concatenate(expected, -1), tol,
                             "mean and variance of x̂", inputs="random tokens", at=point)


S_AX = sp.Sum(scale * xv[j] + shift, (j, 1, d))
M_AX = S_AX / d   # mean(a·x + b)
V_AX = sp.Sum((scale * xv[k] + shift - M_AX) ** 2, (k, 1, d)) / d
LN_DEF = "LN_ε(x)_k = (x_k − μ)/√(Var(x) + ε), γ = 1, β = 0"
OFF_MEAN = Premise("k is an entry off the mean: x_k = μ + δ with δ ≠ 0 (one exists, as "
                   "Var(x) > 0)", {xv[k]: mu + delta})
AFFINE = {d: Integers(1, 512), eps: Reals(1e-8, 1e-2, log=True), scale: Reals(1e-3, 40.0, log=True),
          shift: Reals(-3.0, 3.0)}


@claim(
    id="layernorm-affine-invariance",
    title="LayerNorm ignores x → a·x + b (a > 0) up to ε, which becomes ε/a²",
    section="11.4",
    statement=Statement("LN_ε(a·x + b·1) = LN_{ε'}(x) with ε' = ε/a² for a > 0: exactly "
                        "invariant when ε = 0, otherwise the output changes only through "
                        "ε → ε/a²", eps / scale**2, lhs=eps_eff),
    premises=(LN_DEF, "a > 0, b real", MEAN, VAR, OFF_MEAN),
    foils=(Foil("exact invariance for every ε > 0", eps), Foil("ε becomes ε/a", eps / scale)),
    sources=(BA,),
    tags=("layernorm", "invariance"),
)
class LayerNormAffineInvariance:
    """The map shifts the mean to aμ + b and scales the variance by a²; dividing numerator and
    denominator by a leaves ε/a² in place of ε: the only ε' that matches is ε/a²."""

    def prove(self, value, proof):
        mean = (proof.chain(S_AX, "Σ (a·x + b)")
                .equals(scale * sp.Sum(xv[j], (j, 1, d)) + d * shift, "split the sum")
                .substitute({sp.Sum(xv[j], (j, 1, d)): d * mu}, premise=MEAN))
        var = (proof.chain(V_AX, "Var(a·x + b)").substitute(from_chain=mean)
               .equals(scale**2 * SUM_DEV2 / d, "the shift cancels, a² comes out")
               .substitute({SUM_DEV2: d * v}, premise=VAR))
        gap = (proof.chain((scale * xv[k] + shift - M_AX) / sp.sqrt(V_AX + eps)
                           - (xv[k] - mu) / sp.sqrt(v + eps_eff), "LN_ε(a·x + b)_k − LN_ε'(x)_k")
               .substitute(from_chain=var).substitute(from_chain=mean)
               .substitute({xv[k]: mu + delta}, premise=OFF_MEAN)
               .equals(delta * (scale * sp.sqrt(v + eps_eff) - sp.sqrt(scale**2 * v + eps))
                       / (sp.sqrt(v + eps_eff) * sp.sqrt(scale**2 * v + eps)),
                       "over a common denominator, δ factored out"))
        # δ ≠ 0: the gap vanishes exactly where the bracket does (at an entry on the mean,
        # every ε' would do)
        proof.conclude(value, proof.root(gap, eps_eff, eps_eff, "effective ε"))

    def check(self, value, experiment):
        for point in experiment.draw(AFFINE, count=4):
            n, epsilon, a_, b_ = point[d], point[eps], point[scale], point[shift]
            x = STANDARDIZED["centred exponential"](experiment.rng, (16, n))
            moved, out = a_ * x + b_, layer_norm(x, point.value(value))
            # two LayerNorms (~4n steps each) plus the affine map; centring moved
            # amplifies its rounding by max|a·x + b|/spread
            tol = tolerance(8 * n + 8, _centring_condition(moved) * float(np.abs(out).max()))
            experiment.close(layer_norm(moved, epsilon), out, tol, "LN_ε(a·x + b) vs LN_ε'(x)",
                             inputs="skewed random tokens", at=point)


SUM_SQ = sp.Sum(xv[k] ** 2, (k, 1, d))
RMSNorm = sp.Function("RMSNorm")
RMS_NORM = Definition("RMSNorm(x) = γ·x/√((1/d)Σ_k x_k² + ε), entry by entry",
                      {RMSNorm(xv): gamma * xv / sp.sqrt(SUM_SQ / d + eps)})


@claim(
    id="rmsnorm-vs-layernorm",
    title="RMSNorm divides by √(Var + μ² + ε); it equals LayerNorm without β exactly when μ = 0",
    section="11.5",
    statement=Statement("Σ_k x_k² = d·(Var(x) + μ²), i.e. mean(x²) = Var + μ², so "
                        "RMSNorm(x) = γ·x/√(Var + μ² + ε); for zero-mean x this is "
                        "γ·(x − μ)/√(Var + ε) = LayerNorm with β = 0, otherwise not",
                        d * (v + mu**2), lhs=SUM_SQ),
    premises=("RMSNorm(x) = γ·x/√((1/d)Σx_k² + ε)", MEAN, VAR),
    foils=(Foil("RMSNorm equals LayerNorm without β for every input", d * v),
           Foil("the mean enters linearly", d * (v + mu))),
    sources=(ZHANG, BA),
    tags=("rmsnorm", "layernorm"),
    formulas=(r"\text{RMSNorm}(x) = \gamma \cdot \frac{x}{\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i^2 "
              r"+ \epsilon}}",),
    definitions=(RMS_NORM,),
)
class RmsNormVsLayerNorm:
    """Writing x_k = (x_k − μ) + μ, the cross term sums to zero and the mean square splits
    into variance plus squared mean."""

    def prove(self, value, proof):
        square = (proof.chain(SUM_SQ, "Σ x_k²")
                  .equals(SUM_DEV2 + 2 * mu * (SUM_X - d * mu) + d * mu**2,
                          "x_k = (x_k − μ) + μ, expanded")
                  .substitute({SUM_X: d * mu}, premise=MEAN)
                  .substitute({SUM_DEV2: d * v}, premise=VAR))
        proof.conclude(value, square)

    def check(self, value, experiment):
        for point in experiment.draw({**TOKEN, d: Integers(2, 1024)}, count=4):
            n, epsilon = point[d], point[eps]
            x, gamma = _tokens(experiment.rng, point, n), 1 + experiment.rng.normal(0, 0.1, n)
            centre, centred, var = centred_moments(x)
            # mean of squares (2n steps), √, division and γ; centring amplifies the rounding
            tol = tolerance(4 * n + 8, _centring_condition(x) * float(np.abs(gamma).max()))
            square = formula_values(value, {d: n, v: var, mu: centre}, var.shape)
            experiment.close(rms_norm(x, epsilon, gamma), gamma * x / np.sqrt(square / n + epsilon),
                             tol, "RMSNorm = γx/√(Σx²/d + ε)", inputs="tokens with μ ≠ 0",
                             at=point)
            square = formula_values(value, {d: n, v: var, mu: 0 * centre}, var.shape)
            experiment.close(layer_norm(x, epsilon, gamma),
                             gamma * centred / np.sqrt(square / n + epsilon), tol,
                             "LayerNorm(β=0) = RMSNorm of the centred token",
                             inputs="the same tokens, centred", at=point)


MSQ_AX = sp.Sum((scale * xv[k]) ** 2, (k, 1, d)) / d
MEAN_SQUARE = Premise("q = (1/d)Σ x_k², the mean square of x", {SUM_SQ: d * q})
NONZERO = Premise("k is a nonzero entry: x_k = ξ with ξ ≠ 0 (one exists, as q > 0)",
                  {xv[k]: xi})


@claim(
    id="rmsnorm-scale-invariance",
    title="RMSNorm ignores a positive rescaling up to ε → ε/a²",
    section="11.5",
    statement=Statement("RMSNorm_ε(a·x) = RMSNorm_{ε'}(x) with ε' = ε/a² for a > 0 (with no "
                        "centring, a shift b·1 is not removed: claim rmsnorm-vs-layernorm)",
                        eps / scale**2, lhs=eps_eff),
    premises=("RMSNorm_ε(x)_k = x_k/√((1/d)Σx_j² + ε), γ = 1", "a > 0", MEAN_SQUARE,
              NONZERO),
    foils=(Foil("exact invariance for every ε > 0", eps), Foil("ε becomes ε/a", eps / scale)),
    sources=(ZHANG,),
    tags=("rmsnorm", "invariance"),
)
class RmsNormScaleInvariance:
    """The mean square scales by a², so a cancels between numerator and denominator except
    against ε: the only ε' that matches is ε/a²."""

    def prove(self, value, proof):
        msq = (proof.chain(MSQ_AX, "mean((a·x)²)")
               .equals(scale**2 * SUM_SQ / d, "a² out of the sum")
               .substitute({SUM_SQ: d * q}, premise=MEAN_SQUARE))
        gap = (proof.chain(scale * xv[k] / sp.sqrt(MSQ_AX + eps) - xv[k] / sp.sqrt(q + eps_eff),
                           "RMSNorm_ε(a·x)_k − RMSNorm_ε'(x)_k").substitute(from_chain=msq)
               .substitute({xv[k]: xi}, premise=NONZERO)
               .equals(xi * (scale * sp.sqrt(q + eps_eff) - sp.sqrt(scale**2 * q + eps))
                       / (sp.sqrt(q + eps_eff) * sp.sqrt(scale**2 * q + eps)),
                       "over a common denominator, ξ factored out"))
        # ξ ≠ 0: the gap vanishes exactly where the bracket does (at a zero entry, every ε'
        # would do)
        proof.conclude(value, proof.root(gap, eps_eff, eps_eff, "effective ε"))

    def check(self, value, experiment):
        for point in experiment.draw({**AFFINE, "law": LAWS}, count=4):
            n, epsilon, a_ = point[d], point[eps], point[scale]
            x = point[shift] + STANDARDIZED[point["law"]](experiment.rng, (16, n))
            out = rms_norm(x, point.value(value))
            experiment.close(rms_norm(a_ * x, epsilon), out,
                             tolerance(6 * n + 8, float(np.abs(out).max())),  # two RMSNorms + a·x
                             "RMSNorm_ε(a·x) vs RMSNorm_ε'(x)", inputs="shifted random tokens",
                             at=point)


def _total(steps):
    return sum(step_counts(steps, d).values())


SAVINGS_LHS = (_total(LAYER_NORM_STEPS) - _total(RMS_NORM_STEPS),
               _total(LAYER_NORM_STEPS + BETA_STEPS) - _total(LAYER_NORM_STEPS))


@claim(
    id="rmsnorm-operation-savings",
    title="RMSNorm saves 2d scalar operations per token over LayerNorm, d more without β",
    section="11.5",
    statement=Statement("per d-dimensional token, LayerNorm's normalisation costs 2d more "
                        "operations than RMSNorm's (the mean: d − 1 additions and a division; "
                        "the d subtractions), and β adds d more", (2 * d, d), lhs=SAVINGS_LHS),
    premises=("LN: μ, x − μ, mean of squares of x − μ, + ε, √, ·γ, divide, + β "
              "(tmath.reference.norms.LAYER_NORM_STEPS)",
              "RMS: mean of squares of x, + ε, √, ·γ, divide (RMS_NORM_STEPS)",
              "a sum of d numbers is d − 1 additions; a mean adds one division"),
    foils=(Foil("only the mean is saved", (d, sp.Integer(0))),
           Foil("the mean and β are saved", (d, d))),
    sources=(ZHANG,),
    tags=("rmsnorm", "layernorm", "cost"),
)
class RmsNormOperationSavings:
    """Both compute a mean of squares, a square root, a division and the γ product; only
    LayerNorm computes the mean, subtracts it, and adds β. The counts are the steps of the
    reference implementations, which the check also runs instrumented."""

    def prove(self, value, proof):
        core, beta = (proof.chain(part, label).evaluate("count the operations")
                      for part, label in zip(SAVINGS_LHS, ("LN(γ) − RMS(γ)", "cost of β")))
        proof.conclude(value, core, beta)

    def check(self, value, experiment):
        for point in experiment.draw({d: Integers(1, 4096)}, count=3):
            x, gamma, beta = experiment.rng.standard_normal((3, point[d]))
            measured = [count_by_ufunc(norm, x, eps=1e-8, gamma=gamma, **extra)
                        for norm, extra in ((layer_norm, {}), (rms_norm, {}),
                                            (layer_norm, {"beta": beta}))]
            # integer counts of the reference implementations: no rounding, tolerance 0
            experiment.close([sum(measured[0].values()) - sum(measured[1].values()),
                              sum(measured[2].values()) - sum(measured[0].values())],
                             point.value(value), 0.0, "measured operation savings",
                             inputs="instrumented ufuncs", at=point)
            steps = (LAYER_NORM_STEPS, RMS_NORM_STEPS, LAYER_NORM_STEPS + BETA_STEPS)
            experiment.holds(all(dict(m) == step_counts(s, point[d])
                                 for m, s in zip(measured, steps)),
                             "the proof's step counts are the implementation's, ufunc by ufunc",
                             at=point, sanity="checks the tally the proof starts from against the "
                             "instrumented code; it involves no stated value")


bi, ti, kk, b2, t2, k2 = sp.symbols("b t k b' t' k'", positive=True, integer=True)
B, T, D = sp.symbols("B T D", positive=True, integer=True)
r_b, r_t = sp.symbols("r_B r_T", integer=True, nonnegative=True)
OTHER_SAMPLE = Premise("b' ≠ b", {sp.KroneckerDelta(bi, b2): 0})
INSIDE = Premise("(b', t') lies inside the tensor: B = b' + r_B, T = t' + r_T, r_B, r_T ≥ 0",
                 {B: b2 + r_b, T: t2 + r_t, b2 + r_b: B, t2 + r_t: T})
AXES_LHS = (sp.Derivative(sp.Sum(xv[bi, ti, kk], (kk, 1, D)) / D, xv[b2, t2, k2]),
            sp.Derivative(sp.Sum(xv[bi, ti, kk], (bi, 1, B), (ti, 1, T)) / (B * T),
                          xv[b2, t2, kk]))


@claim(
    id="norm-statistics-axes",
    title="LayerNorm's statistics ignore the other samples in the batch; BatchNorm's do not",
    section="11.2",
    statement=Statement("for x of shape [B, T, D]: ∂μ^LN_{b,t}/∂x_{b',t',k'} = 0 for b' ≠ b "
                        "(μ^LN_{b,t} averages the D features of one token), while "
                        "∂μ^BN_k/∂x_{b',t',k} = 1/(B·T) (μ^BN_k averages feature k over all B·T "
                        "tokens); so LN's output for a sample never depends on the rest of "
                        "the batch", (sp.Integer(0), 1 / (B * T)), lhs=AXES_LHS),
    premises=("μ^LN_{b,t} = (1/D)Σ_k x_{b,t,k}",
              "μ^BN_k = (1/(BT))Σ_{b,t} x_{b,t,k} (training mode)", OTHER_SAMPLE, INSIDE),
    foils=(Foil("LayerNorm's statistics also mix samples", (1 / (B * T), 1 / (B * T))),
           Foil("BatchNorm's statistics ignore other samples too", (sp.Integer(0), sp.Integer(0))),
           Foil("BatchNorm averages over the batch axis only", (sp.Integer(0), 1 / B))),
    sources=(BA, IOFFE),
    tags=("layernorm", "batchnorm", "batch"),
)
class NormStatisticsAxes:
    """A sum over the feature axis of token (b, t) contains no entry of sample b'; a sum over
    the batch and time axes contains every token's entry of feature k once."""

    def prove(self, value, proof):
        ln = (proof.chain(AXES_LHS[0], "∂μ^LN_{b,t}/∂x_{b',t',k'}")
              .evaluate("differentiate the sum").substitute(dict(OTHER_SAMPLE.equations),
                                                           premise=OTHER_SAMPLE))
        bn = (proof.chain(AXES_LHS[1], "∂μ^BN_k/∂x_{b',t',k}")
              .substitute({B: b2 + r_b, T: t2 + r_t}, premise=INSIDE)
              .evaluate("differentiate the double sum")
              .equals(1 / ((b2 + r_b) * (t2 + r_t)), "factor", method="factor")
              .substitute({b2 + r_b: B, t2 + r_t: T}, premise=INSIDE))
        proof.conclude(value, ln, bn)

    def check(self, value, experiment):
        for point in experiment.draw({B: Integers(2, 16), T: Integers(1, 64), D: Integers(1, 64)},
                                     count=3):
            rng, (nb, nt, nd) = experiment.rng, (point[B], point[T], point[D])
            x = rng.normal(rng.standard_normal(nd), rng.uniform(0.5, 3, nd), (nb, nt, nd))
            moved, (other, t_, k_) = x.copy(), (rng.integers(1, nb), *rng.integers((nt, nd)))
            moved[other, t_, k_] += 1.0  # one entry of another sample; the statistics are linear
            ln_change = centred_moments(moved)[0][0] - centred_moments(x)[0][0]
            bn_change = (centred_moments(moved, (0, 1))[0] - centred_moments(x, (0, 1))[0])[..., k_]
            tol = tolerance(2 * nb * nt + 2 * nd + 2, float(np.abs(moved).max()))  # two means
            ln_part, bn_part = point.value(value)
            experiment.close(ln_change, np.full_like(ln_change, ln_part), tol,
                             "change of μ^LN of sample 0 per unit change in another sample",
                             inputs="random [B, T, D] tensor", at=point)
            experiment.close(bn_change, np.full_like(bn_change, bn_part), tol,
                             "change of μ^BN_k per unit change of feature k in another sample",
                             inputs="random [B, T, D] tensor", at=point)


n_real, n_pad = sp.symbols("n P", positive=True, integer=True)
m_real, pad = sp.symbols("m p", real=True)
v_real = sp.Symbol("v_r", positive=True)
REAL = Premise("the n real tokens' feature has mean m",
               {sp.Sum(xv[k], (k, 1, n_real)): n_real * m_real})
BN_MEAN = (sp.Sum(xv[k], (k, 1, n_real)) + n_pad * pad) / (n_real + n_pad)
PADDED = (BN_MEAN, (sp.Sum(xv[k] ** 2, (k, 1, n_real)) + n_pad * pad**2) / (n_real + n_pad)
          - BN_MEAN**2)


@claim(
    id="padding-shifts-batchnorm",
    title="Padding tokens pull BatchNorm's mean and variance; LayerNorm's real tokens are "
          "untouched",
    section="11.3",
    statement=Statement("with n real tokens (feature mean m, variance v) and P pad tokens of "
                        "value p, BatchNorm sees mean (n·m + P·p)/(n + P) and variance "
                        "n·v/(n + P) + n·P·(m − p)²/(n + P)²; LayerNorm of each real token is "
                        "unchanged (its statistics are these with P = 0 over its own features)",
                        ((n_real * m_real + n_pad * pad) / (n_real + n_pad),
                         n_real * v_real / (n_real + n_pad)
                         + n_real * n_pad * (m_real - pad) ** 2 / (n_real + n_pad) ** 2),
                        lhs=PADDED),
    premises=("BatchNorm averages over every position of the [B, T, D] tensor, pads included",
              REAL, "the real tokens' feature has 1/n-variance v; the P pads all equal p"),
    foils=(Foil("padding leaves BatchNorm's statistics unchanged", (m_real, v_real)),
           Foil("padding only dilutes the variance",
                ((n_real * m_real + n_pad * pad) / (n_real + n_pad),
                 n_real * v_real / (n_real + n_pad)))),
    depends_on=("rmsnorm-vs-layernorm",),
    sources=(IOFFE, BA),
    tags=("batchnorm", "layernorm", "padding"),
)
class PaddingShiftsBatchNorm:
    """Pads enter the sums of x and x² like real tokens; the variance then gains a
    between-group term n·P·(m − p)²/(n + P)² on top of the diluted n·v/(n + P)."""

    def prove(self, value, proof):
        mean = (proof.chain(PADDED[0], "μ^BN with padding")
                .substitute(dict(REAL.equations), premise=REAL))
        var = (proof.chain(PADDED[1], "Var^BN with padding")
               .substitute(dict(REAL.equations), premise=REAL)
               .substitute(lemma="rmsnorm-vs-layernorm", rename={d: n_real, mu: m_real, v: v_real}))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        domains = {"rows": Integers(1, 8), "longest": Integers(1, 32), "width": Integers(1, 8),
                   "pads": Choice(("zero", "a learned embedding"))}
        for point in experiment.draw(domains, count=3):
            rng, width = experiment.rng, point["width"]
            pad_vector = np.zeros(width) if point["pads"] == "zero" else rng.standard_normal(width)
            lengths = rng.integers(1, point["longest"] + 1, size=point["rows"])
            x, real = padded_batch(rng, lengths, width, pad_vector)
            n_, p_ = real.shape[0], x.shape[0] * x.shape[1] - real.shape[0]
            m_, _, v_ = (t[0] for t in centred_moments(real, 0))  # per feature, real tokens only
            got = np.concatenate([t.reshape(-1) for t in centred_moments(x, (0, 1))[::2]])
            at = {n_real: n_, n_pad: p_, m_real: m_, v_real: v_, pad: pad_vector}
            expected = np.concatenate([formula_values(f, at, (width,)) for f in value])
            tol = tolerance(4 * x.shape[0] * x.shape[1], float(np.abs(x).max()) ** 2)
            experiment.close(got, expected, tol, "BatchNorm statistics with padding",
                             inputs="a padded batch", at=point)
            token_mean, _, token_var = centred_moments(real)  # each token alone, over its features
            own = {n_real: width, n_pad: 0, m_real: token_mean, v_real: token_var, pad: 0.0}
            in_batch = [real_tokens(t, lengths) for t in centred_moments(x)[::2]]  # LN's, padded
            experiment.close(np.concatenate(in_batch, -1), np.concatenate(
                [formula_values(f, own, token_mean.shape) for f in value], -1), tol,
                "LayerNorm statistics of the real tokens (no pad enters)",
                inputs="the same padded batch", at=point)
