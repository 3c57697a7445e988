"""Section 11: LayerNorm, BatchNorm and RMSNorm — axes, batch dependence, padding, moments,
invariances and cost."""

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED
from tmath.engine.experiment import tolerance
from tmath.reference.gradients import INDEX_IN_RANGE
from tmath.reference.norms import batch_norm, centred_moments, count_operations, layer_norm, rms_norm

BA = Source("Ba, Kiros & Hinton (2016), Layer Normalization", arxiv="1607.06450")
IOFFE = Source("Ioffe & Szegedy (2015), Batch Normalization", arxiv="1502.03167")
ZHANG = Source("Zhang & Sennrich (2019), Root Mean Square Layer Normalization",
               arxiv="1910.07467")

k, d = sp.symbols("k d", positive=True, integer=True)
xv = sp.IndexedBase("x")
mu = sp.Symbol("mu", real=True)
v, eps, scale = sp.symbols("v epsilon a", positive=True)
shift = sp.Symbol("b", real=True)
SUM_X, SUM_DEV2 = sp.Sum(xv[k], (k, 1, d)), sp.Sum((xv[k] - mu) ** 2, (k, 1, d))
MEAN_PREMISE, VAR_PREMISE = "μ = (1/d)·Σ x_k", "Var(x) = (1/d)·Σ (x_k − μ)²"
EPS_EXAMPLE = 1e-8  # the notes' example ε
bi, ti, kk, b2, t2, k2 = sp.symbols("b t k b' t' k'", positive=True, integer=True)
B, T, D = sp.symbols("B T D", positive=True, integer=True)
n_real, n_pad = sp.symbols("n P", positive=True, integer=True)
m_real, pad = sp.symbols("m p", real=True)
v_real = sp.Symbol("v_r", positive=True)

# Chinese texts shared by this section's glossaries (--lang zh).


def _inputs(rng, n):
    """Token vectors of several shapes: unit spread, a large offset, a spread comparable to √ε."""
    for law, spread, offset in (("Gaussian", 1.0, 0.0), ("centred exponential", 1.0, 3.0),
                                ("uniform", 1e-4, 1.0)):
        yield f"{law}, spread {spread:g}, offset {offset:g}", \
            offset + spread * STANDARDIZED[law](rng, (16, n))


def _centring_condition(x):
    """max|x|/spread per token: how much centring amplifies the rounding of x."""
    _, _, var = centred_moments(x)
    return float((np.abs(x).max(-1, keepdims=True) / np.sqrt(var)).max())


@claim(
    id="layernorm-output-moments",
    title="LayerNorm's output has mean 0 and variance Var/(Var + ε) — 1 only when ε = 0",
    section="11.4",
    statement=Statement("x̂ = (x − μ)/√(Var(x) + ε) has mean 0 and (1/d-)variance "
                        "Var(x)/(Var(x) + ε) over the features, so ‖x̂‖ = √(d·Var/(Var + ε)); "
                        "before γ, β", (sp.Integer(0), v / (v + eps)),
                        lhs=(sp.Symbol("mean(x̂)"), sp.Symbol("Var(x̂)"))),
    premises=("μ and Var(x) are the mean and 1/d-variance of the d features of one token",
              "ε > 0"),
    foils=(Foil("the variance is exactly 1", (sp.Integer(0), sp.Integer(1))),
           Foil("ε lowers the variance by ε", (sp.Integer(0), 1 - eps))),
    sources=(BA,),
    tags=("layernorm", "normalisation"),
    formulas=(r"\hat{x} = \gamma \cdot \frac{x - \mu}{\sqrt{\text{Var}(x) + \epsilon}} + \beta",),
)
class LayerNormOutputMoments:
    """Centring removes the mean exactly; dividing by √(Var + ε) instead of √Var leaves the
    variance short of 1 by the factor Var/(Var + ε), which matters when Var is near ε."""

    def prove(self, value, proof):
        mean = (proof.chain(sp.Sum((xv[k] - mu) / sp.sqrt(v + eps), (k, 1, d)) / d, "mean(x̂)")
                .equals((SUM_X - d * mu) / (d * sp.sqrt(v + eps)), "split the sum")
                .substitute({SUM_X: d * mu}, premise=MEAN_PREMISE))
        var = (proof.chain(sp.Sum(((xv[k] - mu) / sp.sqrt(v + eps)) ** 2, (k, 1, d)) / d
                           - mean.value**2, "Var(x̂) = mean(x̂²) − mean(x̂)²")
               .equals(SUM_DEV2 / (d * (v + eps)), "constant factor out of the sum")
               .substitute({SUM_DEV2: d * v}, premise=VAR_PREMISE))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        rng = experiment.rng
        for n in (4, 64, 768):
            for epsilon in (EPS_EXAMPLE, 1e-5):
                for label, x in _inputs(rng, n):
                    out = layer_norm(x, epsilon)
                    mean, _, var = centred_moments(out)
                    var_x = centred_moments(x)[2]
                    expected = [np.broadcast_to(np.asarray(
                        sp.lambdify((v, eps), part)(var_x, epsilon), dtype=float), var_x.shape)
                        for part in value]
                    # ~4n dependent steps to build x̂ and take its moments; centring amplifies
                    # the rounding of x by max|x|/spread
                    tol = tolerance(4 * n + 8,
                                    _centring_condition(x) * float(np.abs(out).max()) ** 2)
                    experiment.close(np.concatenate([mean, var], -1),
                                     np.concatenate(expected, -1), tol,
                                     f"mean and variance of x̂, d={n}, ε={epsilon:g}", inputs=label)


@claim(
    id="layernorm-affine-invariance",
    title="LayerNorm ignores x → a·x + b (a > 0) up to ε, which becomes ε/a²",
    section="11.4",
    statement=Statement("LN_ε(a·x + b·1) = LN_{ε/a²}(x) for a > 0: exactly invariant when ε = 0, "
                        "otherwise the output changes only through ε → ε/a²", eps / scale**2,
                        lhs=sp.Symbol("effective ε")),
    premises=("LN_ε(x)_k = (x_k − μ)/√(Var(x) + ε), γ = 1, β = 0", "a > 0, b real"),
    foils=(Foil("exact invariance for every ε > 0", eps),
           Foil("ε becomes ε/a", eps / scale)),
    depends_on=("layernorm-output-moments",),
    sources=(BA,),
    tags=("layernorm", "invariance"),
)
class LayerNormAffineInvariance:
    """The map shifts the mean to aμ + b and scales the variance by a²; dividing numerator and
    denominator by a leaves ε/a² in place of ε."""

    def prove(self, value, proof):
        mean = (proof.chain(sp.Sum(scale * xv[k] + shift, (k, 1, d)) / d, "mean(a·x + b)")
                .equals((scale * SUM_X + d * shift) / d, "split the sum")
                .substitute({SUM_X: d * mu}, premise=MEAN_PREMISE))
        var = (proof.chain(sp.Sum((scale * xv[k] + shift - mean.value) ** 2, (k, 1, d)) / d,
                           "Var(a·x + b)")
               .equals(scale**2 * SUM_DEV2 / d, "the shift cancels, a² comes out")
               .substitute({SUM_DEV2: d * v}, premise=VAR_PREMISE))
        m2, v2 = sp.symbols("mu' v'")
        out = (proof.chain((scale * xv[k] + shift - m2) / sp.sqrt(v2 + eps), "LN_ε(a·x + b)_k")
               .substitute({m2: mean.value, v2: var.value}, premise="moments of a·x + b (above)")
               .equals((xv[k] - mu) / sp.sqrt(v + eps / scale**2), "divide through by a > 0"))
        proof.conclude((xv[k] - mu) / sp.sqrt(v + value), out)

    def check(self, value, experiment):
        rng = experiment.rng
        effective = sp.lambdify((eps, scale), value)
        for n in (8, 512):
            x = STANDARDIZED["centred exponential"](rng, (16, n))
            for a_ in (1e-3, 0.5, 40.0):
                for epsilon in (EPS_EXAMPLE, 1e-2):
                    b_ = 3 * rng.standard_normal()
                    moved = a_ * x + b_
                    out = layer_norm(x, float(effective(epsilon, a_)))
                    # two LayerNorms (~4n steps each) plus the affine map; centring moved
                    # amplifies its rounding by max|a·x + b|/spread
                    tol = tolerance(8 * n + 8,
                                    _centring_condition(moved) * float(np.abs(out).max()))
                    experiment.close(layer_norm(moved, epsilon), out, tol,
                                     f"LN_ε(a·x + b) vs LN_ε'(x), d={n}, a={a_:g}, ε={epsilon:g}",
                                     inputs="skewed random tokens")


@claim(
    id="rmsnorm-vs-layernorm",
    title="RMSNorm divides by √(Var + μ² + ε); it equals LayerNorm without β exactly when μ = 0",
    section="11.5",
    statement=Statement("mean(x²) = Var(x) + μ², so RMSNorm(x) = γ·x/√(Var + μ² + ε); for "
                        "zero-mean x this is γ·(x − μ)/√(Var + ε) = LayerNorm with β = 0, "
                        "otherwise not",
                        sp.Integer(1), lhs=sp.Symbol("coefficient of μ² in mean(x²) − Var")),
    premises=("RMSNorm(x) = γ·x/√((1/d)Σx_k² + ε)", "μ, Var(x) as in LayerNorm"),
    foils=(Foil("RMSNorm equals LayerNorm without β for every input", sp.Integer(0)),),
    sources=(ZHANG, BA),
    tags=("rmsnorm", "layernorm"),
    formulas=(r"\text{RMSNorm}(x) = \gamma \cdot \frac{x}{\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i^2 "
              r"+ \epsilon}}",),
)
class RmsNormVsLayerNorm:
    """Writing x_k = (x_k − μ) + μ, the cross term sums to zero and the mean square splits
    into variance plus squared mean."""

    def prove(self, value, proof):
        square = (proof.chain(sp.Sum(xv[k] ** 2, (k, 1, d)) / d, "mean(x²)")
                  .equals(SUM_DEV2 / d + 2 * mu * (SUM_X - d * mu) / d + mu**2,
                          "x_k = (x_k − μ) + μ, expanded")
                  .substitute({SUM_DEV2: d * v, SUM_X: d * mu},
                              premise=f"{MEAN_PREMISE}; {VAR_PREMISE}"))
        proof.conclude(v + value * mu**2, square)

    def check(self, value, experiment):
        rng, c = experiment.rng, float(value)
        for n in (8, 512):
            gamma = 1 + 0.1 * rng.standard_normal(n)
            spread = rng.uniform(0.5, 2, (16, 1))
            x = rng.standard_normal((16, 1)) + spread * rng.standard_normal((16, n))
            centre, _, var = centred_moments(x)
            out = rms_norm(x, EPS_EXAMPLE, gamma)
            # mean of squares (2n steps), √, division and γ; values of size max|out|
            tol = tolerance(4 * n + 8, float(np.abs(out).max()))
            experiment.close(out, gamma * x / np.sqrt(var + c * centre**2 + EPS_EXAMPLE), tol,
                             f"RMSNorm = γx/√(Var + c·μ² + ε), d={n}", inputs="tokens with μ ≠ 0")
            zero_mean = x - centre
            experiment.close(rms_norm(zero_mean, EPS_EXAMPLE, gamma),
                             layer_norm(zero_mean, EPS_EXAMPLE, gamma), tol,
                             f"RMSNorm = LayerNorm(β=0) when μ = 0, d={n}", inputs="centred tokens")
            gap = float(np.abs(out - layer_norm(x, EPS_EXAMPLE, gamma)).max())
            experiment.holds(gap > tol, f"RMSNorm ≠ LayerNorm when μ ≠ 0, d={n}",
                             f"max difference {gap:.3g} vs tol {tol:.2g}")


@claim(
    id="rmsnorm-scale-invariance",
    title="RMSNorm ignores a positive rescaling up to ε → ε/a², but not a shift",
    section="11.5",
    statement=Statement("RMSNorm_ε(a·x) = RMSNorm_{ε/a²}(x) for a > 0; adding b·1 changes "
                        "the output",
                        eps / scale**2, lhs=sp.Symbol("effective ε")),
    premises=("RMSNorm_ε(x)_k = x_k/√((1/d)Σx_j² + ε), γ = 1", "a > 0"),
    foils=(Foil("exact invariance for every ε > 0", eps), Foil("ε becomes ε/a", eps / scale)),
    sources=(ZHANG,),
    tags=("rmsnorm", "invariance"),
)
class RmsNormScaleInvariance:
    """The mean square scales by a², so a cancels between numerator and denominator except
    against ε; with no centring, a shift is not removed."""

    def prove(self, value, proof):
        q = sp.Symbol("q", positive=True)  # mean square of x
        msq = (proof.chain(sp.Sum((scale * xv[k]) ** 2, (k, 1, d)) / d, "mean((a·x)²)")
               .equals(scale**2 * sp.Sum(xv[k] ** 2, (k, 1, d)) / d, "a² out of the sum")
               .substitute({sp.Sum(xv[k] ** 2, (k, 1, d)): d * q}, premise="q = (1/d)Σx_k²"))
        out = (proof.chain(scale * xv[k] / sp.sqrt(msq.value + eps), "RMSNorm_ε(a·x)_k")
               .equals(xv[k] / sp.sqrt(q + eps / scale**2), "divide through by a > 0"))
        proof.conclude(xv[k] / sp.sqrt(q + value), out)

    def check(self, value, experiment):
        rng = experiment.rng
        effective = sp.lambdify((eps, scale), value)
        for n in (8, 512):
            x = STANDARDIZED["uniform"](rng, (16, n)) + 0.3
            for a_ in (1e-3, 0.5, 40.0):
                for epsilon in (EPS_EXAMPLE, 1e-2):
                    out = rms_norm(x, float(effective(epsilon, a_)))
                    tol = tolerance(6 * n + 8, float(np.abs(out).max()))  # two RMSNorms + a·x
                    experiment.close(rms_norm(a_ * x, epsilon), out, tol,
                                     f"RMSNorm_ε(a·x) vs RMSNorm_ε'(x), d={n}, a={a_:g}, "
                                     f"ε={epsilon:g}",
                                     inputs="shifted uniform tokens")
            gap = float(np.abs(rms_norm(x + 1.0, EPS_EXAMPLE) - rms_norm(x, EPS_EXAMPLE)).max())
            experiment.holds(gap > tolerance(6 * n + 8), f"a shift changes RMSNorm, d={n}",
                             f"max change {gap:.3g}")


@claim(
    id="rmsnorm-operation-savings",
    title="RMSNorm saves 2d scalar operations per token over LayerNorm, d more without β",
    section="11.5",
    statement=Statement("per d-dimensional token, LayerNorm's normalisation costs 2d more "
                        "operations than RMSNorm's (the mean: d − 1 additions and a division; "
                        "the d subtractions), and β adds d more", (2 * d, d),
                        lhs=(sp.Symbol("LN(γ) − RMS(γ) operations"), sp.Symbol("cost of β"))),
    premises=("LN: μ, x − μ, mean of squares of x − μ, + ε, √, divide, ·γ, + β",
              "RMS: mean of squares of x, + ε, √, divide, ·γ",
              "a mean of d numbers is d − 1 additions and one division"),
    foils=(Foil("only the mean is saved", (d, 0)), Foil("the mean and β are saved", (d, d))),
    sources=(ZHANG,),
    tags=("rmsnorm", "layernorm", "cost"),
)
class RmsNormOperationSavings:
    """Both compute a mean of squares, a square root, a division and the γ product; only
    LayerNorm computes the mean, subtracts it, and adds β."""

    def prove(self, value, proof):
        mean_cost = (d - 1) + 1
        layer = {"mean": mean_cost, "x − μ": d, "squares": d, "mean of squares": mean_cost,
                 "+ ε": 1, "√": 1, "divide": d, "· γ": d}
        rms = {"squares": d, "mean of squares": mean_cost, "+ ε": 1, "√": 1, "divide": d, "· γ": d}
        core = (proof.chain(sum(layer.values()) - sum(rms.values()), "LN(γ) − RMS(γ) counts")
                .evaluate("count"))
        beta = proof.chain(d * sp.Integer(1), "+ β: one addition per feature").evaluate("count")
        proof.conclude(value, core, beta)

    def check(self, value, experiment):
        rng = experiment.rng
        for n in (4, 64, 768):
            x, gamma, beta = rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)
            ln = count_operations(layer_norm, x, eps=EPS_EXAMPLE, gamma=gamma)
            rms = count_operations(rms_norm, x, eps=EPS_EXAMPLE, gamma=gamma)
            ln_beta = count_operations(layer_norm, x, eps=EPS_EXAMPLE, gamma=gamma, beta=beta)
            # integer counts of the reference implementations: no rounding, tolerance 0
            stated = [float(sp.sympify(p).subs(d, n)) for p in value]
            experiment.close([ln - rms, ln_beta - ln], stated, 0.0,
                             f"measured operation savings, d={n}", inputs="instrumented ufuncs")


@claim(
    id="norm-statistics-axes",
    title="LayerNorm's statistics ignore the other samples in the batch; BatchNorm's do not",
    section="11.2",
    statement=Statement("for x of shape [B, T, D]: ∂μ^LN_{b,t}/∂x_{b',t',k'} = 0 for b' ≠ b "
                        "(μ^LN_{b,t} averages the D features of one token), while "
                        "∂μ^BN_k/∂x_{b',t',k} = 1/(B·T) (μ^BN_k averages feature k over all B·T "
                        "tokens); so LN's output for a sample never depends on the rest of "
                        "the batch",
                        (sp.Integer(0), 1 / (B * T)),
                        lhs=(sp.Symbol("∂μ^LN_{b,t}/∂x_{b',t',k'}"),
                             sp.Symbol("∂μ^BN_k/∂x_{b',t',k}"))),
    premises=("μ^LN_{b,t} = (1/D)Σ_k x_{b,t,k}",
              "μ^BN_k = (1/(BT))Σ_{b,t} x_{b,t,k} (training mode)",
              "b' ≠ b; (b', t', k') lies inside the tensor"),
    foils=(Foil("LayerNorm's statistics also mix samples", (1 / (B * T), 1 / (B * T))),
           Foil("BatchNorm's statistics ignore other samples too", (sp.Integer(0), sp.Integer(0)))),
    sources=(BA, IOFFE),
    tags=("layernorm", "batchnorm", "batch"),
)
class NormStatisticsAxes:
    """A sum over the feature axis of token (b, t) contains no entry of sample b'; a sum over
    the batch and time axes contains every token's entry of feature k once."""

    def prove(self, value, proof):
        ln = (proof.chain(sp.Derivative(sp.Sum(xv[bi, ti, kk], (kk, 1, D)) / D, xv[b2, t2, k2]),
                          "∂μ^LN_{b,t}/∂x_{b',t',k'}")
              .evaluate("differentiate the sum")
              .substitute({sp.KroneckerDelta(bi, b2): 0}, premise="b' ≠ b")
              .evaluate("both branches vanish"))
        bn = (proof.chain(sp.Derivative(sp.Sum(xv[bi, ti, kk], (bi, 1, B), (ti, 1, T)) / (B * T),
                                        xv[b2, t2, kk]), "∂μ^BN_k/∂x_{b',t',k}")
              .evaluate("differentiate the double sum").apply(INDEX_IN_RANGE))
        proof.conclude(value, ln, bn)

    def check(self, value, experiment):
        rng, (nb, nt, nd) = experiment.rng, (4, 6, 8)
        x = rng.standard_normal((nb, nt, nd)) * rng.uniform(0.5, 3, nd) + rng.standard_normal(nd)
        moved = x.copy()
        moved[1, 2, 3] += 1.0  # one entry of another sample; the statistics are linear in x
        # LN statistics over the feature axis of the whole tensor, read for every token of b = 0
        ln_change = centred_moments(moved)[0][0] - centred_moments(x)[0][0]
        bn_change = (centred_moments(moved, (0, 1))[0][..., 3]
                     - centred_moments(x, (0, 1))[0][..., 3])
        tol = tolerance(2 * nb * nt + 2, float(np.abs(moved).max()))  # two means of B·T numbers
        parts = [float(sp.sympify(p).subs({B: nb, T: nt})) for p in value]
        experiment.close(ln_change, np.full_like(ln_change, parts[0]), tol,
                         "change of μ^LN for sample 0 per unit change in sample 1",
                         inputs="[4, 6, 8]")
        experiment.close(bn_change, np.full_like(bn_change, parts[1]), tol,
                         "change of μ^BN_k per unit change in sample 1", inputs="[4, 6, 8]")
        fresh = x.copy()
        fresh[1:] = rng.standard_normal(fresh[1:].shape)
        experiment.holds(np.array_equal(layer_norm(fresh, 1e-5)[0], layer_norm(x, 1e-5)[0]),
                         "LN output of sample 0 unchanged when the other samples are redrawn")
        shift = float(np.abs(batch_norm(fresh, 1e-5)[0] - batch_norm(x, 1e-5)[0]).max())
        experiment.holds(shift > tolerance(4 * nb * nt, float(np.abs(fresh).max())),
                         "BN output of sample 0 changes when the other samples are redrawn",
                         f"max change {shift:.3g}")


def _padded_batch(rng, lengths, width, pad_vector):
    x = np.tile(pad_vector, (len(lengths), max(lengths), 1))
    real = [rng.standard_normal((n_, width)) * 2 + 1 for n_ in lengths]
    for row, tokens in enumerate(real):
        x[row, :len(tokens)] = tokens
    return x, np.concatenate(real)


@claim(
    id="padding-shifts-batchnorm",
    title="Padding tokens pull BatchNorm's mean and variance; LayerNorm's real tokens are "
          "untouched",
    section="11.3",
    statement=Statement("with n real tokens (feature mean m, variance v) and P pad tokens of "
                        "value p, BatchNorm sees mean (n·m + P·p)/(n + P) and variance "
                        "n·v/(n + P) + n·P·(m − p)²/(n + P)²; LayerNorm of each real token is "
                        "unchanged",
                        ((n_real * m_real + n_pad * pad) / (n_real + n_pad),
                         n_real * v_real / (n_real + n_pad)
                         + n_real * n_pad * (m_real - pad) ** 2 / (n_real + n_pad) ** 2),
                        lhs=(sp.Symbol("μ^BN with padding"), sp.Symbol("Var^BN with padding"))),
    premises=("BatchNorm averages over every position of the [B, T, D] tensor, pads included",
              "the real tokens' feature has mean m and 1/n-variance v; pads all equal p"),
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
        s1, s2, mean_sym = sp.symbols("S_1 S_2 M")
        mean = (proof.chain((s1 + n_pad * pad) / (n_real + n_pad),
                            "μ^BN = (Σ_real x + P·p)/(n + P)")
                .substitute({s1: n_real * m_real}, premise="Σ over real tokens = n·m"))
        var = (proof.chain((s2 + n_pad * pad**2) / (n_real + n_pad) - mean_sym**2,
                           "Var^BN = mean of x² − μ^BN²")
               .substitute({s2: n_real * (v_real + m_real**2)}, lemma="rmsnorm-vs-layernorm")
               .substitute({mean_sym: mean.value}, premise="μ^BN (above)")
               .equals(n_real * v_real / (n_real + n_pad)
                       + n_real * n_pad * (m_real - pad) ** 2 / (n_real + n_pad) ** 2,
                       "collect terms"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        rng, width = experiment.rng, 5
        formulas = [sp.lambdify((n_real, n_pad, m_real, v_real, pad), part) for part in value]
        for pad_label, pad_vector in (("zero pads", np.zeros(width)),
                                      ("a learned pad embedding", rng.standard_normal(width))):
            lengths = rng.integers(1, 11, size=6)
            x, real = _padded_batch(rng, lengths, width, pad_vector)
            n_, p_ = real.shape[0], x.shape[0] * x.shape[1] - real.shape[0]
            real_mean, _, real_var = centred_moments(real, 0)  # per feature, real tokens only
            m_, v_ = real_mean[0], real_var[0]
            got_mean, _, got_var = (t.reshape(-1) for t in centred_moments(x, (0, 1)))
            expected = [f(n_, p_, m_, v_, pad_vector) for f in formulas]
            tol = tolerance(4 * x.shape[0] * x.shape[1], float(np.abs(x).max()) ** 2)
            experiment.close(np.concatenate([got_mean, got_var]), np.concatenate(expected), tol,
                             f"BatchNorm statistics with {pad_label}",
                             inputs=f"{n_} real, {p_} pads")
            token = layer_norm(x, 1e-5)
            kept = np.concatenate([token[row, :n] for row, n in enumerate(lengths)])
            experiment.holds(np.array_equal(kept, layer_norm(real, 1e-5)),
                             f"LayerNorm of real tokens unchanged by {pad_label}")
