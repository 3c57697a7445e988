"""Section 2: softmax as a Boltzmann distribution, and the role of temperature."""

import math

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.parameters import evaluate
from tmath.engine.plots import Plot
from tmath.reference import definitions, illustrations
from tmath.engine.rules import FACTOR_OUT, SPLIT_SUM
from tmath.engine.rules_dummies import rename_index
from tmath.latex.operators import Softmax, SumOver
from tmath.reference.boltzmann import (boltzmann_weights, log_odds_distribution, metropolis_states,
                                       resolvable_attention, spread_energies, temperature_resolution)
from tmath.reference.nn import (entropy_slope_complex_step, gumbel_max_samples, scores_with_gap,
                                softmax)
from tmath.reference.softmax_limits import LEAD, ByLeads
from ._bibliography import HINTON2015, LANDAU_LIFSHITZ1980, VASWANI2017

VASWANI = VASWANI2017
BOLTZMANN = LANDAU_LIFSHITZ1980.at(
    "§28 (the Boltzmann distribution)",
    unverified="the section number was not checked against the book (no table of contents "
               "was read; the Boltzmann distribution may be in another section)")
HINTON = HINTON2015

e_j, e_l, s_j, s_l = sp.symbols("e_j e_l s_j s_l", real=True)
T, Z, Z_a = sp.symbols("T Z Z_a", positive=True)   # Z, Z_a: normalising sums, one per law
d_k, n = sp.symbols("d_k n", positive=True, integer=True)
SIZES = Integers(2, 64)
BOLTZMANN_ODDS = sp.log(sp.exp(-e_j / T) / Z) - sp.log(sp.exp(-e_l / T) / Z)
ATTENTION_ODDS = sp.log(sp.exp(s_j / sp.sqrt(d_k)) / Z_a) - sp.log(sp.exp(s_l / sp.sqrt(d_k)) / Z_a)
ENERGIES = Premise("Boltzmann weights P(j) ∝ exp(−e_j/T) with energies e_j = −s_j",
                   {e_j: -s_j, e_l: -s_l})
i_, z = sp.Symbol("i", integer=True, positive=True), sp.IndexedBase("z", real=True)
j_, l_ = sp.symbols("j l", integer=True)
e, P = sp.IndexedBase("e", real=True), sp.Function("P")   # e[j] is the energy e_j above


def _boltzmann(energy, temperature):
    """Entry i of the Boltzmann law exp(−energy_i/T)/Σ_j exp(−energy_j/T), j over all states."""
    return sp.exp(-energy(i_) / temperature) / SumOver(sp.exp(-energy(j_) / temperature), j_)


LAWS = Definition("P(i) is the Boltzmann law of energies e_i at temperature T, Z its normaliser; "
                  "softmax(z_i), entry i of softmax(z), is the same law at e = −z, T = 1",
                  {P(i_): _boltzmann(lambda at: e[at], T), Z: SumOver(sp.exp(-e[j_] / T), j_),
                   Softmax(z[i_]): _boltzmann(lambda at: -z[at], 1)})
QUERIES, KEYS, VALUES = sp.symbols("Q K V", commutative=False)   # matrices, one row per token
ATTENTION = definitions.attention(QUERIES, KEYS, VALUES, d_k)


@claim(
    id="softmax-boltzmann",
    title="A Boltzmann distribution is the softmax of −energy/T",
    section="2.1",
    statement=Statement("P(i) ∝ exp(−e_i/T) is softmax(x) with logits x_i = −e_i/T, which softmax "
                        "fixes up to a shared constant: log P(j) − log P(l) = x_j − x_l; with "
                        "e = −z and T = 1 this is softmax(z)", -(e_j - e_l) / T,
                        lhs=BOLTZMANN_ODDS),
    premises=("P(i) = exp(−e_i/T) / Z with Z = Σ_j exp(−e_j/T), energies e_i, temperature T > 0",),
    foils=(Foil("the logits are −e_i·T (temperature multiplies)", -(e_j - e_l) * T),
           Foil("the logits are +e_i/T (sign lost)", (e_j - e_l) / T),
           Foil("−(e_j + e_l)/T: not antisymmetric, yet the same law against one fixed l",
                -(e_j + e_l) / T)),
    sources=(BOLTZMANN, VASWANI),
    tags=("softmax", "temperature"),
    definitions=(LAWS,),
    formulas=(r"P(i) = \frac{\exp(-e_i / T)}{\sum_j \exp(-e_j / T)}",
              r"\text{softmax}(z_i) = \frac{\exp(z_i)}{\sum_j \exp(z_j)}"),
    statistical_tests=3,
)
class SoftmaxBoltzmann:
    """softmax(x) is the distribution whose log-odds are x_j − x_l, and two distributions with
    the same log-odds are the same; for the Boltzmann law they are −(e_j − e_l)/T, Z cancels."""

    def prove(self, value, proof):
        odds = proof.chain(BOLTZMANN_ODDS, "log P(j) − log P(l)").evaluate(
            "log of a quotient, log exp x = x", method="expand_log")
        proof.conclude(value, odds)

    def check(self, value, experiment):
        for point in experiment.draw({T: Reals(0.25, 4.0, log=True), "n": Integers(2, 5)}, count=3):
            t, energies = point[T], spread_energies(experiment.rng, point["n"], point[T])
            odds = np.array([[evaluate(value, {e_j: a, e_l: b, T: t}) for b in energies]
                             for a in energies])
            log_p = np.log(boltzmann_weights(energies, t))  # n + 4 roundings, |log P| ≤ 5 + log n
            experiment.close(odds, log_p[:, None] - log_p[None, :], tolerance(point["n"] + 4, 8.0),
                             "stated log-odds vs those of the Boltzmann law", at=point)
            # chains mixed to 10⁻⁶ in total variation, 10³ times below what the test resolves
            experiment.frequencies(lambda rng, m: metropolis_states(rng, energies, t, m, 1e-6),
                                   log_odds_distribution(odds[:, 0]),
                                   "Metropolis states vs softmax of the stated logits",
                                   min_effect=temperature_resolution(energies, t), at=point)


@claim(
    id="attention-temperature",
    title="Dividing scores by √d_k is softmax at temperature T = √d_k",
    section="2.1",
    statement=Statement("softmax(qᵀk_j/√d_k) is the Boltzmann distribution with energies "
                        "−qᵀk_j at temperature T = √d_k", sp.sqrt(d_k), lhs=T),
    premises=("attention weights a_j = exp(s_j/√d_k)/Σ_l exp(s_l/√d_k), scores s_j = qᵀk_j",
              ENERGIES),
    foils=(Foil("the temperature is d_k", d_k), Foil("the temperature is 1/√d_k", 1 / sp.sqrt(d_k)),
           Foil("the temperature is d_k/4 (equal at d_k = 16 only)", d_k / 4)),
    sources=(VASWANI,),
    tags=("softmax", "temperature", "attention"),
    definitions=(ATTENTION,),
    formulas=(r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right) V",),
    statistical_tests=3,
)
class AttentionTemperature:
    """The two laws agree when all their log-odds do: (s_j − s_l)/√d_k = (s_j − s_l)/T, whose
    only positive root is T = √d_k. The scale 1/√d_k plays exactly the role of 1/T."""

    def prove(self, value, proof):
        gap = (proof.chain(ATTENTION_ODDS - BOLTZMANN_ODDS, "log-odds of attention − those of "
                                                            "Boltzmann")
               .substitute({e_j: -s_j, e_l: -s_l}, premise=ENERGIES)
               .evaluate("log of a quotient, log exp x = x", method="expand_log"))
        proof.conclude(value, proof.root(gap, T, T, "T"))

    def check(self, value, experiment):
        for point in experiment.draw({d_k: Integers(1, 1024), "keys": Integers(2, 8)}, count=3):
            d, keys, t = point[d_k], point["keys"], point.value(value)
            q, k, weights, resolution = resolvable_attention(experiment.rng, d, keys)
            scores = k @ q
            boltzmann = boltzmann_weights(-scores, t) if t > 0 else np.full(keys, np.nan)
            # both sides: a scaled exponent (2 roundings, relative), exp, a sum over the keys
            experiment.close(boltzmann, weights, tolerance(keys + 6, 1 + np.abs(scores).max()
                                                           / math.sqrt(d)),
                             "Boltzmann weights at the stated T vs attention weights", at=point)
            experiment.frequencies(lambda rng, m: gumbel_max_samples(rng, scores / d**0.5, m),
                                   boltzmann, "keys drawn by attention vs Boltzmann at the "
                                   "stated T", min_effect=resolution, at=point)


SCORES = np.array([2.0, 1.0, 0.5])
LEADS = ByLeads(lambda l: sp.exp(-LEAD[l] / T), n)     # entry 1 holds the maximum, g_l its lead
_LIMITS = ((LEADS.top, 0, "p_max, T → 0⁺"), (LEADS.entry(j_), 0, "p_j, T → 0⁺"),
           (LEADS.top, sp.oo, "p_max, T → ∞"), (LEADS.entry(j_), sp.oo, "p_j, T → ∞"))


@claim(
    id="softmax-temperature",
    title="Temperature T → 0 gives argmax, T → ∞ gives the uniform distribution",
    section="2.2",
    statement=Statement("for z with a unique maximum, softmax(z/T) → one-hot(argmax z) as "
                        "T → 0⁺ and → uniform 1/n as T → ∞",
                        (sp.Integer(1), sp.Integer(0), 1 / n, 1 / n),
                        lhs=tuple(sp.Limit(LEADS.plain(body), T, at, "+" if at == 0 else "-")
                                  for body, at, _ in _LIMITS)),
    premises=("z ∈ ℝⁿ has a unique largest entry, ahead of entry j by a gap g_j > 0",
              "p_j = exp(−g_j/T)/(1 + Σ_{l≥2} exp(−g_l/T)), dividing through by the largest term"),
    foils=(Foil("T → 0 gives the uniform distribution and T → ∞ the argmax",
                (1 / n, 1 / n, sp.Integer(1), sp.Integer(0))),
           Foil("T → ∞ gives 1/(n − 1) to every entry", (1, 0, 1 / (n - 1), 1 / (n - 1)))),
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
        proof.conclude(value, *(LEADS.limit(proof, body, T, at, label)
                                for body, at, label in _LIMITS))

    def check(self, value, experiment):
        for point in experiment.draw({n: SIZES, "gap": Reals(0.01, 5.0, log=True)}, count=3):
            z, (top, other, flat_top, flat_other) = scores_with_gap(
                experiment.rng, point[n], point["gap"]), point.value(value)
            # at T = gap/60 the others weigh ≤ e^−60 ≈ 1e-26; at T = 1e18·spread every z/T is
            # below 1e-18, so exp(z/T) rounds to 1: both limits are reached to rounding
            got = np.r_[softmax(z / (point["gap"] / 60)), softmax(z / (1e18 * np.ptp(z)))]
            want = np.r_[top, np.full(z.size - 1, other), flat_top, np.full(z.size - 1, flat_other)]
            experiment.close(got, want, tolerance(2 * 64 + 8), "softmax(z/T) at extreme T vs "
                             "stated limits", inputs="one z", at=point)

    def plot(self) -> Plot:
        return illustrations.temperatures(SCORES)


V = sp.Symbol("Var_p(z)", nonnegative=True)
_Z = sp.Sum(sp.exp(z[l_] / T), (l_, 1, n))
_P = sp.exp(z[i_] / T) / _Z
ENTROPY = -sp.Sum(_P * sp.log(_P), (i_, 1, n))
_MOMENT = {power: sp.Sum(z[l_] ** power * sp.exp(z[l_] / T), (l_, 1, n)) / _Z for power in (1, 2)}
VARIANCE = Premise("Var_p(z) = E_p[z²] − E_p[z]², with E_p[f] = Σ_i f(z_i)·exp(z_i/T)/Z",
                   {V: _MOMENT[2] - _MOMENT[1] ** 2})


@claim(
    id="entropy-temperature",
    title="The entropy of softmax(z/T) grows with temperature",
    section="2.2",
    statement=Statement("dH/dT = Var_p(z)/T³ ≥ 0 for p = softmax(z/T)", V / T**3,
                        lhs=sp.Derivative(ENTROPY, T)),
    premises=("p_i = exp(z_i/T)/Z with Z = Σ_l exp(z_l/T), T > 0, any n and real z",
              "H(p) = −Σ p_i log p_i", VARIANCE),
    foils=(Foil("dH/dT = −Var_p(z)/T³ (entropy falls as T rises)", -V / T**3),
           Foil("dH/dT = Var_p(z)/T²", V / T**2)),
    sources=(VASWANI, HINTON),
    tags=("softmax", "temperature", "entropy"),
)
class EntropyTemperature:
    """Heating spreads probability mass. With log p_i = z_i/T − log Z the entropy is
    log Z − E_p[z]/T; its derivative in T is the variance of the scores under p over T³,
    which is never negative. The derivation holds for every n."""

    def prove(self, value, proof):
        entropy = (proof.chain(ENTROPY, "H")
                   .equals(-sp.Sum(_P * (z[i_] / T - sp.log(_Z)), (i_, 1, n)),
                           "log p_i = z_i/T − log Z", method="expand_log")
                   .apply(SPLIT_SUM).apply(FACTOR_OUT).apply(rename_index(i_, l_)))
        slope = (proof.chain(sp.Derivative(ENTROPY, T), "dH/dT").substitute(from_chain=entropy)
                 .evaluate("differentiate", method="cancel"))
        proof.conclude(value, slope, using=VARIANCE, method="cancel")

    def check(self, value, experiment):
        domains = {"n": SIZES, T: Reals(0.05, 20.0, log=True), "spread of z/T": Reals(0.2, 4.0)}
        for point in experiment.draw(domains, count=3):
            size, t = point["n"], point[T]
            zs = t * point["spread of z/T"] * experiment.rng.standard_normal(size)
            p = softmax(zs / t)
            stated = evaluate(value, {V: float(p @ zs**2 - (p @ zs) ** 2), T: t})
            # ~4 operations per entry plus the sum; terms are bounded by (1 + |z|/T)·|z|/T²
            scale = size * (1 + np.abs(zs).max() / t) ** 2 / t**2
            experiment.close(entropy_slope_complex_step(zs, t), stated,
                             tolerance(4 * size + 8, scale), "complex-step dH/dT vs stated formula",
                             inputs="one random z", at=point)

    def plot(self) -> Plot:
        return illustrations.entropy_against_temperature()
