"""Section 7: the position-wise feed-forward network."""

import numpy as np
import sympy as sp

from tmath import Definition, Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Choice, Integers
from tmath.engine.rules import sift
from tmath.engine.rules_delta import DELTA_CASES, delta_identifies
from tmath.reference import edits, indexed
from tmath.reference.configurations import TRANSFORMER_BASE as BASE
from tmath.reference.ffn import Net, b1, b2, d_ff, d_model as d, entry, k, l, m, phi
from tmath.reference.flops import count
from ._bibliography import VASWANI2017

VASWANI = VASWANI2017.at("§3.3 and Table 3",
                         unverified="§3.3 and Table 3 were not checked against the paper")
# Table 3 of Vaswani et al., base model: a fact about that model, not a derived number.
FFN_FORMULA = r"\text{FFN}(x) = W_2 \cdot \phi(W_1 x + b_1) + b_2"
W_1, W_2, x = sp.symbols("W_1 W_2 x", commutative=False)   # the weights, one token (column)
FFN = Definition("the FFN of one token x; its component m is entry(l ↦ x_l)",
                 {sp.Function("FFN")(x): W_2 * phi(W_1 * x + b1) + b2})

T = sp.Symbol("T", positive=True, integer=True)
i, j = sp.symbols("i j", positive=True, integer=True)
t = sp.Symbol("t", integer=True)
r = sp.Symbol("r", nonnegative=True, integer=True)
X, U = sp.symbols("X u", cls=sp.IndexedBase)
sigma = sp.Function("sigma", positive=True, integer=True)
sigma_inv = sp.Function("sigma_inv", positive=True, integer=True)
SIZES = {T: Integers(1, 12), d: Integers(1, 8), d_ff: Integers(1, 32),
         "φ": Choice(("GELU", "ReLU"))}
IN_RANGE = Premise("σ permutes 1..T, so σ(i) ≥ 1 and r = T − σ(i) ≥ 0", {T: sigma(i) + r})
MOVED = entry(lambda c: X[j, c] + U[c]) - entry(lambda c: X[j, c])
PARAMETERS = count((k, d_ff), (l, d)) + count((k, d_ff)) + count((m, d), (k, d_ff)) + count((m, d))


PERMUTED = entry(lambda c: sp.Sum(sp.KroneckerDelta(t, sigma(i)) * X[t, c], (t, 1, T)))


def stated(value, net, x, point, functions):
    """The stated formula on the net's arrays, for every row i and component m (NaN if it
    does not evaluate)."""
    found = indexed.values(value, arrays={**net.arrays(), X: x}, values=point.substitutions(),
                           functions={"phi": net.act, **functions},
                           over=[(i, 1, len(x)), (m, 1, x.shape[1])])
    return np.broadcast_to(found, x.shape)


def lookup(perm):
    return lambda a: perm[a.astype(int) - 1] + 1.0


@claim(
    id="ffn-permutation-equivariant",
    title="Shuffling the tokens shuffles the FFN's outputs the same way",
    section="7.2",
    statement=Statement("FFN(PX) = P·FFN(X): row i of FFN(PX) is FFN(x_σ(i)), row σ(i) of FFN(X)",
                        entry(lambda c: X[sigma(i), c]), lhs=PERMUTED),
    premises=("FFN(X) applies x ↦ W₂φ(W₁x + b₁) + b₂ to every row of X with the same weights",
              "P is the permutation matrix with P_it = δ(t, σ(i)), so (PX)_i = Σ_t δ(t, σ(i)) x_t",
              IN_RANGE, "φ is any entrywise function"),
    foils=(Foil("the FFN is permutation-invariant: FFN(PX) = FFN(X)", entry(lambda c: X[i, c])),
           Foil("outputs move the opposite way: row i of FFN(PX) is row σ⁻¹(i)",
                entry(lambda c: X[sigma_inv(i), c]))),
    sources=(VASWANI,),
    tags=("ffn", "symmetry"),
    definitions=(FFN,),
    formulas=(FFN_FORMULA,),
)
class FfnPermutationEquivariant:
    """A map applied token by token with shared weights commutes with any reordering of the
    tokens; it cannot tell positions apart, which is why positional encodings are needed."""

    def prove(self, value, proof):
        row = (proof.chain(PERMUTED, "FFN(PX)[i,m]").substitute({T: sigma(i) + r}, premise=IN_RANGE)
               .apply(sift(1, sigma(i) + r)))
        proof.conclude(value, row, method="expand")

    def check(self, value, experiment):
        for point in experiment.draw(SIZES, count=4):
            net = Net.random(experiment.rng, point[d], point[d_ff], point["φ"])
            x = experiment.rng.normal(size=(point[T], point[d]))
            perm = experiment.rng.permutation(point[T])
            rows = stated(value, net, x, point,
                          {"sigma": lookup(perm), "sigma_inv": lookup(np.argsort(perm))})
            experiment.close(net(x[perm]), rows, net.tolerance(x, 2),
                             "FFN(PX) vs the stated rows of FFN(X)", at=point)


@claim(
    id="ffn-no-token-interaction",
    title="Changing one token moves only that token's FFN output",
    section="7.2",
    statement=Statement("FFN(X + e_j uᵀ)_i − FFN(X)_i = δ_ij·(f(x_j + u) − f(x_j))",
                        sp.KroneckerDelta(i, j) * MOVED,
                        lhs=entry(lambda c: X[i, c] + sp.KroneckerDelta(i, j) * U[c])
                        - entry(lambda c: X[i, c])),
    premises=("FFN(X) applies f(x) = W₂φ(W₁x + b₁) + b₂ to every row with the same weights",
              "X + e_j uᵀ changes token j by an arbitrary vector u: row i gains δ_ij·u"),
    foils=(Foil("every token's change reaches every output (c_ij = 1)", MOVED),
           Foil("outputs average the change over tokens (c_ij = 1/T)", MOVED / T),
           Foil("the change lands one row off: δ_i,j+1", sp.KroneckerDelta(i, j + 1) * MOVED),
           Foil("the FFN is additive: the change is δ_ij·f(u)",
                sp.KroneckerDelta(i, j) * entry(lambda c: U[c]))),
    sources=(VASWANI,),
    tags=("ffn", "locality"),
    definitions=(FFN,),
    formulas=(FFN_FORMULA,),
)
class FfnNoTokenInteraction:
    """Output i is a function of token i alone: editing any other token leaves it exactly as
    it was. Mixing across positions is left entirely to attention."""

    def prove(self, value, proof):
        change = (proof.chain(entry(lambda c: X[i, c] + sp.KroneckerDelta(i, j) * U[c])
                              - entry(lambda c: X[i, c]), "ΔFFN[i,m]")
                  .apply(DELTA_CASES).apply(delta_identifies(i, j)))
        proof.conclude(value, change, method="expand")

    def check(self, value, experiment):
        for point in experiment.draw(SIZES, count=4):
            net = Net.random(experiment.rng, point[d], point[d_ff], point["φ"])
            x, moves = experiment.rng.normal(size=(2, point[T], point[d]))
            change = edits.changes(net, x, moves)
            claimed = edits.stated_changes(value, j, U, moves, x.shape, [(i, 1, point[T]),
                                           (m, 1, point[d])], {**net.arrays(), X: x},
                                           {"phi": net.act}, point.substitutions())
            experiment.close(change, claimed, net.tolerance(np.vstack([x, x + moves]), 4),
                             "change of every output after editing each token j", at=point)


@claim(
    id="ffn-parameter-count",
    title="The FFN has 2·d_model·d_ff + d_ff + d_model parameters, 8d² + 5d when d_ff = 4d",
    section="7.1",
    statement=Statement("#params = 2·d_model·d_ff + d_ff + d_model, = 8·d_model² + 5·d_model "
                        "for d_ff = 4·d_model", (2 * d * d_ff + d_ff + d, 8 * d**2 + 5 * d),
                        lhs=(PARAMETERS, PARAMETERS.xreplace({d_ff: 4 * d}))),
    premises=("W₁ ∈ ℝ^{d_ff×d_model}, b₁ ∈ ℝ^{d_ff}, W₂ ∈ ℝ^{d_model×d_ff}, b₂ ∈ ℝ^{d_model}",
              "the same weights serve every token, so the count does not depend on T"),
    foils=(Foil("the biases are forgotten: 2·d_model·d_ff, 8·d_model²", (2 * d * d_ff, 8 * d**2)),
           Foil("b₁ taken of size d_model", (2 * d * d_ff + 2 * d, 8 * d**2 + 2 * d))),
    sources=(VASWANI,),
    tags=("ffn", "parameters"),
    figures=(Figure("d_ff / d_model in the base Transformer (Vaswani et al., Table 3)", "4",
                    near=r"d_{ff} =",
                    compute=lambda: BASE.value("d_ff") / BASE.value("d_model")),),
    definitions=(FFN,),
    formulas=(FFN_FORMULA,),
)
class FfnParameterCount:
    """Two weight matrices of d_model·d_ff entries each plus the two bias vectors; the
    usual 4× expansion makes the FFN about two thirds of a layer's weights."""

    def prove(self, value, proof):
        general = proof.chain(PARAMETERS, "#params").evaluate("count the entries of W₁, b₁, W₂, b₂")
        usual = proof.chain(PARAMETERS.xreplace({d_ff: 4 * d}), "#params at d_ff = 4d").evaluate(
            "count the entries of W₁, b₁, W₂, b₂")
        proof.conclude(value, general, usual)

    def check(self, value, experiment):
        general, usual = value
        for point in experiment.draw({d: Integers(1, 64), d_ff: Integers(1, 256)}, count=4):
            for width, part, label in ((point[d_ff], general, "counted parameters"), (
                    4 * point[d], usual, "counted parameters at d_ff = 4·d_model")):
                net = Net.random(experiment.rng, point[d], width, "ReLU")
                experiment.close(net.parameters, point.value(part), 0, label, at=point,
                                 inputs="array sizes: exact")
