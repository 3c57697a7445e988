"""Values a derivation solves for, held to the equations they solve.

The documents are written for these tests: a phase shift a·cos x + b·sin x = cos(x − φ),
solved for a and b. A wrong printed value is found on its row; a wrong equation among right
ones is found on its own line; equations that are not identities in some name, or values
that use names the equation does not, are never judged.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from tmath.gate.solutions import equation, stated_values, unsolved
from tmath.meaning.recognise import relations_of

SHIFT = textwrap.dedent(r"""
    # A phase shift

    We look for coefficients a and b with

    $$
    a \cos(x) + b \sin(x) = \cos(x - \varphi)
    $$

    for every x. Expanding the right side gives

    $$
    a \cos(x) + b \sin(x) = \cos(x)\cos(\varphi) + \sin(x)\sin(\varphi)
    $$

    and matching the terms in cos x and sin x:

    $$
    \begin{align}
    a &= \cos(\varphi) & b &= \sin(\varphi)
    \end{align}
    $$
    """).lstrip()


def _errors(tmp_path, text: str) -> list[tuple[int, str]]:
    from conftest import CHECK_APP

    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    return [(f["line"], f["detail"]) for f in json.loads(run.stdout)["findings"]
            if f["status"] == "contradicts"]


def test_the_right_derivation_has_no_finding(tmp_path):
    assert _errors(tmp_path, SHIFT) == []


def test_a_wrong_value_is_found_on_its_row(tmp_path):
    broken = SHIFT.replace(r"b &= \sin(\varphi)", r"b &= -\sin(\varphi)")
    assert broken != SHIFT
    found = _errors(tmp_path, broken)
    assert [line for line, _ in found] == [19], found
    assert "b does not solve the equations on line 6, line 12" in found[0][1]


def test_a_wrong_expansion_among_right_ones_is_found_on_its_line(tmp_path):
    broken = SHIFT.replace(r"+ \sin(x)\sin(\varphi)", r"- \sin(x)\sin(\varphi)")
    assert broken != SHIFT
    found = _errors(tmp_path, broken)
    assert [line for line, _ in found] == [12], found
    assert "which solve the equation on line 6" in found[0][1]


ROTATION = textwrap.dedent(r"""
    # A rotation found entry by entry

    Find $a, b, c, s$ such that, for every x,

    $$
    \begin{bmatrix}
    a & b \\
    c & s
    \end{bmatrix} \begin{bmatrix}
    \cos(x) \\
    \sin(x)
    \end{bmatrix} = \begin{bmatrix}
    \cos(x + \varphi) \\
    \sin(x + \varphi)
    \end{bmatrix}
    $$

    The sum rules expand the right side:

    $$
    \begin{bmatrix}
    a & b \\
    c & s
    \end{bmatrix} \begin{bmatrix}
    \cos(x) \\
    \sin(x)
    \end{bmatrix} = \begin{bmatrix}
    \cos(x)\cos(\varphi) - \sin(x)\sin(\varphi) \\
    \sin(x)\cos(\varphi) + \cos(x)\sin(\varphi)
    \end{bmatrix}
    $$

    so $$a = \cos(\varphi), \quad b = -\sin(\varphi), \quad c = \sin(\varphi), \quad s = \cos(\varphi)$$
    """).lstrip()


def test_a_wrong_row_of_a_matrix_equation_is_found_on_that_row(tmp_path):
    """The second equation repeats the first one's left side and expands its right side: the
    expansion is the step, so its one wrong row is where the finding goes."""
    assert _errors(tmp_path, ROTATION) == []
    broken = ROTATION.replace(r"\sin(x)\cos(\varphi) + \cos(x)", r"\sin(x)\cos(\varphi) - \cos(x)")
    assert broken != ROTATION
    assert [line for line, _ in _errors(tmp_path, broken)] == [29]


def _unsolved(*formulas: str) -> list:
    relations = [relations_of(f) for f in formulas]
    values = stated_values(relations[-1], len(formulas) - 1)
    equations = [e for k, rs in enumerate(relations[:-1]) for i, r in enumerate(rs)
                 for e in [equation(r, k, i)] if e]
    return unsolved(equations, values)


@pytest.mark.parametrize("formulas", [
    (r"y = m x + c", r"m = 2 \quad c = 1"),                 # a definition: y is a bare name
    (r"2 y = m x + c", r"m = \sin(t) \quad c = 1"),         # m's value uses t, not in it
    (r"m x + c = \sin(x)", r"m = 1 \quad c = 0"),           # no m, c make it hold for all x
    (r"m^2 x = 4 x", r"m = 3"),                             # not linear in m (left alone)
    (r"a + b = 3", r"a = 1 \quad b = 5"),                   # nothing else to hold for
])
def test_what_is_not_a_solved_identity_is_never_judged(formulas):
    assert _unsolved(*formulas) == []


def test_a_value_the_equation_leaves_open_is_still_held_to_it():
    """a·x + a·x = 2·b·x + t·x fixes only 2a − 2b: a = t, b = t/2 holds, a = 2t, b = t does
    not."""
    assert _unsolved(r"a x + a x = 2 b x + t x", r"a = t \quad b = t / 2") == []
    found = _unsolved(r"a x + a x = 2 b x + t x", r"a = 2 t \quad b = t")
    assert len(found) == 1 and found[0].formula == 0, found


def test_amsmath_align_pairs_its_columns_into_equations():
    pairs = relations_of(r"\begin{align} a &= \cos(t) & b &= \sin(t) \\ c &= 1 & d &= 2 \end{align}")
    assert [(str(r.lhs), str(r.rhs)) for r in pairs] == [
        ("a", "cos(t)"), ("b", "sin(t)"), ("c", "1"), ("d", "2")]
    condition = relations_of(r"\begin{aligned} f(x) &= x^2 && \text{if } x > 0 \end{aligned}")
    assert all(str(r.lhs) != "f(x)" or str(r.rhs) != "x**2" for r in condition)


def test_an_equation_no_values_solve_is_false_where_the_others_hold(tmp_path):
    """With sin x written cos x on the left of the expansion, no a and b make it hold for
    every x; the first equation holds with the printed values, so the expansion is wrong."""
    broken = SHIFT.replace(r"a \cos(x) + b \sin(x) = \cos(x)\cos", r"a \cos(x) + b \cos(x) = \cos(x)\cos")
    assert broken != SHIFT
    assert [line for line, _ in _errors(tmp_path, broken)] == [12]
