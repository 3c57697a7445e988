"""Section 3: sinusoidal positional encoding, and the relative-position schemes RoPE and ALiBi."""

import math

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.engine.plots import Plot, Series
from tmath.engine.proof import Rule
from tmath.reference.positional import (alibi_bias, alibi_slopes, first_return, frequencies, numeric, rope,
                              rotation, sinusoidal)

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.5", arxiv="1706.03762")
KAZEMNEJAD = Source("Kazemnejad (2019), Transformer Architecture: The Positional Encoding",
                    url="https://kazemnejad.com/blog/transformer_architecture_positional_encoding/")
ROFORMER = Source("Su et al. (2021), RoFormer: Enhanced Transformer with Rotary Position "
                  "Embedding, §3.4", arxiv="2104.09864")
ALIBI = Source("Press et al. (2021), Train Short, Test Long: Attention with Linear Biases, §3",
               arxiv="2108.12409")

pos, k = sp.symbols("pos k", integer=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
d = sp.Symbol("d_model", positive=True, integer=True)
w = sp.Symbol("omega_i", positive=True)
ARG = pos / 10000 ** (2 * i / d)                       # the argument as printed in §3.1
OMEGA = 10000 ** (-2 * i / d)
PERIOD = 2 * sp.pi * 10000 ** (2 * i / d)
LN_BASE = math.log(10000)
# ω_i = 10000^(−2i/d) in float: the exponent takes 2 roundings, and its relative error u is
# multiplied by |exponent·ln 10000| ≤ ln 10000 in the power, which rounds once more.
OMEGA_OPS = 3 + math.ceil(LN_BASE)


PE_PAIR_PREMISE = "PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i)"


def _angle_ops(extra: int) -> int:
    """Roundings in sin/cos(x·ω_i): those of ω_i, the product x·ω_i, and ``extra`` more."""
    return OMEGA_OPS + 1 + extra


@claim(
    id="sinusoidal-frequency-period",
    title="Pair i turns at ω_i = 10000^(−2i/d_model) and first repeats after 2π/ω_i positions",
    section="3.2",
    statement=Statement("ω_i = 10000^(−2i/d_model); the (sin, cos) pair i has least period "
                        "T_i = 2π·10000^(2i/d_model)", (OMEGA, PERIOD),
                        lhs=(sp.Symbol("omega_i"), sp.Symbol("T_i"))),
    premises=("PE(pos, 2i) = sin(pos/10000^(2i/d_model)), PE(pos, 2i+1) = cos of the same",
              "the least period of sin and cos is 2π"),
    foils=(Foil("T_i = 10000^(2i/d_model) (the factor 2π dropped)", (OMEGA, PERIOD / (2 * sp.pi))),
           Foil("frequency and period inverted: ω_i = 10000^(2i/d), T_i = 2π·10000^(−2i/d)",
                (1 / OMEGA, 2 * sp.pi * OMEGA)),
           Foil("T_i = 4π·10000^(2i/d_model): a period, but not the least", (OMEGA, 2 * PERIOD))),
    sources=(VASWANI,),
    tags=("positional-encoding", "frequency"),
    formulas=(r"PE(pos, 2i) = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
              r"PE(pos, 2i+1) = \cos\left(\frac{pos}{10000^{2i/d_{model}}}\right)"),
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
    ω_i and is first back after 2π/ω_i positions: from 2π up to nearly 2π·10000."""

    def prove(self, value, proof):
        omega, period = value
        rate = proof.chain(sp.Derivative(ARG, pos), "ω_i = d(argument)/d(pos)").evaluate(
            "differentiate", method="expand")
        least = (proof.chain(2 * sp.pi / rate.value, "T_i = 2π/ω_i (sin, cos repeat after 2π)")
                 .equals(PERIOD, "invert the power of 10000", method="powsimp"))
        for f in (sp.sin, sp.cos):
            proof.fact(f(ARG.subs(pos, pos + period)), f(ARG), f"{f.__name__} unchanged by +T_i")
        proof.conclude((omega, period), rate, least)

    def check(self, value, experiment):
        omega, period = value
        for dm in (64, 512):
            pairs = np.arange(dm // 2)
            pe = sinusoidal(1.0, dm)              # at pos = 1 pair i sits at angle ω_i < π
            # ω_i's roundings, sin/cos 1, atan2 ≤ 2 more; angles ≤ 1
            experiment.close(np.arctan2(pe[0::2], pe[1::2]), numeric(omega, {d: dm, i: pairs}),
                             tolerance(_angle_ops(3), 1.0), f"angle of pair i at pos 1 vs ω_i "
                             f"(d_model={dm})", inputs=f"all {dm // 2} pairs")
        pairs = np.unique(np.r_[0, 128, 255, experiment.rng.integers(0, 256, 5)])
        horizon = 100_000.0                       # positions scanned for the first return
        returns = np.array([first_return(f, horizon) for f in frequencies(512)[pairs]])
        # near the crossing the angles are ≤ 3π and carry ω_i's roundings + product, sin/cos,
        # atan2 (2), unwrap, difference; the crossing moves by (angle error)/ω_i, from two
        # neighbours → relative error ≤ γ_2n·3π/2π
        experiment.close(returns / numeric(period, {d: 512, i: pairs}), np.ones(pairs.size),
                         tolerance(2 * _angle_ops(5) + 1, 1.5),
                         "first return of pair i / T_i (d_model=512)", inputs=f"pairs {pairs}")

    def plot(self) -> Plot:
        return Plot("PE(pos, ·) for d_model = 64: pairs turn slower to the right",
                    heatmap=tuple(map(tuple, sinusoidal(np.arange(64), 64))),
                    xlabel="dimension (2i: sin, 2i+1: cos)", ylabel="position pos")


def _pair(p):
    return sp.Matrix([sp.sin(sp.expand(p * w)), sp.cos(sp.expand(p * w))])


NOTES_MATRIX = rotation(k * w, sign=-1)              # [[cos kω, sin kω], [−sin kω, cos kω]]
S, C = sp.symbols("S C")                             # stand-ins for sin(pos·ω_i), cos(pos·ω_i)
READ_OFF = Rule(
    "linear in (sin pos·ω_i, cos pos·ω_i): read off the coefficient matrix",
    lambda v: v.xreplace({sp.sin(pos * w): S, sp.cos(pos * w): C}).jacobian([S, C]))


@claim(
    id="pe-shift-is-rotation",
    title="Shifting the position by k multiplies each PE pair by a matrix that depends on k only",
    section="3.3",
    statement=Statement("(PE(pos+k, 2i), PE(pos+k, 2i+1)) = M·(PE(pos, 2i), PE(pos, 2i+1)) with "
                        "M = [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]], free of pos",
                        NOTES_MATRIX, lhs=sp.Symbol("M")),
    premises=(PE_PAIR_PREMISE,
              "sin(a+b) and cos(a+b) addition formulas"),
    foils=(Foil("M transposed: [[cos kω_i, −sin kω_i], [sin kω_i, cos kω_i]]",
                rotation(k * w)),
           Foil("M built from the absolute angle pos·ω_i", rotation(pos * w, sign=-1)),
           Foil("both sin entries positive", sp.Matrix([[sp.cos(k * w), sp.sin(k * w)],
                                                        [sp.sin(k * w), sp.cos(k * w)]]))),
    sources=(VASWANI, KAZEMNEJAD),
    tags=("positional-encoding", "relative-position", "rotation"),
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
        matrix = (proof.chain(_pair(pos + k), "pair at pos + k")
                  .equals(added, "addition formulas, a = pos·ω_i, b = k·ω_i",
                          method="expand_trig")
                  .apply(READ_OFF))
        proof.fact(_pair(pos + k) - value * _pair(pos), sp.zeros(2, 1),
                   "pair(pos+k) − M·pair(pos) vanishes", method="expand_trig")
        proof.holds(sp.Eq(matrix.value.diff(pos), sp.zeros(2, 2)), "M does not involve pos")
        proof.conclude(value, matrix)

    def check(self, value, experiment):
        rng, n = experiment.rng, 2000
        p, shift = rng.integers(0, 10_000, n), rng.integers(-2000, 2001, n)
        pair = rng.integers(0, 256, n)
        omega, rows = frequencies(512)[pair], np.arange(n)
        here, there = sinusoidal(p, 512), sinusoidal(p + shift, 512)
        now = np.stack([here[rows, 2 * pair], here[rows, 2 * pair + 1]])
        later = np.stack([there[rows, 2 * pair], there[rows, 2 * pair + 1]])
        m = numeric(value, {k: shift.astype(float), w: omega, pos: p.astype(float)})
        # three angles in all (pos·ω_i, k·ω_i, (pos+k)·ω_i), each ≤ A and carrying ω_i's and
        # the product's roundings scaled by A, then sin/cos; plus the 2-term product M·pair
        angle = float(np.max((p + np.abs(shift)) * omega))
        experiment.close(np.einsum("abn,bn->an", m, now), later,
                         tolerance(3 * _angle_ops(1) + 3, max(angle, 1.0)),
                         "M(k)·pair(pos) vs pair(pos+k), d_model = 512",
                         inputs=f"{n} random (pos < 10⁴, |k| ≤ 2000, pair i)")

    def plot(self) -> Plot:
        omega, k = frequencies(64)[4], 3                 # pair i = 4 of d_model = 64
        turn = np.linspace(0, 2 * math.pi, 181)
        # long axes frame the circle: it shows round in the wide panel, with room for the legend
        series = [Series("axes", (-2.85, 2.85, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.6, -1.6),
                         "dashed"),
                  Series("(sin pos·ω, cos pos·ω)", tuple(np.sin(turn)), tuple(np.cos(turn)))]
        for start in (1, 9):
            # origin → PE(start) → along the circle → PE(start + k) → origin
            arc = np.linspace(start, start + k, 30) * omega
            xs, ys = np.r_[0.0, np.sin(arc), 0.0], np.r_[0.0, np.cos(arc), 0.0]
            series.append(Series(f"PE({start}) → PE({start + k}): kω = {k * omega:.2f} rad",
                                 tuple(xs), tuple(ys)))
        return Plot(f"Shift k = {k} turns pair i = 4 (d_model = 64) by kω, wherever pos is",
                    tuple(series), xlabel="PE(pos, 2i) = sin(pos·ω_i)",
                    ylabel="PE(pos, 2i+1) = cos(pos·ω_i)")


PAIR_TERM = (sp.sin(pos * OMEGA) * sp.sin((pos + k) * OMEGA)
             + sp.cos(pos * OMEGA) * sp.cos((pos + k) * OMEGA))


@claim(
    id="pe-dot-depends-on-offset",
    title="The dot product of two sinusoidal encodings depends only on their offset",
    section="3.3",
    statement=Statement("PE(pos)·PE(pos+k) = Σ_{i=0}^{d_model/2−1} c_i with pair i "
                        "contributing c_i = cos(k·ω_i): a function of k alone", sp.cos(k * OMEGA),
                        lhs=sp.Symbol("c_i")),
    premises=(PE_PAIR_PREMISE,
              "ω_i = 10000^(−2i/d_model)"),
    foils=(Foil("c_i = cos((2pos + k)·ω_i): the angles added", sp.cos((2 * pos + k) * OMEGA)),
           Foil("c_i = sin(k·ω_i)", sp.sin(k * OMEGA))),
    depends_on=("pe-shift-is-rotation",),
    sources=(VASWANI, KAZEMNEJAD),
    tags=("positional-encoding", "relative-position"),
)
class PeDotDependsOnOffset:
    """Within each pair sin·sin + cos·cos is the cosine of the angle difference k·ω_i, so the
    similarity of two encodings is the same wherever the two positions sit."""

    def prove(self, value, proof):
        pair = (proof.chain(PAIR_TERM, "pair i's share of PE(pos)·PE(pos+k)")
                .equals(sp.cos(k * OMEGA), "cos a cos b + sin a sin b = cos(b − a)",
                        method="trigsimp"))
        proof.holds(sp.Eq(pair.value.diff(pos), 0), "no share involves pos, nor does the sum")
        proof.conclude(value, pair)

    def check(self, value, experiment):
        rng = experiment.rng
        for dm in (64, 512):
            p, shift = rng.integers(0, 10_000, 200), rng.integers(-1000, 1001, 200)
            dots = (sinusoidal(p, dm) * sinusoidal(p + shift, dm)).sum(-1)
            # each of the d products: two entries with angle error ≤ γ·A plus 1 product
            # rounding, then a d-term sum (γ_d); the stated sum adds d/2 cosines of the same kind
            scale = dm * float(np.max(p + 777 + np.abs(shift)))     # largest angle, either test
            tol = tolerance(3 * _angle_ops(1) + 2 * dm, scale)
            values = {d: dm, i: np.arange(dm // 2)[None, :], pos: p[:, None], k: shift[:, None]}
            experiment.close(dots, numeric(value, values).sum(-1), tol,
                             f"PE(pos)·PE(pos+k) vs Σ c_i (d_model={dm})",
                             inputs="200 random pos < 10⁴, |k| ≤ 1000")
            moved = (sinusoidal(p + 777, dm) * sinusoidal(p + 777 + shift, dm)).sum(-1)
            experiment.close(moved, dots, 2 * tol, f"same k, pos moved by 777 (d_model={dm})",
                             inputs="the same 200 pairs")


LAST = d / 2 - 1
PERIOD_DIMS = (64, 512, 4096, 1 << 20)   # d_model of PePeriodRange's check (the last: bound only)


@claim(
    id="pe-period-range",
    title="Periods run from 2π up towards 2π·10000, each pair slower by the same factor",
    section="3.4",
    statement=Statement("T_0 = 2π; the periods T_i stay below 2π·10000, their limit as d_model "
                        "grows; ω_{i+1}/ω_i = 10000^(−2/d_model) for every i",
                        (2 * sp.pi, 20000 * sp.pi, 10000 ** (-2 / d)),
                        lhs=(sp.Symbol("T_0"), sp.Symbol("sup T_i"), sp.Symbol("ω_{i+1}/ω_i"))),
    premises=("T_i = 2π·10000^(2i/d_model) (claim sinusoidal-frequency-period)",
              "i = 0 … d_model/2 − 1"),
    foils=(Foil("the frequencies grow: ratio 10000^(2/d_model)",
                (2 * sp.pi, 20000 * sp.pi, 10000 ** (2 / d))),
           Foil("the longest period is 10000 positions",
                (2 * sp.pi, sp.Integer(10000), 10000 ** (-2 / d))),
           Foil("the shortest period is 1 position",
                (sp.Integer(1), 20000 * sp.pi, 10000 ** (-2 / d)))),
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
        t0, t_last = sp.Symbol("T_0"), sp.Symbol("T_{d/2-1}")
        shortest = (proof.chain(t0, "T_0")
                    .substitute({t0: PERIOD.subs(i, 0)}, lemma="sinusoidal-frequency-period")
                    .evaluate("10000^0 = 1"))
        longest = (proof.chain(t_last, "T_{d/2−1} as d_model → ∞")
                   .substitute({t_last: PERIOD.subs(i, LAST)}, lemma="sinusoidal-frequency-period")
                   .limit(d, sp.oo))
        proof.fact(PERIOD.subs(i, LAST) / longest.value, 10000 ** (-2 / d), "T_{d/2−1}/limit",
                   method="expand")
        proof.holds(-2 / d < 0, "that exponent is negative, so every T_i stays below the limit")
        ratio = (proof.chain(OMEGA.subs(i, i + 1) / OMEGA, "ω_{i+1}/ω_i")
                 .equals(10000 ** (-2 / d), "exponents of 10000 subtract", method="expand"))
        proof.conclude(value, shortest, longest, ratio)

    def check(self, value, experiment):
        t0, limit, ratio = (float(v) if not v.free_symbols else v for v in value)
        for dm in PERIOD_DIMS:
            omega = frequencies(dm)
            periods = 2 * math.pi / omega
            gap = limit - periods.max()
            # 1 − 10000^(−2/d) ≤ 2·ln(10000)/d, since 1 − e^(−x) ≤ x
            bound = limit * 2 * LN_BASE / dm
            experiment.holds(0 < gap <= bound, f"0 < limit − max T_i ≤ limit·2ln(10⁴)/d "
                             f"(d_model={dm})", f"gap {gap:.4g}, bound {bound:.4g}")
            if dm > 4096:
                continue
            # T_0 = 2π/ω_0 with ω_0 = 10000^0 exact: one division
            experiment.close(periods.min(), t0, tolerance(1, 2 * math.pi),
                             f"shortest period (d_model={dm})")
            # two ω's (OMEGA_OPS each, relative) and a division; ratios < 1
            stated = numeric(ratio, {d: dm, i: np.arange(dm // 2 - 1)})
            experiment.close(omega[1:] / omega[:-1], stated,
                             tolerance(2 * OMEGA_OPS + 1, 1.0), f"ω_(i+1)/ω_i (d_model={dm})",
                             inputs=f"all {dm // 2 - 1} consecutive pairs")


m, n, t = sp.symbols("m n t", integer=True)
theta = sp.Symbol("theta", positive=True)
q1, q2, k1, k2 = sp.symbols("q_1 q_2 k_1 k_2", real=True)
QV, KV = sp.Matrix([q1, q2]), sp.Matrix([k1, k2])


def _bilinear(angle):
    return (QV.T * rotation(angle) * KV)[0, 0]


@claim(
    id="rope-relative-angle",
    title="RoPE scores depend on the two positions only through n − m",
    section="3.5",
    statement=Statement("⟨R(mθ)q, R(nθ)k⟩ = qᵀR((n−m)θ)k on each 2-D block, for any θ",
                        _bilinear((n - m) * theta), lhs=sp.Symbol("⟨R(mθ)q, R(nθ)k⟩")),
    premises=("RoPE rotates query block q at position m by R(mθ) and key block k at n by R(nθ), "
              "R(φ) = [[cos φ, −sin φ], [sin φ, cos φ]]",),
    foils=(Foil("qᵀR((m−n)θ)k: the relative angle reversed", _bilinear((m - n) * theta)),
           Foil("qᵀR((m+n)θ)k: the angles added", _bilinear((m + n) * theta)),
           Foil("qᵀk·cos((n−m)θ): the cross terms dropped",
                (QV.T * KV)[0, 0] * sp.cos((n - m) * theta))),
    depends_on=("pe-shift-is-rotation",),
    sources=(ROFORMER,),
    tags=("rope", "relative-position", "rotation"),
)
class RopeRelativeAngle:
    """Rotations are orthogonal and compose by adding angles, so R(mθ)ᵀR(nθ) = R((n−m)θ):
    the absolute positions cancel and only the offset remains in the score."""

    def prove(self, value, proof):
        score = (proof.chain(((rotation(m * theta) * QV).T * (rotation(n * theta) * KV))[0, 0],
                             "⟨R(mθ)q, R(nθ)k⟩")
                 .equals((QV.T * rotation(m * theta).T * rotation(n * theta) * KV)[0, 0],
                         "(Aq)ᵀ = qᵀAᵀ", method="expand")
                 .equals(_bilinear((n - m) * theta), "R(mθ)ᵀR(nθ) = R((n−m)θ)",
                         method="trigsimp"))
        proof.fact(value.subs({m: m + t, n: n + t}, simultaneous=True), value,
                   "moving both positions by t leaves it unchanged", method="trigsimp")
        proof.conclude(value, score)

    def check(self, value, experiment):
        rng, rows, dim = experiment.rng, 500, 64
        thetas = frequencies(dim)                        # RoFormer's θ_j = 10000^(−2j/d)
        q, kk = rng.standard_normal((rows, dim)), rng.standard_normal((rows, dim))
        pm, pn = rng.integers(0, 4096, rows), rng.integers(0, 4096, rows)
        scores = (rope(q, pm, thetas) * rope(kk, pn, thetas)).sum(-1)
        blocks = {q1: q[:, 0::2], q2: q[:, 1::2], k1: kk[:, 0::2], k2: kk[:, 1::2],
                  m: pm[:, None], n: pn[:, None], theta: thetas[None, :]}
        stated = numeric(value, blocks).sum(-1)
        # a rotated entry: one angle ≤ A = 5096 (θ_j's and the product's roundings scaled by A,
        # then sin/cos), 2 products + 1 sum; a score multiplies two such entries and sums d
        # terms; |terms| add up to ≤ ‖q‖₁·‖k‖₁ per row; two sides compared
        scale = 5096 * float(np.max(np.abs(q).sum(-1) * np.abs(kk).sum(-1)))
        tol = 2 * tolerance(2 * _angle_ops(4) + 1 + dim, scale)
        experiment.close(scores, stated, tol, "RoPE score vs Σ over blocks of the statement",
                         inputs=f"{rows} random q, k ∈ R^{dim}, m, n < 4096")
        shifted = (rope(q, pm + 1000, thetas) * rope(kk, pn + 1000, thetas)).sum(-1)
        experiment.close(shifted, scores, tol, "both positions moved by 1000",
                         inputs="the same rows")


i_, j_ = sp.symbols("i j", integer=True)
slope = sp.Symbol("m", positive=True)
delta = sp.Symbol("delta", integer=True, nonnegative=True)


@claim(
    id="alibi-distance-bias",
    title="The ALiBi bias is a function of the query–key distance alone",
    section="3.5",
    statement=Statement("−m·|i − j| = f(δ) with f(δ) = −m·δ, δ = |i − j|; for a key δ "
                        "steps back it equals m·(j − i)", -slope * delta, lhs=sp.Symbol("f(δ)")),
    premises=("the score of query i and key j gets the bias −m·|i − j|, m > 0",),
    foils=(Foil("f(δ) = +m·δ: distant keys favoured", slope * delta),
           Foil("f(δ) = −m·δ²", -slope * delta**2),
           Foil("the signed form −m·(i − j)", -slope * (i_ - j_))),
    sources=(ALIBI,),
    tags=("alibi", "relative-position"),
)
class AlibiDistanceBias:
    """Moving query and key together cancels in i − j, so the penalty only sees how far
    apart they are; it grows linearly with that distance, at the head's slope m."""

    def prove(self, value, proof):
        gap = sp.Add(i_ + t, -(j_ + t), evaluate=False)             # kept unevaluated to show t
        moved = (proof.chain(-slope * sp.Abs(gap, evaluate=False), "bias, both moved by t")
                 .equals(-slope * sp.Abs(i_ - j_), "t cancels")
                 .substitute({sp.Abs(i_ - j_): delta}, premise="δ = |i − j|"))
        proof.fact(value.subs(delta, i_ - (i_ - delta)), slope * ((i_ - delta) - i_),
                   "key j = i − δ: the bias is m·(j − i), Press et al.'s causal form")
        proof.conclude(value, moved)

    def check(self, value, experiment):
        length = 128
        for head_slope in alibi_slopes(8):
            offset = int(experiment.rng.integers(0, 10**6))
            where = offset + np.arange(length)
            bias = alibi_bias(where, where, head_slope)
            rel = np.arange(length)
            stated = numeric(value, {slope: head_slope, delta: np.abs(rel[:, None] - rel[None, :]),
                                     i_: where[:, None], j_: where[None, :]})
            # |i − j| is exact in float; one product on each side, values ≤ m·L
            experiment.close(bias, stated, tolerance(2, head_slope * length),
                             f"bias at a random absolute offset vs f(|i−j|), m = {head_slope:g}",
                             inputs=f"{length}×{length} positions from offset {offset}")


heads = sp.Symbol("h", positive=True, integer=True)
head = sp.Symbol("j", positive=True, integer=True)
SLOPE_HEADS = (1, 2, 4, 8, 16, 32, 64)   # head counts of AlibiHeadSlopes' check


@claim(
    id="alibi-head-slopes",
    title="ALiBi's head slopes: m_j = 2^(−8j/h), from 2^(−8/h) down to 1/256",
    section="3.5",
    statement=Statement("for h heads (a power of 2) head j = 1 … h has slope m_j = 2^(−8j/h); "
                        "the last is 2^(−8) = 1/256", 2 ** (-8 * head / heads),
                        lhs=sp.Symbol("m_j")),
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
        a = 2 ** (-sp.Integer(8) / heads)
        closed = (proof.chain(a * a ** (head - 1), "first term × ratio^(j−1)")
                  .equals(2 ** (-8 * head / heads), "powers of 2 multiply", method="expand"))
        proof.fact(value.subs(head, heads), sp.Rational(1, 256), "last head j = h")
        proof.fact(value.subs(head, head + 1) / value, a, "ratio of neighbours", method="expand")
        proof.conclude(value, closed)

    def check(self, value, experiment):
        for h in SLOPE_HEADS:
            built = alibi_slopes(h)                      # Press et al.'s construction
            # start: one power; start**j: relative error (j + 1)·u, one product: ≤ h + 2 ops
            experiment.close(built, numeric(value, {heads: h, head: np.arange(1, h + 1)}),
                             tolerance(h + 3, 1.0), f"closed form vs the geometric sequence, "
                             f"h = {h}", inputs=f"all {h} heads")
        experiment.close(numeric(value, {heads: 8, head: np.arange(1, 9)}),
                         2.0 ** -np.arange(1, 9), tolerance(2, 1.0),
                         "8 heads: 1/2, 1/4, …, 1/256 as listed by Press et al.")
