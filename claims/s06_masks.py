"""Section 6: masks: −∞ entries, causal and padding masks, their sum, finite stand-ins."""

import itertools

import numpy as np
import sympy as sp

from tmath import Foil, Source, Statement, claim
from tmath.engine.experiment import tolerance
from tmath.reference.kernels import attention_tolerance, softmax_tolerance
from tmath.reference.nn import attention, softmax
from tmath.engine.plots import Plot

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.3 (masking with −∞)",
                 arxiv="1706.03762")
IEEE = Source("IEEE 754-2019: the smallest positive float64 is 2^−1074, so exp(x) rounds to 0 "
              "for x < ln 2^−1075 ≈ −745.13", url="https://doi.org/10.1109/IEEESTD.2019.8766229")

z_j, z_m, s_ = sp.symbols("z_j z_m s", real=True)          # a visible / a masked logit, a score
S, R = sp.symbols("S R", positive=True)   # Σ_visible e^{z}, Σ_masked e^{z}
c = sp.Symbol("c", real=True)             # the value put in masked entries
a, b = sp.symbols("a b")                  # entries of two masks
d_k, T, n = sp.symbols("d_k T n", positive=True, integer=True)
i, j, l = sp.symbols("i j l", positive=True, integer=True)
delta = sp.Symbol("delta", nonnegative=True, integer=True)
sc, v = sp.IndexedBase("s", real=True), sp.IndexedBase("v", real=True)   # scores s_ij, values
VISIBLE_WEIGHT = sp.exp(z_j) / S
CAUSAL_VISIBLE = sp.Ge(i, j)                                   # key j visible to query i
MASK_PAIRS = tuple(itertools.product((0, -sp.oo), repeat=2))   # (M_causal, M_pad): all cases

# Chinese texts shared by the causal and the padding claims
MASKS_ZH = {
    "key k_p reaches out_i only through the score s_ip = q_iᵀk_p/√d_k":
        "键 k_p 只通过打分 s_ip = q_iᵀk_p/√d_k 影响 out_i",
    "sum the Kronecker δ": "对 Kronecker δ 求和",
    "SymPy doit + expand": "SymPy 求值并展开",
}


def _score(row, col):
    return sc[row, col]


def _visible_range(relation):
    """The positions j ∈ [1, T] for which ``relation`` (in i, j) holds, as (first, last)."""
    span = sp.solve_univariate_inequality(relation, j, relational=False)
    first = 1 if span.inf == -sp.oo else span.inf + (1 if span.left_open else 0)
    last = T if span.sup == sp.oo else span.sup - (1 if span.right_open else 0)
    return first, last


def _derivative(proof, out, var, label):
    """∂out/∂var, evaluated: Kronecker deltas whose index lies outside a sum's range vanish."""
    return proof.chain(sp.diff(out, var), label).evaluate("sum the Kronecker δ", method="expand")


def _logits(rng, rows, t, masked_share):
    z = rng.normal(0.0, 2.0, (rows, t))
    masked = rng.random((rows, t)) < masked_share
    masked[np.arange(rows), rng.integers(0, t, rows)] = False   # keep one visible per row
    return z, masked


@claim(
    id="masked-softmax-renormalises",
    title="A −∞ logit gets weight exactly 0; the others renormalise over the visible set",
    section="6.1",
    statement=Statement("softmax(z + M)_j = e^{z_j}/S for visible j and 0 for masked j, "
                        "S = Σ_visible e^{z_l}", (VISIBLE_WEIGHT, sp.Integer(0))),
    premises=("M_j ∈ {0, −∞}", "at least one visible position",
              "−∞ is the limit c → −∞ of a finite c"),
    foils=(Foil("the visible weights keep their unmasked values e^{z_j}/(S + R)",
                (sp.exp(z_j) / (S + R), sp.Integer(0))),),
    sources=(VASWANI,),
    tags=("mask", "softmax"),
    title_zh="logit 为 −∞ 的位置权重恰为 0，其余位置在可见集合上重新归一化",
    summary_zh="给被遮的项加上有限惩罚 c，它们在分母中贡献 R·e^c；令 c → −∞，这一项消失，"
               "于是加掩码后的 softmax 与只在可见位置上做的 softmax 相同。",
    glossary_zh={
        "softmax(z + M)_j = e^{z_j}/S for visible j and 0 for masked j, S = Σ_visible e^{z_l}":
            "可见的 j 上 softmax(z + M)_j = e^{z_j}/S，被遮的 j 上为 0，其中 S = Σ_visible e^{z_l}",
        "M_j ∈ {0, −∞}": "掩码取值 M_j ∈ {0, −∞}",
        "at least one visible position": "至少有一个可见位置",
        "−∞ is the limit c → −∞ of a finite c": "−∞ 理解为有限值 c 在 c → −∞ 时的极限",
        "the visible weights keep their unmasked values e^{z_j}/(S + R)":
            "可见位置的权重保持不加掩码时的值 e^{z_j}/(S + R)",
        "visible weight, penalty c": "可见位置的权重，惩罚为 c",
        "masked weight, penalty c": "被遮位置的权重，惩罚为 c",
        "masked weights are exactly 0": "被遮位置的权重恰为 0",
        "visible weights vs the stated e^{z_j}/S": "可见权重与命题中的 e^{z_j}/S 的比较",
        "masked softmax vs softmax of the visible logits alone":
            "带掩码的 softmax 与只对可见 logit 做的 softmax 的比较",
    },
)
class MaskedSoftmaxRenormalises:
    """With penalty c the masked terms contribute R·e^c to the normaliser; as c → −∞ that
    vanishes, so masking is the same as a softmax over the visible positions only."""

    def prove(self, value, proof):
        visible = (proof.chain(sp.exp(z_j) / (S + R * sp.exp(c)), "visible weight, penalty c")
                   .limit(c, -sp.oo))
        masked = (proof.chain(sp.exp(z_m) * sp.exp(c) / (S + R * sp.exp(c)),
                              "masked weight, penalty c").limit(c, -sp.oo))
        proof.conclude(value, visible, masked)

    def check(self, value, experiment):
        z, masked = _logits(experiment.rng, 6, 9, 0.4)
        w = softmax(z + np.where(masked, -np.inf, 0.0))
        e = np.exp(z)
        s_vis = np.where(masked, 0.0, e).sum(axis=1, keepdims=True)
        r_mask = np.where(masked, e, 0.0).sum(axis=1, keepdims=True)
        stated = np.broadcast_to(sp.lambdify((z_j, S, R), value[0])(z, s_vis, r_mask), z.shape)
        experiment.holds(bool(np.all(w[masked] == float(value[1]))), "masked weights are exactly 0")
        experiment.close(w[~masked], stated[~masked], softmax_tolerance(z),
                         "visible weights vs the stated e^{z_j}/S", inputs="6 rows × 9 logits")
        per_row = [softmax(z[r][~masked[r]]) for r in range(len(z))]
        experiment.close(w[~masked], np.concatenate(per_row), softmax_tolerance(z),
                         "masked softmax vs softmax of the visible logits alone")


@claim(
    id="causal-mask-no-future",
    title="Under the causal mask, output i depends on tokens 1…i only, itself included",
    section="6.2",
    statement=Statement("M_ij = 0 iff i ≥ j: ∂out_i/∂(s_ip, v_p) = 0 for p > i, and token i "
                        "is seen", CAUSAL_VISIBLE, lhs=sp.Symbol("visible(i, j)")),
    premises=("M_ij = 0 where visible(i, j), −∞ elsewhere", "positions 1 ≤ i ≤ T",
              "key k_p reaches out_i only through the score s_ip = q_iᵀk_p/√d_k"),
    foils=(Foil("the mask is upper triangular (i ≤ j visible)", sp.Le(i, j)),
           Foil("a token must not see itself (i > j visible)", sp.Gt(i, j),
                why="row 1 is then entirely masked and its softmax is 0/0")),
    depends_on=("masked-softmax-renormalises",),
    sources=(VASWANI,),
    tags=("mask", "causal"),
    formulas=(r"M_{ij} = \begin{cases} 0 & \text{if } i \geq j \\ -\infty & \text{if } i < j \end{cases}",),
    title_zh="因果掩码下，第 i 个输出只依赖第 1…i 个 token（含自身）",
    summary_zh="被遮的键同时从 softmax 的分子和分母中消失，所以不论序列多长、位置在哪、头有多宽，"
               "排在后面的键和值都进不了第 i 个输出。",
    glossary_zh={
        **MASKS_ZH,
        "M_ij = 0 iff i ≥ j: ∂out_i/∂(s_ip, v_p) = 0 for p > i, and token i is seen":
            "M_ij = 0 当且仅当 i ≥ j：p > i 时 ∂out_i/∂(s_ip, v_p) = 0，且第 i 个 token 看得见自己",
        "M_ij = 0 where visible(i, j), −∞ elsewhere": "visible(i, j) 成立处 M_ij = 0，其余处为 −∞",
        "positions 1 ≤ i ≤ T": "位置 1 ≤ i ≤ T",
        "the mask is upper triangular (i ≤ j visible)": "掩码是上三角的（i ≤ j 可见）",
        "a token must not see itself (i > j visible)": "token 不能看见自己（i > j 可见）",
        "row 1 is then entirely masked and its softmax is 0/0":
            "这样第 1 行全部被遮，它的 softmax 变成 0/0",
        "one future token leaks in (i ≥ j − 1 visible)": "漏进一个未来的 token（i ≥ j − 1 可见）",
        "out_i over the unmasked j": "在未被遮的 j 上求和得到 out_i",
        "∂out_i/∂v_p, p = i+1+δ": "∂out_i/∂v_p，未来位置 p = i+1+δ",
        "∂out_i/∂s_ip, p = i+1+δ": "∂out_i/∂s_ip，未来位置 p = i+1+δ",
        "∂out_i/∂v_i": "∂out_i/∂v_i（token 自身）",
        "visible set is the lower triangle with the diagonal": "可见集合是含对角线的下三角",
        "rows 1…p unchanged when tokens after p are redrawn": "重抽 p 之后的 token，第 1…p 行不变",
        "row p moves when token p changes": "token p 改变时第 p 行随之改变",
    },
)
class CausalMaskNoFuture:
    """Masked keys drop out of both sums of the softmax, so every later key and value is
    absent from output i, for any sequence length, position and head width."""

    def perturbations(self, value):
        return [("one future token leaks in (i ≥ j − 1 visible)", sp.Ge(i, j - 1))]

    def prove(self, relation, proof):
        first, last = _visible_range(relation)
        w = sp.Function("w")
        weight = sp.exp(_score(i, j)) / sp.Sum(sp.exp(_score(i, l)), (l, first, last))
        out = (proof.chain(sp.Sum(w(i, j) * v[j], (j, first, last)), "out_i over the unmasked j")
               .substitute({w(i, j): weight}, lemma="masked-softmax-renormalises")).value
        p = i + 1 + delta
        future_v = _derivative(proof, out, v[p], "∂out_i/∂v_p, p = i+1+δ")
        future_k = _derivative(proof, out, sc[i, p], "∂out_i/∂s_ip, p = i+1+δ")
        itself = _derivative(proof, out, v[i], "∂out_i/∂v_i")
        own = sp.exp(_score(i, i)) / sp.Sum(sp.exp(_score(i, l)), (l, 1, i))
        proof.conclude((0, 0, own), future_v, future_k, itself, method="expand")

    def check(self, relation, experiment):
        rng, t = experiment.rng, 8
        pos = np.arange(1, t + 1)
        visible = np.broadcast_to(sp.lambdify((i, j), relation)(pos[:, None], pos[None, :]), (t, t))
        mask = np.where(visible, 0.0, -np.inf)
        experiment.holds(np.array_equal(visible, np.tril(np.ones((t, t), bool))),
                         "visible set is the lower triangle with the diagonal")
        x = rng.standard_normal((3, t, 4))
        out, tol = attention(*x, mask=mask), attention_tolerance(*x, 0.5)
        kept, again, moved = [], [], []
        for p in range(t):
            later = x.copy()
            later[:, p + 1:] = rng.standard_normal(later[:, p + 1:].shape)
            kept.append(out[:p + 1])
            again.append(attention(*later, mask=mask)[:p + 1])
            own = x.copy()
            own[1:, p] = rng.standard_normal((2, 4))
            moved.append(np.max(np.abs(attention(*own, mask=mask)[p] - out[p])))
        experiment.close(np.concatenate(again), np.concatenate(kept), tol,
                         "rows 1…p unchanged when tokens after p are redrawn", inputs="T=8, d=4")
        experiment.holds(bool(np.all(np.array(moved) > tol)), "row p moves when token p changes",
                         f"smallest change {np.nanmin(moved):.2g}, tol {tol:.2g}")

    def plot(self):
        # Illustrative only, not part of the check: fixed seed, T = 16 tokens, d = 8.
        rng, t = np.random.default_rng(606), 16
        pos = np.arange(1, t + 1)
        visible = np.broadcast_to(sp.lambdify((i, j), CAUSAL_VISIBLE)(pos[:, None], pos[None, :]),
                                  (t, t))
        q, k = rng.standard_normal((2, t, 8))
        weights = softmax(q @ k.T / np.sqrt(8) + np.where(visible, 0.0, -np.inf))
        return Plot("Causal attention weights, T = 16 (exactly 0 above the diagonal)",
                    heatmap=tuple(tuple(float(w) for w in row) for row in weights),
                    xlabel="key position j (0-based)", ylabel="query position i (0-based)")


@claim(
    id="padding-mask-invariance",
    title="With −∞ on padded columns, outputs ignore whatever the padded tokens hold",
    section="6.3",
    statement=Statement("M_ij = −∞ for padded j makes every output independent of padded k_j, v_j",
                        -sp.oo, lhs=sp.Symbol("M_ij (j padded)")),
    premises=("tokens n+1…T are padding (right padding; attention is invariant to reordering "
              "key/value pairs, so any padded set works the same)", "M_ij = 0 for real j",
              "key k_p reaches out_i only through the score s_ip = q_iᵀk_p/√d_k"),
    foils=(Foil("no mask is needed (M = 0)", sp.Integer(0)),
           Foil("a mild penalty −10 suffices", sp.Integer(-10))),
    sources=(VASWANI,),
    tags=("mask", "padding"),
    formulas=(r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ 不是 padding} \\ -\infty & \text{if } j \text{ 是 padding} \end{cases}",),
    title_zh="在填充列上放 −∞ 后，输出与填充 token 里的内容无关",
    summary_zh="exp(s − ∞) = 0 把填充的键从分子和分母中一并去掉；换成任何有限惩罚，"
               "这些键都还会分到一点正的权重。",
    glossary_zh={
        **MASKS_ZH,
        "M_ij = −∞ for padded j makes every output independent of padded k_j, v_j":
            "对填充位置 j 取 M_ij = −∞，则所有输出都与填充的 k_j, v_j 无关",
        "tokens n+1…T are padding (right padding; attention is invariant to reordering "
        "key/value pairs, so any padded set works the same)":
            "第 n+1…T 个 token 是填充（右侧填充；注意力对键值对的重排不变，所以任意一组填充位置都一样）",
        "M_ij = 0 for real j": "真实 token j 上 M_ij = 0",
        "no mask is needed (M = 0)": "不需要掩码（M = 0）",
        "a mild penalty −10 suffices": "温和的惩罚 −10 就足够",
        "a finite penalty −20 (weight ≈ 2·10⁻⁹ per padded key)":
            "有限惩罚 −20（每个填充键的权重约为 2·10⁻⁹）",
        "out_i, padded keys n+1…T": "out_i，其中 n+1…T 为填充键",
        "exp(s + M) for padded keys": "填充键上取 exp(s + M)",
        "∂out_i/∂v_p, p padded": "∂out_i/∂v_p，p 为填充位置",
        "∂out_i/∂s_ip, p padded": "∂out_i/∂s_ip，p 为填充位置",
        "same as the unpadded sequence": "与去掉填充的序列结果相同",
        "padded tokens redrawn": "重抽填充 token 后输出不变",
    },
)
class PaddingMaskInvariance:
    """exp(s − ∞) = 0 removes padded keys from numerator and normaliser alike; any finite
    penalty leaves them a positive weight."""

    def perturbations(self, value):
        return [("a finite penalty −20 (weight ≈ 2·10⁻⁹ per padded key)", sp.Integer(-20))]

    def prove(self, pad, proof):
        def part(first, last, extra, f):
            return sp.Sum(sp.exp(_score(i, j) + extra) * f, (j, first, last))
        out = (proof.chain((part(1, n, 0, v[j]) + part(n + 1, T, pad, v[j]))
                           / (part(1, n, 0, 1) + part(n + 1, T, pad, 1)),
                           "out_i, padded keys n+1…T")
               .evaluate("exp(s + M) for padded keys")).value
        p = n + 1 + delta
        by_v = _derivative(proof, out, v[p], "∂out_i/∂v_p, p padded")
        by_k = _derivative(proof, out, sc[i, p], "∂out_i/∂s_ip, p padded")
        proof.conclude((0, 0), by_v, by_k, method="expand")

    def check(self, pad, experiment):
        rng, t, fill = experiment.rng, 9, float(pad)
        x = rng.standard_normal((3, 2, t, 4))
        for batch, real in enumerate((6, 3)):
            seq = x[:, batch]
            mask = np.where(np.arange(t) >= real, fill, 0.0)
            out, tol = attention(*seq, mask=mask), attention_tolerance(*seq, 0.5)
            experiment.close(out[:real], attention(*seq[:, :real]), tol,
                             "same as the unpadded sequence", inputs=f"n={real} real of T={t}")
            redrawn = seq.copy()
            redrawn[:, real:] = 5 * rng.standard_normal(redrawn[:, real:].shape)
            experiment.close(attention(*redrawn, mask=mask)[:real], out[:real], tol,
                             "padded tokens redrawn", inputs=f"n={real} real of T={t}")


@claim(
    id="masks-combine",
    title="Adding a causal and a padding mask keeps a position only if both keep it",
    section="6.3",
    statement=Statement("M_causal + M_pad = min(M_causal, M_pad) entrywise on {0, −∞}",
                        sp.Min(a, b), lhs=sp.Symbol("M_causal + M_pad")),
    premises=("both masks take values in {0, −∞}",),
    foils=(Foil("a position is kept if either mask keeps it (max)", sp.Max(a, b)),),
    sources=(VASWANI,),
    tags=("mask", "causal", "padding"),
    title_zh="因果掩码与填充掩码相加：两者都保留的位置才会被保留",
    summary_zh="换到权重上看，exp(M) ∈ {1, 0} 是示性函数，又有 exp(a + b) = exp(a)·exp(b)，"
               "所以两个掩码之和对应两种可见模式的逻辑与。",
    glossary_zh={
        "M_causal + M_pad = min(M_causal, M_pad) entrywise on {0, −∞}":
            "在 {0, −∞} 上逐元素有 M_causal + M_pad = min(M_causal, M_pad)",
        "both masks take values in {0, −∞}": "两个掩码的取值都在 {0, −∞} 中",
        "a position is kept if either mask keeps it (max)": "只要有一个掩码保留就保留该位置（取 max）",
        "the padding mask is lost: only M_causal counts": "填充掩码丢失：只有 M_causal 起作用",
        **{f"exp(M) at ({x}, {y})": f"exp(M) 在 (M_causal, M_pad) = ({x}, {y}) 处"
           for x, y in MASK_PAIRS},
        "exp(−∞) = 0": "exp(−∞) = 0（指数在 −∞ 处为 0）",
        "M_causal + M_pad equals the stated rule": "M_causal + M_pad 与命题给出的规则一致",
        "attention with the stated mask vs softmax over j ≤ i and j unpadded":
            "用命题的掩码算出的注意力，与只在 j ≤ i 且未填充的 j 上做 softmax 的比较",
    },
)
class MasksCombine:
    """In the weight domain exp(M) ∈ {1, 0} is an indicator, and exp(a + b) = exp(a)·exp(b):
    the sum of masks is the logical AND of the two visibility patterns."""

    def perturbations(self, value):
        return [("the padding mask is lost: only M_causal counts", a)]

    def prove(self, combine, proof):
        chains = [proof.chain(sp.exp(sp.Add(x, y, evaluate=False)), f"exp(M) at ({x}, {y})")
                  .evaluate("exp(−∞) = 0") for x, y in MASK_PAIRS]    # the whole domain
        proof.conclude(tuple(sp.exp(combine.subs({a: x, b: y})) for x, y in MASK_PAIRS), *chains)

    def check(self, combine, experiment):
        rng, t = experiment.rng, 7
        lengths = np.array([7, 4, 1])
        causal = np.where(np.tril(np.ones((t, t), bool)), 0.0, -np.inf)
        pad = np.where(np.arange(t)[None, None, :] >= lengths[:, None, None], -np.inf, 0.0)
        mc, mp = np.broadcast_arrays(causal, pad)
        stated = np.broadcast_to(sp.lambdify((a, b), combine)(mc, mp), mc.shape)
        experiment.holds(np.array_equal(mc + mp, stated), "M_causal + M_pad equals the stated rule")
        x = rng.standard_normal((3, len(lengths), t, 4))
        expected = np.zeros((len(lengths), t, 4))
        for bi, length in enumerate(lengths):
            for row in range(t):
                keep = (np.arange(t) <= row) & (np.arange(t) < length)
                q_row, k_kept, v_kept = x[0, bi, row:row + 1], x[1, bi, keep], x[2, bi, keep]
                expected[bi, row] = attention(q_row, k_kept, v_kept)[0]
        experiment.close(attention(*x, mask=stated), expected, attention_tolerance(*x, 0.5),
                         "attention with the stated mask vs softmax over j ≤ i and j unpadded")


@claim(
    id="large-negative-mask",
    title="A finite penalty c moves the weights by 2Re^c/(S+Re^c); at −10⁹ that is 0 in float64",
    section="6.3",
    statement=Statement("‖softmax(z + c·1_masked) − softmax(z + M_∞)‖₁ = 2Re^c/(S + Re^c)",
                        2 * R * sp.exp(c) / (S + R * sp.exp(c))),
    premises=("S = Σ_visible e^{z_j}, R = Σ_masked e^{z_j}",
              "float64 exp rounds x < ln 2^−1075 to 0"),
    foils=(Foil("the distance is Re^c/(S + Re^c) (visible side forgotten)",
                R * sp.exp(c) / (S + R * sp.exp(c))),
           Foil("the distance is 2Re^c/S", 2 * R * sp.exp(c) / S)),
    sources=(VASWANI, IEEE),
    tags=("mask", "floating-point"),
    title_zh="有限惩罚 c 使权重移动 2Re^c/(S+Re^c)；c = −10⁹ 时在 float64 中恰为 0",
    summary_zh="被遮的键一共分走权重 ε = Re^c/(S+Re^c)，可见的键正好少了同样的 ε，L1 距离因此是 2ε。"
               "取 c = −10⁹ 且 |打分| ≤ 10⁸ 时，平移后被遮的 logit 低于 −745.14，float64 的 exp "
               "直接给出 0，算得的权重与 −∞ 掩码完全一致。",
    glossary_zh={
        "‖softmax(z + c·1_masked) − softmax(z + M_∞)‖₁ = 2Re^c/(S + Re^c)":
            "有限惩罚与 −∞ 掩码之间的权重距离：‖softmax(z + c·1_masked) − softmax(z + M_∞)‖₁ "
            "= 2Re^c/(S + Re^c)",
        "S = Σ_visible e^{z_j}, R = Σ_masked e^{z_j}":
            "S = Σ_visible e^{z_j}（可见项之和），R = Σ_masked e^{z_j}（被遮项之和）",
        "float64 exp rounds x < ln 2^−1075 to 0": "float64 的 exp 把 x < ln 2^−1075 舍入为 0",
        "the distance is Re^c/(S + Re^c) (visible side forgotten)":
            "距离为 Re^c/(S + Re^c)（漏算了可见的一侧）",
        "the distance is 2Re^c/S": "距离为 2Re^c/S",
        "visible weights only shrink, so |Δw_j| = Δw_j": "可见权重只会减小，所以 |Δw_j| = Δw_j",
        "Σ_visible |Δw_j| + Σ_masked w_m": "可见部分 Σ_visible |Δw_j| 加被遮部分 Σ_masked w_m",
        "the factor is free of j": "该因子不含 j",
        "S = Σ_visible e^{z_j}": "S = Σ_visible e^{z_j}（可见项之和）",
        "−10⁹ + 2·10⁸ < ln 2^−1075": "−10⁹ + 2·10⁸ < ln 2^−1075（平移后仍低于下溢阈值）",
        "L1 gap": "L1 距离",
        "float64 exp underflows to 0 just below −745.13": "float64 的 exp 在略低于 −745.13 处下溢为 0",
        "computed gap exactly 0, true gap below 2^−1074": "算出的距离恰为 0，真实距离小于 2^−1074",
    },
)
class LargeNegativeMask:
    """The masked keys take total weight ε = Re^c/(S+Re^c) and the visible ones lose exactly
    ε, so the L1 gap is 2ε. With c = −10⁹ and |scores| ≤ 10⁸ the shifted masked logit is below
    −745.14, where float64 exp is exactly 0: the computed weights are identical to the −∞ ones."""

    def prove(self, value, proof):
        zz, jj = sp.IndexedBase("z", real=True), sp.Symbol("j", integer=True, positive=True)
        loss = 1 / S - 1 / (S + R * sp.exp(c))
        proof.holds(loss > 0, "visible weights only shrink, so |Δw_j| = Δw_j")
        visible_sum = sp.Sum(sp.exp(zz[jj]), (jj, 1, n))
        masked_mass = R * sp.exp(c) / (S + R * sp.exp(c))
        gap = (proof.chain(sp.Sum(sp.exp(zz[jj]) * loss, (jj, 1, n)) + masked_mass,
                           "Σ_visible |Δw_j| + Σ_masked w_m")
               .equals(loss * visible_sum + masked_mass, "the factor is free of j")
               .substitute({visible_sum: S}, premise="S = Σ_visible e^{z_j}"))
        proof.holds(sp.Integer(-10**9) + 2 * 10**8 < sp.log(sp.Rational(1, 2**1075)),
                    "−10⁹ + 2·10⁸ < ln 2^−1075")
        proof.conclude(value, gap)

    def check(self, value, experiment):
        z, masked = _logits(experiment.rng, 5, 12, 0.5)
        e = np.exp(z)
        s_vis = np.where(masked, 0.0, e).sum(axis=1)
        r_mask = np.where(masked, e, 0.0).sum(axis=1)
        w_inf = softmax(z + np.where(masked, -np.inf, 0.0))
        gap = sp.lambdify((S, R, c), value)
        for pen in (-2.0, -8.0):
            logits = z + np.where(masked, pen, 0.0)
            l1 = np.abs(softmax(logits) - w_inf).sum(axis=1)
            # T weight differences, each within softmax_tolerance of the larger-range logits;
            # summing T terms of total ≤ 2 adds γ_T·2; the stated gap's own exp/sums ≤ γ_{T+4}·2
            tol = z.shape[1] * softmax_tolerance(logits) + tolerance(2 * z.shape[1] + 4, 2.0)
            experiment.close(l1, gap(s_vis, r_mask, pen), tol, "L1 gap", inputs=f"c = {pen:g}")
        experiment.holds(np.exp(-745.14) == 0.0 < np.exp(-745.13),
                         "float64 exp underflows to 0 just below −745.13")
        for name, pen in (("−10⁹", -1e9), ("float64 min", float(np.finfo(np.float64).min)),
                          ("float32 min", float(np.finfo(np.float32).min))):
            l1 = np.abs(softmax(z + np.where(masked, pen, 0.0)) - w_inf).sum(axis=1)
            exact = [value.subs({S: sp.Float(sv), R: sp.Float(rm), c: sp.Float(pen)}).evalf(30)
                     for sv, rm in zip(s_vis, r_mask)]
            digits = max(float(sp.log(g, 10).evalf()) for g in exact)   # log10 of the true gap
            experiment.holds(bool(np.all(l1 == 0.0)) and digits < -1074 * np.log10(2.0),
                             "computed gap exactly 0, true gap below 2^−1074",
                             f"c = {name}: largest computed {l1.max():.2g}, "
                             f"largest true 10^{digits:.4g}")


@claim(
    id="mask-inside-scaling",
    title="Inside (QKᵀ + M)/√d_k a mask entry c acts as c/√d_k, and −∞/√d_k = −∞",
    section="6.1",
    statement=Statement("the penalty a mask entry c adds to the scaled logit is c/√d_k",
                        c / sp.sqrt(d_k), lhs=sp.Symbol("penalty")),
    premises=("d_k > 0", "M_ij ∈ {0, c}, −∞ being the limit c → −∞"),
    foils=(Foil("dividing by √d_k leaves a finite mask value unchanged (penalty c)", c),),
    sources=(VASWANI,),
    tags=("mask", "scaling"),
    formulas=(r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T + M}{\sqrt{d_k}}\right) V",),
    title_zh="在 (QKᵀ + M)/√d_k 中，掩码元素 c 的作用是 c/√d_k，而 −∞/√d_k 仍为 −∞",
    summary_zh="除以 √d_k 把惩罚也一并缩小，有限的 c 因此减弱为原来的 1/√d_k；但 c → −∞ 的极限"
               "依旧把被遮的键去掉，所以对 ±∞ 掩码而言，把 M 写在缩放之内并无妨碍。",
    glossary_zh={
        "the penalty a mask entry c adds to the scaled logit is c/√d_k":
            "掩码元素 c 加到缩放后 logit 上的惩罚是 c/√d_k",
        "d_k > 0": "键的维数 d_k > 0",
        "M_ij ∈ {0, c}, −∞ being the limit c → −∞": "M_ij ∈ {0, c}，−∞ 视为 c → −∞ 的极限",
        "dividing by √d_k leaves a finite mask value unchanged (penalty c)":
            "除以 √d_k 不改变有限的掩码值（惩罚仍是 c）",
        "scaled logit minus the unmasked one": "缩放后的 logit 减去不加掩码的 logit",
        "expand": "展开",
        "masked weight": "被遮位置的权重",
        "visible weight": "可见位置的权重",
        "softmax((S+M)/√d_k) vs softmax(S/√d_k + penalty)":
            "softmax((S+M)/√d_k) 与 softmax(S/√d_k + 惩罚) 的比较",
    },
)
class MaskInsideScaling:
    """Division by √d_k rescales the penalty; a finite c therefore weakens by √d_k, but the
    limit c → −∞ still removes masked keys, so the notes' placement of M is harmless for ±∞."""

    def prove(self, penalty, proof):
        shift = (proof.chain((s_ + c) / sp.sqrt(d_k) - s_ / sp.sqrt(d_k),
                             "scaled logit minus the unmasked one")
                 .equals(c / sp.sqrt(d_k), "expand", method="expand"))
        masked = (proof.chain(sp.exp(z_m + penalty) / (S + R * sp.exp(penalty)), "masked weight")
                  .limit(c, -sp.oo))
        visible = (proof.chain(sp.exp(z_j) / (S + R * sp.exp(penalty)), "visible weight")
                   .limit(c, -sp.oo))
        proof.conclude((penalty, 0, VISIBLE_WEIGHT), shift, masked, visible)

    def check(self, penalty, experiment):
        rng, d = experiment.rng, 16
        z, masked = _logits(rng, 6, 7, 0.4)
        z *= np.sqrt(d)                       # raw scores qᵀk have spread √d_k
        for entry in (-3.0, -1e9, -np.inf):
            notes = softmax((z + np.where(masked, entry, 0.0)) / np.sqrt(d))
            entry_sym = sp.Float(entry) if np.isfinite(entry) else -sp.oo
            pen = float(penalty.subs({c: entry_sym, d_k: d}))
            usual = softmax(z / np.sqrt(d) + np.where(masked, pen, 0.0))
            # the notes' form rounds twice more per logit (add, divide): doubling covers it
            experiment.close(notes, usual, softmax_tolerance(z / np.sqrt(d)) * 2,
                             "softmax((S+M)/√d_k) vs softmax(S/√d_k + penalty)",
                             inputs=f"M_ij = {entry:g}")
