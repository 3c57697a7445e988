"""Section 2: softmax as a Boltzmann distribution, and the role of temperature."""

import dataclasses

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.boltzmann import metropolis_states
from tmath.engine.experiment import tolerance
from tmath.reference.nn import attention, entropy, softmax
from tmath.engine.plots import Plot, Series
from tmath.engine.proof import Rule

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need", arxiv="1706.03762")
BOLTZMANN = Source("Boltzmann distribution, statistical mechanics (e.g. Landau & Lifshitz, "
                   "Statistical Physics, §28)")
HINTON = Source("Hinton, Vinyals & Dean (2015), Distilling the Knowledge in a Neural Network",
                arxiv="1503.02531")

e_j, e_l, s_j, s_l = sp.symbols("e_j e_l s_j s_l", real=True)
T = sp.Symbol("T", positive=True)
Z = sp.Symbol("Z", positive=True)  # the normalising sum; the same for every state
d_k = sp.Symbol("d_k", positive=True, integer=True)
# A probability vector with full support is determined by its log-ratios, and softmax(x) has
# log-ratios x_j − x_l; so matching log-ratios identifies the logits (up to a shared constant).
LOGITS_FROM_RATIOS = Rule("softmax(x) is the distribution whose log-ratios are x_j − x_l",
                          lambda expr: expr)


BOLTZMANN_TEMPERATURES = (0.5, 2.0)   # temperatures of the Metropolis runs in SoftmaxBoltzmann


def _log_ratio(weight_j, weight_l):
    return sp.log(weight_j / Z) - sp.log(weight_l / Z)


@claim(
    id="softmax-boltzmann",
    title="A Boltzmann distribution is the softmax of −energy/T",
    section="2.1",
    statement=Statement("P(i) ∝ exp(−e_i/T) equals softmax(x) with logits x_i = −e_i/T; "
                        "with e = −z and T = 1 this is softmax(z)", -e_j / T,
                        lhs=sp.Symbol("x_j")),
    premises=("P(i) = exp(−e_i/T) / Σ_j exp(−e_j/T) for energies e_i and temperature T > 0",),
    foils=(Foil("the logits are −e_i·T (temperature multiplies)", -e_j * T),
           Foil("the logits are +e_i/T (sign lost)", e_j / T)),
    sources=(BOLTZMANN, VASWANI),
    tags=("softmax", "temperature"),
    formulas=(r"P(i) = \frac{\exp(-e_i / T)}{\sum_j \exp(-e_j / T)}",
              r"\text{softmax}(z_i) = \frac{\exp(z_i)}{\sum_j \exp(z_j)}"),
    statistical_tests=2,
)
class SoftmaxBoltzmann:
    """Two distributions of the same family agree when their log-probability differences do;
    for the Boltzmann law those differences are −(e_j − e_l)/T."""

    def prove(self, logit, proof):
        derived = (proof.chain(_log_ratio(sp.exp(-e_j / T), sp.exp(-e_l / T)),
                               "log P(j) − log P(l)")
                   .equals(-(e_j - e_l) / T, "log of a quotient", method="expand_log"))
        stated = logit - logit.subs(e_j, e_l)
        proof.conclude(stated, derived.apply(LOGITS_FROM_RATIOS))

    def check(self, logit, experiment):
        to_logits = sp.lambdify((e_j, T), logit, "numpy")
        energies = experiment.rng.normal(0, 2.0, size=5)
        for temperature in BOLTZMANN_TEMPERATURES:
            predicted = softmax(to_logits(energies, temperature) * np.ones(5))
            experiment.frequencies(
                lambda rng, m: metropolis_states(rng, energies, temperature, m), predicted,
                f"Metropolis at T={temperature} vs softmax of the stated logits",
                min_effect=0.015)


@claim(
    id="attention-temperature",
    title="Dividing scores by √d_k is softmax at temperature T = √d_k",
    section="2.1",
    statement=Statement("softmax(qᵀk_j/√d_k) is the Boltzmann distribution with energies "
                        "−qᵀk_j at temperature T = √d_k", sp.sqrt(d_k), lhs=T),
    premises=("attention weights a_j = exp(s_j/√d_k)/Σ_l exp(s_l/√d_k), scores s_j = qᵀk_j",
              "Boltzmann weights P(j) ∝ exp(−e_j/T) with e_j = −s_j"),
    foils=(Foil("the temperature is d_k", d_k), Foil("the temperature is 1/√d_k", 1 / sp.sqrt(d_k))),
    depends_on=("softmax-boltzmann",),
    sources=(VASWANI,),
    tags=("softmax", "temperature", "attention"),
    formulas=(r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right) V",),
    statistical_tests=1,
)
class AttentionTemperature:
    """The scale 1/√d_k plays exactly the role of 1/T: attention is a Boltzmann
    distribution over keys whose energy is minus the score."""

    def prove(self, temperature, proof):
        attention_ratio = (proof.chain(_log_ratio(sp.exp(s_j / sp.sqrt(d_k)),
                                                  sp.exp(s_l / sp.sqrt(d_k))),
                                       "log a_j − log a_l")
                           .equals((s_j - s_l) / sp.sqrt(d_k), "log of a quotient",
                                   method="expand_log"))
        boltzmann = (-e_j / T - (-e_l / T)).subs({e_j: -s_j, e_l: -s_l, T: temperature})
        proof.conclude(boltzmann, attention_ratio)

    def check(self, temperature, experiment):
        d, keys = 16, 6
        q = experiment.rng.standard_normal(d)
        k = experiment.rng.standard_normal((keys, d))
        weights = attention(q[None, :], k, np.eye(keys))[0]  # V = I returns the weights
        t = float(temperature.subs(d_k, d))
        experiment.frequencies(lambda rng, m: metropolis_states(rng, -(k @ q), t, m), weights,
                               f"Metropolis on energies −qᵀk at T={t:.3g} vs attention weights",
                               min_effect=0.015)


SCORES = np.array([2.0, 1.0, 0.5])
n = sp.Symbol("n", integer=True, positive=True)
g, j_, l_ = sp.IndexedBase("g"), sp.Symbol("j", integer=True), sp.Symbol("l", integer=True)
_DENOM = 1 + sp.Sum(sp.exp(-g[l_] / T), (l_, 2, n))  # entry 1 holds the maximum
_TOP, _OTHER = 1 / _DENOM, sp.exp(-g[j_] / T) / _DENOM
_LIMIT_CONTINUITY = ("each exp(−g_l/T) tends to the limit above; the quotient is continuous "
                     "there (denominator ≥ 1)")


@claim(
    id="softmax-temperature",
    title="Temperature T → 0 gives argmax, T → ∞ gives the uniform distribution",
    section="2.2",
    statement=Statement("for z with a unique maximum, softmax(z/T) → one-hot(argmax z) as "
                        "T → 0⁺ and → uniform 1/n as T → ∞",
                        (sp.Integer(1), sp.Integer(0), 1 / n, 1 / n)),
    premises=("z ∈ ℝⁿ has a unique largest entry, ahead of entry j by a gap g_j > 0",),
    foils=(Foil("T → 0 gives the uniform distribution and T → ∞ the argmax",
                (1 / n, 1 / n, sp.Integer(1), sp.Integer(0))),),
    sources=(VASWANI, HINTON),
    tags=("softmax", "temperature"),
    # Each anchor is the text printed just before its number: the scaled scores follow
    # "softmax(score/T) = softmax(", the probabilities follow the softmax of those scores.
    figures=tuple(
        Figure(f"softmax([2.0, 1.0, 0.5] / {t})", printed, near=f"softmax({scaled})",
               compute=lambda t=t: softmax(SCORES / t))
        for t, scaled, printed in ((0.5, "[4.0, 2.0, 1.0]", "[0.84, 0.11, 0.04]"),
                                   (1.0, "[2.0, 1.0, 0.5]", "[0.63, 0.23, 0.14]"),
                                   (5.0, "[0.4, 0.2, 0.1]", "[0.39, 0.32, 0.29]"))
    ) + tuple(
        Figure(f"[2.0, 1.0, 0.5] / {t}", printed, near=f"softmax(score/{t}) =",
               compute=lambda t=t: SCORES / t)
        for t, printed in ((0.5, "[4.0, 2.0, 1.0]"), (5.0, "[0.4, 0.2, 0.1]"))
    ),
)
class SoftmaxTemperature:
    """Relative to the maximum, entry j carries weight exp(−g_j/T): it vanishes as T → 0
    and tends to 1 as T → ∞, so the distribution collapses to argmax or flattens out."""

    def prove(self, value, proof):
        cold = {sp.exp(-g[l_] / T): 0, sp.exp(-g[j_] / T): 0}
        hot = {sp.exp(-g[l_] / T): 1, sp.exp(-g[j_] / T): 1}
        gap = sp.Symbol("g_j", positive=True)
        proof.chain(sp.exp(-gap / T), "exp(−g_j/T), T → 0⁺").limit(T, 0, "+")
        proof.chain(sp.exp(-gap / T), "exp(−g_j/T), T → ∞").limit(T, sp.oo)
        chains = [proof.chain(p, f"{name}, T → {where}")
                  .substitute(limits, premise=_LIMIT_CONTINUITY).evaluate("sum")
                  for limits, where in ((cold, "0⁺"), (hot, "∞"))
                  for p, name in ((_TOP, "p_max"), (_OTHER, "p_j"))]
        proof.conclude(value, chains[0], chains[1], chains[2], chains[3])

    def check(self, value, experiment):
        limits = [sp.lambdify(n, v, "numpy") for v in value]
        worst, colder_is_sharper = 0.0, True
        for _ in range(200):
            size = int(experiment.rng.integers(2, 9))
            z = experiment.rng.normal(0, 2, size=size)
            gap = np.sort(z)[-1] - np.sort(z)[-2]
            top = int(np.argmax(z))
            for temperature, first in ((gap / 60, 0), (1e18 * np.ptp(z), 2)):
                # at gap/60 the other entries weigh ≤ e^−60 ≈ 1e-26; at 1e18·spread every
                # z/T is below 1e-18, so exp(z/T) rounds to 1: both limits are reached to rounding
                target = np.full(size, float(limits[first + 1](size)))
                target[top] = float(limits[first](size))
                worst = max(worst, float(np.abs(softmax(z / temperature) - target).max()))
            ladder = [softmax(z / t)[top] for t in np.geomspace(10, gap / 60, 10)]
            colder_is_sharper &= bool(np.all(np.diff(ladder) >= 0))
        experiment.close(worst, 0.0, tolerance(2 * 8 + 8), "softmax(z/T) at extreme T vs limits",
                         inputs="200 random z, n = 2..8")
        experiment.holds(colder_is_sharper, "the top weight grows as T falls",
                         "on every sampled z")

    def plot(self) -> Plot:
        # drawn as step outlines: token j's weight is the flat top over [j − ½, j + ½]
        edges = np.repeat(np.arange(SCORES.size + 1) + 0.5, 2)[1:-1]
        curves = {f"T = {t}": (edges, np.repeat(softmax(SCORES / t), 2)) for t in (0.5, 1.0, 5.0)}
        uniform = Series("uniform 1/3, the limit T → ∞", (0.5, SCORES.size + 0.5), (1 / 3, 1 / 3),
                         "dashed")
        picture = Plot.curves("softmax([2.0, 1.0, 0.5] / T): colder is sharper, hotter is flatter",
                              curves, xlabel="token j (scores 2.0, 1.0, 0.5)", ylabel="weight p_j")
        return dataclasses.replace(picture, series=picture.series + (uniform,))


V = sp.Symbol("Var_p(z)", nonnegative=True)
ENTROPY_CASES = (2, 3)


@claim(
    id="entropy-temperature",
    title="The entropy of softmax(z/T) grows with temperature",
    section="2.2",
    statement=Statement("dH/dT = Var_p(z)/T³ ≥ 0 for p = softmax(z/T)", V / T**3,
                        lhs=sp.Symbol("dH/dT")),
    premises=("p = softmax(z/T), T > 0", "H(p) = −Σ p_i log p_i"),
    foils=(Foil("dH/dT = −Var_p(z)/T³ (entropy falls as T rises)", -V / T**3),
           Foil("dH/dT = Var_p(z)/T²", V / T**2)),
    depends_on=("softmax-temperature",),
    sources=(VASWANI, HINTON),
    tags=("softmax", "temperature", "entropy"),
)
class EntropyTemperature:
    """Heating spreads probability mass: the entropy's slope in T is the variance of the
    scores under p, divided by T³, which is never negative."""

    def prove(self, value, proof):
        proof.for_cases("n = " + ", ".join(map(str, ENTROPY_CASES)) + " entries, any real z")
        for size in ENTROPY_CASES:
            z = sp.symbols(f"z_1:{size + 1}", real=True)
            weights = [sp.exp(zi / T) for zi in z]
            p = [w / sum(weights) for w in weights]
            entropy_t = -sum(pi * (zi / T - sp.log(sum(weights))) for pi, zi in zip(p, z))
            slope = (proof.chain(sp.Derivative(entropy_t, T), f"dH/dT (n={size})")
                     .evaluate("differentiate"))
            variance = sum(pi * zi**2 for pi, zi in zip(p, z)) - sum(pi * zi for pi, zi in zip(p, z))**2
            proof.conclude(value.subs(V, variance), slope)

    def check(self, value, experiment):
        stated = sp.lambdify((V, T), value, "numpy")
        worst, tol, rising = 0.0, 0.0, True
        for _ in range(200):
            size = int(experiment.rng.integers(2, 9))
            z = experiment.rng.normal(0, 2, size=size)
            t = float(experiment.rng.uniform(0.2, 5))
            h = 1e-30
            zc = z / (t + 1j * h)
            pc = np.exp(zc - z.max() / t) / np.exp(zc - z.max() / t).sum()
            slope = float((-(pc * np.log(pc)).sum()).imag / h)  # complex step: no cancellation
            p = softmax(z / t)
            var = float(p @ z**2 - (p @ z) ** 2)
            worst = max(worst, abs(slope - stated(var, t)))
            # ~4 operations per entry plus the sum; terms are bounded by (1 + |z|/T)·|z|/T²
            tol = max(tol, tolerance(4 * size + 8, size * (1 + np.abs(z).max() / t) ** 2 / t**2))
            grid = [entropy(softmax(z / s)) for s in np.geomspace(0.2, 5, 12)]
            rising &= bool(np.all(np.diff(grid) >= -tolerance(4 * size, np.log(size))))
        experiment.close(worst, 0.0, tol, "complex-step dH/dT vs stated formula",
                         inputs="200 random (z, T)")
        experiment.holds(rising, "H(softmax(z/T)) never decreases along a T grid",
                         "on every sampled z")

    def plot(self) -> Plot:
        temperatures = np.geomspace(0.01, 100, 200)
        curves = {}
        for name, z in (("[2, 1, 0.5]", [2.0, 1.0, 0.5]), ("[3, 0, 0, 0, 0]", [3.0, 0, 0, 0, 0]),
                        ("[1, 0.8, …, −2]", [1.0, 0.8, 0.5, 0.2, 0.0, -0.5, -1.0, -2.0])):
            curves[f"z = {name}: n = {len(z)}, log n = {np.log(len(z)):.2f}"] = (
                np.log10(temperatures), [entropy(softmax(np.array(z) / t)) for t in temperatures])
        return Plot.curves("Entropy of softmax(z/T) rises from 0 towards log n", curves,
                           xlabel="log₁₀ T", ylabel="H (nats)")
