"""Section 14: the warmup schedule of the original Transformer, and Adam's early steps."""

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.moments import E, Moments, Var
from tmath.engine.parameters import evaluate
from tmath.engine.rules import FACTOR_OUT, SPLIT_SUM
from tmath.engine.rules_finite_sums import telescope
from tmath.reference.optim import (
    ADAM_DEFAULTS, VASWANI_2017, GradientLaw, adam_moments, as_function_of, ema_closed_form,
    ema_mean_variance, first_moment_plot, gradients, noam_lr, not_one, one_minus_power,
    schedule_plot, sum_over_inputs)
from ._bibliography import KALRA_BARKESHLI2024, KINGMA_BA2015, VASWANI2017
from ._notes import printed

VASWANI = VASWANI2017.at("§5.2–5.3", unverified="§5.2 was not checked against the paper (§5.3 "
                                                 "was)")
KINGMA_BA = KINGMA_BA2015.at("Algorithm 1 and §3",
                             unverified="§3 was not checked against the paper")
# The notes credit arXiv:2406.09405 to "Ma & Yarats (2024)"; its authors are Kalra & Barkeshli.
KALRA_BARKESHLI = KALRA_BARKESHLI2024

s, w, d = sp.symbols("step w d_model", positive=True)
peak_step = sp.Symbol("step*", positive=True)
t, i = sp.symbols("t i", positive=True, integer=True)
b1, b2, beta = sp.symbols("beta_1 beta_2 beta", positive=True)
x, m, v, g = (sp.IndexedBase(name, real=True) for name in ("x", "m", "v", "g"))
mu, m2 = sp.Symbol("mu", real=True, nonzero=True), sp.Symbol("E[g²]", positive=True)
sigma, spread = sp.Symbol("sigma", positive=True), sp.Symbol("sigma/mu", positive=True)
c1, c2 = sp.symbols("c1 c2", positive=True)  # the bias-correction divisors
p1, p2 = sp.symbols("p1 p2", positive=True)  # the bias factors 1 − β1^t, 1 − β2^t
LINEAR = d ** sp.Rational(-1, 2) * s * w ** sp.Rational(-3, 2)
DECAY = d ** sp.Rational(-1, 2) * s ** sp.Rational(-1, 2)
LR = d ** sp.Rational(-1, 2) * sp.Min(peak_step ** sp.Rational(-1, 2),
                                      peak_step * w ** sp.Rational(-3, 2))
lr = sp.Function("lr")
SCHEDULE = Definition("lr(step) = d_model^−½·min(step^−½, step·w^−3/2), w the warmup steps",
                      {lr(s): d ** sp.Rational(-1, 2) * sp.Min(s ** sp.Rational(-1, 2),
                                                               s * w ** sp.Rational(-3, 2))})
BETA = Reals(0.05, 0.9999, edges=(0.9999, 0.5))  # β in (0, 1): near 1 and in the middle
SHAPE = {mu: Reals(0.3, 2.0, edges=(1.0,)), spread: Reals(0.2, 1.5, edges=(1.0,)),
         "law": GradientLaw()}  # the gradients' mean, σ/μ and shape
SKEWED = "centred exponential"
SIZED_FOR = (0.02, 0.016)  # g², and anything under the skewed law, is heavy-tailed: the pilot's
# estimate of its spread runs low, so those tests are sized for 1.6 % (variances: 1.8 %) to resolve 2 %
LONG = Integers(1, 10**6, edges=(10**6, 1))  # t for the exact recursions (any length is cheap)


@claim(
    id="noam-schedule-shape",
    title="The warmup schedule rises linearly to step w, then decays as 1/√step; peak (d·w)^−½",
    section="14.1",
    statement=Statement("lr = d^−½·min(step^−½, step·w^−3/2) is d^−½·step·w^−3/2 below w, "
                        "d^−½·step^−½ above; both meet at step = w, the peak, with lr = (d·w)^−½",
                        (w, 1 / sp.sqrt(d * w)), lhs=(peak_step, LR)),
    premises=("lr(step) = d_model^−0.5 · min(step^−0.5, step · w^−1.5), step ≥ 1, w ≥ 1",),
    foils=(Foil("the peak lr is d^−½·w^−3/2",
                (w, d ** sp.Rational(-1, 2) * w ** sp.Rational(-3, 2))),
           Foil("the peak lr is 1/(d·w)", (w, 1 / (d * w))),
           Foil("the peak is at step w^{3/2}", (w ** sp.Rational(3, 2), 1 / sp.sqrt(d * w)))),
    sources=(VASWANI,),
    tags=("optimisation", "schedule"),
    figures=tuple(Figure(label, compute=lambda: VASWANI_2017["warmup_steps"], **printed(label))
                  for label in ("warmup steps of the original Transformer",
                                "warmup steps of the original Transformer (parameter list)")),
    formulas=(r"lr = d_{model}^{-0.5} \cdot \min(step^{-0.5}, \; "
              r"step \cdot warmup\_steps^{-1.5})",),
    definitions=(SCHEDULE,), notation={"lr": lr(s), r"warmup\_steps": w},
)
class NoamScheduleShape:
    """The min of a rising and a falling branch peaks where they cross: below the crossing the
    rising branch is the smaller one, above it the falling one."""

    def prove(self, value, proof):
        rising = proof.holds(sp.diff(LINEAR, s) > 0, "the linear branch rises")
        falling = proof.holds(sp.diff(DECAY, s) < 0, "the 1/√step branch falls")
        cross = proof.root(LINEAR - DECAY, s, peak_step, "peak step",
                           why="the branches cross at one step, where their min peaks")
        peak = proof.chain(LR, "lr at the peak").substitute(from_chain=cross,
                                                            given=(rising, falling))
        proof.conclude(value, cross, peak)

    def check(self, value, experiment):
        for point in experiment.draw({d: Integers(1, 16384), w: Integers(1, 20000)}, count=3):
            top_step, top_lr = point.value(value)
            steps = np.arange(1, 3 * point[w] + 2)
            lr = noam_lr(steps, point[d], point[w])
            found = steps[np.argmax(lr)]
            experiment.holds(bool(abs(found - top_step) <= 1e-9 * found), "argmax step = stated",
                             f"argmax at {found}, stated {top_step:.6g}", at=point)
            experiment.close(lr.max(), top_lr, tolerance(6, lr.max()), "max lr = stated",
                             at=point)
            up, down = steps <= top_step, steps >= top_step
            shape = up.any() and down.any() and all(
                np.ptp(r) <= tolerance(8, r.max()) for r in (lr[up] / steps[up],
                                                             lr[down] * np.sqrt(steps[down])))
            experiment.holds(bool(shape), "lr ∝ step up to the stated peak, ∝ 1/√step after",
                             at=point)

    def plot(self):
        return schedule_plot(VASWANI_2017["d_model_base"], VASWANI_2017["warmup_steps"])


EMA = Premise("m_i = β m_{i−1} + (1−β) x_i for i ≥ 1, and m_0 = 0",
              {m[i]: beta * m[i - 1] + (1 - beta) * x[i], m[0]: 0})


@claim(
    id="adam-ema-unrolled",
    title="An EMA started at 0 is a weighted sum of the inputs with weights (1−β)β^(t−i)",
    section="14.2",
    statement=Statement("m_t = Σ_{i=1}^{t} (1−β)·β^{t−i}·x_i solves m_t = β m_{t−1} + (1−β) x_t, "
                        "m_0 = 0", ema_closed_form(beta, x[i], t, i), lhs=m[t]),
    premises=(EMA,),
    foils=(Foil("the weights are β^{t−i} (no 1 − β)", sp.Sum(beta ** (t - i) * x[i], (i, 1, t))),
           Foil("the weights are (1−β)β^{t−i+1}", ema_closed_form(beta, beta * x[i], t, i)),
           Foil("m_t is the plain average of x_1..x_t", sp.Sum(x[i], (i, 1, t)) / t)),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam"),
)
class AdamEmaUnrolled:
    """Telescoping: m_t = Σ_{i=1}^{t} β^{t−i}(m_i − β m_{i−1}) + β^t m_0, and by the
    recursion each bracket is (1−β)x_i while m_0 = 0. No induction is needed."""

    def prove(self, value, proof):
        unrolled = (proof.chain(m[t], "m_t").apply(telescope(beta ** (t - i) * m[i], i, 1, t))
                    .substitute(dict(EMA.equations), premise=EMA)
                    .equals(ema_closed_form(beta, x[i], t, i), "the m_{i−1} terms cancel"))
        proof.conclude(value, unrolled)

    def check(self, value, experiment):
        for point in experiment.draw({beta: Reals(0.01, 0.9999, edges=(0.9999, 0.01)),
                                      t: Integers(1, 256)}, count=3):
            grads = experiment.rng.standard_normal((point[t], 500))
            recursion, _ = adam_moments(grads, point[beta], point[beta])
            stated = sum_over_inputs(value, x, grads, {beta: point[beta], t: point[t]})
            # t multiply-adds on each side plus the powers, on values of size ≤ max |g|
            experiment.close(recursion, stated, tolerance(3 * point[t] + 3, np.abs(grads).max()),
                             "recursion vs stated sum", at=point)


BELOW_ONE_12 = not_one("0 < β1, β2 < 1, so neither is 1", b1, b2)
NOT_ONE = not_one("0 < β < 1, so β ≠ 1", beta)
VARIANCE = Premise("g_1, g_2, … independent, each with variance σ²", {Var(g[i]): sigma**2})
MOMENTS = Premise("g_1, g_2, … share E[g_i] = μ and E[g_i²] = E[g²]", {E(g[i]): mu, E(g[i] ** 2): m2})
RECURSIONS = ("m_t = β1 m_{t−1} + (1−β1) g_t, v_t = β2 v_{t−1} + (1−β2) g_t², m_0 = v_0 = 0: "
              "each an EMA as in adam-ema-unrolled")
ADAM = Definition("Adam's moments: m_t = β1 m_{t−1} + (1−β1) g_t, v_t = β2 v_{t−1} + (1−β2) g_t², "
                  "m_0 = v_0 = 0", {m[t]: b1 * m[t - 1] + (1 - b1) * g[t], m[0]: 0,
                                    v[t]: b2 * v[t - 1] + (1 - b2) * g[t] ** 2, v[0]: 0})
SECOND_MOMENT = {m2: mu**2 + (spread * mu) ** 2}  # E[g²] = μ² + σ² for drawn μ and σ/μ


def _moment_draws(experiment):
    """Points for simulating the recursions (Adam's defaults at t = 1, then a random point
    with t ≤ 60) and for their exact moments at any t, β near 1 first; all drawn before any
    sample, so every foil of an audit meets the same points."""
    short = {b1: Reals(0.05, 0.9999, edges=(ADAM_DEFAULTS["beta1"],)),
             b2: Reals(0.05, 0.9999, edges=(ADAM_DEFAULTS["beta2"],)), t: Integers(1, 60, (1,))}
    long = {b1: Reals(0.05, 0.99999, edges=(0.99999, 0.5)), b2: BETA, t: LONG}
    return (experiment.draw({**short, **SHAPE}, count=2),
            experiment.draw({**long, **SHAPE}, count=3))


def _exact_moments(point):
    """E[m_t], E[v_t] from the recursions' affine maps (linearity of expectation only)."""
    first = ema_mean_variance(point[b1], point[t], point[mu], 0.0)[0]
    second = ema_mean_variance(point[b2], point[t], point[mu] ** 2 * (1 + point[spread] ** 2),
                               0.0)[0]
    return np.array([first, second])


def _simulate(experiment, point, divisors, expected, labels):
    """Sequential tests of E[m_t/c1] and E[v_t/c2] on Adam's recursions, run on gradients of
    the point's law, against ``expected``."""
    grads = gradients(point["law"], point[mu], point[spread] * point[mu], point[t])
    for k in (0, 1):
        experiment.mean(lambda rng, n, k=k: adam_moments(grads(rng, n), point[b1], point[b2])[k]
                        / divisors[k], expected[k], labels[k], at=point,
                        min_effect=SIZED_FOR[k or point["law"] == SKEWED])


@claim(
    id="adam-moment-bias",
    title="Started at 0, Adam's moments are biased by 1 − β^t: E[m_t] = (1 − β1^t)·E[g]",
    section="14.2",
    statement=Statement("E[m_t] = (1 − β1^t)·E[g] and E[v_t] = (1 − β2^t)·E[g²]",
                        ((1 - b1**t) * mu, (1 - b2**t) * m2), lhs=(E(m[t]), E(v[t]))),
    premises=(RECURSIONS, MOMENTS, BELOW_ONE_12),
    foils=(Foil("E[m_t] = β1^t·E[g]", (b1**t * mu, (1 - b2**t) * m2)),
           Foil("the moments are unbiased already", (mu, m2)),
           Foil("v_t tracks the variance: E[v_t] = (1 − β2^t)·Var(g)",
                ((1 - b1**t) * mu, (1 - b2**t) * (m2 - mu**2)))),
    depends_on=("adam-ema-unrolled",),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "bias"),
    figures=(Figure("Adam β1 (Kingma & Ba default)", "0.9", near=r"\beta_1=",
                    compute=lambda: ADAM_DEFAULTS["beta1"]),
             Figure("Adam β2 (Kingma & Ba default)", "0.999", near=r"\beta_2=",
                    compute=lambda: ADAM_DEFAULTS["beta2"])),
    formulas=(r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t",
              r"v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2"),
    definitions=(ADAM,),
    statistical_tests=4,
)
class AdamMomentBias:
    """Unrolled, m_t weights the gradients by (1−β)β^{t−i}; those weights sum to 1 − β^t,
    not 1, because the missing mass sits on the initial value 0. v_t averages g², so it
    tracks E[g²] = Var(g) + E[g]², not the variance the notes name."""

    def prove(self, value, proof):
        rules = Moments(random=(g,))
        chains = []
        for moment, rename, mean, label in (
                (m[t], {x: g, beta: b1}, {E(g[i]): mu}, "E[m_t]"),
                (v[t], {m: v, x[i]: g[i] ** 2, beta: b2}, {E(g[i] ** 2): m2}, "E[v_t]")):
            chains.append(proof.chain(E(moment), label)
                          .substitute(lemma="adam-ema-unrolled", rename=rename)
                          .apply(rules.linearity).substitute(mean, premise=MOMENTS)
                          .apply(SPLIT_SUM).apply(FACTOR_OUT)
                          .evaluate("geometric series", method="factor")
                          .substitute(dict(BELOW_ONE_12.equations), premise=BELOW_ONE_12))
        proof.conclude(value, *chains)

    def check(self, value, experiment):
        short, long = _moment_draws(experiment)
        for point in short:
            stated = point.value(tuple(sp.sympify(p).xreplace(SECOND_MOMENT) for p in value))
            _simulate(experiment, point, (1, 1), stated, ("E[m_t] = stated", "E[v_t] = stated"))
        for point in long:
            stated = np.array(point.value(tuple(sp.sympify(p).xreplace(SECOND_MOMENT)
                                                for p in value)))
            exact = _exact_moments(point)
            # the affine powers lose ≈ 4t roundings (each squaring doubles the relative error)
            experiment.close(exact, stated, tolerance(4 * point[t] + 16, np.abs(exact).max()),
                             "E[m_t], E[v_t] from the recursions = stated", at=point)

    def plot(self):
        return first_moment_plot(ADAM_DEFAULTS["beta1"])  # an illustration, not the check


# SymPy cannot show 1 − β^t > 0 from β < 1 (a text premise); named as positive symbols, the
# divisor found is seen to be one of the positive numbers the divisors range over
BIAS_FACTORS = Premise("0 < β1, β2 < 1 and t ≥ 1, so β^t < 1: the bias factors are positive, "
                       "1 − β1^t = p1 > 0 and 1 − β2^t = p2 > 0",
                       {1 - b1**t: p1, p1: 1 - b1**t, 1 - b2**t: p2, p2: 1 - b2**t})


@claim(
    id="adam-bias-correction-unbiased",
    title="Dividing by 1 − β^t removes the bias: E[m̂_t] = E[g], E[v̂_t] = E[g²]",
    section="14.2",
    statement=Statement("m̂_t = m_t/c1 and v̂_t = v_t/c2 are unbiased for the divisors "
                        "c1 = 1 − β1^t, c2 = 1 − β2^t", (1 - b1**t, 1 - b2**t), lhs=(c1, c2)),
    premises=(RECURSIONS, "E[g] ≠ 0 and E[g²] > 0 (else every divisor is unbiased)",
              BIAS_FACTORS),
    foils=(Foil("no correction is needed (c = 1)", (sp.Integer(1), sp.Integer(1))),
           Foil("divide by β^t", (b1**t, b2**t)),
           Foil("divide by 1 − β^{t+1}", (1 - b1 ** (t + 1), 1 - b2 ** (t + 1)))),
    depends_on=("adam-moment-bias",),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "bias"),
    statistical_tests=4,
)
class AdamBiasCorrectionUnbiased:
    """E[m_t/c] = (1 − β^t)·E[g]/c is linear in 1/c, so exactly one divisor makes it E[g]."""

    def prove(self, value, proof):
        rules = Moments(random=(m, v))
        roots = []
        for moment, target, c, b, p, label in (
                (m[t], mu, c1, b1, p1, "E[m_t/c1] − E[g]"),
                (v[t], m2, c2, b2, p2, "E[v_t/c2] − E[g²]")):
            condition = (proof.chain(E(moment / c) - target, label).apply(rules.linearity)
                         .substitute(lemma="adam-moment-bias", rename={})
                         .substitute({1 - b**t: p}, premise=BIAS_FACTORS))
            roots.append(proof.root(condition, c, c, "divisor")
                         .substitute({p: 1 - b**t}, premise=BIAS_FACTORS))
        proof.conclude(value, *roots)

    def check(self, value, experiment):
        short, long = _moment_draws(experiment)
        for point in short:
            _simulate(experiment, point, point.value(value), (point[mu], point[mu] ** 2 * (
                1 + point[spread] ** 2)), ("E[m_t/c1] = E[g]", "E[v_t/c2] = E[g²]"))
        for point in long:
            corrected = _exact_moments(point) / np.array(point.value(value))
            targets = np.array([point[mu], point[mu] ** 2 * (1 + point[spread] ** 2)])
            experiment.close(corrected, targets, tolerance(4 * point[t] + 16, targets.max()),
                             "E[m_t]/c1, E[v_t]/c2 from the recursions = E[g], E[g²]", at=point)


@claim(
    id="adam-corrected-mean-variance",
    title="Early bias-corrected means are noisy: Var(m̂_t) falls from σ² to σ²(1−β)/(1+β)",
    section="14.2",
    statement=Statement("for i.i.d. gradients with variance σ², Var(m̂_t) = σ²·(1−β)(1+β^t)/"
                        "((1+β)(1−β^t)): σ² at t = 1, → σ²(1−β)/(1+β) (σ²/19 for β = 0.9)",
                        (1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t)),
                        lhs=Var(m[t] / (1 - beta**t)) / sigma**2),
    premises=("m̂_t = m_t/(1 − β^t), m_t = β m_{t−1} + (1−β) g_t, m_0 = 0", VARIANCE, NOT_ONE),
    foils=(Foil("Var(m̂_t) = σ²(1−β)/(1+β) at every t (no excess early noise)",
                (1 - beta) / (1 + beta)),
           Foil("Var(m̂_t) = σ²/t, as for a plain running average", 1 / t),
           Foil("Var(m̂_t) = σ²(1−β)/(1−β^t), the weights' sum squared",
                (1 - beta) / (1 - beta**t))),
    depends_on=("adam-ema-unrolled",),
    sources=(KINGMA_BA, KALRA_BARKESHLI),
    tags=("optimisation", "adam", "variance", "warmup"),
    statistical_tests=3,
)
class AdamCorrectedMeanVariance:
    """Var(m_t) = (1−β)²σ² Σβ^{2(t−i)}; dividing by (1 − β^t)² gives the stated factor. At
    t = 1 the estimate is one raw gradient; later it averages ≈ (1+β)/(1−β) of them."""

    def prove(self, value, proof):
        rules = Moments(random=(g,), independent=VARIANCE)
        var = (proof.chain(Var(m[t] / (1 - beta**t)) / sigma**2, "Var(m̂_t)/σ²")
               .substitute(lemma="adam-ema-unrolled", rename={x: g})
               .apply(rules.variance_scaling).apply(rules.bienayme).apply(rules.variance_scaling)
               .substitute({Var(g[i]): sigma**2}, premise=VARIANCE).apply(FACTOR_OUT)
               .evaluate("geometric series in β²", method="factor")
               .substitute(dict(NOT_ONE.equations), premise=NOT_ONE)
               .equals((1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t)), "cancel",
                       method="factor"))
        proof.conclude(value, var)

    def check(self, value, experiment):
        # no ±1 gradients: at t = 1 their sample variance hardly varies, which the test cannot size
        laws = GradientLaw(("uniform", "Gaussian", SKEWED), edge="uniform")
        sizes = {sigma: Reals(0.5, 2.0, edges=(2.0,)), "law": laws}
        short = experiment.draw({beta: BETA, t: Integers(1, 30), **sizes}, count=3)
        long = experiment.draw({beta: Reals(0.05, 0.99999, edges=(0.99999, 0.5)), t: LONG}, 3)
        for point in short:
            grads = gradients(point["law"], 0.5, point[sigma], point[t])
            scale = one_minus_power(point[beta], point[t])
            experiment.variance(lambda rng, n: adam_moments(grads(rng, n), point[beta],
                                                            point[beta])[0] / scale,
                                point[sigma] ** 2 * point.value(value), "Var(m̂_t) = stated",
                                at=point, min_effect=0.016 if point["law"] == SKEWED else 0.018)
        for point in long:
            exact = ema_mean_variance(point[beta], point[t], 0.0, 1.0)[1] \
                / one_minus_power(point[beta], point[t]) ** 2
            experiment.close(exact, point.value(value), tolerance(4 * point[t] + 16, exact),
                             "Var(m̂_t)/σ² from the variance recursion = stated", at=point)


g1 = sp.Symbol("g_1", real=True, nonzero=True)
m1, v1 = sp.Symbol("m_1", real=True), sp.Symbol("v_1", positive=True)
FIRST = Premise("m_1 = β1·0 + (1−β1) g_1, v_1 = β2·0 + (1−β2) g_1²",
                {m1: (1 - b1) * g1, v1: (1 - b2) * g1**2})
BELOW_ONE = Premise("0 < β1, β2 < 1: 1 − β1 and 1 − β2 are positive numbers",
                    {1 - b1: sp.Symbol("1 − β1", positive=True),
                     1 - b2: sp.Symbol("1 − β2", positive=True)})


@claim(
    id="adam-first-step-sign",
    title="Adam's first bias-corrected step is sign(g_1): full size whatever the gradient",
    section="14.2",
    statement=Statement("with ε = 0, m̂_1/√v̂_1 = sign(g_1) in every coordinate, so the first "
                        "update has magnitude lr however small or noisy g_1 is", sp.sign(g1),
                        lhs=(m1 / (1 - b1)) / sp.sqrt(v1 / (1 - b2))),
    premises=(FIRST, "m̂_1 = m_1/(1−β1), v̂_1 = v_1/(1−β2)", BELOW_ONE, "g_1 ≠ 0"),
    foils=(Foil("without bias correction: m_1/√v_1 = (1−β1)/√(1−β2)·sign(g_1)",
                (1 - b1) / sp.sqrt(1 - b2) * sp.sign(g1)),
           Foil("the first step is proportional to g_1", g1)),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "warmup"),
)
class AdamFirstStepSign:
    """At t = 1 both corrected moments are the raw gradient and its square, and g/√(g²)
    = g/|g|: the step ignores the gradient's scale, which is why early updates can be large.
    The original Transformer ran Adam with β2 = 0.98 (the notes say 0.999, Adam's default):
    both are among the drawn settings."""

    def prove(self, value, proof):
        step = (proof.chain((m1 / (1 - b1)) / sp.sqrt(v1 / (1 - b2)), "m̂_1/√v̂_1")
                .substitute(dict(FIRST.equations), premise=FIRST)
                .substitute(dict(BELOW_ONE.equations), premise=BELOW_ONE)
                .equals(sp.sign(g1), "g/|g| = sign(g) for g ≠ 0"))
        proof.conclude(value, step)

    def check(self, value, experiment):
        betas = {b1: Reals(0.05, 0.9999, edges=(VASWANI_2017["beta1"], ADAM_DEFAULTS["beta1"])),
                 b2: Reals(0.05, 0.99999, edges=(VASWANI_2017["beta2"], ADAM_DEFAULTS["beta2"]))}
        scale = sp.Symbol("|g|")
        for point in experiment.draw({**betas, scale: Reals(1e-8, 1e8, edges=(1e-8, 1e8),
                                                            log=True)}, count=3):
            grads = point[scale] * experiment.rng.standard_normal((1, 2000))
            m_1, v_1 = adam_moments(grads, point[b1], point[b2])
            step = (m_1 / (1 - point[b1])) / np.sqrt(v_1 / (1 - point[b2]))
            stated = as_function_of(value, g1, grads[0], {b1: point[b1], b2: point[b2]})
            experiment.close(step, stated, tolerance(8), "first corrected step = stated",
                             at=point)


@claim(
    id="warmup-share-rule-of-thumb",
    title="Warmup of 1%–5% of training is a rule of thumb; the original runs used 4% and 1.3%",
    section="14.3",
    statement=Statement("the rule of thumb has no proof; the original Transformer's warmup was "
                        "4000/100000 = 4% (base) and 4000/300000 ≈ 1.3% (big) of its steps, "
                        "inside 1%–5%", (sp.Rational(1, 25), sp.Rational(1, 75)),
                        lhs=(sp.Symbol("warmup share, base"), sp.Symbol("warmup share, big"))),
    premises=("warmup 4000 steps; base trained 100K steps, big 300K (Vaswani et al. §5.2–5.3)",),
    foils=(Foil("the original warmup was 0.4% and 0.13% of training",
                (sp.Rational(1, 250), sp.Rational(1, 750))),),
    sources=(VASWANI, KALRA_BARKESHLI),
    tags=("optimisation", "schedule", "warmup", "heuristic"),
    no_proof="the 1%–5% range is practitioners' experience, not a theorem; no result derives "
             "a warmup length (Kalra & Barkeshli 2024 study the mechanism empirically)",
)
class WarmupShareRuleOfThumb:
    """Only the published settings can be checked: their warmup share falls in the range."""

    def check(self, shares, experiment):
        warm = VASWANI_2017["warmup_steps"]
        actual = (warm / VASWANI_2017["train_steps_base"], warm / VASWANI_2017["train_steps_big"])
        stated = np.array(evaluate(tuple(shares)))
        experiment.close(np.array(actual), stated, tolerance(2),
                         "warmup / training steps, base and big")
        experiment.holds(bool(np.all((stated >= 0.01) & (stated <= 0.05))),
                         "both shares lie in 1%–5%", f"{np.round(stated, 4).tolist()}")
