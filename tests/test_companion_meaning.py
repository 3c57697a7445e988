"""The companion's formulas rewritten: spelt otherwise with the same meaning, the gate still
passes and binds them by meaning; changed in meaning, each is an error on its own line."""

from __future__ import annotations

import pytest

from test_companion import COMPANION, line_of, report
from tmath.exitcodes import ExitCode
from tmath.gate.findings import FAILING

# (what the companion prints, the same meaning spelt otherwise)
SAME_MEANING = [
    (r"E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k",                          # sides, notation
     r"0 = \mathbb{E}[q^\top k], \quad d_k = \mathrm{Var}(q^\top k)"),
    (r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right) V$$",
     r"\text{Attention}(Q, K, V) = \mathrm{softmax}(d_k^{-1/2} \, Q K^\top) \, V$$"),  # power
    (r"\text{FFN}(x) = W_2 \cdot \phi(W_1 x + b_1) + b_2",                     # regrouped
     r"\text{FFN}(x) = b_2 + W_2 \, \phi(b_1 + W_1 x)"),
    (r"lr = d_{model}^{-0.5} \cdot \min(step^{-0.5}, \; step \cdot warmup\_steps^{-1.5})",
     r"lr = \frac{\min(step^{-1/2}, \; step \cdot warmup\_steps^{-3/2})}{\sqrt{d_{model}}}"),
    (r"y_{smooth} = (1 - \epsilon) \cdot y_{onehot} + \frac{\epsilon}{K}",
     r"y_{smooth} = \frac{\epsilon}{K} + (1 - \epsilon) \, y_{onehot}"),
    (r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t",
     r"m_t = g_t + \beta_1 (m_{t-1} - g_t)"),
    (r"\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i^2 + \epsilon}",                    # index renamed
     r"\sqrt{\epsilon + \frac{1}{d}\sum_{j=1}^{d} x_j^2}"),
    (r"D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = H(p, q) - H(p)",
     r"D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = -H(p) + H(p, q)"),
]

# (what the companion prints, the same formula with another meaning)
OTHER_MEANING = {
    "a sign": (r"\text{FFN}(x) = W_2 \cdot \phi(W_1 x + b_1) + b_2",
               r"\text{FFN}(x) = W_2 \cdot \phi(W_1 x - b_1) + b_2"),
    "an exponent": (r"PE(pos, 2i) = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
                    r"PE(pos, 2i) = \sin\left(\frac{pos}{10000^{i/d_{model}}}\right)"),
    "a bound": (r"x_L = x_l + \sum_{i=l}^{L-1} F(x_i, W_i)",
                r"x_L = x_l + \sum_{i=l}^{L} F(x_i, W_i)"),
    "a missing square": (r"\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i^2 + \epsilon}",
                         r"\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i + \epsilon}"),
    "a dropped factor": (r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}"
                         r"\right) V$$",
                         r"\text{Attention}(Q, K, V) = \text{softmax}\left(QK^T\right) V$$"),
    "a wrong power of d_k": (r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = "
                             r"\frac{\text{Var}(q^T k)}{d_k}",
                             r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = "
                             r"\frac{\text{Var}(q^T k)}{\sqrt{d_k}}"),
    "a changed KL": (r"= H(p, q) - H(p)", r"= H(p, q) + H(p)"),
}


def _formulas(doc: dict) -> list[dict]:
    return [f for f in doc["findings"] if f["kind"] == "formula"]


def test_rewriting_the_companions_formulas_without_changing_their_meaning_keeps_it_passing(
        tmp_path):
    text = COMPANION.read_text(encoding="utf-8")
    rewritten = text
    for old, new in SAME_MEANING:
        assert text.count(old) == 1, old
        rewritten = rewritten.replace(old, new)
    path = tmp_path / "companion.md"
    path.write_text(rewritten, encoding="utf-8")
    code, doc = report(path)
    assert code == ExitCode.OK, [(f["line"], f["status"], f["detail"]) for f in _formulas(doc)
                                 if f["status"] != "covered"]
    for _, new in SAME_MEANING:
        line = line_of(rewritten, new.split("\n")[0])
        [finding] = [f for f in _formulas(doc) if f["line"] == line]
        assert (finding["status"], finding["meaning"]) == ("covered", "equivalent"), finding


@pytest.mark.parametrize("change", sorted(OTHER_MEANING))
def test_each_change_of_meaning_is_an_error_on_its_line(change, tmp_path):
    old, new = OTHER_MEANING[change]
    text = COMPANION.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    planted = text.replace(old, new)
    path = tmp_path / "companion.md"
    path.write_text(planted, encoding="utf-8")
    code, doc = report(path)
    assert code == ExitCode.FAILED
    line = line_of(planted, new.split("\n")[0])
    failing = [f for f in _formulas(doc) if f["status"] in FAILING]
    assert [f["line"] for f in failing] == [line], [(f["line"], f["status"]) for f in failing]
    assert failing[0]["status"] in ("contradicts", "changed")
