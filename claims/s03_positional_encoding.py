"""Section 3: sinusoidal positional encoding, and the relative-position schemes RoPE and ALiBi."""

import math

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.plots import Plot
from tmath.reference import illustrations
from tmath.reference.bounds import stronger_only
from tmath.reference.positional import (FREQUENCY_OPS, alibi_bias, alibi_slopes, angle_ops,
                                        first_return, frequencies, numeric, pe_pairs, rope,
                                        rotation, sinusoidal, turn_per_position)
from ._bibliography import KAZEMNEJAD, PRESS2022, SU2024, VASWANI2017

VASWANI = VASWANI2017.at("§3.5")
ROFORMER = SU2024.at("§3.4", unverified="the section number was not checked against the paper")
ALIBI = PRESS2022.at("§3", unverified="the section number was not checked against the paper")

pos, k = sp.symbols("pos k", integer=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
d = sp.Symbol("d_model", positive=True, integer=True, even=True)  # sin/cos pairs
w, tau = sp.Symbol("omega_i", positive=True), sp.Symbol("tau", positive=True)
PERIOD_OF = sp.Function("T")                           # T(i): the least period of pair i
ARG = pos / 10000 ** (2 * i / d)                       # the argument as printed in §3.1
at = sp.Symbol("p", real=True)                         # a position read as a real number
RATE = sp.Derivative(ARG.subs(pos, at), at)            # ω_i: angle gained per position
OMEGA = 10000 ** (-2 * i / d)
PERIOD = 2 * sp.pi * 10000 ** (2 * i / d)
PAIRS = "d_model/2"                                    # drawn as the number of pairs: d_model even
PE = sp.Function("PE")                                 # PE(pos, dimension)
SINUSOIDAL = Definition("the sinusoidal encoding: sin and cos of pos/10000^(2i/d_model) fill "
                        "dimensions 2i and 2i+1", {PE(pos, 2 * i): sp.sin(ARG),
                                                     PE(pos, 2 * i + 1): sp.cos(ARG)})


@claim(
    id="sinusoidal-frequency-period",
    title="Pair i turns at ω_i = 10000^(−2i/d_model) and first repeats after 2π/ω_i positions",
    section="3.2",
    statement=Statement("ω_i = 10000^(−2i/d_model); the (sin, cos) pair i has least period "
                        "T_i = 2π·10000^(2i/d_model)", (OMEGA, PERIOD), lhs=(RATE, PERIOD_OF(i))),
    premises=("PE(pos, 2i) = sin(pos/10000^(2i/d_model)), PE(pos, 2i+1) = cos of the same",
              "the least period of sin and cos is 2π"),
    foils=(Foil("T_i = 10000^(2i/d_model) (the factor 2π dropped)", (OMEGA, PERIOD / (2 * sp.pi))),
           Foil("frequency and period inverted: ω_i = 10000^(2i/d), T_i = 2π·10000^(−2i/d)",
                (1 / OMEGA, 2 * sp.pi * OMEGA)),
           Foil("T_i = 4π·10000^(2i/d_model): a period, but not the least", (OMEGA, 2 * PERIOD))),
    sources=(VASWANI,),
    tags=("positional-encoding", "frequency"),
    definitions=(SINUSOIDAL,),
    formulas=(r"PE(pos, 2i) = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
              r"PE(pos, 2i+1) = \cos\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
              r"\omega_i = 1 / 10000^{2i/d_{model}}"), notation={r"\omega_i": RATE},
    figures=(
        Figure("ω_0 at d_model = 512", "1", near="1/10000^0 =", compute=lambda: frequencies(512)[0]),
        Figure("period of pair 0", "≈ 6.28", near="= 2π",
               compute=lambda: 2 * math.pi / frequencies(512)[0]),
        Figure("exponent 2i/d_model at i = 128", "256/512", near="i=128: ω = 1/10000^(",
               compute=lambda: 2 * 128 / 512),
        Figure("ω_128 at d_model = 512", "1/100", near="10000^(256/512) =",
               compute=lambda: frequencies(512)[128]),
        Figure("period of pair 128", "≈ 628", near="= 1/100",
               compute=lambda: 2 * math.pi / frequencies(512)[128]),
        Figure("exponent 2i/d_model at i = 255", "510/512", near="i=255: ω = 1/10000^(",
               compute=lambda: 2 * 255 / 512),
        Figure("ω_255 at d_model = 512", "≈ 1/9770", near="10000^(510/512)",
               compute=lambda: frequencies(512)[255]),
        Figure("period of pair 255", "≈ 61400", near="1/9770",
               compute=lambda: 2 * math.pi / frequencies(512)[255]),
    ),
)
class SinusoidalFrequencyPeriod:
    """The angle of pair i grows by ω_i per position, so the pair is a point circling at rate
    ω_i; it is first back when the angle has grown by one full turn, τ·ω_i = 2π, after
    2π/ω_i positions: from 2π up to nearly 2π·10000."""

    def prove(self, value, proof):
        rate = proof.chain(ARG.subs(pos, at), "ω_i = d(argument)/d(pos)").differentiate(at)
        turn = (proof.chain(ARG.subs(pos, pos + tau) - ARG - 2 * sp.pi,
                            "angle gained over τ positions − one turn")
                .evaluate("algebra", method="expand"))
        proof.conclude(value, rate, proof.root(turn, tau, PERIOD_OF(i), "T_i"))

    def check(self, value, experiment):
        omega, period = value
        for point in experiment.draw({PAIRS: Integers(1, 2048), pos: Integers(0, 10**5)}, count=3):
            dm, p = 2 * point[PAIRS], point[pos]
            # two angles ≤ A = pos + 1 (ω_i's roundings and the product, scaled by A), sin/cos,
            # 2 products + a sum in each of the two atan2 arguments, atan2
            experiment.close(turn_per_position(p, dm), numeric(omega, {d: dm, i: np.arange(dm // 2)}),
                             tolerance(2 * angle_ops(1) + 5, p + 1.0),
                             "angle gained from pos to pos + 1 vs ω_i", inputs="all pairs", at=point)
            chosen = np.unique([0, dm // 2 - 1, int(experiment.rng.integers(0, dm // 2))])
            returns = np.array([first_return(f, 100_000.0) for f in frequencies(dm)[chosen]])
            # near the crossing the angles are ≤ 3π and carry ω_i's roundings + product, sin/cos,
            # atan2 (2), unwrap, difference; the crossing moves by (angle error)/ω_i, from two
            # neighbours → relative error ≤ γ_2n·3π/2π
            experiment.close(returns / numeric(period, {d: dm, i: chosen}), np.ones(chosen.size),
                             tolerance(2 * angle_ops(5) + 1, 1.5), "first return of pair i / T_i",
                             inputs="pairs 0, the last, one more", at=point)

    def plot(self) -> Plot:
        return illustrations.encoding_matrix(64)


SIN, COS = sp.sin(ARG), sp.cos(ARG)                  # PE(pos, 2i) and PE(pos, 2i+1)
NORM_SQUARED = sp.Sum(SIN**2 + COS**2, (i, 0, d / 2 - 1))
AREA = sp.Integral(sp.sin(at * w), (at, 0, 2 * sp.pi / w))  # PE(p, 2i) over one period T_i
RANGE_LHS = (NORM_SQUARED, SIN**2, COS**2, AREA)
GRID = 64                                            # points of the Riemann sum over a period


@claim(
    id="pe-values-bounded",
    title="Every sinusoidal encoding value lies in [−1, 1] and takes both signs",
    section="3.1",
    statement=Statement("‖PE(pos)‖² = d_model/2 (each pair is a point of the unit circle), so "
                        "PE(pos, 2i)² ≤ 1 and PE(pos, 2i+1)² ≤ 1: every value is in [−1, 1]; "
                        "over one period T_i = 2π/ω_i, PE(p, 2i) integrates to 0, so it is "
                        "negative as often as positive and [0, 1] is not its range",
                        (d / 2, 1, 1, 0), lhs=RANGE_LHS, relation=("=", "<=", "<=", "=")),
    premises=("PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i), "
              "ω_i = 10000^(−2i/d_model), read at any real position p as well",),
    foils=(Foil("‖PE(pos)‖ = 1: the encoding is a unit vector", (1, 1, 1, 0)),
           Foil("the squared norm is d_model, one per dimension", (d, 1, 1, 0)),
           Foil("the values lie in [0, 1]: PE(p, 2i) = |sin(p·ω_i)| averages 2/π",
                (d / 2, 1, 1, 4 / w))),
    sources=(VASWANI,),
    tags=("positional-encoding", "range"),
)
class PeValuesBounded:
    """sin² + cos² = 1 puts each pair on the unit circle, so neither entry can leave [−1, 1]
    and the d_model/2 pairs add up to d_model/2. Over a full turn the sine's positive and
    negative halves cancel: the encoding is centred on 0, not squeezed into [0, 1]."""

    perturbations = stronger_only(RANGE_LHS, ("=", "<=", "<=", "="))  # PE² ≤ 2 is true

    def prove(self, value, proof):
        circle = proof.fact(SIN**2 + COS**2, 1, "sin² + cos² = 1", method="trigsimp")
        norm = (proof.chain(NORM_SQUARED, "‖PE(pos)‖², pair by pair")
                .substitute(from_chain=circle).evaluate("d_model/2 ones"))
        even = (proof.chain(SIN**2, "PE(pos, 2i)²").le(SIN**2 + COS**2, "cos² ≥ 0")
                .substitute(from_chain=circle))
        odd = (proof.chain(COS**2, "PE(pos, 2i+1)²").le(SIN**2 + COS**2, "sin² ≥ 0")
               .substitute(from_chain=circle))
        area = proof.chain(AREA, "∫ PE(p, 2i) dp over one period").evaluate("a full turn")
        proof.conclude(value, norm, even, odd, area)

    def check(self, value, experiment):
        for point in experiment.draw({PAIRS: Integers(1, 2048), pos: Integers(0, 10**5)}, count=3):
            dm, p = 2 * point[PAIRS], point[pos]
            pe = sinusoidal(p + np.arange(GRID), dm)
            # a d_model-term sum of squares of entries whose angles (≤ pos + 64) carry roundings
            experiment.close((pe**2).sum(-1), np.full(GRID, float(numeric(value[0], {d: dm}))),
                             tolerance(2 * angle_ops(1) + dm + 2, dm * (p + GRID)),
                             "‖PE(pos)‖² at 64 positions", at=point)
            for part, entries, which in ((1, pe[:, 0::2], "2i"), (2, pe[:, 1::2], "2i+1")):
                bound = float(numeric(value[part], {d: dm}))
                experiment.holds(bool(np.all(entries**2 <= bound + tolerance(2, 1.0))),
                                 f"PE(pos, {which})² ≤ the stated bound",
                                 f"max {np.max(entries**2):.6g}", at=point)
            chosen = np.unique([0, dm // 2 - 1, int(experiment.rng.integers(0, dm // 2))])
            omega = frequencies(dm)[chosen]
            period = 2 * np.pi / omega
            # the rectangle rule with 64 points is exact for one full turn of sin; each term's
            # angle (≤ 2π) carries ω_i's, the grid's and the product's roundings, then 64 terms
            grid = np.arange(GRID)[:, None] * (period / GRID)
            values = sinusoidal(grid, dm)[:, np.arange(chosen.size), 2 * chosen]
            area = values.sum(0) * period / GRID
            experiment.close(area, numeric(value[3], {w: omega}),
                             tolerance(angle_ops(3) + GRID, 2 * np.pi) * period,
                             "∫ PE(p, 2i) dp over one period", inputs="pairs 0, the last, one more",
                             at=point)


def _pair(p):
    return sp.Matrix([sp.sin(sp.expand(p * w)), sp.cos(sp.expand(p * w))])


NOTES_MATRIX = rotation(k * w, sign=-1)              # [[cos kω, sin kω], [−sin kω, cos kω]]
# the pair at position p prints as PE(p, 2i), PE(p, 2i+1): at p = pos and at p = pos + k
PRINTED_PAIRS = {f"PE({name}, 2i{odd})": _pair(at)[row]
                 for name, at in (("pos", pos), ("pos+k", pos + k))
                 for row, odd in enumerate(("", "+1"))}
SHIFT = {pos: Integers(0, 10_000), k: Integers(-2000, 2000)}


@claim(
    id="pe-shift-is-rotation",
    title="Shifting the position by k multiplies each PE pair by a matrix that depends on k only",
    section="3.3",
    statement=Statement("(PE(pos+k, 2i), PE(pos+k, 2i+1)) = M·(PE(pos, 2i), PE(pos, 2i+1)) with "
                        "M = [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]], free of pos",
                        NOTES_MATRIX * _pair(pos), lhs=_pair(pos + k)),
    premises=("PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i)",
              "sin(a+b) and cos(a+b) addition formulas"),
    foils=(Foil("M transposed: [[cos kω_i, −sin kω_i], [sin kω_i, cos kω_i]]",
                rotation(k * w) * _pair(pos)),
           Foil("M built from the absolute angle pos·ω_i", rotation(pos * w, sign=-1) * _pair(pos)),
           Foil("both sin entries positive", sp.Matrix([[sp.cos(k * w), sp.sin(k * w)],
                                                        [sp.sin(k * w), sp.cos(k * w)]]) * _pair(pos))),
    sources=(VASWANI, KAZEMNEJAD),
    tags=("positional-encoding", "relative-position", "rotation"),
    notation={**PRINTED_PAIRS, "M_{k,i}": NOTES_MATRIX, r"\omega_i": w},
    formulas=(r"\begin{bmatrix} PE(pos+k, 2i) \\ PE(pos+k, 2i+1) \end{bmatrix} = \begin{bmatrix}"
              r" \cos(k\omega_i) & \sin(k\omega_i) \\ -\sin(k\omega_i) & \cos(k\omega_i) "
              r"\end{bmatrix} \begin{bmatrix} PE(pos, 2i) \\ PE(pos, 2i+1) \end{bmatrix}",
              r"\sin(a + b) = \sin a \cos b + \cos a \sin b",
              r"\cos(a + b) = \cos a \cos b - \sin a \sin b"),
)
class PeShiftIsRotation:
    """By the addition formulas each shifted pair is a fixed rotation of the unshifted one;
    the angle kω_i involves the offset, never the absolute position."""

    def prove(self, value, proof):
        a, b = pos * w, k * w
        added = sp.Matrix([sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b),
                           sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b)])
        shifted = (proof.chain(_pair(pos + k), "pair at pos + k")
                   .equals(added, "addition formulas, a = pos·ω_i, b = k·ω_i",
                           method="expand_trig"))
        proof.conclude(value, shifted)

    def check(self, value, experiment):
        for point in experiment.draw({PAIRS: Integers(1, 2048), **SHIFT}, count=4):
            dm, p, shift = 2 * point[PAIRS], point[pos], point[k]
            stated = numeric(value, {k: float(shift), w: frequencies(dm), pos: float(p)})
            # three angles in all (pos·ω_i, k·ω_i, (pos+k)·ω_i), each ≤ A and carrying ω_i's and
            # the product's roundings scaled by A, then sin/cos; plus the 2-term product M·pair
            experiment.close(stated, pe_pairs(p + shift, dm)[:, None, :],
                             tolerance(3 * angle_ops(1) + 3, max(p + abs(shift), 1.0)),
                             "M(k)·pair(pos) vs pair(pos+k)", inputs="all pairs", at=point)

    def plot(self) -> Plot:
        return illustrations.shift_rotation(64, pair=4, shift=3)


LAST = d / 2 - 1
PAIR_TERM = (sp.sin(pos * OMEGA) * sp.sin((pos + k) * OMEGA)
             + sp.cos(pos * OMEGA) * sp.cos((pos + k) * OMEGA))
PE_DOT = sp.Sum(PAIR_TERM, (i, 0, LAST))


@claim(
    id="pe-dot-depends-on-offset",
    title="The dot product of two sinusoidal encodings depends only on their offset",
    section="3.3",
    statement=Statement("PE(pos)·PE(pos+k) = Σ_{i=0}^{d_model/2−1} cos(k·ω_i): a function of the "
                        "offset k alone", sp.Sum(sp.cos(k * OMEGA), (i, 0, LAST)), lhs=PE_DOT),
    premises=("PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i)",
              "ω_i = 10000^(−2i/d_model)"),
    foils=(Foil("pair i contributes cos((2pos + k)·ω_i): the angles added",
                sp.Sum(sp.cos((2 * pos + k) * OMEGA), (i, 0, LAST))),
           Foil("pair i contributes sin(k·ω_i)", sp.Sum(sp.sin(k * OMEGA), (i, 0, LAST))),
           Foil("the sum runs over all d_model dimensions",
                sp.Sum(sp.cos(k * OMEGA), (i, 0, d - 1)))),
    sources=(VASWANI, KAZEMNEJAD), tags=("positional-encoding", "relative-position"),
    notation={r"PE(pos) \cdot PE(pos+k)": PE_DOT, r"\omega_i": OMEGA},
)
class PeDotDependsOnOffset:
    """Within each pair sin·sin + cos·cos is the cosine of the angle difference k·ω_i, so the
    similarity of two encodings is the same wherever the two positions sit."""

    def prove(self, value, proof):
        share = proof.fact(PAIR_TERM, sp.cos(k * OMEGA), "cos a cos b + sin a sin b = cos(b − a)",
                           method="trigsimp")
        # "expand" compares sums term by term (simplify takes a minute to give up on a false one)
        proof.conclude(value, proof.chain(PE_DOT, "PE(pos)·PE(pos+k)").substitute(from_chain=share),
                       method="expand")

    def check(self, value, experiment):
        for point in experiment.draw({PAIRS: Integers(1, 2048), **SHIFT}, count=4):
            dm, p, shift = 2 * point[PAIRS], point[pos], point[k]
            dot = float(sinusoidal(p, dm) @ sinusoidal(p + shift, dm))
            # each of the d products: two entries with angle error ≤ γ·A plus 1 product
            # rounding, then a d-term sum (γ_d); the stated sum adds d/2 cosines of the same kind
            tol = tolerance(3 * angle_ops(1) + 2 * dm, dm * max(p + abs(shift), 1.0))
            experiment.close(dot, numeric(value, {d: dm, pos: p, k: shift}), tol,
                             "PE(pos)·PE(pos+k) vs the stated sum", at=point)


@claim(
    id="pe-period-range",
    title="Periods run from 2π up towards 2π·10000, each pair slower by the same factor",
    section="3.4",
    statement=Statement("T_0 = 2π; the longest period T_{d/2−1} = 2π·10000^(1−2/d_model) stays "
                        "below 2π·10000, its limit as d_model grows; ω_{i+1}/ω_i = "
                        "10000^(−2/d_model) for every i",
                        (2 * sp.pi, 2 * sp.pi * 10000 ** (1 - 2 / d), 20000 * sp.pi,
                         10000 ** (-2 / d)),
                        lhs=(PERIOD_OF(0), PERIOD_OF(LAST), sp.Limit(PERIOD_OF(LAST), d, sp.oo),
                             RATE.xreplace({i: i + 1}) / RATE)),
    premises=("T_i = 2π·10000^(2i/d_model) and ω_i = 10000^(−2i/d_model) (claim "
              "sinusoidal-frequency-period)", "i = 0 … d_model/2 − 1"),
    foils=(Foil("the frequencies grow: ratio 10000^(2/d_model)",
                (2 * sp.pi, 2 * sp.pi * 10000 ** (1 - 2 / d), 20000 * sp.pi, 10000 ** (2 / d))),
           Foil("the longest period is 2π·10000 itself",
                (2 * sp.pi, 20000 * sp.pi, 20000 * sp.pi, 10000 ** (-2 / d))),
           Foil("the longest period tends to 10000 positions",
                (2 * sp.pi, 2 * sp.pi * 10000 ** (1 - 2 / d), sp.Integer(10000), 10000 ** (-2 / d))),
           Foil("the shortest period is 1 position",
                (sp.Integer(1), 2 * sp.pi * 10000 ** (1 - 2 / d), 20000 * sp.pi, 10000 ** (-2 / d)))),
    depends_on=("sinusoidal-frequency-period",),
    sources=(VASWANI,),
    tags=("positional-encoding", "frequency"),
    figures=(Figure("2π·10000, the limit of the longest period", "≈ 62800",
                    near="2\\pi \\times 10000", compute=lambda: 2 * math.pi * 10000),
             Figure("2π, the shortest period (pair 0)", "6", near="2\\pi \\approx",
                    compute=lambda: 2 * math.pi / frequencies(512)[0])),
)
class PePeriodRange:
    """Pair 0 repeats every 2π positions; the last pair's period 2π·10000^(1−2/d_model) creeps
    up to 2π·10000 but never reaches it; consecutive frequencies differ by a fixed factor."""

    def prove(self, value, proof):
        lemma = "sinusoidal-frequency-period"
        shortest = proof.chain(PERIOD_OF(0), "T_0").substitute(lemma=lemma, rename={i: 0})
        longest = proof.chain(PERIOD_OF(LAST), "T_{d/2−1}").substitute(lemma=lemma,
                                                                       rename={i: LAST})
        limit = (proof.chain(PERIOD_OF(LAST), "T_{d/2−1} as d_model → ∞")
                 .substitute(lemma=lemma, rename={i: LAST}).limit(d, sp.oo))
        ratio = (proof.chain(RATE.xreplace({i: i + 1}) / RATE, "ω_{i+1}/ω_i")
                 .substitute(lemma=lemma, rename={i: i + 1}).substitute(lemma=lemma, rename={})
                 .evaluate("exponents of 10000 subtract", method="powsimp"))
        proof.conclude(value, shortest, longest, limit, ratio)

    def check(self, value, experiment):
        for point in experiment.draw({PAIRS: Integers(1, 1 << 19)}, count=3):
            dm = 2 * point[PAIRS]
            omega = frequencies(dm)
            t0, longest, limit, ratio = (float(numeric(v, {d: dm})) for v in value)
            periods = 2 * math.pi / omega
            # T_0 = 2π/ω_0 with ω_0 = 10000^0 exact: one division
            experiment.close(periods[0], t0, tolerance(1, 2 * math.pi), "shortest period",
                             at=point)
            # ω_i's roundings (relative) and a division, at the size of the period
            experiment.close(periods[-1], longest, tolerance(FREQUENCY_OPS + 1, periods[-1]),
                             "longest period", at=point)
            # 1 − 10000^(−2/d) ≤ 2·ln(10000)/d, since 1 − e^(−x) ≤ x
            gap, bound = limit - periods.max(), limit * 2 * math.log(10000) / dm
            experiment.holds(0 < gap <= bound, "0 < limit − max T_i ≤ limit·2ln(10⁴)/d",
                             f"gap {gap:.4g}, bound {bound:.4g}", at=point)
            if dm > 2:  # two ω's (FREQUENCY_OPS each, relative) and a division; ratios < 1
                experiment.close(omega[1:] / omega[:-1], np.full(dm // 2 - 1, ratio),
                                 tolerance(2 * FREQUENCY_OPS + 1, 1.0), "ω_(i+1)/ω_i",
                                 inputs="all consecutive pairs", at=point)


m, n, t = sp.symbols("m n t", integer=True)
theta, (q1, q2, k1, k2) = sp.Symbol("theta", positive=True), sp.symbols("q_1 q_2 k_1 k_2", real=True)
QV, KV = sp.Matrix([q1, q2]), sp.Matrix([k1, k2])


def _bilinear(angle):
    return (QV.T * rotation(angle) * KV)[0, 0]


@claim(
    id="rope-relative-angle",
    title="RoPE scores depend on the two positions only through n − m",
    section="3.5",
    statement=Statement("⟨R(mθ)q, R(nθ)k⟩ = qᵀR((n−m)θ)k on each 2-D block, for any θ",
                        _bilinear((n - m) * theta),
                        lhs=((rotation(m * theta) * QV).T * (rotation(n * theta) * KV))[0, 0]),
    premises=("RoPE rotates query block q at position m by R(mθ) and key block k at n by R(nθ), "
              "R(φ) = [[cos φ, −sin φ], [sin φ, cos φ]]",),
    foils=(Foil("qᵀR((m−n)θ)k: the relative angle reversed", _bilinear((m - n) * theta)),
           Foil("qᵀR((m+n)θ)k: the angles added", _bilinear((m + n) * theta)),
           Foil("qᵀk·cos((n−m)θ): the cross terms dropped",
                (QV.T * KV)[0, 0] * sp.cos((n - m) * theta))),
    sources=(ROFORMER,),
    tags=("rope", "relative-position", "rotation"),
)
class RopeRelativeAngle:
    """Rotations are orthogonal and compose by adding angles, so R(mθ)ᵀR(nθ) = R((n−m)θ):
    the absolute positions cancel and only the offset remains in the score."""

    def prove(self, value, proof):
        score = (proof.chain(((rotation(m * theta) * QV).T * (rotation(n * theta) * KV))[0, 0],
                             "⟨R(mθ)q, R(nθ)k⟩")
                 .equals(_bilinear((n - m) * theta), "(Aq)ᵀ = qᵀAᵀ and R(mθ)ᵀR(nθ) = R((n−m)θ)"))
        proof.conclude(value, score)

    def check(self, value, experiment):
        domains = {m: Integers(0, 8192), n: Integers(0, 8192, edges=(8192, 0)),
                   theta: Reals(1e-4, 3.0, log=True)}
        for point in experiment.draw(domains, count=4):
            rows, a, b, angle = 200, point[m], point[n], point[theta]
            q, kk = experiment.rng.standard_normal((rows, 2)), experiment.rng.standard_normal((rows, 2))
            scores = (rope(q, a, np.array([angle])) * rope(kk, b, np.array([angle]))).sum(-1)
            stated = numeric(value, {q1: q[:, 0], q2: q[:, 1], k1: kk[:, 0], k2: kk[:, 1],
                                     m: float(a), n: float(b), theta: angle})
            # a rotated entry: one angle ≤ A = 8192·θ (θ's and the product's roundings scaled by
            # A, then sin/cos), 2 products + 1 sum; a score multiplies two such entries and sums
            # 2 terms; |terms| add up to ≤ ‖q‖₁·‖k‖₁ per row; two sides compared
            scale = max(8192 * angle, 1.0) * float(np.max(np.abs(q).sum(-1) * np.abs(kk).sum(-1)))
            experiment.close(scores, stated, 2 * tolerance(2 * angle_ops(4) + 3, scale),
                             "RoPE score vs the statement", inputs=f"{rows} random q, k ∈ R²",
                             at=point)


i_, j_ = sp.symbols("i j", integer=True)
slope, delta = sp.Symbol("m", positive=True), sp.Symbol("delta", integer=True, nonnegative=True)
DISTANCE = Premise("δ = |i − j| is the distance between query i and key j", {sp.Abs(i_ - j_): delta})
MOVED = -slope * sp.Abs(sp.Add(i_ + t, -(j_ + t), evaluate=False), evaluate=False)


@claim(
    id="alibi-distance-bias",
    title="The ALiBi bias is a function of the query–key distance alone",
    section="3.5",
    statement=Statement("the bias −m·|i − j| of query i and key j, both moved by any t, is "
                        "f(δ) = −m·δ with δ = |i − j|", -slope * delta, lhs=MOVED),
    premises=("the score of query i and key j gets the bias −m·|i − j|, m > 0", DISTANCE),
    foils=(Foil("f(δ) = +m·δ: distant keys favoured", slope * delta),
           Foil("f(δ) = −m·δ²", -slope * delta**2),
           Foil("the signed form −m·(i − j)", -slope * (i_ - j_))),
    sources=(ALIBI,),
    tags=("alibi", "relative-position"),
)
class AlibiDistanceBias:
    """Moving query and key together cancels in i − j, so the penalty only sees how far
    apart they are; it grows linearly with that distance, at the head's slope m (for a key
    δ steps back it is m·(j − i), Press et al.'s causal form)."""

    def prove(self, value, proof):
        moved = (proof.chain(MOVED, "bias, both moved by t").equals(-slope * sp.Abs(i_ - j_),
                                                                    "t cancels")
                 .substitute({sp.Abs(i_ - j_): delta}, premise=DISTANCE))
        proof.conclude(value, moved)

    def check(self, value, experiment):
        domains = {slope: Reals(2.0**-8, 1.0, log=True), t: Integers(0, 10**6),
                   "length": Integers(2, 256)}
        for point in experiment.draw(domains, count=3):
            length = point["length"]
            where = point[t] + np.arange(length)
            rel = np.arange(length)
            stated = numeric(value, {slope: point[slope], delta: np.abs(rel[:, None] - rel[None, :]),
                                     i_: where[:, None], j_: where[None, :]})
            # |i − j| is exact in float; one product on each side, values ≤ m·L
            experiment.close(alibi_bias(where, where, point[slope]), stated,
                             tolerance(2, point[slope] * length),
                             "bias at absolute positions vs f(|i−j|)", at=point)


heads = sp.Symbol("h", positive=True, integer=True)
head = sp.Symbol("j", positive=True, integer=True)
FIRST = 2 ** (-sp.Integer(8) / heads)                  # first term and ratio of the sequence


@claim(
    id="alibi-head-slopes",
    title="ALiBi's head slopes: m_j = 2^(−8j/h), from 2^(−8/h) down to 1/256",
    section="3.5",
    statement=Statement("for h heads (a power of 2) head j = 1 … h has slope m_j = 2^(−8j/h); "
                        "the last is 2^(−8) = 1/256", 2 ** (-8 * head / heads),
                        lhs=FIRST * FIRST ** (head - 1)),
    premises=("Press et al.: the slopes form a geometric sequence whose first term and ratio "
              "are both 2^(−8/h)",),
    foils=(Foil("m_j = 2^(−8(j−1)/h): first slope 1", 2 ** (-8 * (head - 1) / heads)),
           Foil("m_j = 2^(−j), halving per head whatever h", 2 ** (-head))),
    sources=(ALIBI,),
    tags=("alibi", "slopes"),
)
class AlibiHeadSlopes:
    """First term a and ratio a give a·a^(j−1) = a^j; with a = 2^(−8/h) the h-th head lands on
    2^(−8) whatever h is."""

    def prove(self, value, proof):
        closed = proof.chain(FIRST * FIRST ** (head - 1), "first term × ratio^(j−1)").evaluate(
            "powers of 2 multiply", method="powsimp")
        proof.conclude(value, closed)

    def check(self, value, experiment):
        for point in experiment.draw({"log₂ h": Integers(0, 8)}, count=4):
            h = 2 ** point["log₂ h"]
            # start: one power; start**j: relative error (j + 1)·u, one product: ≤ h + 2 ops
            experiment.close(alibi_slopes(h), numeric(value, {heads: h, head: np.arange(1, h + 1)}),
                             tolerance(h + 3, 1.0), "closed form vs the geometric sequence",
                             inputs="all heads", at=point)
