"""Section 8: what attention and the FFN cost, and two ways around the T² term."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference import flops
from tmath.reference import tiling
from tmath.engine.experiment import tolerance
from tmath.reference.nn import attention
from tmath.engine.plots import Plot, Series
from tmath.engine.proof import Rule

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §4 and Table 1",
                 arxiv="1706.03762")
RADFORD = Source("Radford et al. (2019), Language Models are Unsupervised Multitask Learners, "
                 "§2.3 (context size increased from 512 to 1024 tokens)",
                 url="https://cdn.openai.com/better-language-models/"
                     "language_models_are_unsupervised_multitask_learners.pdf")
KATHAROPOULOS = Source("Katharopoulos et al. (2020), Transformers are RNNs: Fast Autoregressive "
                       "Transformers with Linear Attention, §3.2", arxiv="2006.16236")
DAO = Source("Dao et al. (2022), FlashAttention: Fast and Memory-Efficient Exact Attention with "
             "IO-Awareness, §3.1 and Algorithm 1", arxiv="2205.14135")
# Context lengths of GPT and GPT-2 as reported by Radford et al. (2019) §2.3: facts about those
# models, recorded with their source, not derived.
CONTEXT_LENGTH = {"GPT": 512, "GPT-2": 1024}
# Table 3 of Vaswani et al., base model.
VASWANI_BASE = {"d_model": 512, "d_ff": 2048}

T, d, d_ff, h = sp.symbols("T d d_ff h", positive=True, integer=True)
i, j, c, e, n = sp.symbols("i j c e n", integer=True)
EXACT = 0  # integer operation counts are compared exactly

# Chinese texts shared by several claims


def count(*ranges):
    """Σ 1 over the given (index, 1, upper) ranges: one operation per index tuple."""
    return sp.Sum(1, *((var, 1, upper) for var, upper in ranges))


def printed_entries(length):
    return float(ATTENTION_COSTS[3].subs(T, length))


ATTENTION_COSTS = (T**2 * d, T**2, T**2 * d, T**2, T**2, T * d)


@claim(
    id="attention-cost-table",
    title="Self-attention does T²·d multiplies for QKᵀ and for weights·V, T² exps, stores T²",
    section="8.1",
    statement=Statement(
        "multiplies(QKᵀ) = T²d, exps(softmax) = T², multiplies(weights·V) = T²d; stored "
        "entries: scores T², weights T², output T·d", ATTENTION_COSTS),
    premises=("Q, K, V ∈ ℝ^{T×d} (d_v = d)", "s_ij = Σ_c q_ic k_jc, w = softmax_j(s_ij/√d)",
              "output_i = Σ_j w_ij v_j"),
    foils=(Foil("QKᵀ costs T·d² multiplies", (T * d**2,) + ATTENTION_COSTS[1:]),
           Foil("the output also needs T² entries", ATTENTION_COSTS[:5] + (T**2,))),
    sources=(VASWANI, RADFORD),
    tags=("complexity", "attention"),
    figures=(
        Figure("score-matrix entries at T = 512", "26 万", near="T = 512",
               compute=lambda: printed_entries(512)),
        Figure("score-matrix entries at T = 4096", "1600 万", near="T = 4096",
               compute=lambda: printed_entries(4096)),
        Figure("score-matrix entries at T = 32768", "10 亿", near="T = 32768",
               compute=lambda: printed_entries(32768)),
        Figure("GPT context length (fact about the model, Radford et al. 2019 §2.3)", "512",
               near="限制在", compute=lambda: CONTEXT_LENGTH["GPT"]),
        Figure("GPT-2 context length (fact about the model, Radford et al. 2019 §2.3)", "1024",
               near="512 或", compute=lambda: CONTEXT_LENGTH["GPT-2"]),
    ),
)
class AttentionCostTable:
    """Counting one multiplication per (query, key, feature) triple gives T²d twice; the T×T
    score and weight matrices are what makes memory quadratic in the sequence length."""

    def prove(self, value, proof):
        steps = (("multiplies in QKᵀ", count((i, T), (j, T), (c, d))),
                 ("exps in softmax", count((i, T), (j, T))),
                 ("multiplies in weights·V", count((i, T), (e, d), (j, T))),
                 ("stored scores", count((i, T), (j, T))),
                 ("stored weights", count((i, T), (j, T))),
                 ("stored output", count((i, T), (e, d))))
        proof.conclude(value, *(proof.chain(s, label).evaluate("count the index tuples")
                                for label, s in steps))

    def check(self, value, experiment):
        for t_len, dim in ((3, 2), (6, 4), (9, 3)):
            q, k, v = experiment.rng.normal(size=(3, t_len, dim))
            meter = flops.Meter()
            out = flops.attention(meter, q, k, v)
            stages = meter.stages
            counted = (stages["QK^T"].ops.mul, stages["softmax"].ops.exp,
                       stages["weights V"].ops.mul, stages["QK^T"].stored,
                       stages["softmax"].stored, stages["weights V"].stored)
            stated = [float(p.subs({T: t_len, d: dim})) for p in value]
            experiment.close(counted, stated, EXACT, "counted operations and entries",
                             inputs=f"tracked scalars, T={t_len}, d={dim}")
            experiment.close(out, attention(q, k, v), tiling.attention_tolerance(q, k, v),
                             "tracked run reproduces attention", inputs=f"N(0,1), T={t_len}")


@claim(
    id="multihead-same-order",
    title="Splitting into h heads of width d/h leaves the T²·d multiply count unchanged",
    section="8.1",
    statement=Statement("h heads: multiplies(QKᵀ) = h·T²·(d/h) = T²d, same for weights·V",
                        (T**2 * d, T**2 * d)),
    premises=("h divides d; head n uses columns of width d/h of Q, K and V",
              "each head is scaled dot-product attention (claim attention-cost-table)"),
    foils=(Foil("heads divide the cost by h", (T**2 * d / h, T**2 * d / h)),
           Foil("each head costs T²d, so h heads cost h·T²d", (h * T**2 * d, h * T**2 * d))),
    depends_on=("attention-cost-table",),
    sources=(VASWANI,),
    tags=("complexity", "multi-head"),
)
class MultiheadSameOrder:
    """Heads split the feature dimension, not the sequence: the T² factor stays, and the h
    narrower products add up to exactly one wide one."""

    def prove(self, value, proof):
        per_head = {sp.Symbol("QK_head"): T**2 * d / h, sp.Symbol("WV_head"): T**2 * d / h}
        chains = [proof.chain(sp.Sum(cost, (n, 1, h)), f"{label} over h heads")
                  .substitute(per_head, lemma="attention-cost-table")
                  .evaluate("sum of h equal terms")
                  for label, cost in zip(("QKᵀ", "weights·V"), per_head)]
        proof.conclude(value, *chains)

    def check(self, value, experiment):
        for t_len, dim, heads in ((5, 4, 1), (5, 4, 2), (4, 6, 3), (6, 8, 4)):
            q, k, v = experiment.rng.normal(size=(3, t_len, dim))
            totals = np.zeros(2)
            for cols in np.split(np.arange(dim), heads):
                meter = flops.Meter()
                flops.attention(meter, q[:, cols], k[:, cols], v[:, cols])
                totals += (meter.stages["QK^T"].ops.mul, meter.stages["weights V"].ops.mul)
            stated = [float(p.subs({T: t_len, d: dim, h: heads})) for p in value]
            experiment.close(totals, stated, EXACT, "multiplies summed over heads",
                             inputs=f"tracked scalars, T={t_len}, d={dim}, h={heads}")


FFN_COSTS = (T * d * d_ff, T * d_ff * d, T * d_ff, T * d)


@claim(
    id="ffn-cost-table",
    title="The FFN does T·d·d_ff multiplies in each of its two layers, linear in T",
    section="8.2",
    statement=Statement("multiplies(up) = T·d·d_ff, multiplies(down) = T·d_ff·d; stored entries: "
                        "hidden T·d_ff, output T·d", FFN_COSTS),
    premises=("X ∈ ℝ^{T×d}, W₁ ∈ ℝ^{d_ff×d}, W₂ ∈ ℝ^{d×d_ff}",
              "H = φ(XW₁ᵀ + b₁), output = HW₂ᵀ + b₂"),
    foils=(Foil("the FFN mixes tokens: T²·d·d_ff per layer", (T**2 * d * d_ff,) + FFN_COSTS[1:]),
           Foil("the hidden layer stores T·d entries", FFN_COSTS[:2] + (T * d,) + FFN_COSTS[3:])),
    sources=(VASWANI,),
    tags=("complexity", "ffn"),
    figures=(Figure("d_ff / d in the base Transformer (Vaswani et al., Table 3)", "4",
                    near="d_{ff} =",
                    compute=lambda: VASWANI_BASE["d_ff"] / VASWANI_BASE["d_model"]),),
)
class FfnCostTable:
    """Each token goes through two dense layers on its own, so the cost grows linearly in T
    with the large constant d·d_ff."""

    def prove(self, value, proof):
        steps = (("multiplies in XW₁ᵀ", count((i, T), (n, d_ff), (c, d))),
                 ("multiplies in HW₂ᵀ", count((i, T), (c, d), (n, d_ff))),
                 ("stored hidden", count((i, T), (n, d_ff))),
                 ("stored output", count((i, T), (c, d))))
        proof.conclude(value, *(proof.chain(s, label).evaluate("count the index tuples")
                                for label, s in steps))

    def check(self, value, experiment):
        for t_len, dim, hidden in ((3, 2, 8), (5, 4, 16), (4, 3, 7)):
            # small integers: every product and sum is an integer far below 2⁵³, so the float
            # results are exact and the tracked run must equal the NumPy one exactly
            x, w1, b1, w2, b2 = (experiment.rng.integers(-3, 4, size=s).astype(float) for s in
                                 ((t_len, dim), (hidden, dim), (hidden,), (dim, hidden), (dim,)))
            meter = flops.Meter()
            out = flops.ffn(meter, x, w1, b1, w2, b2)
            up, down = meter.stages["up"], meter.stages["down"]
            stated = [float(p.subs({T: t_len, d: dim, d_ff: hidden})) for p in value]
            experiment.close((up.ops.mul, down.ops.mul, up.stored, down.stored), stated, EXACT,
                             "counted operations and entries",
                             inputs=f"tracked scalars, T={t_len}, d={dim}, d_ff={hidden}")
            experiment.close(out, flops.relu(x @ w1.T + b1) @ w2.T + b2, EXACT,
                             "tracked run reproduces the FFN", inputs=f"integers, T={t_len}")


def _positive_root(expr):
    roots = [r for r in sp.solve(expr, T) if r.is_positive]
    return roots[0] if len(roots) == 1 else expr


@claim(
    id="attention-overtakes-ffn",
    title="Attention's matrix products outgrow the FFN's exactly when T > d_ff",
    section="8.2",
    statement=Statement("2T²d (QKᵀ and weights·V) exceeds 2T·d·d_ff (both FFN layers) iff "
                        "T > T* with T* = d_ff (= 4d for d_ff = 4d)", d_ff, lhs=sp.Symbol("T*")),
    premises=("attention multiplies: T²d for QKᵀ plus T²d for weights·V (attention-cost-table)",
              "FFN multiplies: T·d·d_ff per layer, two layers (ffn-cost-table)",
              "softmax's T² exps and the Q, K, V, output projections are not counted"),
    foils=(Foil("the crossover is at T = d", d),
           Foil("the crossover is at T = 2·d_ff (QKᵀ alone against the FFN)", 2 * d_ff)),
    depends_on=("attention-cost-table", "ffn-cost-table"),
    sources=(VASWANI,),
    tags=("complexity", "crossover"),
)
class AttentionOvertakesFfn:
    """The gap 2T²d − 2Td·d_ff = 2dT(T − d_ff) changes sign once, at T = d_ff: below it the FFN
    dominates the matrix products, above it attention does."""

    def prove(self, crossover, proof):
        a_qk, a_wv, f_up, f_down = sp.symbols("A_QK A_WV F_up F_down")
        gap = (proof.chain(a_qk + a_wv - f_up - f_down, "attention − FFN multiplies")
               .substitute({a_qk: T**2 * d, a_wv: T**2 * d}, lemma="attention-cost-table")
               .substitute({f_up: T * d * d_ff, f_down: T * d_ff * d}, lemma="ffn-cost-table")
               .equals(2 * d * T * (T - d_ff), "factor", method="factor"))
        proof.holds(2 * d * T > 0, "2dT > 0, so the gap has the sign of T − d_ff")
        root = proof.chain(gap.value, "where the gap vanishes").apply(
            Rule("the positive root in T (SymPy solve)", _positive_root))
        proof.conclude(crossover, root)

    def check(self, crossover, experiment):
        for dim, hidden in ((2, 8), (3, 5)):
            t_star = float(crossover.subs({d: dim, d_ff: hidden}))
            signs = []
            for t_len in range(1, 2 * hidden + 2):
                q, k, v = experiment.rng.normal(size=(3, t_len, dim))
                x = experiment.rng.normal(size=(t_len, dim))
                meter = flops.Meter()
                flops.attention(meter, q, k, v)
                flops.ffn(meter, x, *(experiment.rng.normal(size=s) for s in
                                      ((hidden, dim), (hidden,), (dim, hidden), (dim,))))
                mul = {name: stage.ops.mul for name, stage in meter.stages.items()}
                gap = mul["QK^T"] + mul["weights V"] - mul["up"] - mul["down"]
                signs.append(np.sign(gap) == np.sign(t_len - t_star))
            experiment.holds(all(signs), "sign of counted gap = sign of T − T*",
                             f"d={dim}, d_ff={hidden}, T = 1..{2 * hidden + 1}, T* = {t_star:g}; "
                             f"agree at {sum(signs)} of {len(signs)}")

    def plot(self):
        # The counts of the two cost tables at the base Transformer's sizes (no randomness).
        sizes = {d: VASWANI_BASE["d_model"], d_ff: VASWANI_BASE["d_ff"]}
        lengths = 2 ** np.arange(4, 17)                                  # T = 16 … 65536
        attn = sp.lambdify(T, (ATTENTION_COSTS[0] + ATTENTION_COSTS[2]).subs(sizes))
        ffn = sp.lambdify(T, (FFN_COSTS[0] + FFN_COSTS[1]).subs(sizes))
        log_t = tuple(float(x) for x in np.log2(lengths))
        a_counts = tuple(float(attn(int(t))) for t in lengths)
        f_counts = tuple(float(ffn(int(t))) for t in lengths)
        cross = float(np.log2(sizes[d_ff]))
        return Plot(
            "Multiplies per layer (d = 512, d_ff = 2048): curves cross at T = d_ff",
            (Series("attention 2T²d (QKᵀ + weights·V)", log_t, a_counts),
             Series("FFN 2T·d·d_ff (both layers)", log_t, f_counts),
             Series("T = d_ff = 2048", (cross, cross),
                    (min(a_counts + f_counts), max(a_counts + f_counts)), "dashed")),
            xlabel="log₂ T  (T = 16 … 65536 tokens)", ylabel="multiplies (log scale)", logy=True)


Qb, Kb, Vb, qv, kv = sp.symbols("Q K V q k", cls=sp.IndexedBase)
D = sp.Symbol("D", positive=True, integer=True)  # feature dimension of φ
phi = sp.Function("phi")
FEATURE_KERNEL = sp.Sum(phi(qv[c]) * phi(kv[c]), (c, 1, D))


def _kernel_at(kernel, row_q, row_k):
    """κ(q_i, k_j): the stated kernel with q ← Q[i, ·] and k ← K[j, ·]."""
    def entry(x):
        return (Qb if x.base == qv else Kb)[row_q if x.base == qv else row_k, x.indices[0]]
    return kernel.replace(lambda x: isinstance(x, sp.Indexed) and x.base in (qv, kv), entry)


def _regroup(expr):
    """Σ_j (Σ_c f) g → Σ_c [factors free of j] Σ_j [the rest]."""
    if not isinstance(expr, sp.Sum):
        return expr
    (row, lo, hi), = expr.limits
    inner = [f for f in sp.Mul.make_args(expr.function) if isinstance(f, sp.Sum)]
    if len(inner) != 1:
        return expr
    (col, c_lo, c_hi), = inner[0].limits
    terms = sp.Mul.make_args(sp.expand(inner[0].function * expr.function / inner[0]))
    free = sp.Mul(*(f for f in terms if row not in f.free_symbols))
    rest = sp.Mul(*(f for f in terms if row in f.free_symbols))
    return sp.Sum(free * sp.Sum(rest, (row, lo, hi)), (col, c_lo, c_hi))


REGROUP = Rule("finite sums: distribute v_j into Σ_c, exchange Σ_j Σ_c, pull out factors free "
               "of j", _regroup)


def elu_plus_one(x):
    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))


def _kernel_matrix(kernel, q, k):
    """[κ(q_i, k_j)]_ij for the stated kernel, evaluated with φ = elu + 1."""
    dim = q.shape[1]
    expr = kernel.subs(D, dim).doit()
    qs, ks = sp.symbols(f"qs:{dim}"), sp.symbols(f"ks:{dim}")
    expr = expr.xreplace({**{qv[a + 1]: qs[a] for a in range(dim)},
                          **{kv[a + 1]: ks[a] for a in range(dim)}})
    f = sp.lambdify(qs + ks, expr, modules=[{"phi": elu_plus_one}, "numpy"])
    grid = np.broadcast_to(f(*q.T[:, :, None], *k.T[:, None, :]), (len(q), len(k)))
    return np.asarray(grid, dtype=float)


@claim(
    id="linear-attention-reassociation",
    title="With a feature-map kernel, (φ(Q)φ(K)ᵀ)V = φ(Q)(φ(K)ᵀV): no T×T matrix is needed",
    section="8.3",
    statement=Statement("for κ(q, k) = φ(q)ᵀφ(k): Σ_j κ(q_i, k_j) v_j = φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ",
                        FEATURE_KERNEL, lhs=sp.Function("kappa")(qv, kv)),
    premises=("kernel attention: output_i = Σ_j κ(q_i, k_j) v_j / Σ_j κ(q_i, k_j)",
              "φ is applied entrywise and maps ℝ^d to ℝ^D (here D = d)"),
    foils=(Foil("softmax's kernel exp(qᵀk) regroups the same way", sp.exp(
                sp.Sum(qv[c] * kv[c], (c, 1, D)))),
           Foil("φ applied to the products, Σ_c φ(q_c k_c)",
                sp.Sum(phi(qv[c] * kv[c]), (c, 1, D)))),
    sources=(KATHAROPOULOS,),
    tags=("linear-attention", "associativity"),
)
class LinearAttentionReassociation:
    """A kernel that factors through features lets the key-value summary Σ_j φ(k_j)v_jᵀ be
    built once and reused by every query; the exponential kernel of softmax has no finite
    factorisation, which is why Performer only approximates it."""

    def prove(self, kernel, proof):
        left = proof.chain(sp.Sum(_kernel_at(kernel, i, j) * Vb[j, e], (j, 1, T)),
                           "Σ_j κ(q_i, k_j) v_je").apply(REGROUP)
        right = sp.Sum(phi(Qb[i, c]) * sp.Sum(phi(Kb[j, c]) * Vb[j, e], (j, 1, T)), (c, 1, D))
        proof.conclude(right, left)

    def check(self, kernel, experiment):
        for t_len, dim, dv in ((10, 4, 3), (16, 6, 5)):
            q, k = experiment.rng.normal(size=(2, t_len, dim))
            v = experiment.rng.normal(size=(t_len, dv))
            pq, pk = elu_plus_one(q), elu_plus_one(k)
            pairwise = _kernel_matrix(kernel, q, k) @ np.column_stack([v, np.ones(t_len)])
            grouped = pq @ (pk.T @ np.column_stack([v, np.ones(t_len)]))
            # both groupings sum t_len·dim products per entry (γ_{dim+t_len} each) on the
            # positive-kernel scale (φ(Q)φ(K)ᵀ)|V|; two computations
            scale = (pq @ pk.T) @ np.abs(np.column_stack([v, np.ones(t_len)]))
            experiment.close(pairwise, grouped, tolerance(2 * (dim + t_len), float(scale.max())),
                             "(φ(Q)φ(K)ᵀ)[V 1] vs φ(Q)(φ(K)ᵀ[V 1])",
                             inputs=f"N(0,1), φ = elu + 1, T={t_len}")


@claim(
    id="linear-attention-cost",
    title="Grouping as φ(Q)(φ(K)ᵀV) costs 2T·d² multiplies instead of 2T²·d",
    section="8.3",
    statement=Statement("multiplies: φ(Q)(φ(K)ᵀV) 2T·d², (φ(Q)φ(K)ᵀ)V 2T²·d; largest "
                        "intermediate: d² versus T² entries",
                        (2 * T * d**2, 2 * T**2 * d, d**2, T**2)),
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
        steps = (("φ(K)ᵀV then φ(Q)·S",
                  count((c, d), (j, T), (e, d)) + count((i, T), (c, d), (e, d))),
                 ("φ(Q)φ(K)ᵀ then ·V",
                  count((i, T), (j, T), (c, d)) + count((i, T), (e, d), (j, T))),
                 ("entries of S = φ(K)ᵀV", count((c, d), (e, d))),
                 ("entries of φ(Q)φ(K)ᵀ", count((i, T), (j, T))))
        proof.conclude(value, *(proof.chain(s, label).evaluate("count the index tuples")
                                for label, s in steps))

    def check(self, value, experiment):
        for t_len, dim in ((6, 2), (4, 5), (7, 3)):
            meter = flops.Meter()
            features = elu_plus_one(experiment.rng.normal(size=(3, t_len, dim)))
            pq, pk, v = (meter.track(a) for a in features)
            summary = flops.matmul(meter, "S", pk.T, v)
            flops.matmul(meter, "right", pq, summary)
            scores = flops.matmul(meter, "A", pq, pk.T)
            flops.matmul(meter, "left", scores, v)
            st = meter.stages
            counted = (st["S"].ops.mul + st["right"].ops.mul, st["A"].ops.mul + st["left"].ops.mul,
                       st["S"].stored, st["A"].stored)
            stated = [float(p.subs({T: t_len, d: dim})) for p in value]
            experiment.close(counted, stated, EXACT, "counted multiplies and entries",
                             inputs=f"tracked scalars, T={t_len}, d={dim}")


s_, v_ = sp.IndexedBase("s"), sp.IndexedBase("v")
m_a, m_b, m_all, l_a, l_b, o_a, o_b = sp.symbols("m_a m_b m ell_a ell_b o_a o_b", real=True)
n_a = sp.Symbol("n_a", positive=True, integer=True)


def exp_sum(lo, hi, ref, weight=1):
    """Σ_{j=lo}^{hi} exp(s_j − ref)·weight_j."""
    return sp.Sum(sp.exp(s_[j] - ref) * weight, (j, lo, hi))


@claim(
    id="online-softmax-merge",
    title="Two blocks' (max, exp-sum, weighted sum) merge exactly once rescaled to a common max",
    section="8.3",
    statement=Statement("ℓ = e^{m_a−m}ℓ_a + e^{m_b−m}ℓ_b and o = e^{m_a−m}o_a + e^{m_b−m}o_b, "
                        "m = max(m_a, m_b)", (sp.exp(m_a - m_all), sp.exp(m_b - m_all)),
                        lhs=sp.symbols("c_a c_b")),
    premises=("block a holds scores s_1..s_{n_a}, block b holds s_{n_a+1}..s_n",
              "ℓ_x = Σ_{j∈x} e^{s_j − m_x}, o_x = Σ_{j∈x} e^{s_j − m_x} v_j for each block x",
              "the whole's statistics use the common reference m (any m; max keeps exponents ≤ 0)"),
    foils=(Foil("the block sums can be added without rescaling", (sp.Integer(1), sp.Integer(1))),
           Foil("rescale by e^{m − m_x}", (sp.exp(m_all - m_a), sp.exp(m_all - m_b)))),
    sources=(DAO,),
    tags=("flash-attention", "softmax"),
)
class OnlineSoftmaxMerge:
    """Since e^{s−m} = e^{m_x−m}·e^{s−m_x}, block sums taken against their own max become sums
    against any common reference after one multiplication, so blocks can be processed apart."""

    def prove(self, factors, proof):
        c_a, c_b = factors
        chains = []
        for label, w, part_a, part_b in (("ℓ", 1, l_a, l_b), ("o", v_[j], o_a, o_b)):
            chain = (proof.chain(exp_sum(1, T, m_all, w), f"{label} of the whole")
                     .equals(exp_sum(1, n_a, m_all, w) + exp_sum(n_a + 1, T, m_all, w),
                             "split the index range at n_a")
                     .equals(sp.exp(m_a - m_all) * exp_sum(1, n_a, m_a, w)
                             + sp.exp(m_b - m_all) * exp_sum(n_a + 1, T, m_b, w),
                             "e^{s−m} = e^{m_x−m}·e^{s−m_x}")
                     .substitute({exp_sum(1, n_a, m_a, w): part_a,
                                  exp_sum(n_a + 1, T, m_b, w): part_b},
                                 premise=f"{label}_a, {label}_b are the blocks' own sums"))
            chains.append((c_a * part_a + c_b * part_b, chain))
        proof.conclude(tuple(s for s, _ in chains), *(ch for _, ch in chains))

    def check(self, factors, experiment):
        m_x = sp.Symbol("m_x", real=True)
        rescale = [sp.lambdify((m_x, m_all), f.subs({m_a: m_x, m_b: m_x}), "numpy")
                   for f in factors]
        for rows, n, spread in ((64, 37, 3.0), (32, 12, 30.0)):
            s = experiment.rng.normal(scale=spread, size=(rows, n))
            v = experiment.rng.normal(size=(n, 3))
            cut = int(experiment.rng.integers(1, n))
            merged = tiling.merge(tiling.summarise(s[:, :cut], v[:cut]),
                                  tiling.summarise(s[:, cut:], v[cut:]), *rescale)
            whole = tiling.summarise(s, v)
            # each sum: n terms, exp of a difference (2 ops) and for o one more multiply; the
            # merge adds a rescale (exp, subtract, multiply) and one add: γ_{n+6} per side,
            # relative to Σ e^{s−m}|w| (= ℓ, or ≤ ℓ·max|v| for o)
            experiment.close(merged.l, whole.l, tolerance(2 * (n + 6), float(whole.l.max())),
                             "merged ℓ vs whole ℓ", inputs=f"σ={spread}, split at n_a={cut} of {n}")
            experiment.close(merged.o, whole.o,
                             tolerance(2 * (n + 6), float(whole.l.max() * np.abs(v).max())),
                             "merged o vs whole o", inputs=f"σ={spread}, split at n_a={cut} of {n}")


m_old, m_new, l_old, o_old = sp.symbols("m_t m_{t+1} ell_t o_t", real=True)
n_old, n_new = sp.symbols("n_t n_{t+1}", positive=True, integer=True)
Z = sp.Symbol("Z", positive=True)  # softmax normaliser Σ_n e^{s_n}
SOFTMAX_AVERAGE = sp.Sum(sp.exp(s_[j]) / Z * v_[j], (j, 1, T))
RESCALE = sp.exp(m_old - m_new)   # the factor for the running sums when the max moves


@claim(
    id="flash-attention-exact",
    title="Tiled attention with running sums rescaled by e^{m_old − m_new} is exact",
    section="8.3",
    statement=Statement("when the running max moves from m_t to m_{t+1}, the running ℓ and o are "
                        "multiplied by e^{m_t − m_{t+1}}; the final o/ℓ equals softmax(s)·V",
                        RESCALE, lhs=sp.Symbol("c_t")),
    premises=("key blocks arrive one at a time; block t+1 holds keys n_t+1..n_{t+1}",
              "invariant after t blocks: ℓ_t = Σ_{j≤n_t} e^{s_j−m_t}, "
              "o_t = Σ_{j≤n_t} e^{s_j−m_t} v_j",
              "the new block's exps are taken against m_{t+1}; start: ℓ_0 = o_0 = 0, m_0 = −∞"),
    foils=(Foil("the running sums need no rescaling", sp.Integer(1)),
           Foil("rescale by e^{m_{t+1} − m_t}", sp.exp(m_new - m_old))),
    depends_on=("online-softmax-merge",),
    sources=(DAO,),
    tags=("flash-attention", "softmax"),
)
class FlashAttentionExact:
    """By induction over key blocks the running sums always equal the full sums against the
    current max; dividing at the end cancels the max, so tiling changes only rounding."""

    def prove(self, factor, proof):
        proof.fact(exp_sum(1, 0, m_old), 0, "base case: before any block the sums are empty")
        steps = []
        for label, w, old in (("ℓ", 1, l_old), ("o", v_[j], o_old)):
            chain = (proof.chain(exp_sum(1, n_new, m_new, w), f"{label}_(t+1) by the invariant")
                     .equals(sp.exp(m_old - m_new) * exp_sum(1, n_old, m_old, w)
                             + exp_sum(n_old + 1, n_new, m_new, w),
                             "split at n_t; e^{s−m_{t+1}} = e^{m_t−m_{t+1}}·e^{s−m_t}")
                     .substitute({exp_sum(1, n_old, m_old, w): old},
                                 premise=f"invariant after t blocks: {label}_t"))
            steps.append((factor * old + exp_sum(n_old + 1, n_new, m_new, w), chain))
        final = proof.chain(exp_sum(1, T, m_all, v_[j]) / exp_sum(1, T, m_all), "o_T / ℓ_T").equals(
            sp.Sum(sp.exp(s_[j]) * v_[j], (j, 1, T)) / sp.Sum(sp.exp(s_[j]), (j, 1, T)),
            "the common factor e^{−m} cancels").substitute(
            {sp.Sum(sp.exp(s_[j]), (j, 1, T)): Z}, premise="Z = Σ_n e^{s_n}, the softmax normaliser"
        ).equals(SOFTMAX_AVERAGE, "1/Z is constant in j")
        steps.append((SOFTMAX_AVERAGE, final))
        proof.conclude(tuple(s for s, _ in steps), *(ch for _, ch in steps))

    def check(self, factor, experiment):
        rescale = sp.lambdify((m_old, m_new), factor, "numpy")
        rng = experiment.rng
        for label, t_q, t_k, dim, bq, bk, trend in (("random", 23, 37, 8, 8, 6, 0.0),
                                                     ("rising scores", 16, 40, 4, 5, 7, 6.0)):
            q = rng.normal(size=(t_q, dim)) + trend / np.sqrt(dim)
            k = rng.normal(size=(t_k, dim)) + trend * np.linspace(0, 1, t_k)[:, None] / np.sqrt(dim)
            v = rng.normal(size=(t_k, 3))
            with np.errstate(all="ignore"):
                tiled = tiling.flash_attention(q, k, v, rescale, bq, bk)
            blocks = -(-t_k // bk)
            experiment.close(tiled, attention(q, k, v),
                             tiling.attention_tolerance(q, k, v, 2, extra_ops=3 * blocks),
                             f"tiled vs standard attention ({label})",
                             inputs=f"T_q={t_q}, T_k={t_k}, d={dim}, tiles {bq}×{bk}")

    def plot(self):
        # Illustrative only, not part of the check: fixed seed, T = 64, d = 16, keys whose
        # scores rise along the sequence so that the running max keeps moving.
        rng, t, dim = np.random.default_rng(808), 64, 16
        q, k = rng.standard_normal((2, t, dim))
        k += 3 * np.linspace(0, 1, t)[:, None] / np.sqrt(dim)
        v = rng.standard_normal((t, 4))
        exact = attention(q, k, v)
        stated = sp.lambdify((m_old, m_new), RESCALE, "numpy")
        tiles = 2 ** np.arange(7)                                        # 1 … 64
        curves = {"stated rescaling exp(m_t − m_{t+1})": [],
                  "foil: no rescaling (exact only with one tile)": [],
                  "rounding bound (γ_n, as in the check)": []}
        with np.errstate(all="ignore"):
            for b in map(int, tiles):
                for name, factor in zip(curves, (stated, lambda old, new: 1.0)):
                    tiled = tiling.flash_attention(q, k, v, factor, b, b)
                    curves[name].append(float(np.max(np.abs(tiled - exact))))
                curves["rounding bound (γ_n, as in the check)"].append(
                    float(tiling.attention_tolerance(q, k, v, 2, extra_ops=3 * (-(-t // b)))))
        log_b = tuple(float(x) for x in np.log2(tiles))
        return Plot(
            "Tiled vs standard attention: max |error| over tile sizes (T = 64)",
            tuple(Series(name, log_b, tuple(ys), "line" if n == 0 else "dashed")
                  for n, (name, ys) in enumerate(curves.items())),
            xlabel="log₂ tile size  (query and key tiles of 1 … 64 rows)",
            ylabel="max |tiled − standard| (log scale)", logy=True)
