"""Section 10: residual connections, the identity term in their Jacobian, and norm placement."""

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Premise, Statement, claim
from tmath.engine.experiment import Choice, Integers, Reals
from tmath.engine.moments import E, Moments, Var
from tmath.engine.proof import Rule
from tmath.engine.rules import DISTRIBUTE, FACTOR_OUT, SPLIT_SUM, SWAP_SUMS
from tmath.engine.rules_sums import FACTOR_OUT_OF_INNER
from tmath.reference.gradients import (check_jacobian_case, delta_sum_chain, energy_identity_draw,
                                       entry_matrix, indexed_values, linear_energy_draw,
                                       mean_direction_draw, norm_placement_case,
                                       residual_block_case, residual_stack, residual_stack_case,
                                       skip_term_chain)
from tmath.reference.norms import centred_moments, layer_norm_entry, layer_norm_jacobian
from ._bibliography import (BROWN2020, DEVLIN2019, HE2016_IDENTITY, HE2016_RESNET, RADFORD2019,
                            WANG2019, XIONG2020)
from ._notes import printed

HE_RESNET = HE2016_RESNET
HE_IDENTITY = HE2016_IDENTITY.at(
    "Eqs. (4)–(5); §4.2 studies BN/ReLU placement in ResNets",
    unverified="the equation and section numbers were not checked against the paper (its "
               "activation experiments may be in §4.1)")
XIONG = XIONG2020
WANG = WANG2019.at("§2 (gradients of post-norm and pre-norm stacks)", unverified="the section "
                   "number was not checked against the paper")
GPT2_INIT = RADFORD2019.at("§2.3 (residual weights scaled by 1/√N at init)")
MODEL_DEPTHS = {"BERT-base": 12, "GPT-3 175B": 96}  # layers of the models the notes name
DEPTH_SOURCES = (DEVLIN2019.at("§3: BERT-base has L = 12 layers"),
                 BROWN2020.at("Table 2.1: GPT-3 175B has 96 layers",
                              unverified="the table number was not checked against the paper; "
                                         "the 96 layers come from secondary records"))

i, j, a, b, c, q, r, d, m_hidden = sp.symbols("i j a b c q r d m", positive=True, integer=True)
k, (l, L, r_a, r_c) = sp.Symbol("k", integer=True), sp.symbols("l L r_a r_c", integer=True,
                                                                 nonnegative=True)
s, n2, eps, v = sp.symbols("s ‖u‖² epsilon v", positive=True)
(mu, Ro, Qo), DELTA = sp.symbols("mu R Q", real=True), sp.KroneckerDelta
xv, yv, Fv, x0, xp = (sp.IndexedBase(n) for n in ("x", "y", "F", "x_l", "x⁺"))


BRANCH_I = sp.Function("F")(i, xv[j])  # F_i seen as a function of x_j, the rest held fixed
BLOCK = Premise("y = F(x) + x with F: ℝⁿ → ℝⁿ differentiable", {yv[i]: BRANCH_I + xv[i]})


@claim(
    id="residual-block-jacobian",
    title="The Jacobian of a residual block is the branch Jacobian plus the identity matrix",
    section="10.2",
    statement=Statement("∂y_i/∂x_j = ∂F_i/∂x_j + δ_ij, i.e. ∂y/∂x = ∂F/∂x + I and "
                        "∂L/∂x = ∂L/∂y·(∂F/∂x + I)", DELTA(i, j),
                        lhs=sp.Derivative(yv[i], xv[j]) - sp.Derivative(BRANCH_I, xv[j])),
    premises=(BLOCK, "L is a differentiable loss of y"),
    foils=(Foil("the skip connection adds a scalar 1 to every Jacobian entry", sp.Integer(1)),
           Foil("the skip connection does not change the Jacobian", sp.Integer(0)),
           Foil("off by one: δ(i, j+1)", DELTA(i, j + 1)), Foil("δ(j, i+1)", DELTA(j, i + 1))),
    sources=(HE_RESNET, HE_IDENTITY),
    tags=("residual", "jacobian"),
    notation={r"F(x, \{W_i\})": BRANCH_I, "y": yv[i], "x": xv[i]},  # y = F + x, entry by entry
    formulas=(r"y = F(x, \{W_i\}) + x",
              r"\frac{\partial \mathcal{L}}{\partial x} = \frac{\partial \mathcal{L}}{\partial y} "
              r"\cdot \frac{\partial y}{\partial x} = \frac{\partial \mathcal{L}}{\partial y} "
              r"\cdot \left(\frac{\partial F}{\partial x} + I\right)"),
)
class ResidualBlockJacobian:
    """Differentiating F(x) + x entry by entry, the skip connection adds δ_ij, whatever F is."""

    def prove(self, value, proof):
        proof.conclude(value, skip_term_chain(proof, yv[i], BRANCH_I, xv[j], BLOCK,
                                              "∂y_i/∂x_j − ∂F_i/∂x_j"))

    def check(self, value, experiment):
        for point in experiment.draw({"n": Integers(1, 16), "m": Integers(1, 32)}, count=3):
            case = residual_block_case(experiment.rng, point["n"], point["m"])
            check_jacobian_case(experiment, case, entry_matrix(value, i, j, point["n"]), point,
                                ("∂y/∂x − ∂F/∂x", "∂L/∂x = ∂L/∂y·(∂F/∂x + skip)"),
                                ("a random tanh block", "L = w·tanh(y)"))


STEP = Premise("every block adds its branch output: x_{k+1} = x_k + F(x_k, W_k), written F[k]",
               {xv[k + 1]: xv[k] + Fv[k]})


@claim(
    id="residual-unrolled-sum",
    title="A residual stack's output is its input plus the sum of all branch outputs",
    section="10.3",
    statement=Statement("x_L = x_l + Σ_{k=l}^{L−1} F(x_k, W_k)",
                        xv[l] + sp.Sum(Fv[k], (k, l, L - 1)), lhs=xv[L]),
    premises=(STEP,),
    foils=(Foil("the sum runs up to k = L", xv[l] + sp.Sum(Fv[k], (k, l, L))),
           Foil("x_L is the sum of the branch outputs alone", sp.Sum(Fv[k], (k, l, L - 1)))),
    sources=(HE_IDENTITY,),
    tags=("residual",),
    formulas=(r"x_L = x_l + \sum_{i=l}^{L-1} F(x_i, W_i)",),
    notation={r"\sum_{i=l}^{L-1} F(x_i, W_i)": sp.Sum(Fv[k], (k, l, L - 1))},
)
class ResidualUnrolledSum:
    """x_L − x_l telescopes into one-block increments, and each increment is a branch output."""

    def prove(self, value, proof):
        proof.conclude(value, proof.chain(xv[L], "x_L")
                       .equals(xv[l] + sp.Sum(xv[k + 1] - xv[k], (k, l, L - 1)), "telescoping sum",
                               method="doit").substitute({xv[k + 1]: xv[k] + Fv[k]}, premise=STEP))

    def check(self, value, experiment):
        for point in experiment.draw({l: Integers(0, 6), "L − l": Integers(0, 96),
                                      "d": Integers(1, 8)}, count=3):
            start, end = point[l], point[l] + point["L − l"]
            xs, fs, tol = residual_stack(experiment.rng, start, end, point["d"])
            formula = indexed_values(value, {xv: xs, Fv: fs}, {l: start, L: end})
            experiment.close(formula, xs[end], tol, "unrolled form of the stack",
                             inputs="random tanh blocks", at=point)


# entry a of x_L and of F(x_k, W_k) as functions of (x_l)_b. The kernel instantiates a lemma
# only by renaming symbols, and taking entry a of both sides of residual-unrolled-sum is not a
# renaming: that reading is declared here as a premise, and the proof rests on it.
X_TOP, F_K = sp.Function("x_L")(a, x0[b]), sp.Function("F")(k, a, x0[b])
BRANCH_SUM = sp.Sum(F_K, (k, l, L - 1))
ENTRY_A = Premise("entry a of residual-unrolled-sum (x_L = x_l + Σ_k F(x_k, W_k)), every entry "
                  "seen as a function of (x_l)_b: (x_L)_a = (x_l)_a + Σ_{k=l}^{L−1} F_a(x_k, W_k)",
                  {X_TOP: x0[a] + BRANCH_SUM})


@claim(
    id="residual-stack-jacobian",
    title="Through a residual stack the Jacobian's leading term is the identity matrix I",
    section="10.3",
    statement=Statement("∂(x_L)_a/∂(x_l)_b = δ_ab + ∂/∂(x_l)_b Σ_k F_a(x_k), so "
                        "∂L/∂x_l = ∂L/∂x_L·(I + ∂/∂x_l Σ_k F(x_k, W_k)): the leading term is I "
                        "(the printed '1' is I, not a scalar added to every entry)", DELTA(a, b),
                        lhs=sp.Derivative(X_TOP, x0[b]) - sp.Derivative(BRANCH_SUM, x0[b])),
    premises=("x_{k+1} = x_k + F(x_k, W_k), F differentiable; each x_k is a function of x_l",
              ENTRY_A),
    foils=(Foil("a scalar 1 is added to every entry", sp.Integer(1)),
           Foil("no identity term survives many blocks", sp.Integer(0)),
           Foil("δ(a, b+1)", DELTA(a, b + 1)), Foil("δ(b, a+1)", DELTA(b, a + 1))),
    depends_on=("residual-unrolled-sum",),
    sources=(HE_IDENTITY,),
    tags=("residual", "jacobian", "gradient"),
)
class ResidualStackJacobian:
    """Differentiating the unrolled form x_L = x_l + Σ_k F(x_k, W_k) entry by entry, the x_l
    term gives δ_ab at any depth; every other contribution passes through some branch F."""

    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.Derivative(X_TOP, x0[b]) - sp.Derivative(
            BRANCH_SUM, x0[b]), "∂(x_L)_a/∂(x_l)_b − ∂S_a/∂(x_l)_b")
            .substitute(dict(ENTRY_A.equations), premise=ENTRY_A)
            .evaluate("differentiate term by term; ∂(x_l)_a/∂(x_l)_b = δ_ab"))

    def check(self, value, experiment):
        for point in experiment.draw({L: Integers(1, 96), "n": Integers(1, 8)}, count=3):
            case = residual_stack_case(experiment.rng, point[L], point["n"])
            check_jacobian_case(experiment, case, entry_matrix(value, a, b, point["n"]), point,
                                ("∂x_L/∂x_l − ∂S/∂x_l", "∂L/∂x_l = ∂L/∂x_L·(skip + ∂S/∂x_l)"),
                                ("random tanh blocks", "L = g·x_L"))


Nn, Aa, Cc, Uv, Av, W2, P = (sp.IndexedBase(n) for n in ("N", "A", "C", "u", "a", "W2", "P"))
ENERGY = Premise("u_{k+1} = u_k + a_k, a_k = J_k u_k; N_k = ‖u_k‖², C_k = u_k·a_k, A_k = ‖a_k‖²",
                 {Nn[k + 1]: sp.Sum((Uv[k, q] + Av[k, q]) ** 2, (q, 1, d)), **{
                     sp.Sum(x * y, (q, 1, d)): n for x, y, n in ((Uv[k, q], Uv[k, q], Nn[k]),
                     (Uv[k, q], Av[k, q], Cc[k]), (Av[k, q], Av[k, q], Aa[k]))}})
CROSS = Premise("J_k = W2_k·D_k·W1_k (F_k(z) = W2_k·tanh(W1_k z + b_k), D_k the tanh slopes), so "
                "C_k = Σ_{r,q} (W2_k)_rq·P_k,rq with P_k,rq = (u_k)_r·(D_k W1_k u_k)_q",
                {Cc[k]: sp.Sum(sp.Sum(W2[k, r, q] * P[k, r, q], (q, 1, m_hidden)), (r, 1, d))})
W2_LAW = Premise("u_0 is fixed (or independent of the network); W2_k has mean-zero entries, "
                 "independent of x_k, u_k, W1_k, b_k (so of P_k)",
                 {E(W2[k, r, q]): 0, E(Nn[0]): Nn[0]})
ENERGY_LHS = E(Nn[L] - sp.Sum(Aa[k], (k, 0, L - 1))) / Nn[0]


@claim(
    id="residual-gradient-energy",
    title="Through residual blocks the input's gradient energy is never lost on average",
    section="10.3",
    statement=Statement("E‖(∂x_L/∂x_0)u‖² = ‖u‖² + Σ_k E‖J_k u_k‖² ≥ ‖u‖² at every depth L: the "
                        "skip path carries the full ‖u‖² of a direction u drawn independently of "
                        "the network, the branches only add", sp.Integer(1), lhs=ENERGY_LHS),
    premises=("x_{k+1} = x_k + F_k(x_k) (or F_k(LN(x_k)) for pre-norm)", ENERGY, CROSS, W2_LAW,
              "all weights have finite variances"),
    foils=(Foil("without any guarantee from the skip path (coefficient 0)", sp.Integer(0)),
           Foil("the skip path carries half the energy", sp.Rational(1, 2))),
    sources=(HE_IDENTITY, GPT2_INIT) + DEPTH_SOURCES,
    tags=("residual", "gradient", "monte-carlo"),
    figures=tuple(Figure(f"layers of {model}", compute=lambda m=model: MODEL_DEPTHS[m],
                         **printed(f"layers of {model}")) for model in ("BERT-base", "GPT-3 175B")),
    statistical_tests=3,
)
class ResidualGradientEnergy:
    """‖u + a‖² = ‖u‖² + 2u·a + ‖a‖² and the cross term has mean zero because the branch's
    last weights are zero-mean and fresh; telescoping over blocks leaves ‖u_0‖²."""

    def prove(self, value, proof):
        moments = Moments(random=(W2, P, Nn, Aa, Cc), independent=W2_LAW)
        cross = (proof.chain(E(Cc[k]), "E[C_k]").substitute(dict(CROSS.equations), premise=CROSS)
                 .apply(moments.linearity).apply(moments.independence)
                 .substitute({E(W2[k, r, q]): 0}, premise=W2_LAW).evaluate("sum of zeros"))
        square = (proof.chain(sp.Sum((Uv[k, q] + Av[k, q]) ** 2, (q, 1, d)), "‖u_k + a_k‖²")
                  .apply(SPLIT_SUM).apply(FACTOR_OUT)
                  .substitute({e: n for e, n in ENERGY.equations[1:]}, premise=ENERGY))
        telescoped = ENERGY_LHS.xreplace({Nn[L]: Nn[0] + sp.Sum(Nn[k + 1] - Nn[k], (k, 0, L - 1))})
        total = (proof.chain(ENERGY_LHS, "E[N_L − Σ A_k]/N_0")
                 .equals(telescoped, "telescoping sum", method="doit")
                 .substitute(dict(ENERGY.equations[:1]), premise=ENERGY)
                 .substitute(from_chain=square).apply(moments.linearity)
                 .substitute(from_chain=cross).substitute({E(Nn[0]): Nn[0]}, premise=W2_LAW)
                 .evaluate("sum of zeros"))
        proof.conclude(value, total)

    def check(self, value, experiment):
        domains = {L: Integers(1, MODEL_DEPTHS["BERT-base"], log=False), "d": Integers(1, 6),
                   "W2 law": Choice(("centred exponential", "Rademacher", "Gaussian")),
                   "pre-norm": Choice((False, True))}
        for point in experiment.draw(domains, count=3):
            experiment.mean(energy_identity_draw(point[L], point["d"], 4, point["W2 law"],
                                                 point["pre-norm"]), point.value(value),
                            "E[‖u_L‖² − Σ‖J_k u_k‖²]/‖u_0‖²", at=point)


R_ = sp.IndexedBase("R")  # (Wu)_q
ROW = {R_[q]: sp.Sum(W2[q, c] * Uv[c], (c, 1, d))}
W_LAW = Premise("W has independent entries, mean 0, variance s²/d; (Wu)_q = Σ_c W_qc u_c = R_q",
                {E(W2[q, c]): 0, Var(W2[q, c]): s**2 / d, **ROW})
NORM = Premise("u is fixed (or independent of W), ‖u‖² = Σ_q u_q²",
               [(sp.Sum(Uv[c] ** 2, (c, 1, d)), n2), (sp.Sum(Uv[q] ** 2, (q, 1, d)), n2)])
GAIN_LHS = (E(sp.Sum((Uv[q] + R_[q]) ** 2, (q, 1, d))) / n2, E(sp.Sum(R_[q] ** 2, (q, 1, d))) / n2)


@claim(
    id="gradient-energy-linear",
    title="At a random linear init each block multiplies the mean gradient energy by 1 + s² "
          "with a skip connection and by s² without",
    section="10.2",
    statement=Statement("E‖(I + W)u‖² = (1 + s²)‖u‖² and E‖Wu‖² = s²‖u‖², hence over L fresh "
                        "blocks (1 + s²)^L ≥ 1 versus s^{2L} → 0 for s < 1", (1 + s**2, s**2),
                        GAIN_LHS),
    premises=(W_LAW, NORM, "blocks are drawn independently",
              "the same holds for a back-propagated g, since Wᵀ has the same law as W"),
    foils=(Foil("the skip connection keeps the energy exactly (factor 1)", (sp.Integer(1), s**2)),
           Foil("norms rather than energies add: (1 + s)²", ((1 + s) ** 2, s**2)),
           Foil("a plain block preserves the energy too", (1 + s**2, sp.Integer(1))),
           Foil("the branch adds 2s⁴ instead of s²", (1 + 2 * s**4, s**2))),
    sources=(HE_IDENTITY,),
    tags=("residual", "gradient", "monte-carlo", "initialisation"),
    statistical_tests=6,
)
class GradientEnergyLinear:
    """The identity adds ‖u‖², the random branch adds s²‖u‖² and the cross term vanishes;
    without the identity only the shrinking s²‖u‖² is left."""

    def prove(self, value, proof):
        moments = Moments(random=(W2, R_), independent=W_LAW)
        mean = (proof.chain(E(R_[q]), "E[(Wu)_q]").substitute(ROW, premise=W_LAW)
                .apply(moments.linearity).substitute({E(W2[q, c]): 0}, premise=W_LAW)
                .evaluate("sum of zeros"))
        var = (proof.chain(Var(R_[q]), "Var((Wu)_q)").substitute(ROW, premise=W_LAW)
               .apply(moments.bienayme).apply(moments.variance_scaling)
               .substitute({Var(W2[q, c]): s**2 / d}, premise=W_LAW).apply(FACTOR_OUT)
               .substitute({sp.Sum(Uv[c] ** 2, (c, 1, d)): n2}, premise=NORM))
        res, plain = (proof.chain(start, label).apply(moments.linearity)
                      .apply(moments.second_moment).substitute(from_chain=var)
                      .substitute(from_chain=mean).apply(SPLIT_SUM).evaluate("sum over q")
                      for start, label in zip(GAIN_LHS, ("E‖(I+W)u‖²/‖u‖²", "E‖Wu‖²/‖u‖²")))
        proof.conclude(value, res.substitute({sp.Sum(Uv[q] ** 2, (q, 1, d)): n2}, premise=NORM),
                       plain)

    def check(self, value, experiment):
        for point in experiment.draw({s: Reals(0.2, 1.5), d: Integers(1, 8), L: Integers(1, 6)},
                                     count=3):
            for part, kind in zip(point.value(value), ("residual", "plain")):
                # the value is the per-block factor: 2 % in it moves E‖u_L‖² by 1.02^L − 1
                draw = linear_energy_draw(point[L], point[d], point[s], kind == "residual")
                experiment.mean(draw, part ** point[L], f"E‖u_L‖² over L linear blocks, {kind}",
                                min_effect=1.02 ** point[L] - 1, at=point, resolution_reason=None
                                if point[L] == 1 else "2 % of the per-block factor, over L blocks")


LN_BODY, LN_JACOBIAN = layer_norm_entry(yv, a, k, d, eps), layer_norm_jacobian(yv, a, b, d, mu, v,
                                                                                eps)
G_A, J_LN = sp.Function("G")(a, xv[b]), sp.Function("J_LN")  # G = F∘LN, a function of x_b
LN_DEF = Premise("LN(y) = (y − μ)/√(Var(y) + ε), μ = (1/d)Σ y_k, Var(y) = (1/d)Σ y_k² − μ² "
                 "(γ = 1, β = 0); J_LN(a, b) = ∂LN(y)_a/∂y_b",
                 {J_LN(a, b): sp.Derivative(LN_BODY, yv[b])})
PRE_BLOCK = Premise("pre-norm block x⁺ = x + F(LN(x)) = x + G(x), F differentiable",
                    {xp[a]: xv[a] + G_A})
OTHERS = Premise("b is one of the d features: Σ_k y_k = y_b + R, Σ_k y_k² = y_b² + Q, R and Q "
                 "(the other features) free of y_b",
                 {sp.Sum(yv[k]**p, (k, 1, d)): yv[b]**p + o for p, o in ((1, Ro), (2, Qo))})
AT_Y = Premise("μ and v = Var(y) at y: R = dμ − y_b, Q = d(v + μ²) − y_b²",
               {Ro: d * mu - yv[b], Qo: d * (v + mu**2) - yv[b] ** 2})


@claim(
    id="norm-placement-skip-jacobian",
    title="Pre-norm leaves the skip path's Jacobian equal to I; post-norm replaces it by "
          "LayerNorm's Jacobian",
    section="10.4",
    statement=Statement("pre-norm x + F(LN(x)): skip term δ_ab; post-norm LN(x + F(x)): "
                        "∂x⁺/∂x = J_LN(y)(I + ∂F/∂x) with y = x + F(x), skip term J_LN(y)_ab = "
                        "(δ_ab − 1/d)/σ − (y_a − μ)(y_b − μ)/(dσ³), σ² = Var(y) + ε (its rows sum "
                        "to 0, claim prenorm-mean-direction, so it is never I)",
                        (DELTA(a, b), LN_JACOBIAN),
                        lhs=(sp.Derivative(xp[a], xv[b]) - sp.Derivative(G_A, xv[b]), J_LN(a, b))),
    premises=(LN_DEF, PRE_BLOCK, OTHERS, AT_Y, "F differentiable; the chain rule"),
    foils=(Foil("post-norm also keeps the identity on the skip path", (DELTA(a, b), DELTA(a, b))),
           Foil("LayerNorm's Jacobian is just the centring (I − 11ᵀ/d)/σ",
                (DELTA(a, b), (DELTA(a, b) - 1 / d) / sp.sqrt(v + eps))),
           Foil("J_LN with δ(b, a+1)",
                (DELTA(a, b), LN_JACOBIAN.xreplace({DELTA(a, b): DELTA(b, a + 1)})))),
    sources=(XIONG, WANG, HE_IDENTITY),
    tags=("residual", "layernorm", "pre-norm", "jacobian"),
)
class NormPlacementSkipJacobian:
    """In pre-norm the normalisation sits inside the branch, so differentiating x + G(x)
    leaves δ_ab; in post-norm every path, the skip path included, is multiplied by J_LN."""

    def prove(self, value, proof):
        pre = skip_term_chain(proof, xp[a], G_A, xv[b], PRE_BLOCK,
                              "pre-norm: ∂x⁺_a/∂x_b − ∂G_a/∂x_b")
        post = (proof.chain(J_LN(a, b), "∂LN(y)_a/∂y_b")
                .substitute(dict(LN_DEF.equations), premise=LN_DEF)
                .substitute(dict(OTHERS.equations), premise=OTHERS)
                .evaluate("quotient and chain rule", method="factor")
                .substitute(dict(AT_Y.equations), premise=AT_Y)
                .evaluate("collect", method="factor"))
        proof.conclude(value, pre, post, method="factor")

    def check(self, value, experiment):
        for point in experiment.draw({d: Integers(1, 12), eps: Reals(1e-8, 1.0, log=True)}, 3):
            n, epsilon = point[d], point[eps]
            case = norm_placement_case(experiment.rng, n, epsilon)
            centre, _, var = (float(t[0]) for t in centred_moments(case.y))  # of LN's input y
            skip_post = entry_matrix(value[1], a, b, n, vectors={yv: case.y},
                                     values={d: n, mu: centre, v: var, eps: epsilon})
            experiment.close(case.skip, entry_matrix(value[0], a, b, n), case.tol, "pre-norm skip "
                             "term", inputs="random tanh block", at=point)
            experiment.close(case.total, skip_post @ case.outer, case.total_tol, "post-norm: "
                             "∂x⁺/∂x = skip·(I + ∂F/∂x)", inputs="random tanh block", at=point)


J_F, B_, V_, U_, w_ = (sp.IndexedBase(n) for n in ("J_F", "B", "v", "v_post", "w"))
RANGE = {i: Premise(f"{i} is a feature index: d = {i} + r_{i}, r_{i} ≥ 0", {d: i + r}) for i, r in
         ((a, r_a), (c, r_c))}
MEAN_AT_Y = Premise("μ = (1/d)Σ y_k at the LayerNorm input",
                    [(sp.Sum(yv[b], (b, 1, d)), d * mu), (sp.Sum(yv[a], (a, 1, d)), d * mu)])
PRE_STACK = Premise("chain rule, pre-norm: v_L = (∂x_L/∂x_0)·1 = B_L·v_{L−1}, B_L = I + J_F·J_LN",
                    {V_[L, a]: sp.Sum(B_[L, a, b] * V_[L - 1, b], (b, 1, d)),
                     B_[L, a, b]: DELTA(a, b) + sp.Sum(J_F[a, c] * J_LN(c, b), (c, 1, d))})
POST_STACK = Premise("chain rule, post-norm: x_L = LN(y_L), so (∂x_L/∂x_0)·1 = J_LN(y_L)·w, "
                     "w = (∂y_L/∂x_0)·1", {U_[L, a]: sp.Sum(J_LN(a, c) * w_[c], (c, 1, d))})
INDUCTION = Rule("induction over the depth: v_0 = 1, and a block that maps 1 to 1 (chain "
                 "[Σ_b B_ab]) keeps it, so v_{L−1} = 1", lambda e: e.xreplace({V_[L - 1, b]: 1}))


@claim(
    id="prenorm-mean-direction",
    title="A pre-norm stack carries a uniform shift of its input to the top unchanged at any "
          "depth; a post-norm stack removes it",
    section="10.4",
    statement=Statement("(1/d)·1ᵀ(∂x_L/∂x_0)·1 = 1 for pre-norm, 0 for post-norm, for every depth "
                        "L ≥ 1 and all weights (pre-norm: ∂x_L/∂x_0·1 = 1 exactly)",
                        (sp.Integer(1), sp.Integer(0)),
                        (sp.Sum(V_[L, a] / d, (a, 1, d)), sp.Sum(U_[L, a] / d, (a, 1, d)))),
    premises=("pre-norm block x + F(LN(x)), post-norm block LN(x + F(x)); any differentiable F",
              *RANGE.values(), MEAN_AT_Y, PRE_STACK, POST_STACK, INDUCTION.name),
    foils=(Foil("post-norm carries the shift as well", (sp.Integer(1), sp.Integer(1))),
           Foil("neither carries it", (sp.Integer(0), sp.Integer(0)))),
    depends_on=("norm-placement-skip-jacobian",),
    sources=(XIONG, WANG),
    tags=("residual", "layernorm", "pre-norm", "jacobian", "depth"),
)
class PrenormMeanDirection:
    """J_LN·1 = 0 and 1ᵀ·J_LN = 0: LayerNorm ignores a uniform shift and outputs zero-mean
    vectors, so in pre-norm the branch never sees the shift and the skip path passes it on; in
    post-norm the last LayerNorm projects it out. From one block to the stack is the declared
    rule INDUCTION (proved assuming it): proof.induction puts in one entry, B_L·v needs all."""

    def prove(self, value, proof):
        def ln_sum(entry, summed, label):  # a row or column sum of J_LN, by the lemma
            return (proof.chain(sp.Sum(entry, (summed, 1, d)), label)
                    .substitute(lemma="norm-placement-skip-jacobian", rename={a: c} if summed == b
                                else {b: c}).apply(SPLIT_SUM).apply(FACTOR_OUT)
                    .substitute(from_chain=delta_sum_chain(proof, c, summed, d, r_c, RANGE[c]))
                    .substitute({sp.Sum(yv[summed], (summed, 1, d)): d * mu}, premise=MEAN_AT_Y)
                    .evaluate("sum the remaining terms"))

        block = (proof.chain(sp.Sum(B_[L, a, b], (b, 1, d)), "Σ_b B_ab")
                 .substitute({B_[L, a, b]: PRE_STACK.equations[1][1]}, premise=PRE_STACK)
                 .apply(SPLIT_SUM).apply(SWAP_SUMS).apply(FACTOR_OUT_OF_INNER)
                 .substitute(from_chain=ln_sum(J_LN(c, b), b, "Σ_b J_LN(c, b)"))
                 .substitute(from_chain=delta_sum_chain(proof, a, b, d, r_a, RANGE[a]))
                 .evaluate("sum of zeros"))
        pre = (proof.chain(sp.Sum(V_[L, a] / d, (a, 1, d)), "pre-norm mean response")
               .substitute({V_[L, a]: PRE_STACK.equations[0][1]}, premise=PRE_STACK)
               .apply(INDUCTION).apply(FACTOR_OUT_OF_INNER)
               .substitute(from_chain=block).evaluate("mean of ones"))
        post = (proof.chain(sp.Sum(U_[L, a] / d, (a, 1, d)), "post-norm mean response")
                .substitute(dict(POST_STACK.equations), premise=POST_STACK)
                .apply(DISTRIBUTE).apply(SWAP_SUMS).apply(FACTOR_OUT_OF_INNER)
                .substitute(from_chain=ln_sum(J_LN(a, c), a, "Σ_a J_LN(a, c)"))
                .evaluate("sum of zeros"))
        proof.conclude(value, pre, post)

    def check(self, value, experiment):
        for point in experiment.draw({L: Integers(1, 96), d: Integers(1, 16)}, count=3):
            for part, kind in zip(point.value(value), ("pre", "post")):
                mean, tol = mean_direction_draw(experiment.rng, point[L], point[d], kind == "post")
                experiment.close(mean, np.full_like(mean, part), tol, f"{kind}-norm mean response",
                                 inputs="16 random stacks", at=point)
