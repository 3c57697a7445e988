"""Relations between sizes, held to the ones stated above them, and shapes read through a
function's arguments and a column of stacked heads. Every document is written for these tests.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP

HEADS = "\n".join([
    "# Splitting the width",                                              # 1
    "",                                                                   # 2
    "Each of the $g$ heads gets a query $\\mathbf a \\in \\mathbb{R}^{m_a}$ and a value",  # 3
    "$\\mathbf b \\in \\mathbb{R}^{m_b}$, projected by $\\mathbf U_j^{(a)} \\in \\mathbb{R}^{r_a \\times m_a}$",  # 4
    "and $\\mathbf U_j^{(b)} \\in \\mathbb{R}^{r_b \\times m_b}$:",       # 5
    "",                                                                   # 6
    "$$\\mathbf{z}_j = \\phi(\\mathbf U_j^{(a)}\\mathbf a, \\mathbf U_j^{(b)}\\mathbf b) \\in \\mathbb{R}^{r_b}.$$",  # 7
    "",                                                                   # 8
    "The heads are stacked and mixed by $\\mathbf U_o \\in \\mathbb{R}^{r_o \\times g r_b}$:",  # 9
    "",                                                                   # 10
    "$$\\mathbf U_o \\begin{bmatrix}\\mathbf z_1\\\\\\vdots\\\\\\mathbf z_g\\end{bmatrix} \\in \\mathbb{R}^{r_o}.$$",  # 11
    "",                                                                   # 12
    "We choose $r_a = r_b = r_o / g$ for every head.",                    # 13
    "",                                                                   # 14
    "So the cost does not grow: $r_a g = r_b g = r_o$.",                  # 15
    "",
])


def _failing(tmp_path, text: str) -> list[int]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    assert run.exit_code in (0, 1), run.output
    return sorted({f["line"] for f in json.loads(run.stdout)["findings"]
                   if f["status"] == "contradicts"})


def test_the_clean_document_has_no_finding(tmp_path):
    assert _failing(tmp_path, HEADS) == []


@pytest.mark.parametrize("old, new, line", [
    # a projection turned round: the product inside the function's argument does not fit
    ("\\mathbf U_j^{(a)} \\in \\mathbb{R}^{r_a \\times m_a}",
     "\\mathbf U_j^{(a)} \\in \\mathbb{R}^{m_a \\times r_a}", 7),
    # the mixing matrix takes one head, not g stacked ones
    ("\\mathbb{R}^{r_o \\times g r_b}", "\\mathbb{R}^{r_o \\times r_b}", 11),
    # the stacked output is said to be g times wider
    ("\\end{bmatrix} \\in \\mathbb{R}^{r_o}", "\\end{bmatrix} \\in \\mathbb{R}^{g r_o}", 11),
    # the head width multiplied by the head count instead of divided
    ("r_a = r_b = r_o / g", "r_a = r_b = r_o \\cdot g", 15),
    # the later relation of sizes changed
    ("r_a g = r_b g = r_o", "r_a g = r_b g = g r_o", 15),
])
def test_each_broken_copy_is_found_at_its_line(tmp_path, old, new, line):
    assert old in HEADS
    assert line in _failing(tmp_path, HEADS.replace(old, new))


def test_a_name_defined_again_is_a_new_definition(tmp_path):
    text = "\n".join(["# Two cases", "", "First take $n = 2m$.", "",
                      "Later we take $n = 3m$ instead, so $n - m = 2m$.", ""])
    assert _failing(tmp_path, text) == []


def test_a_sum_with_a_declared_vector_keeps_its_shape(tmp_path):
    """x ∈ ℝ^m and g(x) ∈ ℝ^m, so x + g(x) ∈ ℝ^m; stated as ℝ^{2m} it is reported."""
    text = "\n".join([
        "# A skip connection", "",
        "For an input $\\mathbf{x} \\in \\mathbb{R}^m$ the block must give",
        "$g(\\mathbf{x}) \\in \\mathbb{R}^m$ so that the sum",
        "$\\mathbf{x} + g(\\mathbf{x}) \\in \\mathbb{R}^m$ can be formed.", ""])
    assert _failing(tmp_path, text) == []
    wrong = text.replace("g(\\mathbf{x}) \\in \\mathbb{R}^m$ can", "g(\\mathbf{x}) \\in "
                                                                    "\\mathbb{R}^{2m}$ can")
    assert 5 in _failing(tmp_path, wrong)
    block = text.replace("$g(\\mathbf{x}) \\in \\mathbb{R}^m$ so", "$g(\\mathbf{x}) \\in "
                                                                   "\\mathbb{R}^{2m}$ so")
    assert block != text
    assert 5 in _failing(tmp_path, block)   # the block's value declared twice as wide


def test_a_hostile_tower_of_powers_or_a_zero_divisor_is_not_judged(tmp_path):
    """Exact powers of powers would never finish; a size divided by zero has no value: both
    are read quickly and judged nowhere."""
    text = "\n".join(["# Sizes", "", "Take $a = b^{c^{d^{e}}}$ and $m = n/(k - k)$.", "",
                      "Then $a b = b^{c^{d^{e}}} b$ and $m k = n$.", ""])
    assert _failing(tmp_path, text) == []


def test_a_head_declared_through_its_function_is_blamed_on_its_own_line(tmp_path):
    """h_i = f(W_i q) ∈ ℝ^p states h_i's shape (the function's value is not a second
    declaration of it), so a head declared too wide is reported on its own line as well as
    on the output map's and the product's."""
    text = "\n".join([
        "# Heads", "",
        "Each head is $$\\mathbf{h}_i = f(\\mathbf{W}_i \\mathbf{q}) \\in \\mathbb{R}^{p},$$", "",
        "with $\\mathbf{W}_i \\in \\mathbb{R}^{p \\times d}$ and $\\mathbf{q} \\in \\mathbb{R}^{d}$.",
        "", "The output map is $\\mathbf{W}_o \\in \\mathbb{R}^{r \\times h p}$:", "",
        "$$\\mathbf{W}_o \\begin{bmatrix}\\mathbf{h}_1\\\\\\vdots\\\\\\mathbf{h}_h\\end{bmatrix}"
        " \\in \\mathbb{R}^{r}.$$", ""])
    assert _failing(tmp_path, text) == []
    wide = text.replace("\\in \\mathbb{R}^{p},$$", "\\in \\mathbb{R}^{h p},$$")
    assert wide != text
    assert 3 in _failing(tmp_path, wide)
