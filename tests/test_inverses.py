"""A map and its inverse printed one after the other, held to each other.

The documents are written for these tests: an additive coupling layer and its inverse, the
inverse typed with a Unicode minus sign as web pages often do. A sign flipped in the inverse
is found on its line and on the map's; formulas that are not a map and its inverse are never judged.
"""

from __future__ import annotations

import textwrap

import pytest

from tmath.gate.document import parse_as
from tmath.gate.inverses import failed_inverses, judged

COUPLING = textwrap.dedent("""
    # A coupling layer

    The layer splits its input in two halves and computes

    $$
    z_1 = u_1, \\quad z_2 = u_2 + G(u_1) \\cdot 3
    $$

    which is undone by

    $$
    u_1 = z_1, \\quad u_2 = z_2 \u2212 3 G(z_1)
    $$
    """).lstrip()


def _found(text: str) -> list[tuple[int, str]]:
    document = parse_as(".md", text, "doc.md")
    return [(f.line, f.detail) for failed in failed_inverses(document)
            for f in judged(document, failed)]


def test_an_inverse_that_undoes_its_map_has_no_finding():
    assert _found(COUPLING) == []


def test_a_flipped_sign_in_the_inverse_is_found_on_its_line():
    broken = COUPLING.replace("z_2 \u2212 3 G(z_1)", "z_2 + 3 G(z_1)")
    assert broken != COUPLING
    found = _found(broken)
    assert [line for line, _ in found] == [12, 6]
    assert found[0][1].startswith("u_2 = ") and "does not undo the map on line 6" in found[0][1]


def test_a_misprint_in_the_map_is_found_on_the_map_too():
    """Which of the two is wrong is not known: the map's row is reported as well, so a map
    with the wrong argument (G(u_2) for G(u_1)) is found where it is."""
    broken = COUPLING.replace("u_2 + G(u_1)", "u_2 + G(u_2)")
    assert broken != COUPLING
    found = _found(broken)
    assert 6 in [line for line, _ in found]
    assert any("either may be the misprint" in detail for _, detail in found)


@pytest.mark.parametrize("first, second", [
    ("h = W x", "h = \\max(0, h)"),           # a name set again: no inverse
    ("y = 2 x", "z = y + 1"),                  # defines something new
    ("y = a x + b", "x = (y - b) / a"),       # a true inverse: nothing to say
])
def test_formulas_that_are_not_a_wrong_inverse_are_not_reported(first, second):
    assert _found(f"# T\n\n$$\n{first}\n$$\n\nthen\n\n$$\n{second}\n$$\n") == []


def test_a_minus_sign_typed_as_one_character_is_read():
    from tmath.latex import read

    assert read("a \u2212 b").expressions == read("a - b").expressions
