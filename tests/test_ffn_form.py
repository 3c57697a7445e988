"""The feed-forward network's formula, held to what the claims record of it.

The document is written for these tests: the FFN in the row convention (``xW_1``, as papers
print it) and in the column convention. Both are recognised; ReLU written as min, the
activation left out, or one weight matrix used in both maps, contradicts a claim on its line.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

FFN = r"""# The position-wise network

Each position goes through two linear maps with a ReLU between them:

$$\mathrm{FFN}(x) = \max(0, xW_1 + b_1) W_2 + b_2$$

Written for column vectors, the same network is

$$\mathrm{FFN}(x) = W_2 \, \mathrm{ReLU}(W_1 x + b_1) + b_2$$
"""


def _findings(tmp_path, text: str) -> list[tuple[int, str, str]]:
    from conftest import CHECK_APP

    path = tmp_path / "ffn.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return sorted({(f["line"], f["status"], f["claim"]) for f in json.loads(run.stdout)["findings"]
                   if f["kind"] == "formula"})


def test_both_conventions_are_recognised(tmp_path):
    """Rows (xW_1) are the transposed columns (W_1 x): an identity holds exactly when its
    transpose does, so neither is a contradiction."""
    assert _findings(tmp_path, FFN) == [(5, "recognised", "ffn-parameter-count"),
                                        (9, "recognised", "ffn-parameter-count")]


@pytest.mark.parametrize("old, new, claim", [
    (r"\max(0, xW_1 + b_1) W_2", r"\min(0, xW_1 + b_1) W_2", "ffn-activation-relu-gelu"),
    (r"\max(0, xW_1 + b_1) W_2", r"\max(1, xW_1 + b_1) W_2", "ffn-activation-relu-gelu"),
    (r"\max(0, xW_1 + b_1) W_2", r"\max(0, xW_1 + b_1) W_1", "ffn-parameter-count"),
    (r"\max(0, xW_1 + b_1) W_2 + b_2", r"\max(0, xW_1 + b_1) W_2 + b_1", "ffn-parameter-count"),
    (r"\max(0, xW_1 + b_1) W_2", r"(xW_1 + b_1) W_2", "ffn-parameter-count"),   # no activation
    # b_1 multiplies W_2, so the reader reads b_1 and b_2 as names: still the claim's b[1], b[2]
    (r"\max(0, xW_1 + b_1) W_2 + b_2", r"\max(0, xW_1 + b_1 W_2) + b_2", "ffn-parameter-count"),
    (r"\max(0, xW_1 + b_1) W_2 + b_2", r"\max(0, xW_1 + b_1) W_2 b_2", "ffn-parameter-count"),
])
def test_a_wrong_activation_or_a_shared_parameter_contradicts_a_claim(tmp_path, old, new, claim):
    assert old in FFN
    found = _findings(tmp_path, FFN.replace(old, new))
    assert (5, "contradicts", claim) in found
    assert (9, "recognised", "ffn-parameter-count") in found


def test_max_of_zero_and_a_matrix_is_read_as_relu():
    from tmath.latex import read

    relation = read(r"y = \max(0, xW + b)").relations[0]
    assert str(relation.rhs.func) == "ReLU"
    assert "Minimum" in str(read(r"y = \min(0, xW + b)").relations[0].rhs)
    assert str(read(r"y = \max(0, a)").relations[0].rhs) == "Max(0, a)"   # numbers: SymPy's
