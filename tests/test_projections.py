"""Projections labelled after their inputs, held to their own pattern.

The formulas are written for these tests: multi-head attention whose every input has its own
labelled projection. One argument that takes another's projection is found on its row; inputs
that share a name, or labels that follow no input, are never judged.
"""

from __future__ import annotations

import pytest

from tmath.gate.document import parse_as
from tmath.gate.projections import judged, odd_projections

HEADS = r"""# Heads

$$
\begin{aligned}
\mathrm{MultiHead}(A, B, C) &= \mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_h) W^O \\
% an older spelling: \mathrm{head}_i = \mathrm{Attention}(AW_A, BW_B, CW_C) \\
\mathrm{head}_i &= \mathrm{Attention}(A W^A_i, B W^B_i, C W^C_i)
\end{aligned}
$$
"""


def _found(text: str) -> list[tuple[int, str]]:
    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.detail) for f in map(lambda o: judged(document, o),
                                            odd_projections(document))]


def test_inputs_with_their_own_projections_are_not_reported():
    assert _found(HEADS) == []


def test_an_input_with_another_inputs_projection_is_found_on_its_row():
    """The commented-out row is not a row: the finding is on the row of head_i."""
    found = _found(HEADS.replace("B W^B_i", "B W^A_i"))
    assert [line for line, _ in found] == [7]
    assert "B·W^A_i uses the one labelled A, not B" in found[0][1]


@pytest.mark.parametrize("formula", [
    r"h = \mathrm{Attention}(X W_Q, X W_Q, X W_V)",        # one input, shared projections
    r"h = \mathrm{Attention}(A W^P_i, B W^R_i, C W^S_i)",  # labels that follow no input
    r"h = \mathrm{Attention}(A W^A_i, B W^C_i, C W^B_i)",  # two odd: no pattern to hold to
])
def test_what_follows_no_labelling_is_not_judged(formula):
    assert _found(f"# T\n\n$${formula}$$\n") == []


def test_a_tex_comment_inside_a_formula_is_skipped_by_the_reader():
    from tmath.latex import read

    assert read("a = b % a note\n + c").relations == read("a = b + c").relations
