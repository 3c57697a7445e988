"""Recognition of what a document derives in steps and defines by cases.

* A chain ``a = b = c = d`` says ``a = d`` as well (equality is transitive): a derivation
  that turns a pair of encodings, multiplied by a matrix, into the shifted pair is judged by
  its ends against the claim it derives, so a wrong sign inside the matrix is found on the
  matrix's line, while its correct steps are not errors.
* A matrix inside an ``aligned`` row keeps its columns: only the row's own ``&`` are
  alignment marks.

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
TURN_ENTRY = r"\begin{bmatrix} \cos(s \theta_m) & \sin(s \theta_m)"


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


def test_a_sign_flipped_in_the_matrix_is_found_on_the_matrix_line(library):
    assert TURN.count(TURN_ENTRY) == 1
    broken = TURN.replace(TURN_ENTRY, TURN_ENTRY.replace(r"& \sin", r"& -\sin"))
    line = TURN[:TURN.index(TURN_ENTRY)].count("\n") + 1
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
