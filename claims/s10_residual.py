"""Section 10: residual connections, the identity term in their Jacobian, and norm placement."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED
from tmath.engine.experiment import tolerance
from tmath.reference.gradients import (INDEX_IN_RANGE, block_ops, entry_matrix, jacobian, random_block,
                             stack_bound, value_and_jvp)
from tmath.engine.moments import E, Moments, Var
from tmath.reference.norms import centred_moments, layer_norm

HE_RESNET = Source("He, Zhang, Ren & Sun (2016), Deep Residual Learning for Image Recognition",
                   arxiv="1512.03385")
HE_IDENTITY = Source("He, Zhang, Ren & Sun (2016), Identity Mappings in Deep Residual Networks, "
                     "Eqs. (4)–(5); §4.2 studies BN/ReLU placement in ResNets", arxiv="1603.05027")
XIONG = Source("Xiong et al. (2020), On Layer Normalization in the Transformer Architecture",
               arxiv="2002.04745")
WANG = Source("Wang et al. (2019), Learning Deep Transformer Models for Machine Translation, §2 "
              "(gradients of post-norm and pre-norm stacks)", arxiv="1906.01787")
GPT2_INIT = Source("Radford et al. (2019), Language Models are Unsupervised Multitask Learners, "
                   "§2.3 (residual weights scaled by 1/√N at init)",
                   url="https://cdn.openai.com/better-language-models/"
                       "language_models_are_unsupervised_multitask_learners.pdf")
# Depths (number of Transformer layers) of the models the notes allude to.
MODEL_DEPTHS = {"BERT-base": 12, "GPT-3 175B": 96}
DEPTH_SOURCES = (Source("Devlin et al. (2019), BERT, §3: BERT-base has L = 12 layers",
                        arxiv="1810.04805"),
                 Source("Brown et al. (2020), Language Models are Few-Shot Learners, Table 2.1: "
                        "GPT-3 175B has 96 layers", arxiv="2005.14165"))

i, j, a, b, c, k = sp.symbols("i j a b c k", positive=True, integer=True)
l, L = sp.symbols("l L", integer=True, nonnegative=True)
d = sp.Symbol("d", positive=True, integer=True)
xv, Fv, yv = sp.IndexedBase("x"), sp.IndexedBase("F"), sp.IndexedBase("y")
DELTA = sp.KroneckerDelta(i, j)

# Chinese texts shared by this section's glossaries (--lang zh).


def _skip_term(proof, total, branch, wrt, label):
    """∂(total)/∂wrt − ∂(branch)/∂wrt, differentiated by SymPy."""
    return (proof.chain(sp.Derivative(total, wrt) - sp.Derivative(branch, wrt), label)
            .evaluate("differentiate term by term; ∂x_i/∂x_j = δ_ij"))


@claim(
    id="residual-block-jacobian",
    title="The Jacobian of a residual block is the branch Jacobian plus the identity matrix",
    section="10.2",
    statement=Statement("∂y_i/∂x_j = ∂F_i/∂x_j + δ_ij, i.e. ∂y/∂x = ∂F/∂x + I and "
                        "∂L/∂x = ∂L/∂y·(∂F/∂x + I)", DELTA,
                        lhs=sp.Symbol("∂y_i/∂x_j − ∂F_i/∂x_j")),
    premises=("y = F(x) + x with F: ℝⁿ → ℝⁿ differentiable", "L is a differentiable loss of y"),
    foils=(Foil("the skip connection adds a scalar 1 to every Jacobian entry", sp.Integer(1)),
           Foil("the skip connection does not change the Jacobian", sp.Integer(0))),
    sources=(HE_RESNET, HE_IDENTITY),
    tags=("residual", "jacobian"),
    formulas=(r"y = F(x, \{W_i\}) + x",
              r"\frac{\partial \mathcal{L}}{\partial x} = \frac{\partial \mathcal{L}}{\partial y} "
              r"\cdot \frac{\partial y}{\partial x} = "
              r"\frac{\partial \mathcal{L}}{\partial y} \cdot "
              r"\left(\frac{\partial F}{\partial x} + I\right)"),
)
class ResidualBlockJacobian:
    """Differentiating F(x) + x entry by entry, the skip connection contributes δ_ij: the
    identity matrix, whatever the branch F does."""

    def prove(self, value, proof):
        branch = sp.Function("F")(i, xv[j])  # F_i seen as a function of x_j, the rest held fixed
        proof.conclude(value, _skip_term(proof, branch + xv[i], branch, xv[j],
                                         "∂y_i/∂x_j − ∂F_i/∂x_j"))

    def check(self, value, experiment):
        rng = experiment.rng
        for n, m in ((1, 4), (3, 8), (8, 16)):
            block, x, w = random_block(rng, n, m, gain=1.0), rng.standard_normal(n), \
                rng.standard_normal(n)
            skip = entry_matrix(value, i, j, n)
            exact = block.jacobian(x)
            # complex-step forward (block_ops), exact Jacobian (2m + 4), one subtraction;
            # every term is bounded by |W2||W1| + I.
            scale = float(block.abs_bound().max()) + 1
            tol = tolerance(block_ops(n, m) + 2 * m + 5, scale)
            experiment.close(jacobian(lambda z: block(z) + z, x) - exact, skip, tol,
                             f"∂y/∂x − ∂F/∂x at n={n}", inputs="a random tanh block")
            y = block(x) + x
            loss = lambda z: np.tanh(block(z) + z) @ w  # noqa: E731
            dl_dy = w * (1 - np.tanh(y) ** 2)
            experiment.close(jacobian(loss, x), dl_dy @ (exact + skip),
                             tolerance(block_ops(n, m) + 2 * m + 2 * n + 9,
                                       scale * float(np.abs(w).sum())),
                             f"∂L/∂x = ∂L/∂y·(∂F/∂x + skip) at n={n}", inputs="L = w·tanh(y)")


@claim(
    id="residual-unrolled-sum",
    title="A residual stack's output is its input plus the sum of all branch outputs",
    section="10.3",
    statement=Statement("x_L = x_l + Σ_{k=l}^{L−1} F(x_k, W_k)",
                        xv[l] + sp.Sum(Fv[k], (k, l, L - 1)), lhs=xv[L]),
    premises=("x_{k+1} = x_k + F(x_k, W_k) for every block k (F_k written F[k])",),
    foils=(Foil("the sum runs up to k = L", xv[l] + sp.Sum(Fv[k], (k, l, L))),
           Foil("x_L is the sum of the branch outputs alone", sp.Sum(Fv[k], (k, l, L - 1)))),
    sources=(HE_IDENTITY,),
    tags=("residual",),
    formulas=(r"x_L = x_l + \sum_{i=l}^{L-1} F(x_i, W_i)",),
)
class ResidualUnrolledSum:
    """Writing x_L − x_l as a telescoping sum of one-block increments, each increment is a
    branch output."""

    def prove(self, value, proof):
        unrolled = (proof.chain(xv[L], "x_L")
                    .equals(xv[l] + sp.Sum(xv[k + 1] - xv[k], (k, l, L - 1)),
                            "telescoping sum", method="doit")
                    .substitute({xv[k + 1] - xv[k]: Fv[k]}, premise="x_{k+1} − x_k = F(x_k, W_k)"))
        proof.conclude(value, unrolled)

    def check(self, value, experiment):
        rng, d_, start = experiment.rng, 4, 3
        for depth in (1, 5, 12):
            end = start + depth
            xs, fs = np.zeros((end + 2, d_)), np.zeros((end + 2, d_))
            xs[start] = rng.standard_normal(d_)
            for step in range(start, end + 1):  # one extra block so a foil may read F[L]
                fs[step] = random_block(rng, d_, 8, gain=1.0)(xs[step])
                xs[step + 1] = xs[step] + fs[step]
            formula = sp.lambdify([xv, Fv], value.subs({l: start, L: end}).doit(), "numpy")
            # x_L accumulates `depth` additions, the formula as many again
            scale = float(np.abs(xs[start]).max() + np.abs(fs[start:end]).sum(0).max())
            experiment.close(formula(xs, fs), xs[end], tolerance(2 * depth + 2, scale),
                             f"unrolled form over {depth} block(s)", inputs="random tanh blocks")


@claim(
    id="residual-stack-jacobian",
    title="Through a residual stack the Jacobian's leading term is the identity matrix I",
    section="10.3",
    statement=Statement("∂(x_L)_a/∂(x_l)_b = δ_ab + ∂/∂(x_l)_b Σ_k F_a(x_k), so "
                        "∂L/∂x_l = ∂L/∂x_L·(I + ∂/∂x_l Σ_k F(x_k, W_k)): the leading term is I "
                        "(the printed '1' is I, not a scalar added to every entry)",
                        sp.KroneckerDelta(a, b),
                        lhs=sp.Symbol("∂(x_L)_a/∂(x_l)_b − ∂S_a/∂(x_l)_b")),
    premises=("x_{k+1} = x_k + F(x_k, W_k), every F differentiable",
              "S(x_l) = Σ_{k=l}^{L−1} F(x_k, W_k), each x_k a function of x_l"),
    foils=(Foil("a scalar 1 is added to every entry", sp.Integer(1)),
           Foil("no identity term survives many blocks", sp.Integer(0))),
    depends_on=("residual-unrolled-sum",),
    sources=(HE_IDENTITY,),
    tags=("residual", "jacobian", "gradient"),
)
class ResidualStackJacobian:
    """Differentiating the unrolled form x_L = x_l + S(x_l), the x_l term gives δ_ab at any
    depth; every other contribution passes through some branch F."""

    def prove(self, value, proof):
        top, total = sp.Function("x_L")(a, xv[b]), sp.Function("S")(a, xv[b])
        skip = (proof.chain(sp.Derivative(top, xv[b]) - sp.Derivative(total, xv[b]),
                            "∂(x_L)_a/∂(x_l)_b − ∂S_a/∂(x_l)_b")
                .substitute({top: xv[a] + total}, lemma="residual-unrolled-sum")
                .evaluate("differentiate term by term; ∂(x_l)_a/∂(x_l)_b = δ_ab"))
        proof.conclude(value, skip)

    def check(self, value, experiment):
        rng = experiment.rng
        for depth, n in ((4, 3), (12, 6)):
            # GPT-2-style small gain 1/√(2·depth) keeps the rounding bound ∏(I + |W2||W1|) tight
            blocks = [random_block(rng, n, 8, gain=(2 * depth) ** -0.5) for _ in range(depth)]

            def run(z, branch_sum):
                total = 0 * z
                for block in blocks:
                    out = block(z)
                    z, total = z + out, total + out
                return total if branch_sum else z

            x, g = rng.standard_normal(n), rng.standard_normal(n)
            top = jacobian(lambda z: run(z, False), x)
            branches = jacobian(lambda z: run(z, True), x)
            skip = entry_matrix(value, a, b, n)
            # per block: forward (block_ops) plus two accumulations; entries bounded by
            # ∏(I + |W2||W1|)
            tol = tolerance(depth * (block_ops(n, 8) + 2) + 2, stack_bound(blocks))
            experiment.close(top - branches, skip, tol, f"∂x_L/∂x_l − ∂S/∂x_l over {depth} blocks",
                             inputs=f"n={n}, random tanh blocks")
            experiment.close(jacobian(lambda z: run(z, False) @ g, x), g @ (skip + branches),
                             tolerance(depth * (block_ops(n, 8) + 2) + 2 * n + 4,
                                       stack_bound(blocks) * float(np.abs(g).sum())),
                             f"∂L/∂x_l = ∂L/∂x_L·(skip + ∂S/∂x_l) over {depth} blocks",
                             inputs="L = g·x_L")


s_gain, n2 = sp.Symbol("s", positive=True), sp.Symbol("‖u‖²", positive=True)
q, r = sp.symbols("q r", positive=True, integer=True)
m_hidden = sp.Symbol("m", positive=True, integer=True)
Nn, Aa, Cc = sp.IndexedBase("N"), sp.IndexedBase("A"), sp.IndexedBase("C")
W, P, uv, av = (sp.IndexedBase(name) for name in ("W", "P", "u", "a"))
GPT2_GAIN = lambda depth: (2 * depth) ** -0.5  # noqa: E731  residual weights × 1/√N, N = 2·depth


def _unit_rows(rng, size, dim):
    u = rng.standard_normal((size, dim))
    return u / np.sqrt((u * u).sum(-1, keepdims=True))


def _energy_identity_draw(depth, dim, hidden, law, pre_norm):
    """‖u_L‖² − Σ_k ‖J_k u_k‖² for fresh random networks; u_0 a random unit vector and x_0 a
    standardised token (mean 0, variance 1, like an embedding after LayerNorm)."""
    def draw(rng, size):
        x = layer_norm(rng.standard_normal((size, dim)), 0.0)
        u, branch_energy = _unit_rows(rng, size, dim), 0.0
        for _ in range(depth):
            block = random_block(rng, dim, hidden, GPT2_GAIN(depth), (size,), STANDARDIZED[law])
            branch = (lambda z: block(layer_norm(z, 1e-5))) if pre_norm else block  # noqa: B023
            out, tangent = value_and_jvp(branch, x, u)
            branch_energy = branch_energy + (tangent * tangent).sum(-1)
            x, u = x + out, u + tangent
        return (u * u).sum(-1) - branch_energy
    return draw


@claim(
    id="residual-gradient-energy",
    title="Through residual blocks the input's gradient energy is never lost on average",
    section="10.3",
    statement=Statement("E‖(∂x_L/∂x_0)u‖² = ‖u‖² + Σ_k E‖J_k u_k‖² ≥ ‖u‖² at every depth L: the "
                        "skip path carries the full ‖u‖², the branches only add (equivalently "
                        "E‖∂x_L/∂x_0‖_F² ≥ d: an upstream gradient direction drawn independently "
                        "of the network keeps at least its energy on average)", sp.Integer(1),
                        lhs=sp.Symbol("E[‖u_L‖² − Σ_k‖J_k u_k‖²]/‖u_0‖²")),
    premises=("x_{k+1} = x_k + F_k(x_k) (or F_k(LN(x_k)) for pre-norm), "
              "F_k(z) = W2_k·tanh(W1_k z + b_k)",
              "u_{k+1} = (I + J_k)u_k, J_k = ∂F_k/∂x_k; u_0 fixed (or drawn independently)",
              "W2_k has mean-zero entries, drawn independently of x_k, u_k, W1_k, b_k",
              "all weights have finite variances"),
    foils=(Foil("without any guarantee from the skip path (coefficient 0)", sp.Integer(0)),
           Foil("the skip path carries half the energy", sp.Rational(1, 2))),
    sources=(HE_IDENTITY, GPT2_INIT) + DEPTH_SOURCES,
    tags=("residual", "gradient", "monte-carlo"),
    figures=(Figure("layers of BERT-base", "12", near="这就是为什么",
                    compute=lambda: MODEL_DEPTHS["BERT-base"]),
             Figure("layers of GPT-3 175B", "96", near="甚至",
                    compute=lambda: MODEL_DEPTHS["GPT-3 175B"])),
    statistical_tests=2,
)
class ResidualGradientEnergy:
    """‖u + a‖² = ‖u‖² + 2u·a + ‖a‖² and the cross term has mean zero because the branch's
    last weights are zero-mean and fresh; telescoping over blocks leaves ‖u_0‖²."""

    def prove(self, value, proof):
        moments = Moments(random=(W, P))
        cross = (proof.chain(E(sp.Sum(W[r, q] * P[r, q], (r, 1, d), (q, 1, m_hidden))),
                             "cross term E[u_k·J_k u_k]: J_k = W2_k·D_k·W1_k, "
                             "P_rq = u_r·(D_k W1_k u_k)_q")
                 .apply(moments.linearity).apply(moments.independence)
                 .substitute({E(W[r, q]): 0}, premise="E[W2_k] = 0, W2_k independent of P")
                 .evaluate("sum of zeros"))
        proof.fact(sp.Sum((uv[q] + av[q]) ** 2, (q, 1, d)),
                   sp.Sum(uv[q] ** 2, (q, 1, d)) + 2 * sp.Sum(uv[q] * av[q], (q, 1, d))
                   + sp.Sum(av[q] ** 2, (q, 1, d)), "‖u + a‖² = ‖u‖² + 2u·a + ‖a‖²")
        energy = Moments(random=(Cc, Aa))
        total = (proof.chain(E(Nn[L] - sp.Sum(Aa[k], (k, 0, L - 1))), "E[N_L − Σ A_k]")
                 .equals(E(Nn[0] + sp.Sum(Nn[k + 1] - Nn[k], (k, 0, L - 1))
                           - sp.Sum(Aa[k], (k, 0, L - 1))), "telescoping sum", method="doit")
                 .substitute({Nn[k + 1]: Nn[k] + 2 * Cc[k] + Aa[k]},
                             premise="N_{k+1} = N_k + 2C_k + A_k (‖u+a‖² identity)")
                 .apply(energy.linearity)
                 .substitute({E(Cc[k]): cross.value}, premise="E[C_k] (cross-term chain)"))
        proof.conclude(value * Nn[0], total)

    def check(self, value, experiment):
        depth = MODEL_DEPTHS["BERT-base"]
        for law, pre_norm in (("centred exponential", False), ("Rademacher", True)):
            kind = "pre-norm" if pre_norm else "plain residual"
            experiment.mean(_energy_identity_draw(depth, 4, 4, law, pre_norm), float(value),
                            f"E[‖u_L‖² − Σ‖J_k u_k‖²], {kind}, L={depth}, W2 {law}",
                            min_effect=0.04)


def _linear_energy_draw(depth, dim, gain, residual):
    def draw(rng, size):
        u = _unit_rows(rng, size, dim)
        for _ in range(depth):
            w = STANDARDIZED["Rademacher"](rng, (size, dim, dim)) * (gain / np.sqrt(dim))
            step = np.matmul(w, u[..., None])[..., 0]
            u = u + step if residual else step
        return (u * u).sum(-1)
    return draw


@claim(
    id="gradient-energy-linear",
    title="At a random linear init each block multiplies the mean gradient energy by 1 + s² "
          "with a skip connection and by s² without",
    section="10.2",
    statement=Statement("E‖(I + W)u‖² = (1 + s²)‖u‖² and E‖Wu‖² = s²‖u‖², hence over L fresh "
                        "blocks (1 + s²)^L ≥ 1 versus s^{2L} → 0 for s < 1",
                        (1 + s_gain**2, s_gain**2),
                        lhs=(sp.Symbol("E‖(I+W)u‖²/‖u‖²"), sp.Symbol("E‖Wu‖²/‖u‖²"))),
    premises=("W has independent entries with mean 0 and variance s²/d",
              "u is fixed (or independent of W); blocks are drawn independently",
              "the same holds for a back-propagated g, since Wᵀ has the same law as W"),
    foils=(Foil("the skip connection keeps the energy exactly (factor 1)",
                (sp.Integer(1), s_gain**2)),
           Foil("norms rather than energies add: (1 + s)²", ((1 + s_gain) ** 2, s_gain**2)),
           Foil("a plain block preserves the energy too", (1 + s_gain**2, sp.Integer(1)))),
    sources=(HE_IDENTITY,),
    tags=("residual", "gradient", "monte-carlo", "initialisation"),
    statistical_tests=2,
)
class GradientEnergyLinear:
    """The identity adds ‖u‖², the random branch adds s²‖u‖² and the cross term vanishes;
    without the identity only the shrinking s²‖u‖² is left."""

    def prove(self, value, proof):
        moments = Moments(random=(W,))
        row = sp.Sum(W[q, c] * uv[c], (c, 1, d))  # (Wu)_q
        mean = (proof.chain(E(row), "E[(Wu)_q]").apply(moments.linearity)
                .substitute({E(W[q, c]): 0}, premise="E[W_qc] = 0").evaluate("sum of zeros"))
        var = (proof.chain(Var(row), "Var((Wu)_q)").apply(moments.bienayme)
               .apply(moments.variance_scaling)
               .substitute({Var(W[q, c]): s_gain**2 / d}, premise="Var(W_qc) = s²/d")
               .evaluate("pull out s²/d")
               .substitute({sp.Sum(uv[c] ** 2, (c, 1, d)): n2}, premise="Σ_c u_c² = ‖u‖²"))
        # linearity may or may not reach inside E[(Wu)_q]; both forms are mapped
        second = {E(row): mean.value, E(W[q, c]): 0, E(row**2): var.value + mean.value**2}
        norm = {sp.Sum(uv[q] ** 2, (q, 1, d)): n2}
        res = (proof.chain(E(sp.Sum((uv[q] + row) ** 2, (q, 1, d))) / n2, "E‖(I+W)u‖²/‖u‖²")
               .apply(moments.linearity)
               .substitute(second, premise="E[W_qc] = 0, E[(Wu)_q²] = Var (chains above)")
               .evaluate("sum over q").substitute(norm, premise="Σ_q u_q² = ‖u‖²"))
        plain = (proof.chain(E(sp.Sum(row**2, (q, 1, d))) / n2, "E‖Wu‖²/‖u‖²")
                 .apply(moments.linearity)
                 .substitute(second, premise="E[(Wu)_q²] = Var (chain above)")
                 .evaluate("sum over q"))
        proof.conclude(value, res, plain)

    def check(self, value, experiment):
        depth, gain = MODEL_DEPTHS["BERT-base"], np.sqrt(0.5)
        for part, residual in zip(value, (True, False)):
            expected = float(part.subs(s_gain, gain)) ** depth
            # min_effect 0.2: a 5% error in the per-block factor moves the L=12 value by ≥ 80%
            experiment.mean(_linear_energy_draw(depth, 8, gain, residual), expected,
                            f"E‖u_L‖² over L={depth} {'residual' if residual else 'plain'} "
                            f"linear blocks, s²=1/2, d=8", min_effect=0.2)


eps, v = sp.symbols("epsilon v", positive=True)
mu = sp.Symbol("mu", real=True)
SIGMA = sp.sqrt(v + eps)
LN_JACOBIAN = ((sp.KroneckerDelta(a, b) - 1 / d) / SIGMA
               - (yv[a] - mu) * (yv[b] - mu) / (d * SIGMA**3))


def _layer_norm_jacobian(proof):
    """Derive ∂LN(y)_a/∂y_b for general d; returns the chain."""
    mean_f, var_f = sp.Function("M")(yv[b]), sp.Function("V")(yv[b])  # μ(y), Var(y) near y_b
    dmean = (proof.chain(sp.Derivative(sp.Sum(yv[k], (k, 1, d)) / d, yv[b]), "∂μ/∂y_b")
             .evaluate("differentiate the sum").apply(INDEX_IN_RANGE))
    dvar = (proof.chain(sp.Derivative(sp.Sum(yv[k] ** 2, (k, 1, d)) / d - mean_f**2, yv[b]),
                        "∂Var/∂y_b, Var = mean(y²) − μ²")
            .evaluate("differentiate").apply(INDEX_IN_RANGE)
            .substitute({sp.Derivative(mean_f, yv[b]): dmean.value}, premise="∂μ/∂y_b (above)"))
    return (proof.chain(sp.Derivative((yv[a] - mean_f) / sp.sqrt(var_f + eps), yv[b]),
                        "∂LN(y)_a/∂y_b")
            .evaluate("quotient and chain rule")
            .substitute({sp.Derivative(mean_f, yv[b]): dmean.value,
                         sp.Derivative(var_f, yv[b]): dvar.value}, premise="∂μ/∂y_b, ∂Var/∂y_b")
            .substitute({mean_f: mu, var_f: v}, premise="μ, Var evaluated at y"))


@claim(
    id="norm-placement-skip-jacobian",
    title="Pre-norm leaves the skip path's Jacobian equal to I; post-norm replaces it by "
          "LayerNorm's Jacobian",
    section="10.4",
    statement=Statement("pre-norm x + F(LN(x)): skip term δ_ab; post-norm LN(x + F(x)): "
                        "∂x⁺/∂x = J_LN(y)(I + ∂F/∂x) with y = x + F(x), skip term "
                        "J_LN(y)_ab = (δ_ab − 1/d)/σ − (y_a − μ)(y_b − μ)/(dσ³), σ² = Var(y) + ε "
                        "(its rows sum to 0, claim prenorm-mean-direction, so it is never I)",
                        (sp.KroneckerDelta(a, b), LN_JACOBIAN),
                        lhs=(sp.Symbol("pre-norm skip term"), sp.Symbol("post-norm skip term"))),
    premises=("LN(y) = (y − μ)/√(Var(y) + ε), μ and Var over the d features (γ = 1, β = 0)",
              "F differentiable; the chain rule"),
    foils=(Foil("post-norm also keeps the identity on the skip path",
                (sp.KroneckerDelta(a, b), sp.KroneckerDelta(a, b))),
           Foil("LayerNorm's Jacobian is just the centring (I − 11ᵀ/d)/σ",
                (sp.KroneckerDelta(a, b), (sp.KroneckerDelta(a, b) - 1 / d) / SIGMA))),
    sources=(XIONG, WANG, HE_IDENTITY),
    tags=("residual", "layernorm", "pre-norm", "jacobian"),
)
class NormPlacementSkipJacobian:
    """In pre-norm the normalisation sits inside the branch, so differentiating x + G(x)
    leaves δ_ab; in post-norm every path, the skip path included, is multiplied by J_LN."""

    def prove(self, value, proof):
        branch = sp.Function("G")(a, xv[b])  # G = F∘LN, as a function of x_b
        pre = _skip_term(proof, xv[a] + branch, branch, xv[b], "pre-norm: ∂x⁺_a/∂x_b − ∂G_a/∂x_b")
        proof.conclude(value, pre, _layer_norm_jacobian(proof))

    def check(self, value, experiment):
        rng = experiment.rng
        for n, epsilon in ((3, 1e-5), (8, 0.5)):
            block, x = random_block(rng, n, 2 * n, gain=1.0), rng.standard_normal(n)
            pre_total = jacobian(lambda z: z + block(layer_norm(z, epsilon)), x)
            pre_branch = jacobian(lambda z: block(layer_norm(z, epsilon)), x)
            y = x + block(x)
            y_mean, _, y_var = centred_moments(y)
            centre, var = float(y_mean[0]), float(y_var[0])
            skip_post = entry_matrix(value[1], a, b, n, vector=(yv, y),
                                     values={d: n, mu: centre, v: var, eps: epsilon})
            # LN adds ~4n steps (mean, centring, variance, division) to the block's; entries of
            # J_LN are at most 2/σ, those of the branch |W2||W1|
            scale = (1 + float(block.abs_bound().max())) * 2 / np.sqrt(var + epsilon)
            tol = tolerance(block_ops(n, 2 * n) + 8 * n + 8, scale)
            experiment.close(pre_total - pre_branch, entry_matrix(value[0], a, b, n), tol,
                             f"pre-norm skip term, d={n}, ε={epsilon}", inputs="random tanh block")
            experiment.close(jacobian(lambda z: layer_norm(z + block(z), epsilon), x),
                             skip_post @ (np.eye(n) + block.jacobian(x)), tol,
                             f"post-norm: ∂x⁺/∂x = skip·(I + ∂F/∂x), d={n}, ε={epsilon}",
                             inputs="random tanh block")


JF, ROW, MV = sp.IndexedBase("J_F"), sp.IndexedBase("r"), sp.IndexedBase("w")
R_LN = sp.Function("J_LN")


def _ln_jacobian_sum(proof, free, summed, label):
    """Σ over ``summed`` of J_LN entries (a row sum or a column sum) is 0."""
    entry = R_LN(free, summed) if label == "row" else R_LN(summed, free)
    formula = LN_JACOBIAN.xreplace({a: entry.args[0], b: entry.args[1]})
    return (proof.chain(sp.Sum(entry, (summed, 1, d)), f"{label} sum of J_LN")
            .substitute({entry: formula}, lemma="norm-placement-skip-jacobian")
            .evaluate("sum the δ and the outer-product terms").apply(INDEX_IN_RANGE)
            .equals(-(yv[free] - mu) * (sp.Sum(yv[summed], (summed, 1, d)) - d * mu)
                    / (d * SIGMA**3), "factor out y_free − μ")
            .substitute({sp.Sum(yv[summed], (summed, 1, d)): d * mu}, premise="Σ y = d·μ"))


def _mean_direction_draw(rng, depth, dim, post_norm, count=16, epsilon=1e-5):
    """(mean over features of (∂x_L/∂x_0)·1, a rounding scale) for ``count`` random stacks."""
    blocks = [random_block(rng, dim, 2 * dim, 1.0, (count,)) for _ in range(depth)]
    x, u, scale = rng.standard_normal((count, dim)), np.ones((count, dim)), 1.0
    for block in blocks:
        step = ((lambda z: layer_norm(z + block(z), epsilon)) if post_norm  # noqa: B023
                else (lambda z: z + block(layer_norm(z, epsilon))))  # noqa: B023
        sigma = np.sqrt(centred_moments(x)[2] + epsilon)
        growth = block.abs_bound().max((-2, -1)) * 2 / sigma[:, 0] * np.abs(u).max(-1)
        scale += float(growth.max())
        x, u = value_and_jvp(step, x, u)
    return u.mean(-1), (float(np.abs(u).max()) if post_norm else scale)


@claim(
    id="prenorm-mean-direction",
    title="A pre-norm stack carries a uniform shift of its input to the top unchanged at any "
          "depth; a post-norm stack removes it",
    section="10.4",
    statement=Statement("(1/d)·1ᵀ(∂x_L/∂x_0)·1 = 1 for pre-norm, 0 for post-norm, for every depth "
                        "L ≥ 1 and all weights (pre-norm: ∂x_L/∂x_0·1 = 1 exactly)",
                        (sp.Integer(1), sp.Integer(0)),
                        lhs=(sp.Symbol("pre-norm mean response"),
                             sp.Symbol("post-norm mean response"))),
    premises=("pre-norm block x + F(LN(x)), post-norm block LN(x + F(x)); any differentiable F",
              "LN normalises over the d features (claim norm-placement-skip-jacobian)"),
    foils=(Foil("post-norm carries the shift as well", (sp.Integer(1), sp.Integer(1))),
           Foil("neither carries it", (sp.Integer(0), sp.Integer(0)))),
    depends_on=("norm-placement-skip-jacobian",),
    sources=(XIONG, WANG),
    tags=("residual", "layernorm", "pre-norm", "jacobian", "depth"),
)
class PrenormMeanDirection:
    """J_LN·1 = 0 and 1ᵀ·J_LN = 0: LayerNorm ignores a uniform shift and outputs zero-mean
    vectors. In pre-norm the branch therefore never sees the shift and the skip path passes
    it on; in post-norm the last LayerNorm projects it out."""

    def prove(self, value, proof):
        rows = _ln_jacobian_sum(proof, c, b, "row")
        block = (proof.chain(sp.Sum(sp.KroneckerDelta(a, b), (b, 1, d))
                             + sp.Sum(JF[a, c] * sp.Sum(R_LN(c, b), (b, 1, d)), (c, 1, d)),
                             "row a of (I + J_F·J_LN)·1 = 1 + J_F·(J_LN·1)")
                 .substitute({sp.Sum(R_LN(c, b), (b, 1, d)): rows.value},
                             premise="row sums (above)")
                 .evaluate("Σ_b δ_ab").apply(INDEX_IN_RANGE))
        pre = (proof.chain(sp.Sum(ROW[a], (a, 1, d)) / d, "(1/d)·1ᵀ(∂x_L/∂x_0)·1, pre-norm")
               .substitute({ROW[a]: block.value},
                           premise="each block maps 1 to 1 (above), so the whole stack does")
               .evaluate("mean of ones"))
        cols = _ln_jacobian_sum(proof, c, a, "column")
        post = (proof.chain(sp.Sum(sp.Sum(R_LN(a, c), (a, 1, d)) * MV[c], (c, 1, d)) / d,
                            "(1/d)·1ᵀ J_LN(y_L)·w, w = (rest of the chain)·1, post-norm")
                .substitute({sp.Sum(R_LN(a, c), (a, 1, d)): cols.value},
                            premise="column sums (above)"))
        proof.conclude(value, pre, post)

    def check(self, value, experiment):
        for depth in MODEL_DEPTHS.values():
            for part, post_norm in zip(value, (False, True)):
                mean, scale = _mean_direction_draw(experiment.rng, depth, 8, post_norm)
                # per block: forward (block_ops) + LayerNorm (≈ 8d); errors scaled by the bound
                ops = (4 * 8 + 8) if post_norm else depth * (block_ops(8, 16) + 64)
                experiment.close(mean, np.full_like(mean, float(part)), tolerance(ops, scale),
                                 f"{'post' if post_norm else 'pre'}-norm mean response, L={depth}",
                                 inputs="16 random stacks, d=8")
