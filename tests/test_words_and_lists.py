"""Readers added for outside trials: normalisation axes and attention's growth said in
words, shared memberships ``a, b \\in S``, a name typed after a joining word, and a declared
name's definition held to its declared shape. Every document is written for these tests."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP
from tmath.latex import read


def _findings(tmp_path, text: str) -> list[tuple[int, str]]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    assert run.exit_code in (0, 1), run.output
    return [(f["line"], f["status"]) for f in json.loads(run.stdout)["findings"]]


WORDS = "\n".join([
    "# Two normalisations",                                                        # 1
    "",                                                                            # 2
    "Batch normalization and layer normalization differ in one respect: the",      # 3
    "latter normalizes across the features of one token.",                         # 4
    "",                                                                            # 5
    "# Cost",                                                                      # 6
    "",                                                                            # 7
    "The memory cost of vanilla self-attention grows quadratically with the",      # 8
    "sequence length, which is why long inputs are hard.",                         # 9
    "",                                                                            # 10
])


def test_words_said_as_the_claims_have_them_are_recognised(tmp_path):
    found = _findings(tmp_path, WORDS)
    assert (4, "recognised") in found and (8, "recognised") in found
    assert not [f for f in found if f[1] == "contradicts"]


@pytest.mark.parametrize("old, new, line", [
    ("latter normalizes across the features", "latter normalizes across the examples", 4),
    ("the\nlatter normalizes", "the\nformer normalizes", 4),
    ("grows quadratically with", "grows linearly with", 8),
])
def test_each_wrong_sentence_contradicts_its_claim(tmp_path, old, new, line):
    assert old in WORDS
    assert (line, "contradicts") in _findings(tmp_path, WORDS.replace(old, new))


def test_another_kind_of_attention_is_not_read(tmp_path):
    text = WORDS.replace("vanilla self-attention", "linear self-attention").replace(
        "quadratically", "linearly")
    assert not [f for f in _findings(tmp_path, text) if f[0] == 8]


def test_names_before_a_membership_share_its_set():
    reading = read(r"\mathbf{A}_i, \mathbf{B}_i \in \mathbb{R}^{m \times n}, \mathbf{C} \in "
                   r"\mathbb{R}^{n \times p}")
    assert [r.op for r in reading.relations] == ["in", "in", "in"]
    assert not read(r"a, b = c").parsed      # only a membership is shared


def test_a_joining_word_typed_with_the_name_it_introduces():
    reading = read(r"\text{where head}_i = \mathrm{Attention}(\mathbf{X}\mathbf{W}_i, "
                   r"\mathbf{X}\mathbf{U}_i, \mathbf{X}\mathbf{V}_i)")
    assert reading.parsed and str(reading.relations[0].lhs) == "head[i]"


TABLE = "\n".join([
    "# Symbols", "",
    "| symbol | meaning |", "| --- | --- |",
    "| $$\\mathbf{Q} \\in \\mathbb{R}^{T \\times m}$$ | queries |",
    "| $$\\mathbf{K} \\in \\mathbb{R}^{T \\times m}$$ | keys |",
    "| $$\\mathbf{S} \\in \\mathbb{R}^{T \\times T}$$ | weights, $$\\mathbf{S} = "
    "\\text{softmax}(\\mathbf{Q}\\mathbf{K}^\\top / \\sqrt{m})$$ |", ""])


def test_a_declared_names_definition_must_have_its_shape(tmp_path):
    assert not [f for f in _findings(tmp_path, TABLE) if f[1] == "contradicts"]
    wrong = TABLE.replace("\\mathbf{S} \\in \\mathbb{R}^{T \\times T}",
                          "\\mathbf{S} \\in \\mathbb{R}^{T \\times m}")
    assert (7, "contradicts") in _findings(tmp_path, wrong)


def test_a_notebook_finding_gives_its_line_in_the_file(tmp_path):
    """``line`` is the line in the cell; ``file_line`` the line of the ``.ipynb`` file that
    holds it, so a CI annotation can point into the notebook itself."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Attention\n\nScores first."),
        nbformat.v4.new_code_cell("x = 1\ny = 2"),
        nbformat.v4.new_markdown_cell(
            "The layer computes\n\n$$\\mathrm{Attention}(Q, K, V) = "
            "\\mathrm{softmax}(QK^\\top / d_k) V$$\n\nfor every head."),
    ]
    path = tmp_path / "doc.ipynb"
    raw = nbformat.writes(notebook)
    path.write_text(raw, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    (wrong,) = [f for f in json.loads(run.stdout)["findings"] if f["status"] == "contradicts"]
    assert (wrong["cell"], wrong["line"]) == (3, 3)
    assert "softmax" in raw.splitlines()[wrong["file_line"] - 1]


def test_a_property_of_a_declared_name_is_not_its_definition(tmp_path):
    """A ∈ ℝ^{m×n} in general, later "symmetric matrices satisfy A = Aᵀ": a property of
    square ones, not a definition of the declared A (the wide sweep's d2l chapter)."""
    text = "\n".join(["# Matrices", "", "Take $\\mathbf{A} \\in \\mathbb{R}^{m \\times n}$.", "",
                      "Symmetric matrices satisfy $\\mathbf{A} = \\mathbf{A}^\\top$.", ""])
    assert not [f for f in _findings(tmp_path, text) if f[1] == "contradicts"]
