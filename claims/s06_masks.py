"""Section 6: masks: −∞ entries, causal and padding masks, their sum, finite stand-ins."""

import math

import numpy as np
import sympy as sp

from tmath import Definition, Foil, Premise, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance
from tmath.engine.plots import Plot
from tmath.engine.rules import FACTOR_OUT
from tmath.reference import definitions
from tmath.reference.kernels import (attention_tolerance, formula_values, log10_of, mask_entry,
                                     masked_logits, softmax_tolerance)
from tmath.reference.nn import attention, softmax
from ._bibliography import IEEE754_2019, VASWANI2017
from ._notes import formula, said

VASWANI = VASWANI2017.at("§3.2.3 (masking with −∞)",
                         unverified="the section number was not checked against the paper")
IEEE = IEEE754_2019.at("the smallest positive float64 is 2^−1074, so exp(x) rounds to 0 for "
                       "x < ln 2^−1075 ≈ −745.13",
                       unverified="the value was not checked against the standard's text")

z, s, v = (sp.IndexedBase(name, real=True) for name in ("z", "s", "v"))   # logits, scores, values
S, R = sp.symbols("S R", positive=True)   # Σ_visible e^{z}, Σ_masked e^{z}
c = sp.Symbol("c", real=True)             # the value put in masked entries
d_k, T, n = sp.symbols("d_k T n", positive=True, integer=True)
i, j, l, p = sp.symbols("i j l p", positive=True, integer=True)
S_i = sp.Symbol("S_i", positive=True)     # row i's normaliser over the keys it sees
M = sp.IndexedBase("M")                   # the mask added to the logits, entries M[i, j]
CAUSAL = Definition("causal mask: query i keeps key j iff j ≤ i",
                    {M[i, j]: sp.Piecewise((0, sp.Ge(i, j)), (-sp.oo, True))})
PAD = sp.Symbol("key j is padding")   # a proposition: real keys are kept, padded ones masked
PADDING = Definition("padding mask", {M[i, j]: sp.Piecewise((0, sp.Not(PAD)), (-sp.oo, PAD))})
SAID_PAD = {**said("padded key", PAD), **said("real key", sp.Not(PAD))}   # "j is (not) padding"
Qm, Km, Vm = sp.symbols("Q K V", commutative=False)    # query, key and value matrices
MASK_INSIDE = definitions.attention(Qm, Km, Vm, d_k, mask=M)
SUMS = Premise("visible positions 1…n, masked n+1…T: S = Σ_visible e^{z_l}, R = Σ_masked e^{z_l}",
               {sp.Sum(sp.exp(z[l]), (l, 1, n)): S, sp.Sum(sp.exp(z[l]), (l, n + 1, T)): R})
PENALISED = sp.Sum(sp.exp(z[l]), (l, 1, n)) + sp.Sum(sp.exp(z[l]) * sp.exp(c), (l, n + 1, T))
ROWS = Integers(2, 256, (2, 256))         # sequence lengths of the mask checks (one masked key)
MASKED_SHARE = Reals(0, 0.95, (0.5, 0.95))


def _sums(chain):
    """Constants out of the sums, then S and R."""
    return chain.apply(FACTOR_OUT).substitute(dict(SUMS.equations), premise=SUMS)


@claim(
    id="masked-softmax-renormalises",
    title="A −∞ logit gets weight exactly 0; the others renormalise over the visible set",
    section="6.1",
    statement=Statement("softmax(z + M)_j = e^{z_j}/S for visible j and 0 for masked j, "
                        "S = Σ_visible e^{z_l}", (sp.exp(z[j]) / S, sp.Integer(0)),
                        lhs=(sp.Limit(sp.exp(z[j]) / PENALISED, c, -sp.oo),
                             sp.Limit(sp.exp(z[p]) * sp.exp(c) / PENALISED, c, -sp.oo))),
    premises=(SUMS, "M_j ∈ {0, −∞}, −∞ being the limit c → −∞ of a finite entry c",
              "at least one visible position"),
    foils=(Foil("the visible weights keep their unmasked values e^{z_j}/(S + R)",
                (sp.exp(z[j]) / (S + R), sp.Integer(0))),),
    sources=(VASWANI,),
    tags=("mask", "softmax"),
)
class MaskedSoftmaxRenormalises:
    """With penalty c the masked terms contribute R·e^c to the normaliser; as c → −∞ that
    vanishes, so masking is the same as a softmax over the visible positions only."""

    def prove(self, value, proof):
        visible, masked = (_sums(proof.chain(part.args[0], label)).limit(c, -sp.oo)
                           for part, label in zip(proof.statement.lhs, ("visible weight, penalty c",
                                                                        "masked weight, penalty c")))
        proof.conclude(value, visible, masked)

    def check(self, value, experiment):
        for pt in experiment.draw({T: ROWS, "masked share": MASKED_SHARE}):
            logits, masked = masked_logits(experiment.rng, 4, pt[T], pt["masked share"])
            e = np.exp(logits)
            sums = {S: np.where(masked, 0.0, e).sum(axis=1), R: np.where(masked, e, 0.0).sum(axis=1)}
            positions = np.arange(1, pt[T] + 1)
            stated = [formula_values(part, {z: logits.T}, {j: positions, p: positions, **sums},
                                     shape=logits.T.shape).T for part in value]
            weights = softmax(logits + np.where(masked, -np.inf, 0.0))
            experiment.holds(np.array_equal(weights[masked], stated[1][masked]),
                             "masked weights are exactly the stated value", at=pt)
            experiment.close(weights[~masked], stated[0][~masked], softmax_tolerance(logits),
                             "visible weights vs the stated e^{z_j}/S", at=pt)


OUT_I = sp.Sum(sp.exp(s[i, j]) * v[j], (j, 1, i)) / S_i        # out_i over the keys j ≤ i


def _dependence(relation):
    return sp.Piecewise((sp.exp(s[i, p]), relation), (0, True)) / S_i


@claim(
    id="causal-mask-no-future",
    title="Under the causal mask, output i depends on tokens 1…i only, itself included",
    section="6.2",
    statement=Statement("M_ij = 0 iff i ≥ j: ∂out_i/∂v_p = e^{s_ip}/S_i for p ≤ i and 0 for p > i "
                        "(future keys and values have no effect, token i is seen)",
                        _dependence(sp.Ge(i, p)), lhs=sp.Derivative(OUT_I, v[p])),
    premises=("M_ij = 0 if i ≥ j, −∞ if i < j: by masked-softmax-renormalises the keys j > i get "
              "weight 0, so out_i = Σ_{j≤i} e^{s_ij} v_j / S_i, S_i = Σ_{l≤i} e^{s_il}",
              "positions 1 ≤ i, p ≤ T", "key k_p reaches out_i only through the score s_ip"),
    foils=(Foil("the mask is upper triangular (i ≤ j visible)", _dependence(sp.Le(i, p))),
           Foil("a token must not see itself (i > j visible)", _dependence(sp.Gt(i, p)),
                why="row 1 is then entirely masked and its softmax is 0/0"),
           Foil("a causal window of 4 tokens (i − 4 < j ≤ i visible)",
                _dependence(sp.And(sp.Ge(i, p), sp.Lt(i - p, 4))))),
    depends_on=("masked-softmax-renormalises",),
    sources=(VASWANI,),
    tags=("mask", "causal"),
    definitions=(CAUSAL,),
    formulas=(r"M_{ij} = \begin{cases} 0 & \text{if } i \geq j \\ -\infty & \text{if } i < j \end{cases}",),
)
class CausalMaskNoFuture:
    """Masked keys drop out of both sums of the softmax, so every later key and value is
    absent from output i, for any sequence length, position and head width."""

    def prove(self, value, proof):
        proof.conclude(value, proof.chain(OUT_I, "out_i over the unmasked j").differentiate(v[p]))

    def check(self, value, experiment):
        rng = experiment.rng
        for pt in experiment.draw({T: Integers(1, 64, (1, 64), log=False), d_k: Integers(1, 64)}):
            t, dk = pt[T], pt[d_k]
            q, k, vals = rng.standard_normal((3, t, dk))
            rows = np.arange(1, t + 1)
            mask = formula_values(CAUSAL.equations[0][1], {}, {i: rows[:, None], j: rows[None, :]},
                                  shape=(t, t))                             # the defined M
            scores = q @ k.T / math.sqrt(dk)
            normalisers = np.where(np.isfinite(mask), np.exp(scores), 0.0).sum(axis=1)
            stated = formula_values(value, {s: scores}, {i: rows[:, None], p: rows[None, :],
                                                         S_i: normalisers[:, None]}, shape=(t, t))
            experiment.close(stated, attention(q, k, np.eye(t), mask=mask),
                             softmax_tolerance(scores), "∂out_i/∂v_p vs the masked softmax weights", at=pt)
            out, moved = attention(q, k, vals, mask=mask), 0.0
            for row in range(t):
                ignored = stated[row] == 0          # where the statement says out_i does not look
                k2, v2 = k.copy(), vals.copy()
                k2[ignored], v2[ignored] = rng.standard_normal((2, int(ignored.sum()), dk))
                moved = max(moved, float(np.max(np.abs(attention(q[row:row + 1], k2, v2,
                                                                 mask=mask[row:row + 1])[0] - out[row]))))
            experiment.close(moved, 0.0, attention_tolerance(q, k, vals, 1 / math.sqrt(dk)),
                             "out_i unchanged when the tokens it ignores are redrawn", at=pt)

    def plot(self):
        # Illustrative only, not part of the check: fixed seed, T = 16 tokens, d = 8.
        rng, t = np.random.default_rng(606), 16
        q, k = rng.standard_normal((2, t, 8))
        weights = softmax(q @ k.T / np.sqrt(8) + np.where(np.tril(np.ones((t, t), bool)), 0.0, -np.inf))
        return Plot("Causal attention weights, T = 16 (exactly 0 above the diagonal)",
                    heatmap=tuple(tuple(float(w) for w in row) for row in weights),
                    xlabel="key position j (0-based)", ylabel="query position i (0-based)")


u, s_p, v_p = sp.Symbol("u", nonnegative=True), sp.Symbol("s_p", real=True), sp.Symbol("v_p", real=True)
A, B, R_p = sp.symbols("A B R_p", real=True)


@claim(
    id="padding-mask-invariance",
    title="With −∞ on padded columns, outputs ignore whatever the padded tokens hold",
    section="6.3",
    statement=Statement("exp(M_ij) = 0 for padded j (M_ij = −∞) makes every output independent "
                        "of padded k_j, v_j", sp.Integer(0), lhs=sp.Symbol("exp(M_pad)")),
    premises=(Premise("a mask entry M multiplies its key's e^{s} by u = e^M ∈ [0, 1]; with "
                      "padded key p: out_i = (A + u·(e^{s_p} v_p + B)) / (S + u·(e^{s_p} + R_p)), "
                      "A, S over the real keys, B, R_p over the other padded keys"),
              "key k_p reaches out_i only through the weight u·e^{s_ip}, so u = 0 removes it too"),
    foils=(Foil("no mask is needed (M = 0)", sp.Integer(1)),
           Foil("a mild penalty −10 suffices", sp.exp(-10)),
           Foil("a penalty of −1000 is −∞ (its factor underflows to 0 in float64)", sp.exp(-1000),
                why="e^{−1000} ≈ 5·10⁻⁴³⁵ is not 0: the padded keys keep a positive weight")),
    sources=(VASWANI,),
    tags=("mask", "padding"),
    definitions=(PADDING,),
    notation=SAID_PAD,
    formulas=(formula("padding mask"),),
    formula_spellings={formula("padding mask"): (
        r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ is not padding} \\ -\infty & "
        r"\text{if } j \text{ is padding} \end{cases}",)},
)
class PaddingMaskInvariance:
    """The padded value v_p moves out_i by u·e^{s_p}/(S + u(e^{s_p} + R_p)), zero only for
    u = e^M = 0, i.e. M = −∞; any finite penalty leaves a positive weight, which the check
    finds in the log domain even when float64 outputs cannot show it."""

    def prove(self, factor, proof):
        out = (A + u * (sp.exp(s_p) * v_p + B)) / (S + u * (sp.exp(s_p) + R_p))
        by_value = proof.chain(out, "out_i with padded key p").differentiate(v_p)
        proof.conclude(factor, proof.root(by_value, u, sp.Symbol("exp(M_pad)"),
                                          "the factor that removes v_p"))

    def check(self, factor, experiment):
        rng, fill = experiment.rng, mask_entry(factor)
        for pt in experiment.draw({T: Integers(2, 128, (2, 128)), "padded share": Reals(0.05, 0.9),
                                   d_k: Integers(1, 32)}):
            t, dk = pt[T], pt[d_k]
            real = min(t - 1, max(1, int(round(t * (1 - pt["padded share"])))))
            q, k, vals = rng.standard_normal((3, t, dk))
            mask = np.where(np.arange(t) >= real, fill, 0.0)
            logits = q @ k.T / math.sqrt(dk) + mask
            shifted = logits - np.max(logits, axis=1, keepdims=True)
            log_weights = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
            experiment.holds(np.all(log_weights[:, real:] == -np.inf),
                             "padded keys have log-weight −∞ (weight exactly 0)", at=pt)
            k2, v2 = k.copy(), vals.copy()
            k2[real:], v2[real:] = 5 * rng.standard_normal((2, t - real, dk))
            experiment.close(attention(q, k2, v2, mask=mask), attention(q, k, vals, mask=mask),
                             attention_tolerance(q, k2, v2, 1 / math.sqrt(dk)),
                             "outputs unchanged when the padded tokens are redrawn", at=pt)


a, b = sp.symbols("a b", real=True)       # entries of the causal and the padding mask


@claim(
    id="masks-combine",
    title="Adding a causal and a padding mask keeps a position only if both keep it",
    section="6.3",
    statement=Statement("exp(M_causal + M_pad) = exp(M_causal)·exp(M_pad): the two masks' weight "
                        "factors multiply, so on {0, −∞} a key is kept only where both keep it",
                        sp.exp(a) * sp.exp(b), lhs=sp.exp(a + b)),
    premises=("entries in {0, −∞} (−∞ as the limit of a finite penalty), or any finite penalties",),
    foils=(Foil("a position is kept if either mask keeps it (max)", sp.Max(sp.exp(a), sp.exp(b))),
           Foil("the padding mask is lost: only M_causal counts", sp.exp(a))),
    sources=(VASWANI,),
    tags=("mask", "causal", "padding"),
)
class MasksCombine:
    """In the weight domain a mask multiplies each key's e^{s} by e^M ∈ {1, 0}, and
    exp(a + b) = exp(a)·exp(b): the sum of masks is the logical AND of the two visibility
    patterns. The identity holds for finite penalties too, which the check also uses."""

    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.exp(a + b), "weight factor of M_causal + M_pad")
                       .equals(sp.exp(a) * sp.exp(b), "e^{a+b} = e^a·e^b", method="expand"))

    def check(self, value, experiment):
        rng = experiment.rng
        for pt in experiment.draw({T: Integers(2, 64, (2, 64)), "c_causal": Reals(-40, -0.1),
                                   "c_pad": Reals(-40, -0.1, (-0.1, -40))}):
            t, lengths = pt[T], rng.integers(1, pt[T] + 1, size=3)
            causal = np.where(np.tril(np.ones((t, t), bool)), 0.0, 1.0)
            pad = (np.arange(t)[None, None, :] >= lengths[:, None, None]).astype(float)
            scores = rng.standard_normal((3, t, t)) * 3
            for penalty, label in ((-np.inf, "−∞ masks"), (None, "finite penalties")):
                mc = np.where(causal > 0, pt.c_causal if penalty is None else penalty, 0.0)
                mp = np.where(pad > 0, pt.c_pad if penalty is None else penalty, 0.0)
                mc, mp = np.broadcast_arrays(mc, mp)
                factor = formula_values(value, {}, {a: mc, b: mp}, shape=mc.shape)
                # factors down to e^−80 are compared relatively, each with its own bound: three
                # exps (NumPy's errs by up to 1.1u: 2 each) and a product, and the sum's
                # rounding u|a+b| becomes a relative error of exp
                logits = scores + mc + mp
                largest = np.abs(logits[np.isfinite(logits)]).max(initial=0.0)
                exponent = np.abs(mc + mp)
                experiment.close_relative(
                    factor, np.exp(mc + mp),
                    7 + math.ceil(exponent[np.isfinite(exponent)].max(initial=0.0)),
                    f"stated factor vs exp(M_causal + M_pad), {label}", at=pt)
                weighted = factor * np.exp(scores)
                # softmax_tolerance's bound γ_{T+2}·2(1 + 2 max|z|) is relative per weight
                experiment.close_relative(
                    weighted / weighted.sum(axis=-1, keepdims=True), softmax(logits),
                    (t + 2) * math.ceil(2 * (1 + 2 * largest)),
                    f"weights from the stated factor vs softmax(S + M_causal + M_pad), {label}",
                    at=pt)


@claim(
    id="large-negative-mask",
    title="A finite penalty c moves the weights by 2Re^c/(S+Re^c); at −10⁹ that is 0 in float64",
    section="6.3",
    statement=Statement("‖softmax(z + c·1_masked) − softmax(z + M_∞)‖₁ = 2Re^c/(S + Re^c)",
                        2 * R * sp.exp(c) / (S + R * sp.exp(c)),
                        lhs=sp.Sum(sp.Abs(sp.exp(z[l]) / (S + R * sp.exp(c)) - sp.exp(z[l]) / S),
                                   (l, 1, n))
                        + sp.Sum(sp.exp(z[l]) * sp.exp(c) / (S + R * sp.exp(c)), (l, n + 1, T))),
    premises=(SUMS, "float64 exp rounds x < ln 2^−1075 to 0"),
    foils=(Foil("the distance is Re^c/(S + Re^c) (visible side forgotten)",
                R * sp.exp(c) / (S + R * sp.exp(c))),
           Foil("the distance is 2Re^c/S", 2 * R * sp.exp(c) / S)),
    sources=(VASWANI, IEEE),
    tags=("mask", "floating-point"),
)
class LargeNegativeMask:
    """The masked keys take total weight ε = Re^c/(S+Re^c) and the visible ones lose exactly
    ε, so the L1 gap is 2ε. With c = −10⁹ and |scores| ≤ 10⁸ the shifted masked logit is below
    −745.14, where float64 exp is exactly 0: the computed weights are identical to the −∞ ones.
    A row with every key masked is outside the statement: −∞ gives 0/0 there, −10⁹ a uniform
    row, which the check records."""

    def prove(self, value, proof):
        shrink = sp.Sum(sp.exp(z[l]) * R * sp.exp(c) / (S * (S + R * sp.exp(c))), (l, 1, n))
        gap = (proof.chain(proof.statement.lhs, "Σ_visible |Δw_j| + Σ_masked w_m")
               .equals(shrink + proof.statement.lhs.args[0], "visible weights only shrink",
                       method="doit"))
        proof.conclude(value, _sums(gap))

    def check(self, value, experiment):
        for pt in experiment.draw({T: Integers(2, 256, (2, 256)), "masked share": MASKED_SHARE,
                                   c: Reals(-20, 2, (-20, 2))}):
            logits, masked = masked_logits(experiment.rng, 4, pt[T], pt["masked share"])
            e = np.exp(logits)
            sums = {S: np.where(masked, 0.0, e).sum(axis=1), R: np.where(masked, e, 0.0).sum(axis=1)}
            w_inf = softmax(logits + np.where(masked, -np.inf, 0.0))
            penalised = logits + np.where(masked, pt[c], 0.0)
            l1 = np.abs(softmax(penalised) - w_inf).sum(axis=1)
            # T weight differences, each within softmax_tolerance of the larger-range logits;
            # summing T terms of total ≤ 2 adds γ_T·2; the stated gap's own exp/sums ≤ γ_{T+4}·2
            tol = pt[T] * softmax_tolerance(penalised) + tolerance(2 * pt[T] + 4, 2.0)
            experiment.close(l1, formula_values(value, {}, {**sums, c: pt[c]}, shape=l1.shape), tol,
                             "L1 gap", at=pt)
        log_gap = sp.expand_log(sp.log(value), force=True)    # the true gap, in the log domain
        logits, masked = masked_logits(experiment.rng, 4, 16, 0.5)
        e = np.exp(logits)
        sums = {S: np.where(masked, 0.0, e).sum(axis=1), R: np.where(masked, e, 0.0).sum(axis=1)}
        w_inf = softmax(logits + np.where(masked, -np.inf, 0.0))
        for name, pen in (("−10⁹", -1e9), ("float32 min", float(np.finfo(np.float32).min))):
            l1 = np.abs(softmax(logits + np.where(masked, pen, 0.0)) - w_inf).sum(axis=1)
            digits = max(log10_of(log_gap.subs({S: sp.Float(sv), R: sp.Float(rm), c: sp.Float(pen)}))
                         for sv, rm in zip(sums[S], sums[R]) if rm > 0)
            experiment.holds(bool(np.all(l1 == 0.0)) and digits < -1074 * math.log10(2.0),
                             f"c = {name}: computed gap exactly 0, true gap below 2^−1074",
                             f"largest computed {l1.max():.2g}, largest true 10^{digits:.4g}")
        experiment.holds(np.exp(-745.14) == 0.0 < np.exp(-745.13),
                         "float64 exp underflows to 0 just below −745.13",
                         sanity="the float64 fact the −10⁹ stand-in relies on")
        full = np.zeros((1, 4))
        experiment.holds(bool(np.all(np.isnan(softmax(full - np.inf))))
                         and np.allclose(softmax(full - 1e9), 0.25),
                         "a fully masked row: NaN with −∞, uniform with −10⁹",
                         sanity="documents what the notes leave out: a row with no visible key")


@claim(
    id="mask-inside-scaling",
    title="Inside (QKᵀ + M)/√d_k a mask entry c acts as c/√d_k, and −∞/√d_k = −∞",
    section="6.1",
    statement=Statement("the penalty a mask entry c adds to the scaled logit is c/√d_k",
                        c / sp.sqrt(d_k), lhs=(sp.Symbol("s", real=True) + c) / sp.sqrt(d_k)
                        - sp.Symbol("s", real=True) / sp.sqrt(d_k)),
    premises=("d_k > 0", "M_ij ∈ {0, c}, −∞ being the limit c → −∞"),
    foils=(Foil("dividing by √d_k leaves a finite mask value unchanged (penalty c)", c),
           Foil("the mask is divided by d_k (penalty c/d_k)", c / d_k)),
    sources=(VASWANI,),
    tags=("mask", "scaling"),
    definitions=(MASK_INSIDE,),
    formulas=(r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T + M}{\sqrt{d_k}}\right) V",),
)
class MaskInsideScaling:
    """Division by √d_k rescales the penalty; a finite c therefore weakens by √d_k, but the
    limit c → −∞ still removes masked keys, so the notes' placement of M is harmless for ±∞."""

    def prove(self, penalty, proof):
        proof.conclude(penalty, proof.chain(proof.statement.lhs, "scaled logit minus the unmasked one")
                       .equals(c / sp.sqrt(d_k), "expand", method="expand"))

    def check(self, penalty, experiment):
        for pt in experiment.draw({d_k: Integers(1, 1024), c: Reals(-40, -0.5, (-40, -0.5))}):
            raw, masked = masked_logits(experiment.rng, 6, 7, 0.4)
            raw *= math.sqrt(pt[d_k])                  # raw scores qᵀk have spread √d_k
            for entry, label in ((pt[c], "a finite entry c"), (-np.inf, "−∞ entries")):
                notes = softmax((raw + np.where(masked, entry, 0.0)) / math.sqrt(pt[d_k]))
                stated = formula_values(penalty, {}, {c: entry, d_k: pt[d_k]})
                usual = softmax(raw / math.sqrt(pt[d_k]) + np.where(masked, stated, 0.0))
                # the notes' form rounds twice more per logit (add, divide): doubling covers it
                experiment.close(notes, usual, 2 * softmax_tolerance(raw / math.sqrt(pt[d_k])),
                                 f"softmax((S+M)/√d_k) vs softmax(S/√d_k + penalty), {label}", at=pt)
