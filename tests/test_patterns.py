"""Vectors printed with ``\\vdots``, held to the pattern their shown rows follow.

The documents are written for these tests: an encoding printed as pairs of a sine and a
cosine, and a rotation's companion vector with alternating signs. One block changed (a
swapped pair, a lost minus) is found on its line; vectors that follow their pattern, or have
none to follow, are never judged.
"""

from __future__ import annotations

import textwrap

import pytest

from tmath.gate.document import parse_as
from tmath.gate.patterns import broken_blocks, judged

PAIRS = textwrap.dedent(r"""
    # Encoding as a column

    $$
    \mathbf{e}_t = \begin{bmatrix}
    \sin(\nu_1 t) \\
    \cos(\nu_1 t) \\
    \\
    \sin(\nu_2 t) \\
    \cos(\nu_2 t) \\
    \\
    \vdots \\
    \\
    \sin(\nu_{m} t) \\
    \cos(\nu_{m} t)
    \end{bmatrix}
    $$

    $$
    \mathbf{s} = \begin{pmatrix} -x_2 \\ x_1 \\ -x_4 \\ x_3 \\ -x_6 \\ x_5 \\ \vdots \\ -x_n \\ x_{n-1} \end{pmatrix}
    $$
    """).lstrip()


def _found(text: str) -> list[tuple[int, str]]:
    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.detail) for f in map(lambda b: judged(document, b), broken_blocks(document))]


def test_vectors_that_follow_their_pattern_have_no_finding():
    assert _found(PAIRS) == []


def test_a_swapped_pair_is_found_on_its_first_row():
    broken = PAIRS.replace("\\sin(\\nu_2 t) \\\\\n\\cos(\\nu_2 t)", "\\cos(\\nu_2 t) \\\\\n\\sin(\\nu_2 t)")
    assert broken != PAIRS
    found = _found(broken)
    assert [line for line, _ in found] == [8]
    assert "gives \\sin(\\nu_2t); \\cos(\\nu_2t)" in found[0][1]


def test_a_block_is_reported_on_the_row_that_breaks_the_pattern():
    broken = PAIRS.replace(r"\cos(\nu_2 t)", r"\sin(\nu_2 t)")   # the pair's second row
    assert broken != PAIRS
    assert [line for line, _ in _found(broken)] == [9]


def test_a_lost_sign_is_found_on_its_line():
    broken = PAIRS.replace(r"-x_4 \\ x_3", r"x_4 \\ x_3")
    assert broken != PAIRS
    assert [line for line, _ in _found(broken)] == [19]   # the vector is on one line


@pytest.mark.parametrize("vector", [
    r"\begin{bmatrix} 1 \\ 0 \\ 0 \\ \vdots \\ 0 \end{bmatrix}",              # no index
    r"\begin{bmatrix} a_{11} & a_{12} \\ \vdots & \vdots \\ a_{n1} & a_{n2} \end{bmatrix}",
    r"\begin{bmatrix} x_1 \\ x_2 \\ \vdots \\ x_n \end{bmatrix}",              # too few blocks
    r"\begin{bmatrix} y_1 \\ y_2 \\ y_5 \\ \vdots \\ y_n \end{bmatrix}",       # steps: not judged
])
def test_vectors_without_a_pattern_to_break_are_not_judged(vector):
    assert _found(f"# V\n\n$$\n{vector}\n$$\n") == []


def test_a_subscript_is_read_never_run(tmp_path):
    """A subscript that is Python code is read by the LaTeX reader (and refused), never run."""
    marker = tmp_path / "ran"
    vector = (r"\begin{bmatrix} x_{__import__('os').system('touch " + str(marker) + r"')} \\ "
              r"x_1 \\ x_2 \\ \vdots \\ x_n \end{bmatrix}")
    assert _found(f"# V\n\n$$\n{vector}\n$$\n") == []
    assert not marker.exists()
