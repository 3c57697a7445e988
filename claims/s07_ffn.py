"""Section 7: the position-wise feed-forward network."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.engine.proof import Rule

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.3 and Table 3",
                 arxiv="1706.03762")
# Table 3 of Vaswani et al., base model: a fact about that model, not a derived number.
VASWANI_BASE = {"d_model": 512, "d_ff": 2048}
FFN_FORMULA = r"\text{FFN}(x) = W_2 \cdot \phi(W_1 x + b_1) + b_2"

T, d, d_ff = sp.symbols("T d_model d_ff", positive=True, integer=True)
i, j, m = sp.symbols("i j m", positive=True, integer=True)
k, l, t = sp.symbols("k l t", integer=True)
r = sp.Symbol("r", integer=True, nonzero=True)
X, U, W1, W2, b1, b2 = sp.symbols("X u W_1 W_2 b_1 b_2", cls=sp.IndexedBase)
phi, sigma, sigma_inv = sp.Function("phi"), sp.Function("sigma"), sp.Function("sigma_inv")


def ffn_entry(x_of):
    """Component m of W₂φ(W₁x + b₁) + b₂ for the token whose l-th feature is x_of(l)."""
    hidden = phi(sp.Sum(W1[k, l] * x_of(l), (l, 1, d)) + b1[k])
    return sp.Sum(W2[m, k] * hidden, (k, 1, d_ff)) + b2[m]


def _sift(expr):
    """Σ_t δ(t, a)·f(t) → f(a) for every such sum in expr."""
    def is_delta_sum(e):
        return isinstance(e, sp.Sum) and e.function.atoms(sp.KroneckerDelta)

    def sifted(e):
        (var, _, _), = e.limits
        delta = next(iter(e.function.atoms(sp.KroneckerDelta)))
        target = delta.args[1] if delta.args[0] == var else delta.args[0]
        return (e.function / delta).subs(var, target)
    return expr.replace(is_delta_sum, sifted)


SIFT = Rule("sifting: Σ_t δ(t, σ(i)) a_t = a_σ(i), as σ(i) is one of 1..T", _sift)


def gelu(z):
    return 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z**3)))


ACTIVATIONS = {"GELU": gelu, "ReLU": lambda z: np.maximum(z, 0.0)}


def random_ffn(rng, n_tokens, dm, df):
    """Weights with the notes' shapes (W₁: d_ff×d_model, W₂: d_model×d_ff) and some tokens."""
    shapes = ((n_tokens, dm), (df, dm), (df,), (dm, df), (dm,))
    return [rng.normal(size=s) / np.sqrt(s[-1]) for s in shapes]


def apply_ffn(x, w1, c1, w2, c2, act):
    """The per-token formula applied to every row of x with the same weights."""
    return act(x @ w1.T + c1) @ w2.T + c2


def ffn_tolerance(x, w1, c1, w2, c2, computations):
    # Higham: a hidden entry carries γ_{d+1}·(|W₁||x|+|b₁|); GELU and ReLU have slope ≤ 1.13 < 2
    # and |φ(z)| ≤ |z|, so after φ that is ≤ 2γ_{d+1} plus φ's own rounding (tanh, cube: 3 ops);
    # the output sum adds γ_{d_ff+1}. All on the scale |W₂|(|W₁||x|+|b₁|)+|b₂|, per result;
    # ``computations`` independent results enter the comparison.
    scale = (np.abs(x) @ np.abs(w1).T + np.abs(c1)) @ np.abs(w2).T + np.abs(c2)
    ops = (w2.shape[1] + 1) + 2 * (w1.shape[1] + 1) + 3
    return tolerance(computations * ops, float(scale.max()))


@claim(
    id="ffn-permutation-equivariant",
    title="Shuffling the tokens shuffles the FFN's outputs the same way",
    section="7.2",
    statement=Statement("FFN(PX) = P·FFN(X): row i of FFN(PX) is row σ(i) of FFN(X)", sigma(i),
                        lhs=sp.Symbol("row of FFN(X) giving row i of FFN(PX)")),
    premises=("FFN(X) applies x ↦ W₂φ(W₁x + b₁) + b₂ to every row of X with the same weights",
              "P is the permutation matrix with (PX)_i = x_σ(i)", "φ is any entrywise function"),
    foils=(Foil("the FFN is permutation-invariant: FFN(PX) = FFN(X)", i),
           Foil("outputs move the opposite way: row i of FFN(PX) is row σ⁻¹(i)", sigma_inv(i))),
    sources=(VASWANI,),
    tags=("ffn", "symmetry"),
    formulas=(FFN_FORMULA,),
)
class FfnPermutationEquivariant:
    """A map applied token by token with shared weights commutes with any reordering of the
    tokens; it cannot tell positions apart, which is why positional encodings are needed."""

    def prove(self, row, proof):
        permuted = ffn_entry(lambda c: sp.Sum(sp.KroneckerDelta(t, sigma(i)) * X[t, c], (t, 1, T)))
        lhs = proof.chain(permuted, "FFN(PX)[i,m]").apply(SIFT)
        rhs = proof.chain(sp.Sum(sp.KroneckerDelta(t, sigma(i)) * ffn_entry(lambda c: X[t, c]),
                                 (t, 1, T)), "(P·FFN(X))[i,m]").apply(SIFT)
        stated = ffn_entry(lambda c: X[row, c])
        proof.conclude((stated, stated), lhs, rhs)

    def check(self, row, experiment):
        rng = experiment.rng
        for (n, dm, df), (name, act) in zip(((7, 4, 16), (12, 8, 32)), ACTIVATIONS.items()):
            x, w1, c1, w2, c2 = random_ffn(rng, n, dm, df)
            perm = rng.permutation(n)
            lookup = {sigma: perm, sigma_inv: np.argsort(perm)}
            rows = [row.subs(i, a).replace(lambda f: f.func in lookup,
                                           lambda f: sp.Integer(lookup[f.func][int(f.args[0])]))
                    for a in range(n)]
            if not all(e.is_integer and 0 <= e < n for e in rows):
                experiment.holds(False, f"stated rows are token indices ({name})", str(rows))
                continue
            shuffled = apply_ffn(np.eye(n)[perm] @ x, w1, c1, w2, c2, act)
            expected = apply_ffn(x, w1, c1, w2, c2, act)[[int(e) for e in rows]]
            experiment.close(shuffled, expected, ffn_tolerance(x, w1, c1, w2, c2, 2),
                             "FFN(PX) vs stated rows of FFN(X)",
                             inputs=f"{name}, T={n}, d_model={dm}, d_ff={df}, random σ")


@claim(
    id="ffn-no-token-interaction",
    title="Changing one token moves only that token's FFN output",
    section="7.2",
    statement=Statement("FFN(X + e_j uᵀ)_i − FFN(X)_i = δ_ij·(f(x_j + u) − f(x_j))",
                        sp.KroneckerDelta(i, j), lhs=sp.Symbol("c_ij")),
    premises=("FFN(X) applies f(x) = W₂φ(W₁x + b₁) + b₂ to every row with the same weights",
              "X + e_j uᵀ changes token j by an arbitrary vector u"),
    foils=(Foil("every token's change reaches every output (c_ij = 1)", sp.Integer(1)),
           Foil("outputs average the change over tokens (c_ij = 1/T)", 1 / T)),
    sources=(VASWANI,),
    tags=("ffn", "locality"),
    formulas=(FFN_FORMULA,),
)
class FfnNoTokenInteraction:
    """Output i is a function of token i alone: editing any other token leaves it exactly as
    it was. Mixing across positions is left entirely to attention."""

    def prove(self, c, proof):
        change = (ffn_entry(lambda e: X[i, e] + sp.KroneckerDelta(i, j) * U[e])
                  - ffn_entry(lambda e: X[i, e]))
        same = proof.chain(change, "ΔFFN[i,m], j = i").substitute({j: i}, premise="case j = i")
        other = proof.chain(change, "ΔFFN[i,m], j ≠ i").substitute(
            {j: i + r}, premise="case j ≠ i, written j = i + r with r ≠ 0")
        def own(row):
            return ffn_entry(lambda e: X[row, e] + U[e]) - ffn_entry(lambda e: X[row, e])
        proof.conclude((c.subs(j, i) * own(i), c.subs(j, i + r) * own(i + r)), same, other)

    def check(self, c, experiment):
        rng = experiment.rng
        for (n, dm, df), (name, act) in zip(((5, 4, 16), (6, 8, 32)), ACTIVATIONS.items()):
            x, w1, c1, w2, c2 = random_ffn(rng, n, dm, df)
            base = apply_ffn(x, w1, c1, w2, c2, act)
            for tok in range(n):
                u = rng.normal(size=dm)
                moved = x.copy()
                moved[tok] += u
                own = (apply_ffn(moved[tok:tok + 1], w1, c1, w2, c2, act)
                       - apply_ffn(x[tok:tok + 1], w1, c1, w2, c2, act))[0]
                factors = np.array([float(c.subs({i: a + 1, j: tok + 1, T: n})) for a in range(n)])
                tol = ffn_tolerance(np.vstack([x, moved]), w1, c1, w2, c2, 4)
                experiment.close(apply_ffn(moved, w1, c1, w2, c2, act) - base,
                                 np.outer(factors, own), tol,
                                 "change of every output after editing one token",
                                 inputs=f"token j={tok + 1}, {name}, T={n}, d_model={dm}, "
                                        f"d_ff={df}")


@claim(
    id="ffn-parameter-count",
    title="The FFN has 2·d_model·d_ff + d_ff + d_model parameters, 8d² + 5d when d_ff = 4d",
    section="7.1",
    statement=Statement("#params = 2·d_model·d_ff + d_ff + d_model, = 8·d_model² + 5·d_model "
                        "for d_ff = 4·d_model",
                        (2 * d * d_ff + d_ff + d, 8 * d**2 + 5 * d)),
    premises=("W₁ ∈ ℝ^{d_ff×d_model}, b₁ ∈ ℝ^{d_ff}, W₂ ∈ ℝ^{d_model×d_ff}, b₂ ∈ ℝ^{d_model}",
              "the same weights serve every token, so the count does not depend on T"),
    foils=(Foil("the biases are forgotten: 2·d_model·d_ff, 8·d_model²", (2 * d * d_ff, 8 * d**2)),
           Foil("b₁ taken of size d_model", (2 * d * d_ff + 2 * d, 8 * d**2 + 2 * d))),
    sources=(VASWANI,),
    tags=("ffn", "parameters"),
    figures=(Figure("d_ff / d_model in the base Transformer (Vaswani et al., Table 3)", "4",
                    near=r"d_{ff} =",
                    compute=lambda: VASWANI_BASE["d_ff"] / VASWANI_BASE["d_model"]),),
    formulas=(FFN_FORMULA,),
)
class FfnParameterCount:
    """Two weight matrices of d_model·d_ff entries each plus the two bias vectors; the
    usual 4× expansion makes the FFN about two thirds of a layer's weights."""

    def prove(self, value, proof):
        sizes = {"W_1": d_ff * d, "b_1": d_ff, "W_2": d * d_ff, "b_2": d}
        count = proof.chain(sp.Add(*sizes.values(), evaluate=False), "#params").equals(
            2 * d * d_ff + d_ff + d, "add the four array sizes", method="expand")
        usual = (proof.chain(2 * d * d_ff + d_ff + d, "#params at d_ff = 4d")
                 .substitute({d_ff: 4 * d}, premise="d_ff = 4·d_model")
                 .equals(8 * d**2 + 5 * d, "collect powers of d_model", method="expand"))
        proof.conclude(value, count, usual)

    def check(self, value, experiment):
        general, usual = value
        for dm, df in ((3, 5), (8, 32), (16, 40)):
            arrays = random_ffn(experiment.rng, 4, dm, df)
            x, w1, c1, w2, c2 = arrays
            out = apply_ffn(x, w1, c1, w2, c2, ACTIVATIONS["ReLU"])
            experiment.holds(out.shape == x.shape, "output shape = input shape",
                             f"d_model={dm}, d_ff={df}: {x.shape} → {out.shape}")
            counted = sum(a.size for a in arrays[1:])
            experiment.close(counted, float(general.subs({d: dm, d_ff: df})), 0,
                             "counted parameters",
                             inputs=f"d_model={dm}, d_ff={df}; integer count: exact")
            if df == 4 * dm:
                experiment.close(counted, float(usual.subs(d, dm)), 0,
                                 "counted parameters at d_ff = 4·d_model",
                                 inputs=f"d_ff={df}; integer count: exact")
