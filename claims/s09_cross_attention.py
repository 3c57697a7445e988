"""Section 9: cross-attention, queries from the decoder and keys/values from the encoder."""

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.reference import tiling
from tmath.reference.nn import attention, softmax
from tmath.engine.proof import Rule

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.3 "
                 "(encoder-decoder attention)", arxiv="1706.03762")
CROSS_FORMULA = (r"\text{CrossAttn}(Q_{dec}, K_{enc}, V_{enc}) = \text{softmax}\left("
                 r"\frac{Q_{dec} K_{enc}^T}{\sqrt{d_k}}\right) V_{enc}")

T_dec, T_enc, d_k, d_v = sp.symbols("T_dec T_enc d_k d_v", positive=True, integer=True)
i, j = sp.symbols("i j", positive=True, integer=True)
c, t, e = sp.symbols("c t e", integer=True)
r = sp.Symbol("r", integer=True, nonzero=True)
Qd, Ke, Ve, U = sp.symbols("Q K V u", cls=sp.IndexedBase)

SHAPE = Rule("shape of a product: (a×b)(b×c) is a×c (SymPy checks b = b); scaling and the "
             "row softmax keep the shape", lambda expr: sp.Matrix(expr.shape))


def cross_entry(q_of):
    """Component e of Σ_t softmax_t(q·k_t/√d_k) v_t for the query whose c-th feature is q_of(c)."""
    score = sp.exp(sp.Sum(q_of(c) * Ke[t, c], (c, 1, d_k)) / sp.sqrt(d_k))
    return sp.Sum(score * Ve[t, e], (t, 1, T_enc)) / sp.Sum(score, (t, 1, T_enc))


def sizes(rng):
    """Decoder and encoder lengths that differ (both orders) plus a case where they agree."""
    short, long_ = sorted(rng.choice(np.arange(2, 12), size=2, replace=False))
    return ((short, long_), (long_, short), (5, 5))


@claim(
    id="cross-attention-shapes",
    title="Cross-attention weights are T_dec × T_enc and its output T_dec × d_v",
    section="9.1",
    statement=Statement("softmax(Q_dec K_encᵀ/√d_k) ∈ ℝ^{T_dec×T_enc}, output ∈ ℝ^{T_dec×d_v}, "
                        "for any T_dec and T_enc",
                        (sp.Matrix([T_dec, T_enc]), sp.Matrix([T_dec, d_v]))),
    premises=("Q_dec ∈ ℝ^{T_dec×d_k} comes from the decoder",
              "K_enc ∈ ℝ^{T_enc×d_k} and V_enc ∈ ℝ^{T_enc×d_v} come from the encoder"),
    foils=(Foil("the weights are T_enc × T_dec (encoder positions query the decoder)",
                (sp.Matrix([T_enc, T_dec]), sp.Matrix([T_enc, d_v]))),
           Foil("the weights are square, T_dec × T_dec, as in self-attention",
                (sp.Matrix([T_dec, T_dec]), sp.Matrix([T_dec, d_v])))),
    sources=(VASWANI,),
    tags=("cross-attention", "shapes"),
    formulas=(CROSS_FORMULA,),
)
class CrossAttentionShapes:
    """Each decoder position gets one distribution over the encoder positions, so the two
    lengths never need to match; only the key width d_k must agree."""

    def prove(self, value, proof):
        q = sp.MatrixSymbol("Q_dec", T_dec, d_k)
        k = sp.MatrixSymbol("K_enc", T_enc, d_k)
        v = sp.MatrixSymbol("V_enc", T_enc, d_v)
        weights = proof.chain(q * k.T / sp.sqrt(d_k), "shape of the weights").apply(SHAPE)
        a = sp.MatrixSymbol("A", *weights.value)
        output = proof.chain(a * v, "shape of A·V_enc").apply(SHAPE)
        proof.conclude(value, weights, output)

    def check(self, value, experiment):
        rng = experiment.rng
        for n_dec, n_enc in sizes(rng):
            dk, dv = 4, 3
            q, k = rng.normal(size=(n_dec, dk)), rng.normal(size=(n_enc, dk))
            v = rng.normal(size=(n_enc, dv))
            weights = softmax(q @ k.T / np.sqrt(dk))
            out = attention(q, k, v)
            at = {T_dec: n_dec, T_enc: n_enc, d_v: dv}
            stated = [tuple(x.subs(at) for x in part) for part in value]
            experiment.holds((weights.shape, out.shape) == tuple(stated),
                             "shapes", f"T_dec={n_dec}, T_enc={n_enc}: weights {weights.shape}, "
                                       f"output {out.shape}; stated {stated}")


@claim(
    id="cross-attention-row-locality",
    title="Cross-attention output row i depends on decoder row i and the encoder only",
    section="9.1",
    statement=Statement("changing decoder row j by u changes output row i by δ_ij·(g(q_j + u) − "
                        "g(q_j)), g(q) = softmax(qK_encᵀ/√d_k)V_enc", sp.KroneckerDelta(i, j),
                        lhs=sp.Symbol("c_ij")),
    premises=("output row i = softmax_t(q_i·k_t/√d_k) v_t summed over encoder positions t",
              "K_enc and V_enc are fixed; decoder row j is replaced by q_j + u"),
    foils=(Foil("a change of any decoder row reaches every output row (c_ij = 1)",
                sp.Integer(1)),
           Foil("decoder rows are pooled (c_ij = 1/T_dec)", 1 / T_dec)),
    sources=(VASWANI,),
    tags=("cross-attention", "locality"),
    formulas=(CROSS_FORMULA,),
)
class CrossAttentionRowLocality:
    """Queries never meet each other: each decoder position reads the encoder on its own, so
    T_dec may differ from T_enc and the decoder's own mixing is left to its self-attention."""

    def prove(self, coupling, proof):
        change = (cross_entry(lambda f: Qd[i, f] + sp.KroneckerDelta(i, j) * U[f])
                  - cross_entry(lambda f: Qd[i, f]))
        same = proof.chain(change, "Δout[i,e], j = i").substitute({j: i}, premise="case j = i")
        other = proof.chain(change, "Δout[i,e], j ≠ i").substitute(
            {j: i + r}, premise="case j ≠ i, written j = i + r with r ≠ 0")
        def own(row):
            return cross_entry(lambda f: Qd[row, f] + U[f]) - cross_entry(lambda f: Qd[row, f])
        proof.conclude((coupling.subs(j, i) * own(i), coupling.subs(j, i + r) * own(i + r)),
                       same, other)

    def check(self, coupling, experiment):
        rng = experiment.rng
        for n_dec, n_enc in sizes(rng):
            q, k = rng.normal(size=(n_dec, 8)), rng.normal(size=(n_enc, 8))
            v = rng.normal(size=(n_enc, 3))
            base = attention(q, k, v)
            for row in range(n_dec):
                moved = q.copy()
                moved[row] += rng.normal(size=8)
                own = attention(moved[row:row + 1], k, v) - attention(q[row:row + 1], k, v)
                factors = [float(coupling.subs({i: a + 1, j: row + 1, T_dec: n_dec}))
                           for a in range(n_dec)]
                tol = tiling.attention_tolerance(np.vstack([q, moved]), k, v, computations=4)
                experiment.close(attention(moved, k, v) - base, np.outer(factors, own), tol,
                                 "change of every output row after editing one decoder row",
                                 inputs=f"decoder row j={row + 1}, T_dec={n_dec}, T_enc={n_enc}, "
                                        f"d_k=8")
