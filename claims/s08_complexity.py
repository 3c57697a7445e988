"""Section 8: what attention and the FFN cost, and two ways around the T² term."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Choice, Integers, Reals, tolerance
from tmath.engine.parameters import evaluate
from tmath.engine.plots import Plot, Series
from tmath.engine.rules import DISTRIBUTE, SWAP_SUMS
from tmath.engine.rules_sums import FACTOR_OUT_OF_INNER
from tmath.reference import flops, indexed, tiling
from tmath.reference.configurations import TRANSFORMER_BASE as BASE
from tmath.reference.flops import count
from tmath.reference.formulas import exp_sum, s as s_, v as v_
from tmath.reference.nn import attention
from ._bibliography import DAO2022, KATHAROPOULOS2020, RADFORD2019, VASWANI2017
from ._notes import printed

VASWANI = VASWANI2017.at("§4 and Table 1",
                         unverified="§4 and Table 1 were not checked against the paper")
RADFORD = RADFORD2019.at("§2.3 (context size increased from 512 to 1024 tokens)")
KATHAROPOULOS = KATHAROPOULOS2020.at(
    "§3.2", unverified="the section number was not checked against the paper")
DAO = DAO2022.at("§3.1 and Algorithm 1",
                 unverified="the section and algorithm numbers were not checked against the "
                            "paper")
# Context lengths of GPT and GPT-2 as reported by Radford et al. (2019) §2.3: facts about those
# models, recorded with their source, not derived.
CONTEXT_LENGTH = {"GPT": 512, "GPT-2": 1024}
# Table 3 of Vaswani et al., base model.

T, d, d_ff, h, w = sp.symbols("T d d_ff h w", positive=True, integer=True)
i, j, c, e, n = sp.symbols("i j c e n", integer=True)
T_star = sp.Symbol("T*")
EXACT = 0  # integer operation counts are compared exactly
SANITY = "the tracked run must compute the operation it counts, or its counts are of another one"

# one multiply per (query, key, feature), one exp per score, ...: the counts as index sums
ATTENTION = (count((i, T), (j, T), (c, d)), count((i, T), (j, T)), count((i, T), (e, d), (j, T)),
             count((i, T), (j, T)), count((i, T), (j, T)), count((i, T), (e, d)))
FFN = (count((i, T), (n, d_ff), (c, d)), count((i, T), (c, d), (n, d_ff)), count((i, T), (n, d_ff)),
       count((i, T), (c, d)))
STATED = (T**2 * d, T**2, T**2 * d, T**2, T**2, T * d)
GAP = ATTENTION[0] + ATTENTION[2] - FFN[0] - FFN[1]
# head n of h multiplies with its own w columns c = (n − 1)w + 1 … nw
HEADS = (sp.Sum(1, (c, (n - 1) * w + 1, n * w), (j, 1, T), (i, 1, T), (n, 1, h)),
         sp.Sum(1, (j, 1, T), (e, (n - 1) * w + 1, n * w), (i, 1, T), (n, 1, h)))
WIDTH = Premise("h divides d: each head has width w = d/h, so d = h·w", {d: h * w})
LINEAR = (count((c, d), (j, T), (e, d)) + count((i, T), (c, d), (e, d)),
          count((i, T), (j, T), (c, d)) + count((i, T), (e, d), (j, T)),
          count((c, d), (e, d)), count((i, T), (j, T)))


def counted(steps, proof):
    """One chain per count: its index sum, evaluated."""
    return [proof.chain(lhs, label).evaluate("count the index tuples") for label, lhs in steps]


def printed_entries(length):
    """Entries of the T×T score matrix at T = length, from the statement."""
    return float(STATED[3].subs(T, length))


@claim(
    id="attention-cost-table",
    title="Self-attention does T²·d multiplies for QKᵀ and for weights·V, T² exps, stores T²",
    section="8.1",
    statement=Statement(
        "multiplies(QKᵀ) = T²d, exps(softmax) = T², multiplies(weights·V) = T²d; stored "
        "entries: scores T², weights T², output T·d", STATED, lhs=ATTENTION),
    premises=("Q, K, V ∈ ℝ^{T×d} (d_v = d)", "s_ij = Σ_c q_ic k_jc, w = softmax_j(s_ij/√d)",
              "output_i = Σ_j w_ij v_j",
              "one multiply per (i, j, c) of a product, one exp per score"),
    foils=(Foil("QKᵀ costs T·d² multiplies", (T * d**2,) + STATED[1:]),
           Foil("the output also needs T² entries", STATED[:5] + (T**2,))),
    sources=(VASWANI, RADFORD),
    tags=("complexity", "attention"),
    figures=(
        *(Figure(label, compute=lambda t=t: printed_entries(t), **printed(label))
          for label, t in ((f"score-matrix entries at T = {t}", t) for t in (512, 4096, 32768))),
        *(Figure(f"{model} context length (fact about the model, Radford et al. 2019 §2.3)",
                 compute=lambda m=model: CONTEXT_LENGTH[m],
                 **printed(f"{model} context length (fact about the model, Radford et al. 2019 §2.3)"))
          for model in ("GPT", "GPT-2")),
    ),
)
class AttentionCostTable:
    """Counting one multiplication per (query, key, feature) triple gives T²d twice; the T×T
    score and weight matrices are what makes memory quadratic in the sequence length."""

    def prove(self, value, proof):
        labels = ("multiplies in QKᵀ", "exps in softmax", "multiplies in weights·V",
                  "stored scores", "stored weights", "stored output")
        proof.conclude(value, *counted(zip(labels, ATTENTION), proof))

    def check(self, value, experiment):
        for point in experiment.draw({T: Integers(1, 16), d: Integers(1, 6)}, count=4):
            counts, computed = flops.attention_counts(experiment.rng, point[T], point[d])
            experiment.close(counts, point.value(value), EXACT, "counted operations and entries",
                             at=point, inputs="tracked scalars")
            experiment.holds(computed, "tracked run reproduces attention", at=point, sanity=SANITY)


@claim(
    id="multihead-same-order",
    title="Splitting into h heads of width d/h leaves the T²·d multiply count unchanged",
    section="8.1",
    statement=Statement("h heads: multiplies(QKᵀ) = h·T²·(d/h) = T²d, same for weights·V",
                        (T**2 * d, T**2 * d), lhs=HEADS),
    premises=(WIDTH, "head n uses its own w columns (n − 1)w + 1 … nw of Q, K and V",
              "each head is scaled dot-product attention of width w"),
    foils=(Foil("heads divide the cost by h", (T**2 * d / h, T**2 * d / h)),
           Foil("each head costs T²d, so h heads cost h·T²d", (h * T**2 * d, h * T**2 * d))),
    sources=(VASWANI,),
    tags=("complexity", "multi-head"),
)
class MultiheadSameOrder:
    """Heads split the feature dimension, not the sequence: the T² factor stays, and the h
    narrower products add up to exactly one wide one."""

    def prove(self, value, proof):
        chains = [proof.chain(part, f"{label} over h heads").evaluate("count the index tuples")
                  for label, part in zip(("QKᵀ", "weights·V"), HEADS)]
        proof.conclude(value, *chains, using=WIDTH)

    def check(self, value, experiment):
        for point in experiment.draw({T: Integers(1, 12), h: Integers(1, 6), w: Integers(1, 4)},
                                     count=4):
            totals = flops.head_multiplies(experiment.rng, point[T], point[h], point[w])
            stated = evaluate(value, {**point.substitutions(), d: point[h] * point[w]})
            experiment.close(totals, stated, EXACT, "multiplies summed over heads", at=point,
                             inputs="tracked scalars, d = h·w")


@claim(
    id="ffn-cost-table",
    title="The FFN does T·d·d_ff multiplies in each of its two layers, linear in T",
    section="8.2",
    statement=Statement("multiplies(up) = T·d·d_ff, multiplies(down) = T·d_ff·d; stored entries: "
                        "hidden T·d_ff, output T·d", (T * d * d_ff, T * d_ff * d, T * d_ff, T * d),
                        lhs=FFN),
    premises=("X ∈ ℝ^{T×d}, W₁ ∈ ℝ^{d_ff×d}, W₂ ∈ ℝ^{d×d_ff}",
              "H = φ(XW₁ᵀ + b₁), output = HW₂ᵀ + b₂", "one multiply per (i, n, c) of a product"),
    foils=(Foil("the FFN mixes tokens: T²·d·d_ff per layer",
                (T**2 * d * d_ff, T * d_ff * d, T * d_ff, T * d)),
           Foil("the hidden layer stores T·d entries", (T * d * d_ff, T * d_ff * d, T * d, T * d))),
    sources=(VASWANI,),
    tags=("complexity", "ffn"),
    figures=(Figure("d_ff / d in the base Transformer (Vaswani et al., Table 3)", "4",
                    near="d_{ff} =",
                    compute=lambda: BASE.value("d_ff") / BASE.value("d_model")),),
)
class FfnCostTable:
    """Each token goes through two dense layers on its own, so the cost grows linearly in T
    with the large constant d·d_ff."""

    def prove(self, value, proof):
        labels = ("multiplies in XW₁ᵀ", "multiplies in HW₂ᵀ", "stored hidden", "stored output")
        proof.conclude(value, *counted(zip(labels, FFN), proof))

    def check(self, value, experiment):
        sizes = {T: Integers(1, 12), d: Integers(1, 6), d_ff: Integers(1, 16)}
        for point in experiment.draw(sizes, count=4):
            counts, exact = flops.ffn_counts(experiment.rng, point[T], point[d], point[d_ff])
            experiment.close(counts, point.value(value), EXACT, "counted operations and entries",
                             at=point, inputs="tracked scalars")
            experiment.holds(exact, "tracked run reproduces the FFN", at=point, sanity=SANITY)


@claim(
    id="attention-overtakes-ffn",
    title="Attention's matrix products outgrow the FFN's exactly when T > d_ff",
    section="8.2",
    statement=Statement("2T²d (QKᵀ and weights·V) exceeds 2T·d·d_ff (both FFN layers) iff "
                        "T > T* with T* = d_ff (= 4d for d_ff = 4d)",
                        (d_ff, sp.sign(T - d_ff)), lhs=(T_star, sp.sign(GAP))),
    premises=("attention multiplies: T²d for QKᵀ plus T²d for weights·V (attention-cost-table)",
              "FFN multiplies: T·d·d_ff per layer, two layers (ffn-cost-table)",
              "softmax's T² exps and the Q, K, V, output projections are not counted",
              "T* is the sequence length at which the two counts are equal"),
    foils=(Foil("the crossover is at T = d", (d, sp.sign(T - d))),
           Foil("the crossover is at T = 4d (true only when d_ff = 4d)",
                (4 * d, sp.sign(T - 4 * d))),
           Foil("the crossover is at T = 2·d_ff (QKᵀ alone against the FFN)",
                (2 * d_ff, sp.sign(T - 2 * d_ff)))),
    depends_on=("attention-cost-table", "ffn-cost-table"),
    sources=(VASWANI,),
    tags=("complexity", "crossover"),
)
class AttentionOvertakesFfn:
    """The gap 2T²d − 2Td·d_ff = 2dT(T − d_ff) changes sign once, at T = d_ff: below it the FFN
    dominates the matrix products, above it attention does."""

    def prove(self, value, proof):
        gap = (proof.chain(GAP, "attention − FFN multiplies")
               .substitute({ATTENTION[0]: T**2 * d, ATTENTION[2]: T**2 * d},
                           lemma="attention-cost-table")
               .substitute({FFN[0]: T * d * d_ff, FFN[1]: T * d_ff * d}, lemma="ffn-cost-table")
               .equals(2 * d * T * (T - d_ff), "factor", method="factor"))
        sign = proof.chain(sp.sign(GAP), "sign of the gap").substitute(from_chain=gap)
        proof.conclude(value, proof.root(gap, T, T_star, "where the gap vanishes"), sign)

    def check(self, value, experiment):
        for point in experiment.draw({d: Integers(1, 4), d_ff: Integers(1, 8)}, count=3):
            longest = 2 * point[d_ff] + 1
            lengths = set(experiment.rng.integers(1, longest + 1, size=2).tolist()) | {1, longest}
            star = point.value(value[0])
            if np.isfinite(star):
                near = range(int(star) - 1, int(np.ceil(star)) + 2)  # both sides of the stated T*
                lengths |= {t for t in near if 1 <= t <= longest}
            gaps = {t: np.sign(flops.multiply_gap(experiment.rng, t, point[d], point[d_ff]))
                    for t in sorted(lengths)}
            experiment.holds(all(g == np.sign(t - star) for t, g in gaps.items()),
                             "sign of the counted gap = sign of T − T*", at=point,
                             detail=f"T* = {star:g}; T = {sorted(gaps)}")
            experiment.holds(all(g == evaluate(value[1], {**point.substitutions(), T: t})
                                 for t, g in gaps.items()),
                             "sign of the counted gap = the stated sign", at=point)

    def plot(self):
        # The counts of the two cost tables at the base Transformer's sizes (no randomness).
        sizes = {d: BASE.value("d_model"), d_ff: BASE.value("d_ff")}
        lengths = 2 ** np.arange(4, 17)                                  # T = 16 … 65536
        log_t = tuple(float(x) for x in np.log2(lengths))
        attn = tuple(float((2 * T**2 * d).subs({**sizes, T: int(t)})) for t in lengths)
        ffn = tuple(float((2 * T * d * d_ff).subs({**sizes, T: int(t)})) for t in lengths)
        cross = float(np.log2(sizes[d_ff]))
        return Plot(
            "Multiplies per layer (d = 512, d_ff = 2048): curves cross at T = d_ff",
            (Series("attention 2T²d (QKᵀ + weights·V)", log_t, attn),
             Series("FFN 2T·d·d_ff (both layers)", log_t, ffn),
             Series("T = d_ff = 2048", (cross, cross), (min(attn), max(attn)), "dashed")),
            xlabel="log₂ T  (T = 16 … 65536 tokens)", ylabel="multiplies (log scale)", logy=True)


D, d_v = sp.symbols("D d_v", positive=True, integer=True)  # feature dimension of φ, value width
Qb, Kb, Vb = sp.symbols("Q K V", cls=sp.IndexedBase)
phi = sp.Function("phi")
PAIRWISE = sp.Sum(sp.Sum(phi(Qb[i, c]) * phi(Kb[j, c]), (c, 1, D)) * Vb[j, e], (j, 1, T))
FEATURES = {"elu+1": lambda x: np.where(x > 0, x + 1, np.exp(np.minimum(x, 0))), "tanh": np.tanh}


@claim(
    id="linear-attention-reassociation",
    title="With a feature-map kernel, (φ(Q)φ(K)ᵀ)V = φ(Q)(φ(K)ᵀV): no T×T matrix is needed",
    section="8.3",
    statement=Statement("for κ(q, k) = φ(q)ᵀφ(k): Σ_j κ(q_i, k_j) v_je = Σ_c φ(q_ic)·S_ce with "
                        "S = Σ_j φ(k_j) v_jᵀ = φ(K)ᵀV",
                        sp.Sum(phi(Qb[i, c]) * sp.Sum(phi(Kb[j, c]) * Vb[j, e], (j, 1, T)),
                               (c, 1, D)), lhs=PAIRWISE),
    premises=("kernel attention: output_i = Σ_j κ(q_i, k_j) v_j / Σ_j κ(q_i, k_j)",
              "φ is applied entrywise and maps ℝ^d to ℝ^D"),
    foils=(Foil("the sums split: Σ_c φ(q_ic)·(Σ_j φ(k_jc))·(Σ_j v_je)",
                sp.Sum(phi(Qb[i, c]) * sp.Sum(phi(Kb[j, c]), (j, 1, T)), (c, 1, D))
                * sp.Sum(Vb[j, e], (j, 1, T))),
           Foil("the summary transposed: Σ_c φ(q_ic) Σ_j φ(k_je) v_jc",
                sp.Sum(phi(Qb[i, c]) * sp.Sum(phi(Kb[j, e]) * Vb[j, c], (j, 1, T)), (c, 1, D))),
           Foil("φ taken of the products: Σ_c Σ_j φ(q_ic k_jc) v_je",
                sp.Sum(sp.Sum(phi(Qb[i, c] * Kb[j, c]) * Vb[j, e], (j, 1, T)), (c, 1, D)))),
    sources=(KATHAROPOULOS,),
    tags=("linear-attention", "associativity"),
)
class LinearAttentionReassociation:
    """A kernel that factors through features lets the key-value summary Σ_j φ(k_j)v_jᵀ be
    built once and reused by every query; the exponential kernel of softmax has no finite
    factorisation, which is why Performer only approximates it."""

    def prove(self, value, proof):
        chain = (proof.chain(PAIRWISE, "Σ_j κ(q_i, k_j) v_je").apply(DISTRIBUTE).apply(SWAP_SUMS)
                 .apply(FACTOR_OUT_OF_INNER))
        proof.conclude(value, chain, method="expand")

    def check(self, value, experiment):
        sizes = {T: Integers(1, 32), D: Integers(1, 8), d_v: Integers(1, 6),
                 "φ": Choice(tuple(FEATURES))}
        for point in experiment.draw(sizes, count=4):
            q, k = experiment.rng.normal(size=(2, point[T], point[D]))
            v = experiment.rng.normal(size=(point[T], point[d_v]))
            f = FEATURES[point["φ"]]
            stated = indexed.values(value, arrays={Qb: q, Kb: k, Vb: v}, functions={"phi": f},
                                    values=point.substitutions(),
                                    over=[(i, 1, point[T]), (e, 1, point[d_v])])
            # Σ_j Σ_c: T·D products per entry either way (γ_{T+D} each) on the scale
            # |φ(Q)||φ(K)|ᵀ|V|; two computations
            scale = np.abs(f(q)) @ np.abs(f(k)).T @ np.abs(v)
            experiment.close((f(q) @ f(k).T) @ v, stated,
                             tolerance(2 * (point[T] + point[D]), float(scale.max(initial=0))),
                             "(φ(Q)φ(K)ᵀ)V vs the stated grouping", at=point)


@claim(
    id="linear-attention-cost",
    title="Grouping as φ(Q)(φ(K)ᵀV) costs 2T·d² multiplies instead of 2T²·d",
    section="8.3",
    statement=Statement("multiplies: φ(Q)(φ(K)ᵀV) 2T·d², (φ(Q)φ(K)ᵀ)V 2T²·d; largest "
                        "intermediate: d² versus T² entries",
                        (2 * T * d**2, 2 * T**2 * d, d**2, T**2), lhs=LINEAR),
    premises=("φ(Q), φ(K), V ∈ ℝ^{T×d} (feature dimension D = d, d_v = d)",
              "a product of a×b and b×c matrices takes a·b·c multiplies"),
    foils=(Foil("the groupings' costs swapped", (2 * T**2 * d, 2 * T * d**2, T**2, d**2)),
           Foil("linear attention costs 2T·d (linear in d too)",
                (2 * T * d, 2 * T**2 * d, d**2, T**2))),
    depends_on=("linear-attention-reassociation",),
    sources=(KATHAROPOULOS,),
    tags=("linear-attention", "complexity"),
)
class LinearAttentionCost:
    """The right grouping replaces the T×T matrix by a d×d summary: time and memory become
    linear in T, at a cost quadratic in the feature dimension."""

    def prove(self, value, proof):
        labels = ("φ(K)ᵀV then φ(Q)·S", "φ(Q)φ(K)ᵀ then ·V", "entries of S = φ(K)ᵀV",
                  "entries of φ(Q)φ(K)ᵀ")
        proof.conclude(value, *counted(zip(labels, LINEAR), proof))

    def check(self, value, experiment):
        for point in experiment.draw({T: Integers(1, 12), d: Integers(1, 6)}, count=4):
            counts = flops.linear_attention_counts(experiment.rng, point[T], point[d])
            experiment.close(counts, point.value(value), EXACT, "counted multiplies and entries",
                             at=point, inputs="tracked scalars")


m_a, m_b, m_all, l_a, l_b, o_a, o_b = sp.symbols("m_a m_b m ℓ_a ℓ_b o_a o_b", real=True)
n_all, n_a, n_b = sp.symbols("n n_a n_b", positive=True, integer=True)


BLOCKS = Premise("ℓ_x = Σ_{j∈x} e^{s_j − m_x}, o_x = Σ_{j∈x} e^{s_j − m_x} v_j for each block x",
                 {exp_sum(1, n_a, m_a): l_a, exp_sum(n_a + 1, n_a + n_b, m_b): l_b,
                  exp_sum(1, n_a, m_a, v_[j]): o_a, exp_sum(n_a + 1, n_a + n_b, m_b, v_[j]): o_b})


@claim(
    id="online-softmax-merge",
    title="Two blocks' (max, exp-sum, weighted sum) merge exactly once rescaled to a common max",
    section="8.3",
    statement=Statement("ℓ = e^{m_a−m}ℓ_a + e^{m_b−m}ℓ_b and o = e^{m_a−m}o_a + e^{m_b−m}o_b, "
                        "m = max(m_a, m_b)",
                        (sp.exp(m_a - m_all) * l_a + sp.exp(m_b - m_all) * l_b,
                         sp.exp(m_a - m_all) * o_a + sp.exp(m_b - m_all) * o_b),
                        lhs=(exp_sum(1, n_a + n_b, m_all), exp_sum(1, n_a + n_b, m_all, v_[j]))),
    premises=("block a holds scores s_1..s_{n_a}, block b holds s_{n_a+1}..s_{n_a+n_b}", BLOCKS,
              "the whole's statistics use the common reference m (any m; max keeps exponents ≤ 0); "
              "m_a, m_b are any references too (each block's own max in practice)"),
    foils=(Foil("the block sums can be added without rescaling", (l_a + l_b, o_a + o_b)),
           Foil("rescale by e^{m − m_x}", (sp.exp(m_all - m_a) * l_a + sp.exp(m_all - m_b) * l_b,
                                         sp.exp(m_all - m_a) * o_a + sp.exp(m_all - m_b) * o_b)),
           Foil("the blocks' rescaling factors swapped",
                (sp.exp(m_b - m_all) * l_a + sp.exp(m_a - m_all) * l_b,
                 sp.exp(m_b - m_all) * o_a + sp.exp(m_a - m_all) * o_b))),
    sources=(DAO,),
    tags=("flash-attention", "softmax"),
)
class OnlineSoftmaxMerge:
    """Since e^{s−m} = e^{m_x−m}·e^{s−m_x}, block sums taken against their own max become sums
    against any common reference after one multiplication, so blocks can be processed apart."""

    def prove(self, value, proof):
        chains = [proof.chain(exp_sum(1, n_a + n_b, m_all, weight), f"{label} of the whole")
                  .equals(sp.exp(m_a - m_all) * exp_sum(1, n_a, m_a, weight)
                          + sp.exp(m_b - m_all) * exp_sum(n_a + 1, n_a + n_b, m_b, weight),
                          "split at n_a; e^{s−m} = e^{m_x−m}·e^{s−m_x}")
                  .substitute({exp_sum(1, n_a, m_a, weight): part_a,
                               exp_sum(n_a + 1, n_a + n_b, m_b, weight): part_b}, premise=BLOCKS)
                  for label, weight, part_a, part_b in (("ℓ", 1, l_a, l_b), ("o", v_[j], o_a, o_b))]
        proof.conclude(value, *chains)

    def check(self, value, experiment):
        sizes = {n_all: Integers(2, 64), "cut": Reals(0.0, 1.0), "σ": Reals(0.1, 30.0, log=True),
                 d_v: Integers(1, 4)}
        for point in experiment.draw(sizes, count=4):
            s = experiment.rng.normal(scale=point["σ"], size=(16, point[n_all]))
            v = experiment.rng.normal(size=(point[n_all], point[d_v]))
            cut = min(max(int(round(point["cut"] * point[n_all])), 1), point[n_all] - 1)
            a, b = tiling.summarise(s[:, :cut], v[:cut]), tiling.summarise(s[:, cut:], v[cut:])
            whole = tiling.summarise(s, v)
            bound = {m_a: a.m[:, None], m_b: b.m[:, None], m_all: whole.m[:, None],
                     l_a: a.l[:, None], l_b: b.l[:, None], o_a: a.o, o_b: b.o}
            merged = [np.broadcast_to(indexed.values(part, values=bound), whole.o.shape)
                      for part in value]
            # each sum: n terms, exp of a difference (2 ops), for o one more multiply; the merge
            # adds a rescale (exp, subtract, multiply) and one add: γ_{n+6} per side, relative
            # to Σ e^{s−m}|w| (= ℓ, or ≤ ℓ·max|v| for o)
            tol = tolerance(2 * (point[n_all] + 6), float(whole.l.max()))
            experiment.close(merged[0][:, 0], whole.l, tol, "merged ℓ vs whole ℓ", at=point)
            experiment.close(merged[1], whole.o, tol * float(np.abs(v).max()),
                             "merged o vs whole o", at=point)


m_old, m_new, l_old, o_old = sp.symbols("m_t m_{t+1} ℓ_t o_t", real=True)
n_old, n_new, B = sp.symbols("n_t n_{t+1} B", positive=True, integer=True)
l_new, o_new = sp.symbols("ℓ_B o_B", real=True)
# block t+1 holds B ≥ 1 keys, so the merge lemma applies with n_b = B; its equations are read
# into n_t + B before the merge and back out of B (and of the block's own sums) after it
NEW_BLOCK = Premise("block t+1 is non-empty: it holds B ≥ 1 keys, n_{t+1} = n_t + B; its sums "
                    "against m_{t+1} are ℓ_B = Σ_{n_t<j≤n_t+B} e^{s_j−m_{t+1}} and o_B (× v_j)",
                    {n_new: n_old + B, B: n_new - n_old, l_new: exp_sum(n_old + 1, n_old + B, m_new),
                     o_new: exp_sum(n_old + 1, n_old + B, m_new, v_[j])})
STEP = {m_all: m_new, m_a: m_old, m_b: m_new, n_a: n_old, n_b: B,  # a: blocks 1..t
        l_a: l_old, o_a: o_old, l_b: l_new, o_b: o_new}               # b: block t + 1
FINAL = exp_sum(1, T, m_all, v_[j]) / exp_sum(1, T, m_all)
SOFTMAX_V = sp.Sum(sp.exp(s_[j]) * v_[j], (j, 1, T)) / sp.Sum(sp.exp(s_[j]), (j, 1, T))


@claim(
    id="flash-attention-exact",
    title="Tiled attention with running sums rescaled by e^{m_old − m_new} is exact",
    section="8.3",
    statement=Statement("when the running max moves from m_t to m_{t+1}, the running ℓ and o are "
                        "multiplied by e^{m_t − m_{t+1}} before the new block's sums are added; "
                        "the final o/ℓ equals softmax(s)·V",
                        (sp.exp(m_old - m_new) * l_old + exp_sum(n_old + 1, n_new, m_new),
                         sp.exp(m_old - m_new) * o_old + exp_sum(n_old + 1, n_new, m_new, v_[j]),
                         SOFTMAX_V),
                        lhs=(exp_sum(1, n_new, m_new), exp_sum(1, n_new, m_new, v_[j]), FINAL)),
    premises=("key blocks arrive one at a time; block t+1 holds keys n_t+1..n_{t+1}", NEW_BLOCK,
              "invariant after t blocks: ℓ_t = Σ_{j≤n_t} e^{s_j−m_t}, "
              "o_t = Σ_{j≤n_t} e^{s_j−m_t} v_j "
              "(at t = 0 both are empty sums, 0)",
              "the new block's exps are taken against m_{t+1}; after the last block m_T = m"),
    foils=(Foil("the running sums need no rescaling",
                (l_old + exp_sum(n_old + 1, n_new, m_new),
                 o_old + exp_sum(n_old + 1, n_new, m_new, v_[j]), SOFTMAX_V)),
           Foil("rescale by e^{m_{t+1} − m_t}",
                (sp.exp(m_new - m_old) * l_old + exp_sum(n_old + 1, n_new, m_new),
                 sp.exp(m_new - m_old) * o_old + exp_sum(n_old + 1, n_new, m_new, v_[j]),
                 SOFTMAX_V))),
    depends_on=("online-softmax-merge",),
    sources=(DAO,),
    tags=("flash-attention", "softmax"),
)
class FlashAttentionExact:
    """By induction over key blocks the running sums always equal the full sums against the
    current max (the step is the merge of the blocks so far with the new block, its exps taken
    against m_{t+1}); dividing at the end cancels the max, so tiling changes only rounding."""

    def prove(self, value, proof):
        steps = [proof.chain(part, label).substitute({n_new: n_old + B}, premise=NEW_BLOCK)
                 .substitute(lemma="online-softmax-merge", rename=STEP)
                 .substitute({block: dict(NEW_BLOCK.equations)[block]}, premise=NEW_BLOCK)
                 .substitute({B: n_new - n_old}, premise=NEW_BLOCK)
                 for part, label, block in zip(proof.statement.lhs[:2], ("ℓ_(t+1)", "o_(t+1)"),
                                               (l_new, o_new))]
        final = proof.chain(FINAL, "o_T / ℓ_T").equals(SOFTMAX_V, "the factor e^{−m} cancels")
        proof.conclude(value, *steps, final)

    def check(self, value, experiment):
        sizes = {"T_q": Integers(1, 24), T: Integers(1, 40), d: Integers(1, 8),
                 "block_q": Integers(1, 24), "block_k": Integers(1, 12), "trend": Reals(0.0, 6.0)}
        update = tiling.formula_update(value[:2], (l_old, o_old, m_old, m_new, n_old, n_new))
        for point in experiment.draw(sizes, count=4):
            rise = point["trend"] / np.sqrt(point[d])  # the keys' scores grow along the sequence
            q = experiment.rng.normal(size=(point["T_q"], point[d])) + rise
            k = experiment.rng.normal(size=(point[T], point[d]))
            k += rise * np.linspace(0, 1, point[T])[:, None]
            v = experiment.rng.normal(size=(point[T], 3))
            tiled = tiling.flash_attention(q, k, v, update, point["block_q"], point["block_k"])
            blocks = -(-point[T] // point["block_k"])
            tol = tiling.attention_tolerance(q, k, v, 2, extra_ops=3 * blocks)
            exact = attention(q, k, v)
            experiment.close(tiled, exact, tol, "tiled vs standard attention", at=point)
            scores = (q @ k.T / np.sqrt(point[d])).T
            final = np.broadcast_to(indexed.values(
                value[2], arrays={s_: scores[:, :, None], v_: v[:, None, :]},
                values=point.substitutions(), batch=(len(q), 3)), (len(q), 3))
            experiment.close(final, exact, tol, "stated o/ℓ vs softmax(s)·V", at=point)
