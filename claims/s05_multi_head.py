"""Section 5: multi-head attention: shapes, projection parameters, and the one-head case."""

import math

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Statement, claim
from tmath.engine.experiment import Integers
from tmath.engine.parameters import evaluate
from tmath.engine.rules_shapes import derive_shape, shape
from tmath.latex.operators import Concat, Dots
from tmath.reference.configurations import BERT_BASE
from tmath.reference.formulas import row_softmax
from tmath.reference.heads import (head_points, multi_head, multi_head_by_slices,
                                   multi_head_tolerance, projection_parameters, split_heads)
from tmath.reference.nn import attention
from ._bibliography import DEVLIN2019, OPENAI_GPT2, VASWANI2017

VASWANI = VASWANI2017.at("§3.2.2",
                         unverified="the section number was not checked against the paper")
BERT = DEVLIN2019.at("§3: BERT_BASE has L=12, H=768, A=12")
GPT2 = OPENAI_GPT2.at("models/124M/hparams.json: n_embd=768, n_head=12 (the smallest GPT-2; "
                      "larger ones use 16, 20, 25 heads)")

d_model, h = sp.symbols("d_model h", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
w = sp.Symbol("w", positive=True)                # a candidate head width
d_k = sp.Function("d_k")                         # d_k(d_model, h): the width of each head
D_K = d_model / h
PUBLISHED = {"BERT-base": {q: BERT_BASE.value(q) for q in ("d_model", "heads")},  # facts, cited
             "GPT-2 (124M)": {"d_model": 768, "heads": 12}}                     # above
HEADS, WIDTHS = Integers(1, 16, (12, 16)), Integers(1, 48, (64, 1))   # d_model ≤ 768; BERT first
X, Q, K, V, W_Q, W_K, W_V, W_O = sp.symbols("X Q K V W_Q W_K W_V W_O", commutative=False)
head, MultiHead = sp.IndexedBase("head"), sp.Function("MultiHead")
T, d = sp.symbols("T d_k", positive=True, integer=True)   # d: the blocks' width, printed d_k
QI, KI, VI = (sp.MatrixSymbol(f"{M}^({i})", T, d) for M in "QKV")   # block i of Q, K, V
HEAD = row_softmax(QI * KI.T, 1 / sp.sqrt(d)) * VI                  # Attention(Q⁽ⁱ⁾, K⁽ⁱ⁾, V⁽ⁱ⁾)
PROJECTIONS = Definition("queries, keys and values are the input X times W_Q, W_K, W_V",
                         {Q: X * W_Q, K: X * W_K, V: X * W_V})
MULTI_HEAD = Definition("head i attends with block i of Q, K, V; W_O mixes the h heads, concatenated",
                        {head[i]: HEAD,
                         MultiHead(Q, K, V): Concat(Dots((head[1],), (head[h],))) * W_O})


def _weights(rng, dm):
    return [rng.standard_normal((dm, dm)) / np.sqrt(dm) for _ in range(4)]


def _whole(x):
    """x as an int when it is a positive whole number, else None (a false width)."""
    return int(round(x)) if np.isfinite(x) and x >= 0.5 and abs(x - round(x)) < 1e-9 else None


@claim(
    id="multi-head-shapes",
    title="Splitting d_model features into h heads gives heads of width d_model/h",
    section="5.1",
    statement=Statement("Q⁽ⁱ⁾, head_i ∈ R^{T×d_k} with d_k = d_model/h, and "
                        "Concat(head_1…head_h)·W_O ∈ R^{T×d_model}",
                        (D_K, sp.ImmutableMatrix([T, d])), lhs=(d_k(d_model, h), shape(HEAD))),
    premises=("Q, K, V ∈ R^{T×d_model} are split along the feature axis into h blocks Q⁽ⁱ⁾, K⁽ⁱ⁾, "
              "V⁽ⁱ⁾ ∈ R^{T×d_k}, which cover it", "W_O ∈ R^{d_model×d_model}", "h divides d_model"),
    foils=(Foil("each head keeps all d_model features", (d_model, sp.ImmutableMatrix([T, d_model]))),
           Foil("d_k = d_model/h² (heads split twice)", (d_model / h**2, sp.ImmutableMatrix([T, d]))),
           Foil("head_i is its T×T weights (V⁽ⁱ⁾ forgotten)", (D_K, sp.ImmutableMatrix([T, T])))),
    sources=(VASWANI, BERT, GPT2),
    tags=("multi-head", "shapes"),
    definitions=(PROJECTIONS, MULTI_HEAD),
    notation={r"\text{Attention}(Q^{(i)}, K^{(i)}, V^{(i)})": HEAD},
    figures=(Figure("head width at d_model = 768, h = 12", "64", near="768 / 12",
                    compute=lambda: D_K.subs({d_model: 768, h: 12})),
             Figure("heads in BERT-base (published)", "12", near="BERT-base",
                    compute=lambda: PUBLISHED["BERT-base"]["heads"]),
             Figure("heads in GPT-2 (published, 124M model)", "12", near="GPT-2",
                    compute=lambda: PUBLISHED["GPT-2 (124M)"]["heads"])),
    formulas=(r"Q = XW_Q, \quad K = XW_K, \quad V = XW_V",
              r"Q \in \mathbb{R}^{T \times d_{model}} \;\rightarrow\; Q^{(1)}, \ldots, Q^{(h)}, \quad Q^{(i)} \in \mathbb{R}^{T \times d_k}, \quad d_k = d_{model} / h",
              r"\text{head}_i = \text{Attention}(Q^{(i)}, K^{(i)}, V^{(i)}) \in \mathbb{R}^{T \times d_k}",
              r"\text{MultiHead}(Q, K, V) = \text{Concat}(\text{head}_1, \ldots, \text{head}_h) \cdot W_O"),
)
class MultiHeadShapes:
    """The h blocks tile the feature axis, so their widths add up to d_model; attention keeps
    each block's width (it averages rows of V⁽ⁱ⁾), and the concatenation feeds W_O exactly."""

    def prove(self, value, proof):
        tiling = (proof.chain(sp.Sum(w, (i, 1, h)) - d_model, "h blocks of width w, less d_model")
                  .evaluate("h equal widths"))
        proof.conclude(value, proof.root(tiling, w, d_k(d_model, h), "head width"),
                       derive_shape(proof, proof.statement.lhs[1], "shape of head i"))

    def check(self, value, experiment):
        rng, (width, head_shape) = experiment.rng, value
        for p in head_points(experiment, 3, d_model, h, HEADS, WIDTHS):
            dm, heads = p[d_model], p[h]
            dk = _whole(p.value(width))
            tiles = dk is not None and dk * heads == dm
            experiment.holds(tiles, "h heads of width d_k tile d_model",
                             f"h·d_k {'=' if tiles else '≠'} d_model", at=p)
            t = int(rng.integers(1, 9))
            x, ws = rng.standard_normal((t, dm)), _weights(rng, dm)
            out, (q, k, v) = multi_head(x, *ws, heads), (split_heads(x @ m, heads) for m in ws[:3])
            experiment.holds(q.shape == (heads, t, dk) and out.shape == (t, dm),
                             "Q⁽ⁱ⁾ is T×d_k and the output T×d_model", at=p)
            stated = np.ravel(evaluate(head_shape, {**p.substitutions(), T: t, d: q.shape[2]}))
            experiment.close(attention(q, k, v).shape[1:], stated, 0, "shape of every head_i",
                             inputs=f"T = {t}", at=p)
            sliced = multi_head_by_slices(x, *ws, dk) if tiles else math.nan
            experiment.close(sliced, out, multi_head_tolerance(x, *ws, heads),
                             "per-head weight slices of width d_k vs the reshape", at=p)


@claim(
    id="projection-parameters",
    title="W_Q, W_K, W_V, W_O hold 4·d_model² weights and 4·d_model biases for any h",
    section="5.2",
    statement=Statement("weights = 4·d_model², biases = 4·d_model, independent of h",
                        (4 * d_model**2, 4 * d_model),
                        lhs=(sp.Sum(3 * d_model * d_k(d_model, h), (i, 1, h))
                             + h * d_k(d_model, h) * d_model,
                             sp.Sum(3 * d_k(d_model, h), (i, 1, h)) + d_model)),
    premises=("head i has W_Q⁽ⁱ⁾, W_K⁽ⁱ⁾, W_V⁽ⁱ⁾ ∈ R^{d_model×d_k} and biases in R^{d_k}",
              "W_O ∈ R^{h·d_k×d_model} with a bias in R^{d_model}"),
    foils=(Foil("every head has full-size projections: 4h·d_model² weights",
                (4 * h * d_model**2, 4 * h * d_model)),
           Foil("only Q, K, V are projections: 3·d_model² weights (W_O forgotten)",
                (3 * d_model**2, 3 * d_model))),
    depends_on=("multi-head-shapes",),
    sources=(VASWANI,),
    tags=("multi-head", "parameters"),
)
class ProjectionParameters:
    """h heads of width d_model/h have, together, exactly the d_model output columns one
    full-width head would have; so splitting redistributes parameters, it does not add any."""

    def prove(self, value, proof):
        weights, biases = (proof.chain(part, label).evaluate("h identical heads")
                           .substitute({d_k(d_model, h): D_K}, lemma="multi-head-shapes")
                           for part, label in zip(proof.statement.lhs, ("weights: 3 per-head "
                                                  "blocks + W_O", "biases: 3 per-head + b_O")))
        proof.conclude(value, weights, biases)

    def check(self, value, experiment):
        for p in head_points(experiment, 4, d_model, h, HEADS, WIDTHS):
            params = projection_parameters(p[d_model], p[h])
            counted = tuple(sum(a.size for name, arrays in params.items() for a in arrays
                                if name.startswith(kind)) for kind in ("W", "b"))
            experiment.close(counted, p.value(value), 0.0, "parameter count (weights, biases)",
                             inputs=f"counted {counted}", at=p)


@claim(
    id="single-head-reduction",
    title="With one head, multi-head attention is single-head attention with d_k = d_model",
    section="5.2",
    statement=Statement("h = 1: MultiHead = softmax(QKᵀ/√d_k)V·W_O with d_k = d_model", d_model,
                        lhs=d_k(d_model, 1)),
    premises=("h = 1", "d_k = d_model/h (claim multi-head-shapes)"),
    foils=(Foil("one head still uses the per-head width 64 (and the scale 1/8)", sp.Integer(64)),),
    depends_on=("multi-head-shapes",),
    sources=(VASWANI,),
    tags=("multi-head",),
)
class SingleHeadReduction:
    """Splitting into one block and concatenating one block are identities, so the only
    thing h = 1 fixes is the head width, hence the score scale 1/√d_model."""

    def prove(self, value, proof):
        width = proof.chain(d_k(d_model, 1), "head width, h = 1")
        proof.conclude(value, width.substitute({d_k(d_model, 1): d_model}, lemma="multi-head-shapes"))

    def check(self, value, experiment):
        rng = experiment.rng
        for p in experiment.draw({d_model: Integers(1, 768, (768, 1)), "T": Integers(2, 8)}):
            dm, width = p[d_model], p.value(value)
            x, ws = rng.standard_normal((p.T, dm)), _weights(rng, dm)
            single = attention(x @ ws[0], x @ ws[1], x @ ws[2], scale=1 / math.sqrt(width)) @ ws[3] \
                if width > 0 else math.nan
            tol = multi_head_tolerance(x, *ws, 1)
            experiment.close(multi_head(x, *ws, 1), single, tol,
                             "MultiHead with h = 1 vs one head scaled by 1/√d_k", at=p)
            heads = _whole(dm / width) if width > 0 else None
            split = multi_head(x, *ws, heads) if heads and dm % heads == 0 else math.nan
            experiment.close(split, single, tol, "MultiHead with d_model/d_k heads vs one head",
                             at=p)
