"""A formula is a claim's by a renaming in that formula alone, never by merging two names the
document keeps apart.

Each document is written for these tests: the clean one divides by √d_k, the broken one by
√d_model in a text that has said d_k = d_model/h, so d_model cannot be read as the claim's d_k.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from conftest import CHECK_APP

SIZES = "We use $h = 8$ heads, $d_{\\text{model}} = 512$ and $d_k = d_{\\text{model}}/h = 64$."
ATTENTION = ("$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^T}"
             "{\\sqrt{%s}}\\right)V$$")


def _statuses(tmp_path, text: str) -> list[tuple[int, str]]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return [(f["line"], f["status"]) for f in json.loads(run.stdout)["findings"]
            if f["kind"] == "formula"]


def test_a_name_the_document_relates_to_the_claims_is_not_renamed_onto_it(tmp_path):
    clean = "\n".join(["# Attention", "", SIZES, "", ATTENTION % "d_k", ""])
    assert _statuses(tmp_path, clean) == [(5, "recognised")]
    broken = clean.replace("{d_k}}", "{d_{\\text{model}}}}")
    assert broken != clean
    assert _statuses(tmp_path, broken) == [(5, "contradicts")]


def test_with_nothing_keeping_them_apart_a_formulas_own_name_is_still_renamed(tmp_path):
    """d alone, never related to d_k: the formula's own name for the key width."""
    text = "\n".join(["# Attention", "", ATTENTION % "d", ""])
    assert _statuses(tmp_path, text) == [(3, "recognised")]


def test_a_permutation_of_a_formulas_own_names_is_no_merge(tmp_path):
    """p(i, 2j) = sin(i/10000^{2j/d}) is the claim's PE(pos, 2i) with i → pos and j → i,
    although the document relates i and j elsewhere: both are renamed."""
    text = "\n".join([
        "# Encoding", "",
        "$$p_{i, 2j} = \\sin\\left(\\frac{i}{10000^{2j/d}}\\right)$$", "",
        "The offset is $\\delta = i - j$.", ""])
    assert (3, "recognised") in _statuses(tmp_path, text)
