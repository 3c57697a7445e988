"""Block-diagonal products held to the vector they multiply.

The documents are written for these tests: a rotation of d/2 pairs printed as blocks
R_1 … R_{d/2} of 2×2 matrices times a vector x_1 … x_d, and broken copies."""

from __future__ import annotations

import pytest

from tmath.gate.block_diagonals import judged, uneven_products
from tmath.gate.document import parse_as

_DOC = r"""# Rotations

Each pair turns by its own angle:

$$
\mathbf{R_j} = \begin{bmatrix} \cos(\theta_j t) & -\sin(\theta_j t) \\ \sin(\theta_j t) & \cos(\theta_j t) \end{bmatrix}
$$

The whole vector turns at once:

$$
f(\mathbf{x}, t) = \begin{pmatrix} \mathbf{R_1} & & & \\ & \mathbf{R_2} & & \\ & & \ddots & \\ & & & \mathbf{R_{LAST}} \end{pmatrix} \begin{pmatrix} x_1 \\ x_2 \\ \vdots \\ x_{LENGTH} \end{pmatrix}
$$
"""


def _statuses(last: str, length: str, text: str = _DOC) -> list[tuple[int, str]]:
    document = parse_as(".md", text.replace("LAST", last).replace("LENGTH", length), "t.md")
    return [(f.line, f.status) for f in map(lambda u: judged(document, u),
                                             uneven_products(document))]


def test_blocks_that_cover_the_vector_are_not_reported():
    assert _statuses("n/2", "n") == []


@pytest.mark.parametrize("last, length", [("n", "n"), ("n/2", "2n"), ("n/4", "n")])
def test_blocks_that_do_not_cover_the_vector_contradict_on_the_last_blocks_line(last, length):
    assert _statuses(last, length) == [(12, "contradicts")]


def test_a_number_or_an_undefined_block_is_not_judged():
    assert _statuses("4", "n") == []
    assert _statuses("n", "n", _DOC.replace(r"\mathbf{R_j} =", r"\mathbf{S_j} =")) == []


def test_a_matrix_with_entries_off_the_diagonal_is_not_judged():
    text = _DOC.replace(r"\mathbf{R_1} & & & \\", r"\mathbf{R_1} & A & & \\")
    assert _statuses("n", "n", text) == []
