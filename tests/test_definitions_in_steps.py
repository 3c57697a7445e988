"""A document's definitions put into its derivations.

A definition by parity (``p_{t,2i} = \\sin …`` and ``p_{t,2i+1} = \\cos …``, in one formula or
two) applies to exactly the arguments of its residue; with it put in, a derivation that ends on
the document's own encoding is checked step by step, and a true one is not called a near form
of the shift claim. Every document here is written for these tests.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import CHECK_APP
from tmath.meaning.recognise import _bound, defined_function, put_in, relations_of, residue

i, j, t = sp.symbols("i j t")


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.data())
def test_a_residue_pattern_takes_only_its_own_residue(m, data):
    """``m·i + r`` stands for the arguments ``m·j + r'`` exactly when r' = r."""
    r = data.draw(st.integers(0, m - 1))
    other = data.draw(st.integers(0, m - 1))
    assert residue(m * i + r) == (i, m, r)
    bound = _bound((t, m * i + r), (t + 1, m * j + other))
    assert (bound == {t: t + 1, i: j}) if other == r else bound is None


@pytest.mark.parametrize("argument", [i, i ** 2 + 1, 2 * i * t, sp.Rational(1, 2) * i,
                                      sp.Derivative(sp.Function("f")(i), i)])
def test_anything_else_is_no_residue(argument):
    assert residue(argument) is None


def test_a_definition_by_parity_is_put_in_at_the_matching_arguments_only():
    rows = relations_of(r"\begin{aligned} p_{t, 2i} &= \sin(t w_i) \\ "
                        r"p_{t, 2i+1} &= \cos(t w_i) \end{aligned}")
    rules = [defined_function(r) for r in rows]
    assert [rule[1] for rule in rules] == [(t, 2 * i), (t, 2 * i + 1)]
    (use,) = relations_of(r"y = p_{s, 2j} + p_{s, 2j+1} + p_{s, k}")
    for rule in rules:
        use = put_in(use, *rule)
    s, k = sp.symbols("s k")
    assert sp.Function("p")(s, k) in use.rhs.atoms(sp.Function)   # k: no known parity
    assert use.rhs.has(sp.sin, sp.cos)


SHIFT = "\n".join([
    "# Moving along the sequence",
    "",
    "Write $w_i = 1/10000^{2i/d}$ for the angular speed of pair $i$, and",
    "$$\\begin{aligned} p_{t, 2i} &= \\sin(t w_i), \\\\ p_{t, 2i+1} &= \\cos(t w_i).\\end{aligned}$$",
    "",
    "A fixed offset $k$ acts on every pair as one matrix:",
    "",
    "$$",
    "\\begin{aligned}",
    "\\begin{bmatrix}\\cos(k w_i) & \\sin(k w_i)\\\\ -\\sin(k w_i) & \\cos(k w_i)\\end{bmatrix}",
    "\\begin{bmatrix} p_{t, 2i} \\\\ p_{t, 2i+1} \\end{bmatrix}",
    "&= \\begin{bmatrix}\\sin((t+k) w_i)\\\\ \\cos((t+k) w_i)\\end{bmatrix} \\\\",
    "&= \\begin{bmatrix} p_{t+k, 2i} \\\\ p_{t+k, 2i+1} \\end{bmatrix}",
    "\\end{aligned}",
    "$$",
    "",
])


def _failing(tmp_path, text: str) -> list[int]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return sorted({f["line"] for f in json.loads(run.stdout)["findings"]
                   if f["status"] == "contradicts"})


def test_a_derivation_through_the_documents_encoding_is_checked_at_its_wrong_row(tmp_path):
    """The last row says t − k where the rows above reach t + k: with p and w as the document
    defines them the last link is a false step, reported on its row (not on the first)."""
    assert _failing(tmp_path, SHIFT) == []
    wrong = SHIFT.replace("p_{t+k, 2i} \\\\ p_{t+k, 2i+1}", "p_{t-k, 2i} \\\\ p_{t-k, 2i+1}")
    assert wrong != SHIFT
    assert 13 in _failing(tmp_path, wrong)


ROTATION = [
    "$$", "\\begin{aligned}",
    "\\begin{bmatrix}\\cos(k\\omega_i) & \\sin(k\\omega_i)\\\\ -\\sin(k\\omega_i) & "
    "\\cos(k\\omega_i)\\end{bmatrix}",
    "\\begin{bmatrix}\\sin(t\\omega_i)\\\\ \\cos(t\\omega_i)\\end{bmatrix}",
    "&= \\begin{bmatrix}\\sin((t+k)\\omega_i)\\\\ \\cos((t+k)\\omega_i)\\end{bmatrix} \\\\",
    "&= \\begin{bmatrix}PE(t+k, 2i)\\\\ PE(t+k, 2i+1)\\end{bmatrix}",
    "\\end{aligned}", "$$", ""]
"""A shift by k as a rotation of the pair at t, ending on PE at t + k (lines 6 to 13 of a
document whose prose takes lines 1 to 5)."""
ROW_AT_T_PLUS_K, ROW_AT_T_MINUS_K = ("PE(t+k, 2i)\\\\ PE(t+k, 2i+1)",
                                     "PE(t-k, 2i)\\\\ PE(t-k, 2i+1)")


def test_two_formulas_define_the_two_parities(tmp_path):
    """Each parity in its own inline formula is still one definition; the true derivation
    that ends on PE is not taken for a near form of the shift claim."""
    text = "\n".join([
        "# Shifts", "",
        "With $\\omega_i = 1/10000^{2i/d}$, the encoding is $PE(t, 2i) = \\sin(t\\omega_i)$ and",
        "$PE(t, 2i+1) = \\cos(t\\omega_i)$. A shift by $k$ is a rotation:", "", *ROTATION])
    assert _failing(tmp_path, text) == []
    assert 11 in _failing(tmp_path, text.replace(ROW_AT_T_PLUS_K, ROW_AT_T_MINUS_K))


def test_a_library_function_the_document_never_defines_means_the_librarys(tmp_path):
    """PE used and never defined is the standard encoding the claims define: the true
    derivation ending on PE(t + k) holds with it (no near form of the shift claim), and the
    one ending on PE(t − k) has a false last step, reported on its row."""
    text = "\n".join([
        "# Shifts", "",
        "With $\\omega_i = 1/10000^{2i/d}$, take the usual sinusoidal encoding $PE$.",
        "A shift by $k$ is a rotation:", "", *ROTATION])
    assert _failing(tmp_path, text) == []
    assert 11 in _failing(tmp_path, text.replace(ROW_AT_T_PLUS_K, ROW_AT_T_MINUS_K))
