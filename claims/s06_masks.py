"""Section 6: masks: −∞ entries, causal and padding masks, their sum, finite stand-ins."""

import itertools

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.reference.kernels import attention_tolerance, softmax_tolerance
from tmath.reference.nn import attention, softmax
from tmath.engine.plots import Plot

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.3 (masking with −∞)",
                 arxiv="1706.03762")
IEEE = Source("IEEE 754-2019: the smallest positive float64 is 2^−1074, so exp(x) rounds to 0 "
              "for x < ln 2^−1075 ≈ −745.13", url="https://doi.org/10.1109/IEEESTD.2019.8766229")

z_j, z_m, s_ = sp.symbols("z_j z_m s", real=True)          # a visible / a masked logit, a score
S, R = sp.symbols("S R", positive=True)   # Σ_visible e^{z}, Σ_masked e^{z}
c = sp.Symbol("c", real=True)             # the value put in masked entries
a, b = sp.symbols("a b")                  # entries of two masks
d_k, T, n = sp.symbols("d_k T n", positive=True, integer=True)
i, j, l = sp.symbols("i j l", positive=True, integer=True)
delta = sp.Symbol("delta", nonnegative=True, integer=True)
sc, v = sp.IndexedBase("s", real=True), sp.IndexedBase("v", real=True)   # scores s_ij, values
VISIBLE_WEIGHT = sp.exp(z_j) / S
CAUSAL_VISIBLE = sp.Ge(i, j)                                   # key j visible to query i
MASK_PAIRS = tuple(itertools.product((0, -sp.oo), repeat=2))   # (M_causal, M_pad): all cases

# Chinese texts shared by the causal and the padding claims


def _score(row, col):
    return sc[row, col]


def _visible_range(relation):
    """The positions j ∈ [1, T] for which ``relation`` (in i, j) holds, as (first, last)."""
    span = sp.solve_univariate_inequality(relation, j, relational=False)
    first = 1 if span.inf == -sp.oo else span.inf + (1 if span.left_open else 0)
    last = T if span.sup == sp.oo else span.sup - (1 if span.right_open else 0)
    return first, last


def _derivative(proof, out, var, label):
    """∂out/∂var, evaluated: Kronecker deltas whose index lies outside a sum's range vanish."""
    return proof.chain(sp.diff(out, var), label).evaluate("sum the Kronecker δ", method="expand")


def _logits(rng, rows, t, masked_share):
    z = rng.normal(0.0, 2.0, (rows, t))
    masked = rng.random((rows, t)) < masked_share
    masked[np.arange(rows), rng.integers(0, t, rows)] = False   # keep one visible per row
    return z, masked


@claim(
    id="masked-softmax-renormalises",
    title="A −∞ logit gets weight exactly 0; the others renormalise over the visible set",
    section="6.1",
    statement=Statement("softmax(z + M)_j = e^{z_j}/S for visible j and 0 for masked j, "
                        "S = Σ_visible e^{z_l}", (VISIBLE_WEIGHT, sp.Integer(0))),
    premises=("M_j ∈ {0, −∞}", "at least one visible position",
              "−∞ is the limit c → −∞ of a finite c"),
    foils=(Foil("the visible weights keep their unmasked values e^{z_j}/(S + R)",
                (sp.exp(z_j) / (S + R), sp.Integer(0))),),
    sources=(VASWANI,),
    tags=("mask", "softmax"),
)
class MaskedSoftmaxRenormalises:
    """With penalty c the masked terms contribute R·e^c to the normaliser; as c → −∞ that
    vanishes, so masking is the same as a softmax over the visible positions only."""

    def prove(self, value, proof):
        visible = (proof.chain(sp.exp(z_j) / (S + R * sp.exp(c)), "visible weight, penalty c")
                   .limit(c, -sp.oo))
        masked = (proof.chain(sp.exp(z_m) * sp.exp(c) / (S + R * sp.exp(c)),
                              "masked weight, penalty c").limit(c, -sp.oo))
        proof.conclude(value, visible, masked)

    def check(self, value, experiment):
        z, masked = _logits(experiment.rng, 6, 9, 0.4)
        w = softmax(z + np.where(masked, -np.inf, 0.0))
        e = np.exp(z)
        s_vis = np.where(masked, 0.0, e).sum(axis=1, keepdims=True)
        r_mask = np.where(masked, e, 0.0).sum(axis=1, keepdims=True)
        stated = np.broadcast_to(sp.lambdify((z_j, S, R), value[0])(z, s_vis, r_mask), z.shape)
        experiment.holds(bool(np.all(w[masked] == float(value[1]))), "masked weights are exactly 0")
        experiment.close(w[~masked], stated[~masked], softmax_tolerance(z),
                         "visible weights vs the stated e^{z_j}/S", inputs="6 rows × 9 logits")
        per_row = [softmax(z[r][~masked[r]]) for r in range(len(z))]
        experiment.close(w[~masked], np.concatenate(per_row), softmax_tolerance(z),
                         "masked softmax vs softmax of the visible logits alone")


@claim(
    id="causal-mask-no-future",
    title="Under the causal mask, output i depends on tokens 1…i only, itself included",
    section="6.2",
    statement=Statement("M_ij = 0 iff i ≥ j: ∂out_i/∂(s_ip, v_p) = 0 for p > i, and token i "
                        "is seen", CAUSAL_VISIBLE, lhs=sp.Symbol("visible(i, j)")),
    premises=("M_ij = 0 where visible(i, j), −∞ elsewhere", "positions 1 ≤ i ≤ T",
              "key k_p reaches out_i only through the score s_ip = q_iᵀk_p/√d_k"),
    foils=(Foil("the mask is upper triangular (i ≤ j visible)", sp.Le(i, j)),
           Foil("a token must not see itself (i > j visible)", sp.Gt(i, j),
                why="row 1 is then entirely masked and its softmax is 0/0")),
    depends_on=("masked-softmax-renormalises",),
    sources=(VASWANI,),
    tags=("mask", "causal"),
    formulas=(r"M_{ij} = \begin{cases} 0 & \text{if } i \geq j \\ -\infty & \text{if } i < j \end{cases}",),
)
class CausalMaskNoFuture:
    """Masked keys drop out of both sums of the softmax, so every later key and value is
    absent from output i, for any sequence length, position and head width."""

    def perturbations(self, value):
        return [("one future token leaks in (i ≥ j − 1 visible)", sp.Ge(i, j - 1))]

    def prove(self, relation, proof):
        first, last = _visible_range(relation)
        w = sp.Function("w")
        weight = sp.exp(_score(i, j)) / sp.Sum(sp.exp(_score(i, l)), (l, first, last))
        out = (proof.chain(sp.Sum(w(i, j) * v[j], (j, first, last)), "out_i over the unmasked j")
               .substitute({w(i, j): weight}, lemma="masked-softmax-renormalises")).value
        p = i + 1 + delta
        future_v = _derivative(proof, out, v[p], "∂out_i/∂v_p, p = i+1+δ")
        future_k = _derivative(proof, out, sc[i, p], "∂out_i/∂s_ip, p = i+1+δ")
        itself = _derivative(proof, out, v[i], "∂out_i/∂v_i")
        own = sp.exp(_score(i, i)) / sp.Sum(sp.exp(_score(i, l)), (l, 1, i))
        proof.conclude((0, 0, own), future_v, future_k, itself, method="expand")

    def check(self, relation, experiment):
        rng, t = experiment.rng, 8
        pos = np.arange(1, t + 1)
        visible = np.broadcast_to(sp.lambdify((i, j), relation)(pos[:, None], pos[None, :]), (t, t))
        mask = np.where(visible, 0.0, -np.inf)
        experiment.holds(np.array_equal(visible, np.tril(np.ones((t, t), bool))),
                         "visible set is the lower triangle with the diagonal")
        x = rng.standard_normal((3, t, 4))
        out, tol = attention(*x, mask=mask), attention_tolerance(*x, 0.5)
        kept, again, moved = [], [], []
        for p in range(t):
            later = x.copy()
            later[:, p + 1:] = rng.standard_normal(later[:, p + 1:].shape)
            kept.append(out[:p + 1])
            again.append(attention(*later, mask=mask)[:p + 1])
            own = x.copy()
            own[1:, p] = rng.standard_normal((2, 4))
            moved.append(np.max(np.abs(attention(*own, mask=mask)[p] - out[p])))
        experiment.close(np.concatenate(again), np.concatenate(kept), tol,
                         "rows 1…p unchanged when tokens after p are redrawn", inputs="T=8, d=4")
        experiment.holds(bool(np.all(np.array(moved) > tol)), "row p moves when token p changes",
                         f"smallest change {np.nanmin(moved):.2g}, tol {tol:.2g}")

    def plot(self):
        # Illustrative only, not part of the check: fixed seed, T = 16 tokens, d = 8.
        rng, t = np.random.default_rng(606), 16
        pos = np.arange(1, t + 1)
        visible = np.broadcast_to(sp.lambdify((i, j), CAUSAL_VISIBLE)(pos[:, None], pos[None, :]),
                                  (t, t))
        q, k = rng.standard_normal((2, t, 8))
        weights = softmax(q @ k.T / np.sqrt(8) + np.where(visible, 0.0, -np.inf))
        return Plot("Causal attention weights, T = 16 (exactly 0 above the diagonal)",
                    heatmap=tuple(tuple(float(w) for w in row) for row in weights),
                    xlabel="key position j (0-based)", ylabel="query position i (0-based)")


@claim(
    id="padding-mask-invariance",
    title="With −∞ on padded columns, outputs ignore whatever the padded tokens hold",
    section="6.3",
    statement=Statement("M_ij = −∞ for padded j makes every output independent of padded k_j, v_j",
                        -sp.oo, lhs=sp.Symbol("M_ij (j padded)")),
    premises=("tokens n+1…T are padding (right padding; attention is invariant to reordering "
              "key/value pairs, so any padded set works the same)", "M_ij = 0 for real j",
              "key k_p reaches out_i only through the score s_ip = q_iᵀk_p/√d_k"),
    foils=(Foil("no mask is needed (M = 0)", sp.Integer(0)),
           Foil("a mild penalty −10 suffices", sp.Integer(-10))),
    sources=(VASWANI,),
    tags=("mask", "padding"),
    formulas=(r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ 不是 padding} \\ -\infty & \text{if } j \text{ 是 padding} \end{cases}",),
    formula_spellings={r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ 不是 padding} \\ -\infty & \text{if } j \text{ 是 padding} \end{cases}": (
        r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ is not padding} \\ -\infty & \text{if } j \text{ is padding} \end{cases}",)},
)
class PaddingMaskInvariance:
    """exp(s − ∞) = 0 removes padded keys from numerator and normaliser alike; any finite
    penalty leaves them a positive weight."""

    def perturbations(self, value):
        return [("a finite penalty −20 (weight ≈ 2·10⁻⁹ per padded key)", sp.Integer(-20))]

    def prove(self, pad, proof):
        def part(first, last, extra, f):
            return sp.Sum(sp.exp(_score(i, j) + extra) * f, (j, first, last))
        out = (proof.chain((part(1, n, 0, v[j]) + part(n + 1, T, pad, v[j]))
                           / (part(1, n, 0, 1) + part(n + 1, T, pad, 1)),
                           "out_i, padded keys n+1…T")
               .evaluate("exp(s + M) for padded keys")).value
        p = n + 1 + delta
        by_v = _derivative(proof, out, v[p], "∂out_i/∂v_p, p padded")
        by_k = _derivative(proof, out, sc[i, p], "∂out_i/∂s_ip, p padded")
        proof.conclude((0, 0), by_v, by_k, method="expand")

    def check(self, pad, experiment):
        rng, t, fill = experiment.rng, 9, float(pad)
        x = rng.standard_normal((3, 2, t, 4))
        for batch, real in enumerate((6, 3)):
            seq = x[:, batch]
            mask = np.where(np.arange(t) >= real, fill, 0.0)
            out, tol = attention(*seq, mask=mask), attention_tolerance(*seq, 0.5)
            experiment.close(out[:real], attention(*seq[:, :real]), tol,
                             "same as the unpadded sequence", inputs=f"n={real} real of T={t}")
            redrawn = seq.copy()
            redrawn[:, real:] = 5 * rng.standard_normal(redrawn[:, real:].shape)
            experiment.close(attention(*redrawn, mask=mask)[:real], out[:real], tol,
                             "padded tokens redrawn", inputs=f"n={real} real of T={t}")


@claim(
    id="masks-combine",
    title="Adding a causal and a padding mask keeps a position only if both keep it",
    section="6.3",
    statement=Statement("M_causal + M_pad = min(M_causal, M_pad) entrywise on {0, −∞}",
                        sp.Min(a, b), lhs=sp.Symbol("M_causal + M_pad")),
    premises=("both masks take values in {0, −∞}",),
    foils=(Foil("a position is kept if either mask keeps it (max)", sp.Max(a, b)),),
    sources=(VASWANI,),
    tags=("mask", "causal", "padding"),
)
class MasksCombine:
    """In the weight domain exp(M) ∈ {1, 0} is an indicator, and exp(a + b) = exp(a)·exp(b):
    the sum of masks is the logical AND of the two visibility patterns."""

    def perturbations(self, value):
        return [("the padding mask is lost: only M_causal counts", a)]

    def prove(self, combine, proof):
        chains = [proof.chain(sp.exp(sp.Add(x, y, evaluate=False)), f"exp(M) at ({x}, {y})")
                  .evaluate("exp(−∞) = 0") for x, y in MASK_PAIRS]    # the whole domain
        proof.conclude(tuple(sp.exp(combine.subs({a: x, b: y})) for x, y in MASK_PAIRS), *chains)

    def check(self, combine, experiment):
        rng, t = experiment.rng, 7
        lengths = np.array([7, 4, 1])
        causal = np.where(np.tril(np.ones((t, t), bool)), 0.0, -np.inf)
        pad = np.where(np.arange(t)[None, None, :] >= lengths[:, None, None], -np.inf, 0.0)
        mc, mp = np.broadcast_arrays(causal, pad)
        stated = np.broadcast_to(sp.lambdify((a, b), combine)(mc, mp), mc.shape)
        experiment.holds(np.array_equal(mc + mp, stated), "M_causal + M_pad equals the stated rule")
        x = rng.standard_normal((3, len(lengths), t, 4))
        expected = np.zeros((len(lengths), t, 4))
        for bi, length in enumerate(lengths):
            for row in range(t):
                keep = (np.arange(t) <= row) & (np.arange(t) < length)
                q_row, k_kept, v_kept = x[0, bi, row:row + 1], x[1, bi, keep], x[2, bi, keep]
                expected[bi, row] = attention(q_row, k_kept, v_kept)[0]
        experiment.close(attention(*x, mask=stated), expected, attention_tolerance(*x, 0.5),
                         "attention with the stated mask vs softmax over j ≤ i and j unpadded")


@claim(
    id="large-negative-mask",
    title="A finite penalty c moves the weights by 2Re^c/(S+Re^c); at −10⁹ that is 0 in float64",
    section="6.3",
    statement=Statement("‖softmax(z + c·1_masked) − softmax(z + M_∞)‖₁ = 2Re^c/(S + Re^c)",
                        2 * R * sp.exp(c) / (S + R * sp.exp(c))),
    premises=("S = Σ_visible e^{z_j}, R = Σ_masked e^{z_j}",
              "float64 exp rounds x < ln 2^−1075 to 0"),
    foils=(Foil("the distance is Re^c/(S + Re^c) (visible side forgotten)",
                R * sp.exp(c) / (S + R * sp.exp(c))),
           Foil("the distance is 2Re^c/S", 2 * R * sp.exp(c) / S)),
    sources=(VASWANI, IEEE),
    tags=("mask", "floating-point"),
)
class LargeNegativeMask:
    """The masked keys take total weight ε = Re^c/(S+Re^c) and the visible ones lose exactly
    ε, so the L1 gap is 2ε. With c = −10⁹ and |scores| ≤ 10⁸ the shifted masked logit is below
    −745.14, where float64 exp is exactly 0: the computed weights are identical to the −∞ ones."""

    def prove(self, value, proof):
        zz, jj = sp.IndexedBase("z", real=True), sp.Symbol("j", integer=True, positive=True)
        loss = 1 / S - 1 / (S + R * sp.exp(c))
        proof.holds(loss > 0, "visible weights only shrink, so |Δw_j| = Δw_j")
        visible_sum = sp.Sum(sp.exp(zz[jj]), (jj, 1, n))
        masked_mass = R * sp.exp(c) / (S + R * sp.exp(c))
        gap = (proof.chain(sp.Sum(sp.exp(zz[jj]) * loss, (jj, 1, n)) + masked_mass,
                           "Σ_visible |Δw_j| + Σ_masked w_m")
               .equals(loss * visible_sum + masked_mass, "the factor is free of j")
               .substitute({visible_sum: S}, premise="S = Σ_visible e^{z_j}"))
        proof.holds(sp.Integer(-10**9) + 2 * 10**8 < sp.log(sp.Rational(1, 2**1075)),
                    "−10⁹ + 2·10⁸ < ln 2^−1075")
        proof.conclude(value, gap)

    def check(self, value, experiment):
        z, masked = _logits(experiment.rng, 5, 12, 0.5)
        e = np.exp(z)
        s_vis = np.where(masked, 0.0, e).sum(axis=1)
        r_mask = np.where(masked, e, 0.0).sum(axis=1)
        w_inf = softmax(z + np.where(masked, -np.inf, 0.0))
        gap = sp.lambdify((S, R, c), value)
        for pen in (-2.0, -8.0):
            logits = z + np.where(masked, pen, 0.0)
            l1 = np.abs(softmax(logits) - w_inf).sum(axis=1)
            # T weight differences, each within softmax_tolerance of the larger-range logits;
            # summing T terms of total ≤ 2 adds γ_T·2; the stated gap's own exp/sums ≤ γ_{T+4}·2
            tol = z.shape[1] * softmax_tolerance(logits) + tolerance(2 * z.shape[1] + 4, 2.0)
            experiment.close(l1, gap(s_vis, r_mask, pen), tol, "L1 gap", inputs=f"c = {pen:g}")
        experiment.holds(np.exp(-745.14) == 0.0 < np.exp(-745.13),
                         "float64 exp underflows to 0 just below −745.13")
        for name, pen in (("−10⁹", -1e9), ("float64 min", float(np.finfo(np.float64).min)),
                          ("float32 min", float(np.finfo(np.float32).min))):
            l1 = np.abs(softmax(z + np.where(masked, pen, 0.0)) - w_inf).sum(axis=1)
            exact = [value.subs({S: sp.Float(sv), R: sp.Float(rm), c: sp.Float(pen)}).evalf(30)
                     for sv, rm in zip(s_vis, r_mask)]
            digits = max(float(sp.log(g, 10).evalf()) for g in exact)   # log10 of the true gap
            experiment.holds(bool(np.all(l1 == 0.0)) and digits < -1074 * np.log10(2.0),
                             "computed gap exactly 0, true gap below 2^−1074",
                             f"c = {name}: largest computed {l1.max():.2g}, "
                             f"largest true 10^{digits:.4g}")


@claim(
    id="mask-inside-scaling",
    title="Inside (QKᵀ + M)/√d_k a mask entry c acts as c/√d_k, and −∞/√d_k = −∞",
    section="6.1",
    statement=Statement("the penalty a mask entry c adds to the scaled logit is c/√d_k",
                        c / sp.sqrt(d_k), lhs=sp.Symbol("penalty")),
    premises=("d_k > 0", "M_ij ∈ {0, c}, −∞ being the limit c → −∞"),
    foils=(Foil("dividing by √d_k leaves a finite mask value unchanged (penalty c)", c),),
    sources=(VASWANI,),
    tags=("mask", "scaling"),
    formulas=(r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T + M}{\sqrt{d_k}}\right) V",),
)
class MaskInsideScaling:
    """Division by √d_k rescales the penalty; a finite c therefore weakens by √d_k, but the
    limit c → −∞ still removes masked keys, so the notes' placement of M is harmless for ±∞."""

    def prove(self, penalty, proof):
        shift = (proof.chain((s_ + c) / sp.sqrt(d_k) - s_ / sp.sqrt(d_k),
                             "scaled logit minus the unmasked one")
                 .equals(c / sp.sqrt(d_k), "expand", method="expand"))
        masked = (proof.chain(sp.exp(z_m + penalty) / (S + R * sp.exp(penalty)), "masked weight")
                  .limit(c, -sp.oo))
        visible = (proof.chain(sp.exp(z_j) / (S + R * sp.exp(penalty)), "visible weight")
                   .limit(c, -sp.oo))
        proof.conclude((penalty, 0, VISIBLE_WEIGHT), shift, masked, visible)

    def check(self, penalty, experiment):
        rng, d = experiment.rng, 16
        z, masked = _logits(rng, 6, 7, 0.4)
        z *= np.sqrt(d)                       # raw scores qᵀk have spread √d_k
        for entry in (-3.0, -1e9, -np.inf):
            notes = softmax((z + np.where(masked, entry, 0.0)) / np.sqrt(d))
            entry_sym = sp.Float(entry) if np.isfinite(entry) else -sp.oo
            pen = float(penalty.subs({c: entry_sym, d_k: d}))
            usual = softmax(z / np.sqrt(d) + np.where(masked, pen, 0.0))
            # the notes' form rounds twice more per logit (add, divide): doubling covers it
            experiment.close(notes, usual, softmax_tolerance(z / np.sqrt(d)) * 2,
                             "softmax((S+M)/√d_k) vs softmax(S/√d_k + penalty)",
                             inputs=f"M_ij = {entry:g}")
