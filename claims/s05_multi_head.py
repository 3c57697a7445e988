"""Section 5: multi-head attention: shapes, projection parameters, and the one-head case."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.heads import (merge_heads, multi_head, multi_head_by_slices, multi_head_tolerance,
                         projection_parameters, split_heads)
from tmath.reference.nn import attention

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.2", arxiv="1706.03762")
BERT = Source("Devlin et al. (2019), BERT, §3: BERT_BASE has L=12, H=768, A=12",
              arxiv="1810.04805")
GPT2 = Source("OpenAI (2019), gpt-2 release, models/124M/hparams.json: n_embd=768, n_head=12 "
              "(the smallest GPT-2; larger ones use 16, 20, 25 heads)",
              url="https://github.com/openai/gpt-2")

d_model, h, d_k = sp.symbols("d_model h d_k", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
D_K = d_model / h
# Published hyperparameters (facts about models, recorded with their sources above).
PUBLISHED = {"BERT-base": {"d_model": 768, "heads": 12},
             "GPT-2 (124M)": {"d_model": 768, "heads": 12}}


def _weights(rng, dm):
    return [rng.standard_normal((dm, dm)) / np.sqrt(dm) for _ in range(4)]


@claim(
    id="multi-head-shapes",
    title="Splitting d_model features into h heads gives heads of width d_model/h",
    section="5.1",
    statement=Statement("Q⁽ⁱ⁾, head_i ∈ R^{T×d_k} with d_k = d_model/h, and "
                        "Concat(head_1…head_h)·W_O ∈ R^{T×d_model}", D_K, lhs=d_k),
    premises=("Q, K, V ∈ R^{T×d_model} are split along the feature axis into h equal blocks",
              "W_O ∈ R^{d_model×d_model}", "h divides d_model"),
    foils=(Foil("each head keeps all d_model features", d_model),
           Foil("d_k = d_model/h² (heads split twice)", d_model / h**2)),
    sources=(VASWANI, BERT, GPT2),
    tags=("multi-head", "shapes"),
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

    def prove(self, width, proof):
        concat = (proof.chain(sp.Sum(width, (i, 1, h)), "width of Concat(head_1, …, head_h)")
                  .evaluate("h blocks, each as wide as V⁽ⁱ⁾"))
        proof.conclude(d_model, concat)

    def check(self, width, experiment):
        rng = experiment.rng
        configs = [(c["d_model"], c["heads"]) for c in PUBLISHED.values()]
        for dm, heads in configs[:1] + [(64, 8), (48, 3)]:      # 48 = 3·16: an odd h
            dk = width.subs({d_model: dm, h: heads})
            tiles = bool(dk.is_integer) and int(dk) * heads == dm
            experiment.holds(tiles, "h heads of width d_k tile d_model",
                             f"h={heads}, d_k={dk}, d_model={dm}: h·d_k "
                             + ("= d_model" if tiles else "≠ d_model"))
            if not tiles:
                continue
            x, ws = rng.standard_normal((5, dm)), _weights(rng, dm)
            q_heads = split_heads(x @ ws[0], heads)
            out = multi_head(x, *ws, heads)
            experiment.holds(q_heads.shape == (heads, 5, int(dk)) and out.shape == (5, dm),
                             "shapes",
                             f"Q heads {q_heads.shape}, output {out.shape}")
            experiment.close(out, multi_head_by_slices(x, *ws, int(dk)),
                             multi_head_tolerance(x, *ws, heads),
                             "reshape vs per-head weight slices", inputs=f"d_model={dm}, h={heads}")


@claim(
    id="projection-parameters",
    title="W_Q, W_K, W_V, W_O hold 4·d_model² weights and 4·d_model biases for any h",
    section="5.2",
    statement=Statement("weights = 4·d_model², biases = 4·d_model, independent of h",
                        (4 * d_model**2, 4 * d_model)),
    premises=("head i has W_Q⁽ⁱ⁾, W_K⁽ⁱ⁾, W_V⁽ⁱ⁾ ∈ R^{d_model×d_k} and biases in R^{d_k}",
              "W_O ∈ R^{h·d_k×d_model} with a bias in R^{d_model}", "d_k = d_model/h"),
    foils=(Foil("every head has full-size projections: 4h·d_model² weights",
                (4 * h * d_model**2, 4 * h * d_model)),),
    depends_on=("multi-head-shapes",),
    sources=(VASWANI,),
    tags=("multi-head", "parameters"),
)
class ProjectionParameters:
    """h heads of width d_model/h have, together, exactly the d_model output columns one
    full-width head would have; so splitting redistributes parameters, it does not add any."""

    def prove(self, value, proof):
        weights = (proof.chain(sp.Sum(3 * d_model * d_k, (i, 1, h)) + h * d_k * d_model,
                               "weights: 3 per-head blocks + W_O")
                   .evaluate("h identical heads")
                   .substitute({d_k: D_K}, lemma="multi-head-shapes"))
        biases = (proof.chain(sp.Sum(3 * d_k, (i, 1, h)) + d_model, "biases: 3 per-head + b_O")
                  .evaluate("h identical heads")
                  .substitute({d_k: D_K}, lemma="multi-head-shapes"))
        proof.fact(sp.diff(weights.value + biases.value, h), 0, "no dependence on h")
        proof.conclude(value, weights, biases)

    def check(self, value, experiment):
        for dm in (64, 768):
            for heads in [n for n in (1, 2, 3, 4, 8, 12, 64) if dm % n == 0]:
                params = projection_parameters(dm, heads)
                counted = tuple(sum(a.size for name, arrays in params.items() for a in arrays
                                    if name.startswith(kind)) for kind in ("W", "b"))
                stated = tuple(int(part.subs({d_model: dm, h: heads})) for part in value)
                experiment.holds(counted == stated, "parameter count",
                                 f"d_model={dm}, h={heads}: counted {counted}, stated {stated}")


@claim(
    id="single-head-reduction",
    title="With one head, multi-head attention is single-head attention with d_k = d_model",
    section="5.2",
    statement=Statement("h = 1: MultiHead = softmax(QKᵀ/√d_k)V·W_O with d_k = d_model", d_model,
                        lhs=d_k),
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
        width = (proof.chain(d_k, "head width").substitute({d_k: D_K}, lemma="multi-head-shapes")
                 .substitute({h: 1}, premise="a single head"))
        proof.conclude(value, width)

    def check(self, value, experiment):
        rng = experiment.rng
        for dm, t in ((128, 6), (768, 4)):
            x, ws = rng.standard_normal((t, dm)), _weights(rng, dm)
            scale = 1 / np.sqrt(float(value.subs(d_model, dm)))
            single = attention(x @ ws[0], x @ ws[1], x @ ws[2], scale=scale) @ ws[3]
            experiment.close(multi_head(x, *ws, 1), single, multi_head_tolerance(x, *ws, 1),
                             "MultiHead with h=1 vs single-head attention", inputs=f"d_model={dm}")
            same = np.array_equal(merge_heads(split_heads(x, 1)), x)
            experiment.holds(same, "split then merge with h=1 is the identity",
                             f"d_model={dm}: " + ("holds" if same else "does not hold"))
