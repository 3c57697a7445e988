"""The shapes a document declares, held to the products its formulas take.

The documents are written for these tests: multi-head attention with its projections
declared, and attention over n queries and m key-value pairs. A declaration or a product
changed so that they no longer fit is found on both lines; sizes given as numbers, names the
document leaves undeclared and consistent declarations are never called wrong.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from tmath.gate.shapes import key, mismatch
from tmath.meaning.recognise import relations_of

HEADS = textwrap.dedent(r"""
    # Heads

    $$
    \begin{aligned}
    \mathrm{MultiHead}(Q, K, V) &= \mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_h) W^O \\
    \mathrm{head}_i &= \mathrm{Attention}(Q W^Q_i, K W^K_i, V W^V_i)
    \end{aligned}
    $$

    The learned maps are $W^Q_i \in \mathbb{R}^{d_{model} \times d_k}$,
    $W^K_i \in \mathbb{R}^{d_{model} \times d_k}$, $W^V_i \in \mathbb{R}^{d_{model} \times d_v}$
    and $W^O \in \mathbb{R}^{h d_v \times d_{model}}$.
    """).lstrip()

PAIRS = textwrap.dedent(r"""
    # Pairs

    Take $n$ queries and $m$ key-value pairs: $\mathbf Q\in\mathbb R^{n\times d}$,
    $\mathbf K\in\mathbb R^{m\times d}$ and $\mathbf V\in\mathbb R^{m\times v}$. Then

    $$\mathrm{softmax}\left(\frac{\mathbf Q \mathbf K^\top}{\sqrt{d}}\right) \mathbf V \in \mathbb{R}^{n\times v}.$$
    """).lstrip()


def _errors(tmp_path, text: str) -> list[int]:
    from conftest import CHECK_APP

    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return sorted({f["line"] for f in json.loads(run.stdout)["findings"]
                   if f["status"] == "contradicts" and "shape" in f["detail"]})


def test_declarations_that_fit_have_no_finding(tmp_path):
    assert _errors(tmp_path, HEADS) == []
    assert _errors(tmp_path, PAIRS) == []


@pytest.mark.parametrize("old, new, lines", [
    (r"W^K_i \in \mathbb{R}^{d_{model} \times d_k}", r"W^K_i \in \mathbb{R}^{d_k \times d_{model}}",
     [6, 10, 11]),                        # keys of another width than the queries
    (r"W^O \in \mathbb{R}^{h d_v", r"W^O \in \mathbb{R}^{d_v", [5, 11, 12]),   # h heads side by side
])
def test_a_declaration_that_does_not_fit_is_found_with_the_product(tmp_path, old, new, lines):
    assert old in HEADS
    assert _errors(tmp_path, HEADS.replace(old, new)) == lines


@pytest.mark.parametrize("old, new", [
    (r"\mathbf V\in\mathbb R^{m\times v}", r"\mathbf V\in\mathbb R^{n\times v}"),   # V's rows
    (r"\mathbb{R}^{n\times v}.", r"\mathbb{R}^{m\times v}."),                      # stated shape
    (r"\mathbf K^\top", r"\mathbf K"),                                            # transpose
])
def test_a_product_that_does_not_fit_is_found(tmp_path, old, new):
    assert old in PAIRS
    assert 6 in _errors(tmp_path, PAIRS.replace(old, new))


LISTED = textwrap.dedent(r"""
    # Heads side by side

    $$
    \begin{aligned}
    \mathrm{MHA}(\mathbf{X}) &= [\mathrm{head}_1; \ldots; \mathrm{head}_h] \mathbf{W}^o \\
    \mathrm{head}_i &= \mathrm{Attention}(\mathbf{X}\mathbf{W}^q_i, \mathbf{X}\mathbf{W}^k_i, \mathbf{X}\mathbf{W}^v_i)
    \end{aligned}
    $$

    Each head maps with $\mathbf{W}^v_i \in \mathbb{R}^{d \times p/h}$, and then
    $\mathbf{W}^o \in \mathbb{R}^{p \times d}$ mixes the joined heads.
    """).lstrip()


def test_listed_attention_heads_times_a_matrix_are_joined_side_by_side(tmp_path):
    """``[head_1; …; head_h] W^o`` with heads defined as attention: h heads of p/h columns
    feed a p-row W^o; one of p/h rows does not fit. A list of other matrices times a matrix
    stays a batch and is not read."""
    assert _errors(tmp_path, LISTED) == []
    assert _errors(tmp_path, LISTED.replace(r"\mathbb{R}^{p \times d}", r"\mathbb{R}^{p/h \times d}")) \
        == [5, 10, 11]   # the product, and both declarations it takes its sizes from
    plain = LISTED.replace(r"\mathrm{head}_i &= \mathrm{Attention}", r"\mathrm{head}_i &= \mathrm{Mix}")
    assert _errors(tmp_path, plain.replace(r"\mathbb{R}^{p \times d}", r"\mathbb{R}^{p/h \times d}")) == []


DEFINED = textwrap.dedent(r"""
    # Projections

    | Symbol | Meaning |
    | --- | --- |
    | $$\mathbf{X} \in \mathbb{R}^{L \times d}$$ | the inputs |
    | $$\mathbf{W}^q \in \mathbb{R}^{d \times d_k}$$ | the query map |
    | $$\mathbf{W}^k \in \mathbb{R}^{d \times d_k}$$ | the key map |
    | $$\mathbf{Q} = \mathbf{X}\mathbf{W}^q$$ | the queries |
    | $$\mathbf{K} = \mathbf{X}\mathbf{W}^k \in \mathbb{R}^{L \times d_k}$$ | the keys |

    The weights are $$\mathbf{A} = \mathrm{softmax}(\mathbf{Q}\mathbf{K}^\top / \sqrt{d_k})$$.
    """).lstrip()


def test_shapes_reach_a_product_through_definitions_and_chains(tmp_path):
    """Q is X W^q (its shape from the names its definition uses, declared on other rows);
    K's chain ``K = XW^k ∈ ℝ^{L×d_k}`` declares K. Dropping the transpose is found."""
    assert _errors(tmp_path, DEFINED) == []
    broken = DEFINED.replace(r"\mathbf{K}^\top", r"\mathbf{K}")
    assert 11 in _errors(tmp_path, broken)
    chained = broken.replace(r"\mathbf{X} \in \mathbb{R}^{L \times d}", r"\mathbf{X}").replace(
        r"\mathbf{Q} = \mathbf{X}\mathbf{W}^q$$",
        r"\mathbf{Q} = \mathbf{X}\mathbf{W}^q \in \mathbb{R}^{L \times d_k}$$")
    assert 11 in _errors(tmp_path, chained)   # X undeclared: the chains alone give Q and K


BATCHES = textwrap.dedent(r"""
    # Batches

    Two batches of matrices, one per example:

    $$\mathbf{A} = [\mathbf{A}_1, \mathbf{A}_2, \ldots, \mathbf{A}_m] \in \mathbb{R}^{m \times p \times q}, \\
      \mathbf{B} = [\mathbf{B}_1, \mathbf{B}_2, \ldots, \mathbf{B}_m] \in \mathbb{R}^{m \times q \times r}.$$

    Their batched product multiplies the members pairwise:

    $$\mathrm{bmm}(\mathbf{A}, \mathbf{B}) = [\mathbf{A}_1 \mathbf{B}_1, \mathbf{A}_2 \mathbf{B}_2, \ldots, \mathbf{A}_m \mathbf{B}_m] \in \mathbb{R}^{m \times p \times r}.$$
    """).lstrip()


@pytest.mark.parametrize("old, new, lines", [
    (r"m \times p \times r}.", r"m \times p \times q}.", [6, 10]),   # the result's stated shape
    (r"m \times q \times r}.", r"m \times r \times q}.", [6, 10]),   # B's members r×q
    (r"\in \mathbb{R}^{m \times p \times q}", r"\in \mathbb{R}^{m \times q \times p}",
     [5, 10]),                                                        # A's members q×p
])
def test_a_batch_declares_its_members_and_its_product_is_held_to_them(tmp_path, old, new, lines):
    """``[A_1, …, A_m] ∈ ℝ^{m×p×q}`` declares each member p×q; the batch of products is m
    times the shape of one. The declaration's own row is reported, not the formula's first."""
    assert _errors(tmp_path, BATCHES) == []
    assert old in BATCHES
    assert _errors(tmp_path, BATCHES.replace(old, new)) == lines


def test_a_batch_is_read_only_as_a_numbered_family():
    """A bracketed list with an ellipsis is a batch; one without is still not read, and a
    batch whose members are not numbered from 1 is not judged."""
    from tmath.latex.operators import Stack
    from tmath.latex.statements import read

    assert isinstance(read(r"[X_1, X_2, \ldots, X_n]").expressions[0], Stack)
    assert read(r"[a, b, c]").status == "unparsed"
    assert _mismatch(r"[A_2 B_2, \ldots, A_m B_m] \in \mathbb{R}^{m \times p \times q}",
                     r"[A_1, \ldots, A_m] \in \mathbb{R}^{m \times p \times q}",
                     r"[B_1, \ldots, B_m] \in \mathbb{R}^{m \times q \times r}") is None


def _mismatch(formula: str, *declarations: str):
    shapes = {key(r.lhs): tuple(r.rhs.args) for d in declarations for r in relations_of(d)}
    return mismatch(relations_of(formula), shapes, {})


def test_a_number_a_name_may_stand_for_is_never_a_disagreement():
    product = r"Y = X W^\top"
    assert _mismatch(product, r"X \in \mathbb{R}^{512 \times 64}", r"W \in \mathbb{R}^{h \times d}") \
        is None
    assert _mismatch(product, r"X \in \mathbb{R}^{n \times d}") is None   # W not declared
    found = _mismatch(product, r"X \in \mathbb{R}^{n \times d}", r"W \in \mathbb{R}^{h \times k}")
    assert found is not None and {str(found.a), str(found.b)} == {"d", "k"}


def test_factors_in_an_order_sympy_chose_are_never_judged():
    """``XW`` of two names the reader takes for numbers: SymPy sorts them, so the order
    printed is lost and nothing is said."""
    assert _mismatch(r"Y = X W", r"X \in \mathbb{R}^{n \times d}",
                     r"W \in \mathbb{R}^{d \times h}") is None


def test_names_of_matrices_as_declared_and_used():
    read = relations_of(r"W^Q_i \in \mathbb{R}^{a \times b}")[0]
    assert key(read.lhs) == "W[·]**Q"
    assert key(relations_of(r"\mathrm{head}_1 = x")[0].lhs) == "head[·]"


def test_a_stored_size_is_rebuilt_without_running_it(tmp_path):
    """Sizes come back from the cache on disk as text: only names, numbers and their
    arithmetic are rebuilt; anything else is refused (and the product is not judged)."""
    import sympy as sp

    from tmath.gate.recognition import _size

    size = 2 * sp.Symbol("h") * sp.Symbol("d_v") - sp.Rational(1, 2)
    assert _size(sp.srepr(size)) == size
    marker = tmp_path / "ran"
    with pytest.raises(ValueError):
        _size(f"__import__('os').system('touch {marker}')")
    assert not marker.exists()


def test_a_superscript_after_a_bold_group_belongs_to_its_last_capital(tmp_path):
    """``\\mathbf{PQ}^\\top`` is typeset P Qᵀ, and read so: it fits P ∈ ℝ^{m×k}, Q ∈ ℝ^{n×k}
    (read as (PQ)ᵀ it would not)."""
    text = (r"# Factors" "\n\n"
            r"Take $\mathbf{P} \in \mathbb{R}^{m \times k}$ and $\mathbf{Q} \in \mathbb{R}^{n \times k}$."
            "\n\n" r"$$\hat{\mathbf{R}} = \mathbf{PQ}^\top$$" "\n")
    assert _errors(tmp_path, text) == []
    assert _errors(tmp_path, text.replace(r"\mathbf{PQ}^\top", r"\mathbf{PQ}")) == [3, 5]
