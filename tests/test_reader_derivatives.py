"""The reader on 1-D derivative notation. README promises that what it cannot read faithfully
is ``unparsed`` with the reason, never guessed; ``\\frac{d}{dx} f`` and ``f'`` are unparsed
so. ``\\frac{d\\sigma(x)}{dx}`` is not: it is read as the product d·σ(x)/dx of symbols d and
dx, which the trial found (its formula was then ``not-compared`` instead of ``unparsed``).
``d`` followed by a Greek letter over ``dx`` is now Leibniz notation too: unparsed, with the
reason."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath.latex import read


def read_faithfully(latex: str) -> bool:
    """Unparsed (with a reason), or read with a derivative: never a product with d and dx."""
    reading = read(latex)
    if not reading.parsed:
        return bool(reading.reason)
    sides = [side for r in reading.relations for side in (r.lhs, r.rhs)]
    names = {str(s) for side in sides for s in side.free_symbols}
    return not ({"d", "dx"} <= names) and any(side.has(sp.Derivative) for side in sides)


@pytest.mark.parametrize("latex", [
    r"\frac{d}{dx} \sigma(x) = \sigma(x) (1 - \sigma(x))",
    r"\sigma'(x) = \sigma(x) (1 - \sigma(x))",
])
def test_leibniz_and_prime_notation_are_unparsed_with_the_reason(latex):
    reading = read(latex)
    assert not reading.parsed and reading.reason
    assert read_faithfully(latex)


def test_d_f_over_dx_is_not_read_as_a_product():
    assert read_faithfully(r"\frac{d\sigma(x)}{dx} = \sigma(x)(1 - \sigma(x))")
