"""The steps of a derivation, checked as identities in elementary functions.

Each formula here is written for these tests: a chain with one false step is found at that
step, and what is not an identity (a definition, values, a function of the document's own,
π, one relation alone) is never called false.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tmath.gate.steps import false_steps
from tmath.meaning.recognise import relations_of


def _false(latex: str) -> list[int]:
    return [index for index, *_ in false_steps(relations_of(latex))]


def test_a_false_step_of_a_chain_is_found_at_its_index():
    right = (r"\sin(a)\cos(b) + \cos(a)\sin(b) = \sin(a + b) = \sin(b + a)")
    assert _false(right) == []
    assert _false(right.replace(r"\sin(a + b)", r"\sin(a - b)")) == [0, 1]
    assert _false(r"x^2 - y^2 = (x - y)(x + y) = (x - y)^2") == [1]


def test_a_matrix_step_is_checked_entry_by_entry():
    step = (r"\begin{bmatrix} \sin(t)\cos(s) + \cos(t)\sin(s) \\ \cos(t)\cos(s) - \sin(t)\sin(s)"
            r" \end{bmatrix} = \begin{bmatrix} \sin(t + s) \\ \cos(t + s) \end{bmatrix}"
            r" = \begin{bmatrix} \sin(s + t) \\ \cos(s + t) \end{bmatrix}")
    assert _false(step) == []
    assert _false(step.replace(r"\cos(t + s) \end", r"\cos(t - s) \end")) == [0, 1]


@pytest.mark.parametrize("latex", [
    r"d_k = d_v = d_{model}/h = 64",                 # values, not an identity
    r"y = x + 1 = 1 + x",                            # y is defined
    r"f(x) = x^2 = x \cdot x",                       # a function of the document's own
    r"\cos(2 \pi k) = 1 = k^0",                       # holds at integers only
    r"e^{x} \approx 1 + x = x + 1",                  # an approximation
    r"\sin(x) = 1",                                  # one relation: a condition
    r"\mathrm{Var}(a x) = a^2 \mathrm{Var}(x) = a \mathrm{Var}(x)",   # an operator
    r"q_i = 2\sin(i) + 1 = 2 p_i + 1",              # a family defined elsewhere
])
def test_what_is_not_an_elementary_identity_is_never_called_false(latex):
    assert _false(latex) == []


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(1, 4))
def test_a_true_polynomial_identity_is_never_false(a, b, n):
    """(x + a)(x + b)^n written expanded is the same polynomial: never a false step."""
    import sympy as sp

    x = sp.Symbol("x")
    expanded = sp.latex(sp.expand((x + a) * (x + b) ** n))
    factored = sp.latex((x + a) * (x + b) ** n)
    assert _false(f"{factored} = {expanded} = {expanded}") == []


def test_a_step_with_norms_and_inner_products_is_checked_with_vectors():
    """−½‖q − k‖² = qᵀk − ½‖k‖² − ½‖q‖² holds for vectors; with the cross term's sign
    flipped it does not; a product of two vectors is not evaluated."""
    right = (r"a(\mathbf{q}, \mathbf{k}) = -\frac{1}{2} \|\mathbf{q} - \mathbf{k}\|^2 = "
             r"\mathbf{q}^\top \mathbf{k} - \frac{1}{2} \|\mathbf{k}\|^2 - \frac{1}{2} \|\mathbf{q}\|^2")
    assert _false(right) == []
    assert _false(right.replace(r"= \mathbf{q}^\top", r"= -\mathbf{q}^\top")) == [1]
    assert _false(r"y = \|\mathbf{q}\|^2 = \mathbf{q} \mathbf{q}") == []


def test_a_false_step_is_reported_where_both_of_its_members_start(tmp_path):
    """A wrong member of an aligned chain makes the step before it false: the step is
    reported on the lines where its two members start, so the wrong row is among them."""
    import json

    from typer.testing import CliRunner

    from conftest import CHECK_APP

    text = "\n".join([
        "# Sums", "", "$$", r"\begin{aligned}",
        r"\sin(a + b) &= \sin(a)\cos(b) + \cos(a)\sin(b) \\",
        r"&= \cos(b)\sin(a) + \sin(b)\cos(a)", r"\end{aligned}", "$$", ""])
    path = tmp_path / "doc.md"
    for body, lines in ((text, []), (text.replace(r"&= \cos(b)\sin(a)", r"&= \cos(b)\cos(a)"),
                                     [5, 6])):
        path.write_text(body, encoding="utf-8")
        run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
        assert [f["line"] for f in json.loads(run.stdout)["findings"]
                if f["status"] == "contradicts"] == lines


EXPANDED = (r"s = (\mathbf{u} + \mathbf{p}_i)\mathbf{A} ((\mathbf{v} + \mathbf{p}_j)\mathbf{B})^\top"
            r" = \mathbf{u}\mathbf{A}\mathbf{B}^\top\mathbf{v}^\top + \mathbf{u}\mathbf{A}\mathbf{B}^\top"
            r"\mathbf{p}_j^\top + \mathbf{p}_i\mathbf{A}\mathbf{B}^\top\mathbf{v}^\top"
            r" + \mathbf{p}_i\mathbf{A}\mathbf{B}^\top\mathbf{p}_j^\top")


def test_an_expansion_of_vectors_and_matrices_is_checked_in_their_order():
    """Row vectors and square matrices, multiplied in the printed order: the four terms of
    the expansion hold; one with p_i for p_j, on either side, does not."""
    assert _false(EXPANDED) == []
    assert _false(EXPANDED.replace(r"\mathbf{B}^\top\mathbf{p}_j^\top + \mathbf{p}_i",
                                   r"\mathbf{B}^\top\mathbf{p}_i^\top + \mathbf{p}_i", 1)) == [1]
    assert _false(EXPANDED.replace(r"(\mathbf{v} + \mathbf{p}_j)", r"(\mathbf{v} + \mathbf{p}_i)")) \
        == [1]
    assert _false(EXPANDED.replace(r"\mathbf{u}\mathbf{A}\mathbf{B}^\top\mathbf{v}^\top",
                                   r"\mathbf{A}\mathbf{u}\mathbf{B}^\top\mathbf{v}^\top", 1)) == []
    # (a product that does not fit is not evaluated: nothing is said)


def test_a_vector_defined_elsewhere_is_not_a_step():
    """q k^T = (x + p)W…: q and k are other families, defined elsewhere: not judged."""
    assert _false(r"a = \mathbf{q}\mathbf{k}^\top = (\mathbf{x} + \mathbf{p})\mathbf{W}"
                  r"\mathbf{x}^\top") == []
