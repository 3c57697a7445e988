"""Section 1: why attention scores are divided by √d_k."""

import math

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.reference.distributions import STANDARDIZED, dot_products
from tmath.engine.experiment import tolerance
from tmath.engine.moments import E, Moments, Var
from tmath.reference.nn import softmax
from tmath.engine.plots import Plot, Series

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.1", arxiv="1706.03762")

q, k = sp.symbols("q_i k_i", real=True)
d_k = sp.Symbol("d_k", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
qv, kv = sp.IndexedBase("q"), sp.IndexedBase("k")
DOT = sp.Sum(qv[i] * kv[i], (i, 1, d_k))
UNIT_MOMENTS = {E(q): 0, E(k): 0, Var(q): 1, Var(k): 1}
PAIRS = (("Rademacher", "uniform"), ("centred exponential", "Gaussian"))
LAW_ZH = {"Rademacher": "Rademacher 分布", "uniform": "均匀分布",
          "centred exponential": "中心化指数分布", "Gaussian": "高斯分布"}
VARIANCE_DIMS, SCALE_DIMS = (4, 64), (16, 128)  # d_k used by the checks below


def _pair_zh(name_q: str, name_k: str) -> str:
    return f"{LAW_ZH[name_q]} × {LAW_ZH[name_k]}"


def _per_pair_zh(english: str, chinese: str, dims=(None, None)) -> dict[str, str]:
    """Glossary entries for a test label written once per (d_k, distribution pair)."""
    return {english.format(d=d, pair=f"{a} × {b}"): chinese.format(d=d, pair=_pair_zh(a, b))
            for d, (a, b) in zip(dims, PAIRS)}


MOMENT_PREMISE_ZH = {"mean 0, variance 1": "均值 0、方差 1"}


def _pair(name_q: str, name_k: str, d: int):
    dq, dk = STANDARDIZED[name_q], STANDARDIZED[name_k]
    return lambda rng, m: dot_products(rng, m, d, dq, dk)


@claim(
    id="product-term-moments",
    title="Each product q_i·k_i has mean 0 and variance 1",
    section="1.1",
    statement=Statement("E[q_i k_i] = 0 and Var(q_i k_i) = 1", (0, 1), lhs=(E(q * k), Var(q * k))),
    premises=("q_i and k_i are independent", "E[q_i] = E[k_i] = 0", "Var(q_i) = Var(k_i) = 1"),
    foils=(Foil("Var(q_i k_i) = 2 (the two variances added)", (0, 2)),
           Foil("E[q_i k_i] = 1", (1, 1))),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    formulas=(r"E[q_i k_i] = E[q_i] \cdot E[k_i] = 0 \times 0 = 0",
              r"\text{Var}(q_i k_i) = E[q_i^2 k_i^2] - (E[q_i k_i])^2 = E[q_i^2] \cdot E[k_i^2] "
              r"= 1 \times 1 = 1"),
    statistical_tests=4,
    title_zh="每一项 q_i·k_i 的均值为 0、方差为 1",
    summary_zh="两个相互独立且已标准化的变量相乘，乘积仍是标准化的；推导只用到独立性和前两阶矩，"
               "用不着正态假设。",
    glossary_zh={
        "E[q_i k_i] = 0 and Var(q_i k_i) = 1": "E[q_i k_i] = 0，且 Var(q_i k_i) = 1",
        "q_i and k_i are independent": "q_i 与 k_i 相互独立",
        "E[q_i] = E[k_i] = 0": "均值 E[q_i] = E[k_i] = 0",
        "Var(q_i) = Var(k_i) = 1": "方差 Var(q_i) = Var(k_i) = 1",
        "Var(q_i k_i) = 2 (the two variances added)": "Var(q_i k_i) = 2（误把两个方差相加）",
        "E[q_i k_i] = 1": "均值 E[q_i k_i] = 1",
        "E[q_i k_i]": "期望 E[q_i k_i]", "Var(q_i k_i)": "方差 Var(q_i k_i)",
        **MOMENT_PREMISE_ZH,
        **_per_pair_zh("E[q_i k_i] ({pair})", "E[q_i k_i]（{pair}）"),
        **_per_pair_zh("Var(q_i k_i) ({pair})", "Var(q_i k_i)（{pair}）"),
    },
)
class ProductTermMoments:
    """The product of two independent standardized variables is again standardized; no
    Gaussian assumption is needed, only independence and the first two moments."""

    def prove(self, value, proof):
        rules = Moments(random=(q, k))
        mean = (proof.chain(E(q * k), "E[q_i k_i]")
                .apply(rules.independence)
                .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        var = (proof.chain(Var(q * k), "Var(q_i k_i)")
               .apply(rules.variance_definition)
               .apply(rules.independence)
               .apply(rules.second_moment)
               .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = (float(v) for v in value)
        for name_q, name_k in PAIRS:
            draw = _pair(name_q, name_k, 1)
            experiment.mean(draw, mean, f"E[q_i k_i] ({name_q} × {name_k})")
            experiment.variance(draw, var, f"Var(q_i k_i) ({name_q} × {name_k})")


@claim(
    id="dot-product-variance",
    title="The dot product qᵀk has mean 0 and variance d_k",
    section="1.1",
    statement=Statement("E[qᵀk] = 0 and Var(qᵀk) = d_k", (0, d_k), lhs=(E(DOT), Var(DOT))),
    premises=("all components q_i, k_i are mutually independent",
              "each component has mean 0 and variance 1"),
    foils=(Foil("Var(qᵀk) = √d_k", (0, sp.sqrt(d_k))),
           Foil("Var(qᵀk) = d_k²", (0, d_k**2))),
    depends_on=("product-term-moments",),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    figures=(
        Figure("standard deviation of qᵀk at d_k = 64", "8", near="d_k = 64",
               compute=lambda: math.sqrt(64)),
        Figure("standard deviation of qᵀk at d_k = 512", "≈ 22.6", near="d_k = 512",
               compute=lambda: math.sqrt(512)),
    ),
    formulas=(r"E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k",),
    statistical_tests=4,
    title_zh="点积 qᵀk 的均值为 0、方差为 d_k",
    summary_zh="d_k 个彼此独立、方差各为 1 的乘积求和，方差逐项累加到 d_k；"
               "所以未缩放的注意力分数，其典型幅度按 √d_k 增大。",
    glossary_zh={
        "E[qᵀk] = 0 and Var(qᵀk) = d_k": "E[qᵀk] = 0，且 Var(qᵀk) = d_k",
        "all components q_i, k_i are mutually independent": "全部分量 q_i、k_i 相互独立",
        "each component has mean 0 and variance 1": "每个分量的均值为 0、方差为 1",
        "Var(qᵀk) = √d_k": "方差 Var(qᵀk) = √d_k", "Var(qᵀk) = d_k²": "方差 Var(qᵀk) = d_k²",
        "standard deviation of qᵀk at d_k = 64": "d_k = 64 时 qᵀk 的标准差",
        "standard deviation of qᵀk at d_k = 512": "d_k = 512 时 qᵀk 的标准差",
        "E[qᵀk]": "期望 E[qᵀk]", "Var(qᵀk)": "方差 Var(qᵀk)",
        "sum of d_k zeros": "d_k 个 0 相加", "sum of d_k ones": "d_k 个 1 相加",
        **_per_pair_zh("E[qᵀk] at d_k={d} ({pair})", "d_k={d} 时的 E[qᵀk]（{pair}）",
                       VARIANCE_DIMS),
        **_per_pair_zh("Var(qᵀk) at d_k={d} ({pair})", "d_k={d} 时的 Var(qᵀk)（{pair}）",
                       VARIANCE_DIMS),
    },
)
class DotProductVariance:
    """Summing d_k independent unit-variance products adds their variances, so the spread
    of raw attention scores grows like √d_k."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        term = qv[i] * kv[i]
        mean = (proof.chain(E(DOT), "E[qᵀk]")
                .apply(rules.linearity)
                .substitute({E(term): 0}, lemma="product-term-moments")
                .evaluate("sum of d_k zeros"))
        var = (proof.chain(Var(DOT), "Var(qᵀk)")
               .apply(rules.bienayme)
               .substitute({Var(term): 1}, lemma="product-term-moments")
               .evaluate("sum of d_k ones"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = value
        for d, (name_q, name_k) in zip(VARIANCE_DIMS, PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.mean(draw, float(mean), f"E[qᵀk] at d_k={d} ({name_q} × {name_k})")
            experiment.variance(draw, float(var.subs(d_k, d)),
                                f"Var(qᵀk) at d_k={d} ({name_q} × {name_k})")

    def plot(self) -> Plot:
        # An illustration, not part of the check: a fixed stream keeps the picture the same.
        rng = np.random.default_rng(1706)
        bars, densities = [], []
        for d in (256, 64, 4):                    # widest first, so the narrow ones stay visible
            sd = math.sqrt(d)
            samples = dot_products(rng, 4000, d, STANDARDIZED["Rademacher"],
                                   STANDARDIZED["uniform"])
            counts, edges = np.histogram(samples, bins=30, range=(-4 * sd, 4 * sd))
            centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
            bars.append(Series(f"qᵀk, d_k = {d} (4000 draws)", tuple(centres),
                               tuple(counts / (samples.size * width)), "bar"))
            x = np.linspace(-4 * sd, 4 * sd, 161)
            densities.append(Series(f"N(0, {d}) density", tuple(x),
                                    tuple(np.exp(-x**2 / (2 * d)) / math.sqrt(2 * math.pi * d)),
                                    "dashed"))
        return Plot("qᵀk spreads out like √d_k (Rademacher q × uniform k)",
                    tuple(bars + densities), xlabel="qᵀk", ylabel="density")


@claim(
    id="scaled-score-variance",
    title="Dividing by √d_k brings the score variance back to 1",
    section="1.3",
    statement=Statement("Var(qᵀk · c) = 1 for the scale c = 1/√d_k", 1 / sp.sqrt(d_k),
                        lhs=sp.Symbol("c")),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)", "c is a constant"),
    foils=(Foil("the scale 1/d_k gives unit variance", 1 / d_k),
           Foil("no scaling is needed (c = 1)", sp.Integer(1))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    formulas=(r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \frac{\text{Var}(q^T k)}{d_k} "
              r"= \frac{d_k}{d_k} = 1",),
    statistical_tests=2,
    title_zh="除以 √d_k 使分数的方差回到 1",
    summary_zh="常数因子 c 把方差放大成原来的 c² 倍；要让 Var(c·qᵀk) = 1，"
               "正的 c 只有一个选择：1/√Var(qᵀk) = 1/√d_k。",
    glossary_zh={
        "Var(qᵀk · c) = 1 for the scale c = 1/√d_k": "缩放因子取 c = 1/√d_k 时，Var(qᵀk · c) = 1",
        "Var(cX) = c²·Var(X)": "常数倍的方差：Var(cX) = c²·Var(X)",
        "Var(qᵀk) = d_k (claim dot-product-variance)": "Var(qᵀk) = d_k（命题 dot-product-variance）",
        "c is a constant": "c 是常数",
        "the scale 1/d_k gives unit variance": "缩放因子取 1/d_k 就能得到单位方差",
        "no scaling is needed (c = 1)": "根本不必缩放（c = 1）",
        "Var(c·qᵀk)": "方差 Var(c·qᵀk)",
        **_per_pair_zh("Var(c·qᵀk) at d_k={d} ({pair})", "d_k={d} 时的 Var(c·qᵀk)（{pair}）",
                       SCALE_DIMS),
    },
)
class ScaledScoreVariance:
    """Var(c·X) = c²·Var(X), so the only positive scale that makes the variance 1 is
    c = 1/√Var(X) = 1/√d_k."""

    def prove(self, c, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(c * DOT), "Var(c·qᵀk)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(1, var)

    def check(self, c, experiment):
        for d, (name_q, name_k) in zip(SCALE_DIMS, PAIRS):
            scale = float(c.subs(d_k, d))
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: scale * draw(rng, m), 1.0,
                                f"Var(c·qᵀk) at d_k={d} ({name_q} × {name_k})")


@claim(
    id="dk-scaling-overshrinks",
    title="Dividing by d_k instead would shrink the score variance to 1/d_k",
    section="1.3",
    statement=Statement("Var(qᵀk / d_k) = 1/d_k", 1 / d_k, lhs=Var(DOT / d_k)),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)",),
    foils=(Foil("Var(qᵀk / d_k) = 1", sp.Integer(1)),
           Foil("Var(qᵀk / d_k) = 1/√d_k", 1 / sp.sqrt(d_k))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    statistical_tests=2,
    title_zh="若改成除以 d_k，分数方差会缩到 1/d_k",
    summary_zh="按 1/d_k 缩放时，分数的标准差以 1/√d_k 的速度变小；"
               "头的维度越高，softmax 的输入越挤向 0，输出也越平。",
    glossary_zh={
        "Var(qᵀk / d_k) = 1/d_k": "方差 Var(qᵀk / d_k) = 1/d_k",
        "Var(cX) = c²·Var(X)": "常数倍的方差：Var(cX) = c²·Var(X)",
        "Var(qᵀk) = d_k (claim dot-product-variance)": "Var(qᵀk) = d_k（命题 dot-product-variance）",
        "Var(qᵀk / d_k) = 1": "方差 Var(qᵀk / d_k) = 1",
        "Var(qᵀk / d_k) = 1/√d_k": "方差 Var(qᵀk / d_k) = 1/√d_k",
        "Var(qᵀk/d_k)": "方差 Var(qᵀk/d_k)",
        **_per_pair_zh("Var(qᵀk/d_k) at d_k={d} ({pair})", "d_k={d} 时的 Var(qᵀk/d_k)（{pair}）",
                       SCALE_DIMS),
    },
)
class DkScalingOvershrinks:
    """With 1/d_k the scores' spread falls as 1/√d_k, flattening the softmax more and more
    as the head dimension grows."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(DOT / d_k), "Var(qᵀk/d_k)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(value, var)

    def check(self, value, experiment):
        for d, (name_q, name_k) in zip(SCALE_DIMS, PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: draw(rng, m) / d, float(value.subs(d_k, d)),
                                f"Var(qᵀk/d_k) at d_k={d} ({name_q} × {name_k})")


# -- 1.2: what large scores do to softmax ------------------------------------------------------

z_i, z_j, c = sp.symbols("z_i z_j c", real=True)
p_i, p_j = sp.symbols("p_i p_j", positive=True)
REST = sp.Symbol("R", nonnegative=True)  # Σ exp(z_l) over the other entries l ≠ i, j
SOFT_I = sp.exp(z_i) / (sp.exp(z_i) + sp.exp(z_j) + REST)
SOFT_J = sp.exp(z_j) / (sp.exp(z_i) + sp.exp(z_j) + REST)


def _complex_softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - np.max(z.real))
    return e / e.sum()


def _jacobian_complex_step(z: np.ndarray, h: float = 1e-30) -> np.ndarray:
    """Exact-to-rounding Jacobian: Im softmax(z + i·h·e_j) / h has no cancellation error."""
    n = z.size
    columns = [_complex_softmax(z + 1j * h * np.eye(n)[j]).imag / h for j in range(n)]
    return np.stack(columns, axis=1)


def _stated_jacobian(value, p: np.ndarray) -> np.ndarray:
    diag = sp.lambdify(p_i, value[0], "numpy")
    off = sp.lambdify((p_i, p_j), value[1], "numpy")
    jac = off(p[:, None], p[None, :]) * np.ones((p.size, p.size))
    np.fill_diagonal(jac, diag(p) * np.ones(p.size))
    return jac


@claim(
    id="softmax-jacobian",
    title="The softmax Jacobian is diag(p) − p pᵀ",
    section="1.2",
    statement=Statement("∂p_i/∂z_i = p_i(1 − p_i) and ∂p_i/∂z_j = −p_i p_j for j ≠ i",
                        (p_i * (1 - p_i), -p_i * p_j)),
    premises=("p = softmax(z) for z ∈ ℝⁿ, n ≥ 2",
              "R = Σ_{l≠i,j} exp(z_l) ≥ 0 does not depend on z_i or z_j"),
    foils=(Foil("the Jacobian is diag(p) (no coupling between entries)", (p_i, sp.Integer(0))),
           Foil("∂p_i/∂z_j = +p_i p_j", (p_i * (1 - p_i), p_i * p_j))),
    sources=(VASWANI,),
    tags=("softmax", "gradient"),
    title_zh="softmax 的雅可比矩阵是 diag(p) − p pᵀ",
    summary_zh="对 exp(z_i)/Σ_l exp(z_l) 逐项求偏导就得到 diag(p) − ppᵀ；矩阵里每个元素都是概率的乘积，"
               "因此 p 一旦接近 one-hot，整个矩阵也跟着趋于零。",
    glossary_zh={
        "∂p_i/∂z_i = p_i(1 − p_i) and ∂p_i/∂z_j = −p_i p_j for j ≠ i":
            "∂p_i/∂z_i = p_i(1 − p_i)；当 j ≠ i 时 ∂p_i/∂z_j = −p_i p_j",
        "p = softmax(z) for z ∈ ℝⁿ, n ≥ 2": "p = softmax(z)，其中 z ∈ ℝⁿ，n ≥ 2",
        "R = Σ_{l≠i,j} exp(z_l) ≥ 0 does not depend on z_i or z_j":
            "R = Σ_{l≠i,j} exp(z_l) ≥ 0，与 z_i、z_j 无关",
        "the Jacobian is diag(p) (no coupling between entries)": "雅可比矩阵只是 diag(p)（各分量互不影响）",
        "∂p_i/∂z_j = +p_i p_j": "非对角元取正号：∂p_i/∂z_j = +p_i p_j",
        "complex-step Jacobian vs stated formula": "复步长法算出的雅可比矩阵 vs 命题中的公式",
    },
)
class SoftmaxJacobian:
    """Differentiating exp(z_i)/Σ exp(z_l) gives the familiar diag(p) − ppᵀ; every entry is
    a product of probabilities, which is why it vanishes when p becomes one-hot."""

    def prove(self, value, proof):
        diag = proof.chain(sp.Derivative(SOFT_I, z_i), "∂p_i/∂z_i").evaluate("differentiate")
        off = proof.chain(sp.Derivative(SOFT_I, z_j), "∂p_i/∂z_j").evaluate("differentiate")
        in_z = {p_i: SOFT_I, p_j: SOFT_J}
        proof.conclude(tuple(v.subs(in_z) for v in value), diag, off)

    def check(self, value, experiment):
        worst, tol = 0.0, 0.0
        for _ in range(200):
            n = int(experiment.rng.integers(2, 11))
            z = experiment.rng.normal(0, 3, size=n)
            defect = np.abs(_jacobian_complex_step(z) - _stated_jacobian(value, softmax(z)))
            worst = max(worst, float(defect.max()))
            # softmax costs ~2n+4 operations (shift, exp, sum, divide); entries are ≤ 1
            tol = max(tol, tolerance(2 * n + 8))
        experiment.close(worst, 0.0, tol, "complex-step Jacobian vs stated formula",
                         inputs="200 random z, n = 2..10")


u, g = sp.IndexedBase("u"), sp.IndexedBase("g")
n_ent = sp.Symbol("n", integer=True, positive=True)
a_, b_, l_ = sp.symbols("a b l", integer=True, positive=True)
_DENOM = 1 + sp.Sum(u[l_], (l_, 2, n_ent))  # entry 1 is the maximum; u_l = exp(−c·g_l)
_P = {1: 1 / _DENOM, a_: u[a_] / _DENOM, b_: u[b_] / _DENOM}
_ENTRIES = {"J[1,1]": _P[1] * (1 - _P[1]), "J[1,b]": -_P[1] * _P[b_],
            "J[a,1]": -_P[a_] * _P[1], "J[a,a]": _P[a_] * (1 - _P[a_]),
            "J[a,b]": -_P[a_] * _P[b_]}
_VANISH = {u[l_]: 0, u[a_]: 0, u[b_]: 0}
_CONTINUITY = ("u_l = exp(−c·g_l) → 0 for every l ≥ 2, and the expression is continuous at "
               "u = 0 (its denominator 1 + Σu_l is ≥ 1)")


@claim(
    id="softmax-saturation",
    title="Scaling the scores up drives softmax to one-hot and its gradient to zero",
    section="1.2",
    statement=Statement("for scores c·z with a unique maximum, as c → ∞: p_max → 1 and every "
                        "Jacobian entry p_i(δ_ij − p_j) → 0", (sp.Integer(1), sp.Integer(0))),
    premises=("z has a unique largest entry, ahead of every other by a gap g_l > 0",
              "the Jacobian is diag(p) − ppᵀ (claim softmax-jacobian)"),
    foils=(Foil("the largest weight's gradient p(1 − p) stays at its peak 1/4",
                (sp.Integer(1), sp.Rational(1, 4))),),
    depends_on=("softmax-jacobian",),
    sources=(VASWANI,),
    tags=("softmax", "gradient"),
    figures=(
        Figure("softmax([1.0, 0.5, 0.2])", "[0.49, 0.30, 0.22]", near="[1.0, 0.5, 0.2]",
               compute=lambda: softmax(np.array([1.0, 0.5, 0.2]))),
        Figure("softmax([20.0, 10.0, 4.0])", "[≈1.00, ≈0.00, ≈0.00]", near="[20.0, 10.0, 4.0]",
               compute=lambda: softmax(np.array([20.0, 10.0, 4.0]))),
    ),
    title_zh="把分数整体放大，softmax 会趋向 one-hot，梯度趋向零",
    summary_zh="分子分母同除以最大的那个指数项，得 p_max = 1/(1 + Σ exp(−c·g_l))；c → ∞ 时每个 "
               "exp(−c·g_l) 都消失，p 变成 one-hot，雅可比矩阵的每个元素都带着一个趋于零的因子，"
               "也随之趋于 0。",
    glossary_zh={
        "for scores c·z with a unique maximum, as c → ∞: p_max → 1 and every Jacobian entry "
        "p_i(δ_ij − p_j) → 0": "分数为 c·z 且最大值唯一时，令 c → ∞：p_max → 1，雅可比矩阵的每个元素 "
                               "p_i(δ_ij − p_j) → 0",
        "z has a unique largest entry, ahead of every other by a gap g_l > 0":
            "z 的最大分量唯一，领先其余每个分量 g_l > 0",
        "the Jacobian is diag(p) − ppᵀ (claim softmax-jacobian)":
            "雅可比矩阵为 diag(p) − ppᵀ（命题 softmax-jacobian）",
        "the largest weight's gradient p(1 − p) stays at its peak 1/4":
            "最大权重的梯度 p(1 − p) 始终停在峰值 1/4",
        "softmax([1.0, 0.5, 0.2])": "softmax([1.0, 0.5, 0.2]) 的结果",
        "softmax([20.0, 10.0, 4.0])": "softmax([20.0, 10.0, 4.0]) 的结果",
        "u_l = exp(−c·g_l)": "记 u_l = exp(−c·g_l)", "p_max": "最大权重 p_max",
        _CONTINUITY: "对每个 l ≥ 2 都有 u_l = exp(−c·g_l) → 0，且该式在 u = 0 处连续"
                     "（分母 1 + Σu_l ≥ 1）",
        "empty sum": "空和等于 0",
        **{f"{name} (lemma softmax-jacobian)": f"{name}（引理 softmax-jacobian）" for name in _ENTRIES},
        "p_max at c = 60/gap vs stated limit": "c = 60/gap 时的 p_max vs 命题中的极限",
        "Jacobian entries at c = 60/gap vs stated limit": "c = 60/gap 时的雅可比元素 vs 命题中的极限",
        "p_max increases with c": "p_max 随 c 单调增大",
    },
)
class SoftmaxSaturation:
    """Divide through by the largest exponential: p_max = 1/(1 + Σ exp(−c·g_l)). Every
    exp(−c·g_l) vanishes, so p becomes one-hot and each Jacobian entry, a product with a
    vanishing factor, tends to 0 (entries a, b stand for any two non-maximal indices)."""

    def prove(self, value, proof):
        gap = sp.Symbol("g_l", positive=True)
        proof.chain(sp.exp(-c * gap), "u_l = exp(−c·g_l)").limit(c, sp.oo)
        top = (proof.chain(_P[1], "p_max")
               .substitute(_VANISH, premise=_CONTINUITY).evaluate("empty sum"))
        proof.conclude(value[0], top)
        for name, entry in _ENTRIES.items():
            chain = (proof.chain(entry, name + " (lemma softmax-jacobian)")
                     .substitute(_VANISH, premise=_CONTINUITY).evaluate("empty sum"))
            proof.conclude(value[1], chain)

    def check(self, value, experiment):
        top_limit, jac_limit = float(value[0]), float(value[1])
        worst_top = worst_jac = 0.0
        increasing = True
        for _ in range(200):
            n = int(experiment.rng.integers(2, 9))
            z = experiment.rng.normal(0, 2, size=n)
            gap = np.sort(z)[-1] - np.sort(z)[-2]
            if gap < 1e-3:
                continue
            ladder = [softmax(s * z).max() for s in np.geomspace(1, 60 / gap, 12)]
            increasing &= bool(np.all(np.diff(ladder) >= 0))
            p = softmax((60 / gap) * z)  # remaining mass ≤ (n−1)·e^−60 ≈ 1e-25: below rounding
            worst_top = max(worst_top, abs(p.max() - top_limit))
            worst_jac = max(worst_jac, float(np.abs(np.diag(p) - np.outer(p, p) - jac_limit).max()))
        tol = tolerance(2 * 8 + 8)  # softmax of n ≤ 8 entries, values ≤ 1
        experiment.close(worst_top, 0.0, tol, "p_max at c = 60/gap vs stated limit",
                         inputs="200 random score vectors")
        experiment.close(worst_jac, 0.0, tol, "Jacobian entries at c = 60/gap vs stated limit")
        experiment.holds(increasing, "p_max increases with c", "on every sampled vector")

    def plot(self) -> Plot:
        scales = np.linspace(0, 20, 201)  # c = 1 and 20 on [1.0, 0.5, 0.2] are the notes' cases
        curves = {}
        for z in ([1.0, 0.5, 0.2], [1.0, 0.9, 0.0], [2.0, 0.5, 0.3, 0.0, -1.0]):
            worst = [np.abs(np.diag(p) - np.outer(p, p)).max()
                     for p in (softmax(c * np.array(z)) for c in scales)]
            gap = z[0] - z[1]
            curves[f"z = {z}, gap {gap:g}"] = (scales, worst)
        return Plot.curves("Largest softmax Jacobian entry at scores c·z: falls like e^(−c·gap)",
                           curves,
                           xlabel="scale c  (c = 20 turns [1.0, 0.5, 0.2] into [20, 10, 4])",
                           ylabel="max |∂p_i/∂z_j|", logy=True)
