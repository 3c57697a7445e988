"""Recognition of what a document derives in steps and defines by cases.

* A chain ``a = b = c = d`` says ``a = d`` as well (equality is transitive): a derivation
  that turns a pair of encodings, multiplied by a matrix, into the shifted pair is judged by
  its ends against the claim it derives, so a wrong sign inside the matrix is found on the
  matrix's line, while its correct steps are not errors.
* A matrix inside an ``aligned`` row keeps its columns: only the row's own ``&`` are
  alignment marks.
* A function defined by cases on what its argument is (``\text{if } n = 2m``) says one
  relation per case, ``f(t, 2m) = …``, each judged against the claims; a case stated any
  other way reads nothing new. A primed name (``m'``) that nothing applies is a name.
* A matrix a claim names (pe-shift-is-rotation's ``M_{k,i}``) is compared with a document's
  definition of it under the document's names, a period between factors read as a product.

Every document here is written for these tests.
"""

from __future__ import annotations

import textwrap

import pytest

from test_recognition import library, problems, recognise   # noqa: F401 (the fixture)

pytestmark = pytest.mark.xdist_group("recognition")   # one worker verifies the claims once

TURN = textwrap.dedent(r"""
    # Moving along the sequence

    Let $\theta_m$ be the frequency of the pair $m$ and $s$ a fixed offset. The encoding of a
    position $t + s$ is obtained from that of $t$ by one matrix:

    $$\begin{aligned}
    \begin{bmatrix} \cos(s \theta_m) & \sin(s \theta_m) \\ -\sin(s \theta_m) & \cos(s \theta_m) \end{bmatrix}
    \begin{bmatrix} e_{t, 2m} \\ e_{t, 2m+1} \end{bmatrix}
    &= \begin{bmatrix} \sin(t \theta_m) \cos(s \theta_m) + \cos(t \theta_m) \sin(s \theta_m) \\ \cos(t \theta_m) \cos(s \theta_m) - \sin(t \theta_m) \sin(s \theta_m) \end{bmatrix} \\
    &= \begin{bmatrix} \sin((t + s) \theta_m) \\ \cos((t + s) \theta_m) \end{bmatrix} \\
    &= \begin{bmatrix} e_{t+s, 2m} \\ e_{t+s, 2m+1} \end{bmatrix}
    \end{aligned}$$

    The matrix never mentions $t$.
    """).lstrip()


def test_a_matrix_in_an_aligned_row_keeps_its_columns():
    from tmath.latex import read

    reading = read(r"\begin{aligned} \begin{bmatrix} a & b \\ c & d \end{bmatrix}"
                   r" \begin{bmatrix} x \\ y \end{bmatrix} &= \begin{bmatrix} u \\ v"
                   r" \end{bmatrix} \end{aligned}")
    assert reading.parsed, reading.reason
    assert [r.lhs.shape for r in reading.relations] == [(2, 1)]
    assert str(reading.relations[0].lhs[0]) == "a*x + b*y"


def test_a_chain_says_its_first_member_equals_its_last():
    from tmath.meaning.recognise import chains_of, relations_of

    read = relations_of(r"a = b + c = c + b = d, \quad x = y")
    chains = chains_of(read)
    assert [(c.first, c.last, c.ends.text) for c in chains] == [(0, 2, "a = d")]
    assert chains_of(relations_of(r"a = b \quad c = d")) == []   # not linked: no chain
    assert chains_of(relations_of(r"a \le b = c")) == []   # an inequality is not an equation


def test_a_derivation_whose_ends_are_a_claims_relation_is_recognised(library):
    found = recognise(TURN, library)
    assert not problems(found), [f.detail for f in problems(found)]
    assert "pe-shift-is-rotation" in found.claims
    assert not found.mapping   # the renaming holds for that formula alone


TURN_MATRIX = (r"\begin{bmatrix} \cos(s \theta_m) & \sin(s \theta_m) \\ -\sin(s \theta_m) & "
               r"\cos(s \theta_m) \end{bmatrix}")
WRONG_MATRICES = {
    "a sign flipped": TURN_MATRIX.replace(r"& \sin", r"& -\sin"),
    "transposed": r"\begin{bmatrix} \cos(s \theta_m) & -\sin(s \theta_m) \\ \sin(s \theta_m) & "
                  r"\cos(s \theta_m) \end{bmatrix}",
    "the absolute angle": TURN_MATRIX.replace("s \\theta", "t \\theta"),
}


@pytest.mark.parametrize("change", sorted(WRONG_MATRICES))
def test_a_wrong_matrix_is_found_on_the_matrix_line(library, change):
    assert TURN.count(TURN_MATRIX) == 1 and WRONG_MATRICES[change] != TURN_MATRIX
    broken = TURN.replace(TURN_MATRIX, WRONG_MATRICES[change])
    line = TURN[:TURN.index(TURN_MATRIX)].count("\n") + 1
    wrong = problems(recognise(broken, library))
    assert [(f.line, f.status, f.claim) for f in wrong] == [
        (line, "contradicts", "pe-shift-is-rotation")], [f.detail for f in wrong]


def test_a_chain_whose_link_is_recognised_is_judged_by_its_links(library):
    """Attention written out and then abbreviated: the first step is the claim; the ends
    (Attention = AV, a name the claims do not know) add nothing and change nothing."""
    text = ("# A\n\n$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}"
            "{\\sqrt{d_k}}\\right) V = A V$$\n")
    found = recognise(text, library)
    assert found.claims == ("attention-temperature",) and not problems(found)


WAVES = textwrap.dedent(r"""
    # Encoding by cases

    For a position $t$ and a coordinate $n$ of a vector of width $D$,

    $$
    \mathrm{PE}(t, n) =
    \begin{cases}
    \sin\left(t / 10000^{2m/D}\right) & \text{if } n = 2m \\
    \cos\left(t / 10000^{2m/D}\right) & \text{if } n = 2m + 1
    \end{cases}
    $$
    """).lstrip()


def test_a_primed_name_is_a_name_and_a_primed_function_is_still_not_read():
    from tmath.latex import read

    reading = read(r"x = 2m' + m")
    assert reading.parsed and {str(s) for s in reading.relations[0].rhs.free_symbols} == {
        "m", "m'"}
    assert not read(r"f'(x) = 2x").parsed


def test_cases_on_an_argument_are_one_relation_per_case():
    from tmath.meaning.recognise import relations_of

    read = relations_of(r"g(t, n) = \begin{cases} t^n & \text{if } n = 2m \\ 0 & "
                        r"\text{if } n = 2m + 1 \end{cases}")
    assert [r.text for r in read] == ["g(t, 2*m) = t**(2*m)", "g(t, 2*m + 1) = 0"]


@pytest.mark.parametrize("condition", [r"\text{otherwise}", r"\text{if } n > 2m",
                                       r"\text{if } t = 2m"])
def test_cases_stated_otherwise_read_nothing_new(condition):
    """Otherwise, an inequality, or a condition on a name that is not the argument defined
    by that case: the relation stays as written, one Piecewise."""
    from tmath.meaning.recognise import relations_of

    read = relations_of(r"g(n) = \begin{cases} 1 & \text{if } n = 2m \\ 0 & " + condition
                        + r" \end{cases}")
    assert len(read) == 1 and type(read[0].rhs).__name__ == "Piecewise"


def test_a_definition_by_cases_is_recognised(library):
    found = recognise(WAVES, library)
    assert not problems(found), [f.detail for f in problems(found)]
    assert found.claims == ("sinusoidal-frequency-period",)


def test_a_wrong_exponent_in_one_case_contradicts_the_claim(library):
    broken = WAVES.replace(r"\sin\left(t / 10000^{2m/D}\right)", r"\sin\left(t / 10000^{m/D}\right)")
    assert broken != WAVES
    wrong = problems(recognise(broken, library))
    assert [(f.status, f.claim) for f in wrong] == [("contradicts", "sinusoidal-frequency-period")]
    assert "2*m" in wrong[0].detail.split("this formula reads")[1]   # the case, as read
    assert wrong[0].line == WAVES[:WAVES.index(r"\sin\left(t")].count("\n") + 1   # its row


def test_cases_on_a_condition_of_another_kind_are_not_judged_by_case(library):
    """The same definition with its cases told apart by parity in words: nothing is read as
    a case, so nothing is recognised, and the wrong exponent is not called an error either."""
    worded = WAVES.replace(r"\text{if } n = 2m + 1", r"\text{if } n \text{ is odd}") \
        .replace(r"\text{if } n = 2m", r"\text{if } n \text{ is even}")
    assert worded.count("is odd") == 1 and worded.count("is even") == 1
    assert not recognise(worded, library).claims
    broken = worded.replace("{2m/D}", "{m/D}", 1)
    assert not problems(recognise(broken, library))


SHIFT = textwrap.dedent(r"""
    # The shift matrix

    For the frequency $\omega_k = 1/10000^{2k/d}$ and an offset $\phi$, the pair moves by

    $$M_{\phi,k} = \begin{bmatrix} \cos(\omega_k.\phi) & \sin(\omega_k.\phi) \\ -\sin(\omega_k.\phi) & \cos(\omega_k.\phi) \end{bmatrix}$$

    The same idea turns a query by its own angle in RoPE, a different matrix:

    $$R_{\Theta,m} = \begin{bmatrix} \cos m\theta_i & -\sin m\theta_i \\ \sin m\theta_i & \cos m\theta_i \end{bmatrix}$$
    """).lstrip()


def test_a_period_between_factors_is_a_product():
    from tmath.meaning.recognise import relations_of

    [read] = relations_of(r"y = \sin({\omega_k} . t) + a.b")
    assert str(read.rhs) == "a*b + sin(omega_k*t)"
    assert [str(r.rhs) for r in relations_of("x = y.")] == ["y"]   # punctuation, not a product
    [read] = relations_of(r"s = \mathbf{q} . \mathbf{k}")   # as \cdot: of two vectors, inner
    assert str(read.rhs) == "Inner(q, k)"


def _judged_by_cli(tmp_path, text: str) -> list[tuple[str, str, int]]:
    """As a user runs it: the claims' statements and named matrices are in the library."""
    import json

    from typer.testing import CliRunner

    from conftest import CHECK_APP

    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return [(f["status"], f["claim"], f["line"]) for f in json.loads(run.stdout)["findings"]]


def test_a_matrix_the_claim_names_is_compared_with_the_documents_definition(tmp_path, library):
    """The document's M_{φ,k} is the claim's M_{k,i} under its own names: recognised; with
    the sign of one entry flipped it contradicts the claim on its line. RoPE's rotation, a
    matrix under other names, is neither."""
    assert _judged_by_cli(tmp_path, SHIFT) == [
        ("recognised", "sinusoidal-frequency-period", 3), ("recognised", "pe-shift-is-rotation", 5)]
    broken = SHIFT.replace(r"\\ -\sin(\omega_k.\phi)", r"\\ \sin(\omega_k.\phi)")
    assert broken != SHIFT
    assert _judged_by_cli(tmp_path, broken) == [
        ("recognised", "sinusoidal-frequency-period", 3), ("contradicts", "pe-shift-is-rotation", 5)]


ROTATION_AT = textwrap.dedent(r"""
    # Rotating pairs

    Each pair of coordinates at position $p$ is turned by its own matrix:

    $$\mathbf{M_i} = \begin{bmatrix} \cos(\omega_i p) & \sin(\omega_i p) \\ -\sin(\omega_i p) & \cos(\omega_i p) \end{bmatrix}$$

    and a shift by $k$ positions is the matrix

    $$\mathbf{M_k} = \begin{bmatrix} \cos(\omega_i k) & \sin(\omega_i k) \\ -\sin(\omega_i k) & \cos(\omega_i k) \end{bmatrix}$$
    """).lstrip()


def test_a_family_member_may_leave_an_index_implicit(tmp_path, library):
    """M_i (p free) and M_k (i free in ω_i) are the claim's M_{k,i} with the index their body
    leaves free implicit: both are recognised, as the same matrix under other names (it is
    no contradiction that M_i is indexed by i alone); with a sign flipped, M_k contradicts the
    claim on its line, and M_i's transpose is no finding (its p is not the claim's k)."""
    assert _judged_by_cli(tmp_path, ROTATION_AT) == [
        ("recognised", "pe-shift-is-rotation", 5), ("recognised", "pe-shift-is-rotation", 9)]
    broken = ROTATION_AT.replace(r"\\ -\sin(\omega_i k)", r"\\ \sin(\omega_i k)")
    assert broken != ROTATION_AT
    assert _judged_by_cli(tmp_path, broken) == [
        ("recognised", "pe-shift-is-rotation", 5), ("contradicts", "pe-shift-is-rotation", 9)]


def test_a_false_step_inside_a_derivation_is_found_on_its_row(tmp_path, library):
    """The chain's ends are the claim's relation, so it is recognised; but its second step
    turns sin((t+s)θ) into sin((t−s)θ), which no value makes true: that row is reported
    (an identity in sines and cosines needs no claim). The right derivation has no finding
    but the recognised one."""
    broken = TURN.replace(r"&= \begin{bmatrix} \sin((t + s) \theta_m)",
                          r"&= \begin{bmatrix} \sin((t - s) \theta_m)")
    assert broken != TURN
    found = _judged_by_cli(tmp_path, broken)
    assert ("contradicts", None, 10) in found, found
    assert [f for f in _judged_by_cli(tmp_path, TURN) if f[0] != "recognised"] == []


SHIFT_ROWS = textwrap.dedent(r"""
    # The shift as a matrix

    With $\omega_k$ the frequency of pair $k$, the shift by $\phi$ is

    $$
    M_{\phi,k} = \begin{bmatrix}
        \cos(\omega_k . \phi) & \sin(\omega_k . \phi) \\
        - \sin(\omega_k . \phi) & \cos(\omega_k . \phi)
    \end{bmatrix}
    $$
    """).lstrip()


def test_a_wrong_entry_of_a_matrix_printed_row_by_row_is_found_on_its_row(tmp_path, library):
    """A matrix printed one row per line: the finding is on the line of the row whose entry
    differs from the claim's, not on the line the formula starts."""
    assert _judged_by_cli(tmp_path, SHIFT_ROWS) == [("recognised", "pe-shift-is-rotation", 6)]
    broken = SHIFT_ROWS.replace(r"    - \sin(\omega_k . \phi) &", r"    \sin(\omega_k . \phi) &")
    assert broken != SHIFT_ROWS
    assert _judged_by_cli(tmp_path, broken) == [("contradicts", "pe-shift-is-rotation", 8)]
    first = SHIFT_ROWS.replace(r"\cos(\omega_k . \phi) & \sin", r"\cos(\omega_k . \phi) & -\sin")
    assert _judged_by_cli(tmp_path, first) == [("contradicts", "pe-shift-is-rotation", 7)]
