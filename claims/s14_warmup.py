"""Section 14: the warmup schedule of the original Transformer, and Adam's early steps."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED
from tmath.engine.experiment import tolerance
from tmath.engine.moments import E, Moments, Var
from tmath.reference.optim import (ABSORB_LAST_TERM, ADAM_DEFAULTS, GEOMETRIC_BRANCH, VASWANI_2017,
                         adam_moments, ema_closed_form, noam_lr)
from tmath.engine.plots import Plot, Series
from tmath.engine.proof import Rule

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §5.2–5.3", arxiv="1706.03762")
KINGMA_BA = Source("Kingma & Ba (2015), Adam: A Method for Stochastic Optimization, "
                   "Algorithm 1 and §3", arxiv="1412.6980")
# The notes credit arXiv:2406.09405 to "Ma & Yarats (2024)"; its authors are Kalra & Barkeshli.
KALRA_BARKESHLI = Source("Kalra & Barkeshli (2024), Why Warmup the Learning Rate? Underlying "
                         "Mechanisms and Improvements", arxiv="2406.09405")

s, w, d = sp.symbols("step w d_model", positive=True)
t, i = sp.symbols("t i", positive=True, integer=True)
b1, b2, beta = sp.symbols("beta_1 beta_2 beta", positive=True)
g, mu = sp.IndexedBase("g", real=True), sp.Symbol("mu", real=True)
m2, sigma = sp.Symbol("E[g²]", positive=True), sp.Symbol("sigma", positive=True)
LINEAR = d ** sp.Rational(-1, 2) * s * w ** sp.Rational(-3, 2)
DECAY = d ** sp.Rational(-1, 2) * s ** sp.Rational(-1, 2)
GRADIENTS = (("centred exponential", 1.0, 1.0), ("uniform", -0.5, 2.0))  # (shape, μ, σ)
NOAM_CASES = ((512, 4000), (64, 100), (1024, 7))  # (d_model, warmup) checked below


@claim(
    id="noam-schedule-shape",
    title="The warmup schedule rises linearly to step w, then decays as 1/√step; peak (d·w)^−½",
    section="14.1",
    statement=Statement("lr = d^−½·min(step^−½, step·w^−3/2) is d^−½·step·w^−3/2 below w, "
                        "d^−½·step^−½ above; both meet at step = w, the peak, with lr = (d·w)^−½",
                        (w, 1 / sp.sqrt(d * w)), lhs=(sp.Symbol("peak step"),
                                                      sp.Symbol("peak lr"))),
    premises=("lr(step) = d_model^−0.5 · min(step^−0.5, step · w^−1.5), step ≥ 1, w ≥ 1",),
    foils=(Foil("the peak lr is d^−½·w^−3/2",
                (w, d ** sp.Rational(-1, 2) * w ** sp.Rational(-3, 2))),
           Foil("the peak lr is 1/(d·w)", (w, 1 / (d * w)))),
    sources=(VASWANI,),
    tags=("optimisation", "schedule"),
    figures=(Figure("warmup steps of the original Transformer", "4000",
                    near="原始 Transformer 用 warmup_steps =", compute=lambda: VASWANI_2017["warmup_steps"]),
             Figure("warmup steps of the original Transformer (parameter list)", "4000",
                    near="原始 Transformer 用", compute=lambda: VASWANI_2017["warmup_steps"])),
    formulas=(r"lr = d_{model}^{-0.5} \cdot \min(step^{-0.5}, \; "
              r"step \cdot warmup\_steps^{-1.5})",),
)
class NoamScheduleShape:
    """The ratio of the two branches is (step/w)^{3/2}: below 1 before w, above after, so the
    min switches from the rising to the falling branch exactly at w."""

    def prove(self, value, proof):
        proof.holds(sp.diff(LINEAR, s) > 0, "the linear branch rises")
        proof.holds(sp.diff(DECAY, s) < 0, "the 1/√step branch falls")
        proof.holds(sp.diff((s / w) ** sp.Rational(3, 2), s) > 0,
                    "the ratio (step/w)^{3/2} increases: min is the linear branch before the "
                    "crossing, the decaying one after")
        cross = (proof.chain(LINEAR / DECAY, "linear / decaying branch")
                 .equals((s / w) ** sp.Rational(3, 2), "powers combine", method="powsimp")
                 .apply(Rule("the branches cross where the ratio is 1: solve for step",
                             lambda e: sp.solve(e - 1, s)[0])))
        peak = (proof.chain(LINEAR.subs(s, cross.value), "lr at the crossing")
                .equals(1 / sp.sqrt(d * w), "powers combine", method="powsimp"))
        proof.conclude(value, cross, peak)

    def check(self, value, experiment):
        at = sp.lambdify((d, w), value, "numpy")
        for dm, warm in NOAM_CASES:
            steps = np.arange(1, 3 * warm + 1)
            lr = noam_lr(steps, dm, warm)
            peak_step, peak_lr = at(dm, warm)
            experiment.holds(bool(steps[np.argmax(lr)] == peak_step),
                             f"argmax step = stated, d={dm}, w={warm}",
                             f"argmax at {steps[np.argmax(lr)]}, stated {peak_step}")
            experiment.close(lr.max(), peak_lr, tolerance(6, lr.max()),
                             f"max lr = stated, d={dm}, w={warm}")
            rise, fall = lr[:warm] / steps[:warm], lr[warm:] * np.sqrt(steps[warm:])
            experiment.holds(bool(np.ptp(rise) <= tolerance(8, rise.max())
                                  and np.ptp(fall) <= tolerance(8, fall.max())),
                             f"lr ∝ step up to w, ∝ 1/√step after, d={dm}, w={warm}")

    def plot(self):
        # Deterministic (no randomness): the base model's d_model = 512 and warmup = 4000.
        dm, warm = VASWANI_2017["d_model_base"], VASWANI_2017["warmup_steps"]
        steps = np.linspace(1, 5 * warm, 500)
        up, down = steps[steps <= 1.6 * warm], steps[steps >= 0.5 * warm]
        peak = noam_lr(warm, dm, warm)
        return Plot(f"Warmup schedule, d_model = {dm}, warmup w = {warm}", (
            Series("lr = d^−½·min(step^−½, step·w^−3/2)", tuple(steps),
                   tuple(noam_lr(steps, dm, warm))),
            Series("rising branch d^−½·step·w^−3/2", tuple(up),
                   tuple(dm**-0.5 * up * warm**-1.5), "dashed"),
            Series("falling branch d^−½·step^−½", tuple(down), tuple(dm**-0.5 * down**-0.5),
                   "dashed"),
            Series(f"step = w: peak lr = (d·w)^−½ = {peak:.2e}", (warm, warm), (0.0, peak),
                   "dashed")), xlabel="training step", ylabel="learning rate")


def _gradients(name, mean, sd, steps):
    """i.i.d. gradients g_1..g_t with the given mean and standard deviation: shape (t, m)."""
    law = STANDARDIZED[name]
    return lambda rng, m: mean + sd * law(rng, (steps, m))


VAR_CASES = ((1, "Rademacher"), (4, "centred exponential"), (30, "Gaussian"))  # (t, law)
MOMENT_PREMISES = ("m_t = β1 m_{t−1} + (1−β1) g_t, v_t = β2 v_{t−1} + (1−β2) g_t², "
                   "m_0 = v_0 = 0", "g_1, g_2, … share E[g] = μ and E[g²]; 0 < β1, β2 < 1")


x = sp.IndexedBase("x", real=True)
EMA_CASES = ((0.9, 1), (0.9, 12), (0.999, 40), (0.3, 7))  # (β, t) checked below
m_t, v_t = sp.symbols("m_t v_t", real=True)


@claim(
    id="adam-ema-unrolled",
    title="An EMA started at 0 is a weighted sum of the inputs with weights (1−β)β^(t−i)",
    section="14.2",
    statement=Statement("m_t = Σ_{i=1}^{t} (1−β)·β^{t−i}·x_i solves m_t = β m_{t−1} + (1−β) x_t, "
                        "m_0 = 0", (1 - beta) * beta ** (t - i), lhs=sp.Symbol("weight of x_i")),
    premises=("m_t = β m_{t−1} + (1−β) x_t for t ≥ 1, m_0 = 0",),
    foils=(Foil("the weights are β^{t−i} (no 1 − β)", beta ** (t - i)),
           Foil("the weights are (1−β)β^{t−i+1}", (1 - beta) * beta ** (t - i + 1))),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam"),
)
class AdamEmaUnrolled:
    """Induction on t: the empty sum is m_0 = 0, and β times the sum up to t−1 plus the new
    term (1−β)x_t is the sum up to t."""

    def prove(self, weight, proof):
        closed = lambda upto: sp.Sum(weight.subs(t, upto) * x[i], (i, 1, upto))  # noqa: E731
        proof.fact(closed(0), 0, "the empty sum is m_0 = 0", method="doit")
        step = (proof.chain(beta * closed(t - 1) + (1 - beta) * x[t], "β·m_{t−1} + (1−β)·x_t")
                .equals(sp.Sum(sp.expand(beta * weight.subs(t, t - 1)) * x[i], (i, 1, t - 1))
                        + (1 - beta) * x[t], "β moves inside the sum")
                .apply(ABSORB_LAST_TERM))
        proof.conclude(closed(t), step)

    def check(self, weight, experiment):
        weights = sp.lambdify((beta, t, i), weight, "numpy")
        for b, steps in EMA_CASES:
            grads = experiment.rng.standard_normal((steps, 1000))
            m, _ = adam_moments(grads, b, b)
            idx = np.arange(1, steps + 1)[:, None]
            # t multiply-adds on each side plus the power, on values of size ≤ max |g|
            experiment.close(m, (weights(b, steps, idx) * grads).sum(0),
                             tolerance(3 * steps + 3, np.abs(grads).max()),
                             f"recursion vs weighted sum, β={b}, t={steps}")


@claim(
    id="adam-moment-bias",
    title="Started at 0, Adam's moments are biased by 1 − β^t: E[m_t] = (1 − β1^t)·E[g]",
    section="14.2",
    statement=Statement("E[m_t] = (1 − β1^t)·E[g] and E[v_t] = (1 − β2^t)·E[g²]",
                        (1 - b1**t, 1 - b2**t), lhs=(E(sp.Symbol("m_t")) / mu,
                                                     E(sp.Symbol("v_t")) / m2)),
    premises=MOMENT_PREMISES,
    foils=(Foil("E[m_t] = β1^t·E[g]", (b1**t, 1 - b2**t)),
           Foil("the moments are unbiased already", (sp.Integer(1), sp.Integer(1)))),
    depends_on=("adam-ema-unrolled",),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "bias"),
    figures=(Figure("Adam β1 (Kingma & Ba default)", "0.9", near=r"\beta_1=",
                    compute=lambda: ADAM_DEFAULTS["beta1"]),
             Figure("Adam β2 (Kingma & Ba default)", "0.999", near=r"\beta_2=",
                    compute=lambda: ADAM_DEFAULTS["beta2"])),
    formulas=(r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t",
              r"v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2"),
    statistical_tests=4,
)
class AdamMomentBias:
    """Unrolled, m_t weights the gradients by (1−β)β^{t−i}; those weights sum to 1 − β^t,
    not 1, because the missing mass sits on the initial value 0."""

    def prove(self, value, proof):
        rules = Moments(random=(g,))
        first = (proof.chain(E(m_t), "E[m_t]")
                 .substitute({m_t: ema_closed_form(b1, g[i], t, i)}, lemma="adam-ema-unrolled")
                 .apply(rules.linearity).substitute({E(g[i]): mu}, premise="E[g_i] = μ")
                 .evaluate("geometric series"))
        second = (proof.chain(E(v_t), "E[v_t]")
                  .substitute({v_t: ema_closed_form(b2, g[i] ** 2, t, i)},
                              lemma="adam-ema-unrolled")
                  .apply(rules.linearity).substitute({E(g[i] ** 2): m2}, premise="E[g_i²] = E[g²]")
                  .evaluate("geometric series"))
        proof.conclude((value[0] * mu, value[1] * m2), first, second)

    def check(self, value, experiment):
        factors = sp.lambdify((b1, b2, t), value, "numpy")
        beta1, beta2 = ADAM_DEFAULTS["beta1"], ADAM_DEFAULTS["beta2"]
        for steps, (name, mean, sd) in zip((1, 10), GRADIENTS):
            grads = _gradients(name, mean, sd, steps)
            f_m, f_v = factors(beta1, beta2, steps)
            experiment.mean(lambda rng, m: adam_moments(grads(rng, m), beta1, beta2)[0],
                            f_m * mean, f"E[m_t], t={steps}, {name} gradients")
            experiment.mean(lambda rng, m: adam_moments(grads(rng, m), beta1, beta2)[1],
                            f_v * (mean**2 + sd**2), f"E[v_t], t={steps}, {name} gradients")

    def plot(self):
        # Illustrative only, not part of the check: a fixed seed, Gaussian gradients with
        # E[g] = 1 and σ = 1, averaged over 2000 runs of Adam's first-moment recursion.
        rng, beta1, runs = np.random.default_rng(1412), ADAM_DEFAULTS["beta1"], 2000
        ts = np.arange(1, 51)
        m, raw, corrected = np.zeros(runs), [], []
        for step in ts:
            m = beta1 * m + (1 - beta1) * (1.0 + rng.standard_normal(runs))
            raw.append(m.mean())
            corrected.append(m.mean() / (1 - beta1**step))
        return Plot(f"Adam's first moment from m_0 = 0, β1 = {beta1}, E[g] = 1", (
            Series(f"mean of m_t over {runs} runs (no correction)", tuple(ts), tuple(raw)),
            Series(f"mean of m̂_t = m_t/(1 − β1^t) over {runs} runs", tuple(ts), tuple(corrected)),
            Series("statement: E[m_t] = (1 − β1^t)·E[g]", tuple(ts), tuple(1 - beta1**ts),
                   "dashed"),
            Series("E[g] = 1", (1.0, float(ts[-1])), (1.0, 1.0), "dashed")),
            xlabel="step t", ylabel="average first moment")


@claim(
    id="adam-bias-correction-unbiased",
    title="Dividing by 1 − β^t removes the bias: E[m̂_t] = E[g], E[v̂_t] = E[g²]",
    section="14.2",
    statement=Statement("m̂_t = m_t/c1 and v̂_t = v_t/c2 are unbiased for the divisors "
                        "c1 = 1 − β1^t, c2 = 1 − β2^t", (1 - b1**t, 1 - b2**t),
                        lhs=(sp.Symbol("c1"), sp.Symbol("c2"))),
    premises=MOMENT_PREMISES,
    foils=(Foil("no correction is needed (c = 1)", (sp.Integer(1), sp.Integer(1))),
           Foil("divide by β^t", (b1**t, b2**t))),
    depends_on=("adam-moment-bias",),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "bias"),
    statistical_tests=4,
)
class AdamBiasCorrectionUnbiased:
    """The bias is a constant factor, so dividing by that factor undoes it in expectation."""

    def prove(self, divisors, proof):
        rules = Moments(random=(m_t, v_t))
        first = (proof.chain(E(m_t / divisors[0]), "E[m_t / c1]").apply(rules.linearity)
                 .substitute({E(m_t): (1 - b1**t) * mu}, lemma="adam-moment-bias")
                 .equals(mu * (1 - b1**t) / divisors[0], "collect"))
        second = (proof.chain(E(v_t / divisors[1]), "E[v_t / c2]").apply(rules.linearity)
                  .substitute({E(v_t): (1 - b2**t) * m2}, lemma="adam-moment-bias")
                  .equals(m2 * (1 - b2**t) / divisors[1], "collect"))
        proof.conclude((mu, m2), first, second)

    def check(self, divisors, experiment):
        c = sp.lambdify((b1, b2, t), divisors, "numpy")
        beta1, beta2 = ADAM_DEFAULTS["beta1"], ADAM_DEFAULTS["beta2"]
        for steps, (name, mean, sd) in zip((2, 25), GRADIENTS[::-1]):
            grads = _gradients(name, mean, sd, steps)
            c1, c2 = c(beta1, beta2, steps)
            experiment.mean(lambda rng, m: adam_moments(grads(rng, m), beta1, beta2)[0] / c1,
                            mean, f"E[m̂_t] = E[g], t={steps}, {name} gradients")
            experiment.mean(lambda rng, m: adam_moments(grads(rng, m), beta1, beta2)[1] / c2,
                            mean**2 + sd**2, f"E[v̂_t] = E[g²], t={steps}, {name} gradients")


@claim(
    id="adam-corrected-mean-variance",
    title="Early bias-corrected means are noisy: Var(m̂_t) falls from σ² to σ²(1−β)/(1+β)",
    section="14.2",
    statement=Statement("for i.i.d. gradients with variance σ², Var(m̂_t) = σ²·(1−β)(1+β^t)/"
                        "((1+β)(1−β^t)): σ² at t = 1, → σ²(1−β)/(1+β) (σ²/19 for β = 0.9)",
                        (1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t)),
                        lhs=Var(sp.Symbol("m̂_t")) / sigma**2),
    premises=("m̂_t = m_t/(1 − β^t), m_t = β m_{t−1} + (1−β) g_t, m_0 = 0",
              "g_1, g_2, … independent with common variance σ²", "0 < β < 1"),
    foils=(Foil("Var(m̂_t) = σ²(1−β)/(1+β) at every t (no excess early noise)",
                (1 - beta) / (1 + beta)),
           Foil("Var(m̂_t) = σ²/t, as for a plain running average", 1 / t)),
    depends_on=("adam-ema-unrolled",),
    sources=(KINGMA_BA, KALRA_BARKESHLI),
    tags=("optimisation", "adam", "variance", "warmup"),
    statistical_tests=3,
)
class AdamCorrectedMeanVariance:
    """Var(m_t) = (1−β)²σ² Σβ^{2(t−i)}; dividing by (1 − β^t)² gives the stated factor. At
    t = 1 the estimate is one raw gradient; later it averages ≈ (1+β)/(1−β) of them."""

    def prove(self, factor, proof):
        rules = Moments(random=(g,))
        var = (proof.chain(Var(m_t / (1 - beta**t)), "Var(m̂_t)")
               .substitute({m_t: ema_closed_form(beta, g[i], t, i)}, lemma="adam-ema-unrolled")
               .apply(rules.variance_scaling).apply(rules.bienayme).apply(rules.variance_scaling)
               .substitute({Var(g[i]): sigma**2}, premise="Var(g_i) = σ²")
               .equals(sigma**2 * (1 - beta)**2 / (1 - beta**t)**2
                       * sp.Sum(beta ** (2 * t - 2 * i), (i, 1, t)), "constants leave the sum")
               .evaluate("geometric series in β²", method="factor").apply(GEOMETRIC_BRANCH))
        proof.fact(var.value.subs(t, 1), sigma**2, "t = 1: m̂_1 = g_1")
        proof.conclude(factor * sigma**2, var)

    def check(self, factor, experiment):
        f = sp.lambdify((beta, t), factor, "numpy")
        b = ADAM_DEFAULTS["beta1"]
        for steps, name in VAR_CASES:
            grads = _gradients(name, 0.5, 2.0, steps)
            experiment.variance(lambda rng, m: adam_moments(grads(rng, m), b, 0.999)[0]
                                / (1 - b**steps), 4.0 * f(b, steps),
                                f"Var(m̂_t), t={steps}, {name} gradients, σ=2")


g1 = sp.Symbol("g_1", real=True, nonzero=True)
SCALES = (1e-6, 1.0, 1e3)  # gradient sizes of the first step, checked below


@claim(
    id="adam-first-step-sign",
    title="Adam's first bias-corrected step is sign(g_1): full size whatever the gradient",
    section="14.2",
    statement=Statement("with ε = 0, m̂_1/√v̂_1 = sign(g_1) in every coordinate, so the first "
                        "update has magnitude lr however small or noisy g_1 is", sp.sign(g1),
                        lhs=sp.Symbol("m̂_1/√v̂_1")),
    premises=("m_1 = β1·0 + (1−β1) g_1, v_1 = β2·0 + (1−β2) g_1², m̂_1 = m_1/(1−β1), "
              "v̂_1 = v_1/(1−β2)", "g_1 ≠ 0"),
    foils=(Foil("without bias correction: m_1/√v_1 = (1−β1)/√(1−β2)·sign(g_1)",
                (1 - b1) / sp.sqrt(1 - b2) * sp.sign(g1)),
           Foil("the first step is proportional to g_1", g1)),
    depends_on=("adam-bias-correction-unbiased",),
    sources=(KINGMA_BA,),
    tags=("optimisation", "adam", "warmup"),
)
class AdamFirstStepSign:
    """At t = 1 both corrected moments are the raw gradient and its square, and g/√(g²)
    = g/|g|: the step ignores the gradient's scale, which is why early updates can be large."""

    def prove(self, value, proof):
        m1, v1 = b1 * 0 + (1 - b1) * g1, b2 * 0 + (1 - b2) * g1**2
        step = (proof.chain((m1 / (1 - b1)) / sp.sqrt(v1 / (1 - b2)), "m̂_1/√v̂_1")
                .equals(g1 / sp.Abs(g1), "√(g²) = |g|"))
        proof.conclude(value, step)

    def check(self, value, experiment):
        stated = sp.lambdify((g1, b1, b2), value, "numpy")
        for scale in SCALES:
            g = scale * experiment.rng.standard_normal((1, 5000))
            for beta1, beta2 in ((ADAM_DEFAULTS["beta1"], ADAM_DEFAULTS["beta2"]),
                                 (VASWANI_2017["beta1"], VASWANI_2017["beta2"])):
                m, v = adam_moments(g, beta1, beta2)
                step = (m / (1 - beta1)) / np.sqrt(v / (1 - beta2))
                experiment.close(step, stated(g[0], beta1, beta2) * np.ones(5000), tolerance(8),
                                 f"first corrected step, |g| ~ {scale:g}, β2={beta2}")


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
        experiment.close(np.array(actual), np.array([float(v) for v in shares]), tolerance(2),
                         "warmup / training steps, base and big")
        experiment.holds(all(0.01 <= float(v) <= 0.05 for v in shares),
                         "both shares lie in 1%–5%", f"{[round(float(v), 4) for v in shares]}")
