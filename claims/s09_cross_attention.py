"""Section 9: cross-attention, queries from the decoder and keys/values from the encoder."""

from functools import partial

import numpy as np
import sympy as sp

from tmath import Definition, Foil, Statement, claim
from tmath.engine.experiment import Integers
from tmath.engine.rules_delta import DELTA_CASES, delta_identifies
from tmath.engine.rules_shapes import derive_shape, shape
from tmath.latex.operators import Softmax, Transpose
from tmath.reference import edits, tiling
from tmath.reference.formulas import attention_entry, row_softmax
from tmath.reference.nn import attention, softmax
from ._bibliography import VASWANI2017

VASWANI = VASWANI2017.at("§3.2.3 (encoder-decoder attention)",
                         unverified="the section number was not checked against the paper")
CROSS_FORMULA = (r"\text{CrossAttn}(Q_{dec}, K_{enc}, V_{enc}) = \text{softmax}\left("
                 r"\frac{Q_{dec} K_{enc}^T}{\sqrt{d_k}}\right) V_{enc}")

T_dec, T_enc, d_k, d_v = sp.symbols("T_dec T_enc d_k d_v", positive=True, integer=True)
i, j, e = sp.symbols("i j e", positive=True, integer=True)
c, t = sp.symbols("c t", integer=True)
Qd, Ke, Ve, U = sp.symbols("Q K V u", cls=sp.IndexedBase)
SIZES = {T_dec: Integers(1, 12), T_enc: Integers(1, 12, edges=(12, 5)), d_k: Integers(1, 8),
         d_v: Integers(1, 6)}

Q, K, V = (sp.MatrixSymbol(n, rows, cols) for n, rows, cols in
           (("Q_dec", T_dec, d_k), ("K_enc", T_enc, d_k), ("V_enc", T_enc, d_v)))
WEIGHTS = row_softmax(Q * K.T, 1 / sp.sqrt(d_k))
Q_, K_, V_ = sp.symbols("Q_dec K_enc V_enc", commutative=False)   # Q, K, V as products see them
PRINTED = Softmax(Q_ * Transpose(K_) / sp.sqrt(d_k))              # the weights, as printed
CROSS = Definition("cross-attention: decoder queries attend over encoder keys and values",
                   {sp.Function("CrossAttn")(Q_, K_, V_): PRINTED * V_})
BY_ROWS = Definition("the softmax of a score matrix is taken row by row", {PRINTED: WEIGHTS})


def cross_entry(q_of):  # component e of the output for the decoder query with features q_of(f)
    return attention_entry(q_of, Ke, Ve, T_enc, d_k, e, t, c)


MOVED = cross_entry(lambda f: Qd[j, f] + U[f]) - cross_entry(lambda f: Qd[j, f])


@claim(
    id="cross-attention-shapes",
    title="Cross-attention weights are T_dec × T_enc and its output T_dec × d_v",
    section="9.1",
    statement=Statement("softmax(Q_dec K_encᵀ/√d_k) ∈ ℝ^{T_dec×T_enc}, output ∈ ℝ^{T_dec×d_v}, "
                        "for any T_dec and T_enc",
                        (sp.ImmutableMatrix([T_dec, T_enc]), sp.ImmutableMatrix([T_dec, d_v])),
                        lhs=(shape(WEIGHTS), shape(WEIGHTS * V))),
    premises=("Q_dec ∈ ℝ^{T_dec×d_k} comes from the decoder",
              "K_enc ∈ ℝ^{T_enc×d_k} and V_enc ∈ ℝ^{T_enc×d_v} come from the encoder",
              "softmax by rows: A = E ⊙ ((E·1)^{∘−1}·1ᵀ) with E = exp∘(Q_dec K_encᵀ/√d_k)"),
    foils=(Foil("the weights are T_enc × T_dec (encoder positions query the decoder)",
                (sp.ImmutableMatrix([T_enc, T_dec]), sp.ImmutableMatrix([T_enc, d_v]))),
           Foil("the weights are square, T_dec × T_dec, as in self-attention",
                (sp.ImmutableMatrix([T_dec, T_dec]), sp.ImmutableMatrix([T_dec, d_v])))),
    sources=(VASWANI,),
    tags=("cross-attention", "shapes"),
    definitions=(CROSS, BY_ROWS),
    formulas=(CROSS_FORMULA,),
)
class CrossAttentionShapes:
    """Each decoder position gets one distribution over the encoder positions, so the two
    lengths never need to match; only the key width d_k must agree."""

    def prove(self, value, proof):
        labels = ("shape of the weights", "shape of A·V_enc")
        proof.conclude(value, *map(partial(derive_shape, proof), proof.statement.lhs, labels))

    def check(self, value, experiment):
        for point in experiment.draw(SIZES, count=5):
            q, k, v = (experiment.rng.normal(size=(point[rows], point[cols])) for rows, cols in
                       ((T_dec, d_k), (T_enc, d_k), (T_enc, d_v)))
            shapes = softmax(q @ k.T / np.sqrt(point[d_k])).shape + attention(q, k, v).shape
            experiment.close(shapes, np.concatenate([np.ravel(p) for p in point.value(value)]), 0,
                             "shapes of the weights and the output", at=point)


@claim(
    id="cross-attention-row-locality",
    title="Cross-attention output row i depends on decoder row i and the encoder only",
    section="9.1",
    statement=Statement("changing decoder row j by u changes output row i by δ_ij·(g(q_j + u) − "
                        "g(q_j)), g(q) = softmax(qK_encᵀ/√d_k)V_enc",
                        sp.KroneckerDelta(i, j) * MOVED,
                        lhs=cross_entry(lambda f: Qd[i, f] + sp.KroneckerDelta(i, j) * U[f])
                        - cross_entry(lambda f: Qd[i, f])),
    premises=("output row i = softmax_t(q_i·k_t/√d_k) v_t summed over encoder positions t",
              "K_enc and V_enc are fixed; decoder row j becomes q_j + u, so row i gains δ_ij·u"),
    foils=(Foil("a change of any decoder row reaches every output row (c_ij = 1)", MOVED),
           Foil("decoder rows are pooled (c_ij = 1/T_dec)", MOVED / T_dec),
           Foil("the change lands one row off: δ_i,j+1", sp.KroneckerDelta(i, j + 1) * MOVED),
           Foil("attention is additive in the query: the change is δ_ij·g(u)",
                sp.KroneckerDelta(i, j) * cross_entry(lambda f: U[f]))),
    sources=(VASWANI,),
    tags=("cross-attention", "locality"),
    definitions=(CROSS,),
    formulas=(CROSS_FORMULA,),
)
class CrossAttentionRowLocality:
    """Queries never meet each other: each decoder position reads the encoder on its own, so
    T_dec may differ from T_enc and the decoder's own mixing is left to its self-attention."""

    def prove(self, value, proof):
        change = (proof.chain(proof.statement.lhs, "Δout[i,e]")
                  .apply(DELTA_CASES).apply(delta_identifies(i, j)))
        proof.conclude(value, change, method="expand")

    def check(self, value, experiment):
        for point in experiment.draw(SIZES, count=5):
            q, moves = experiment.rng.normal(size=(2, point[T_dec], point[d_k]))
            k, v = (experiment.rng.normal(size=(point[T_enc], point[n])) for n in (d_k, d_v))
            change = edits.changes(lambda rows: attention(rows, k, v), q, moves)
            claimed = edits.stated_changes(value, j, U, moves, change[0].shape,
                                           [(i, 1, point[T_dec]), (e, 1, point[d_v])],
                                           {Qd: q, Ke: k, Ve: v}, values=point.substitutions())
            tol = tiling.attention_tolerance(np.vstack([q, q + moves]), k, v, computations=4)
            experiment.close(change, claimed, tol, "change of every output row after editing "
                             "each decoder row j", at=point)
