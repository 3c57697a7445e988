"""A vetted rule for multiple sums, which :data:`tmath.engine.rules.FACTOR_OUT` leaves alone.

SymPy writes Σ_c Σ_j f as one ``Sum(f, (j, ...), (c, ...))`` with the inner index first, and
it merges a sum of a sum into that form by itself. :data:`FACTOR_OUT_OF_INNER` takes the
factors of ``f`` that do not involve the inner index out of the inner sum only:
Σ_c Σ_j g_c·h_{j,c} = Σ_c g_c·Σ_j h_{j,c}. That holds for any ranges (the inner range may even
depend on c), and each application is validated on random instances.
"""

from __future__ import annotations

import sympy as sp

from tmath.engine.rules import library_rule
from tmath.i18n.markers import N_


def _pull(node: sp.Sum) -> sp.Basic:
    if len(node.limits) < 2:
        return node
    inner, outer = node.limits[0], node.limits[1:]
    factors = sp.Mul.make_args(sp.expand_mul(node.function))
    if len(sp.Add.make_args(sp.expand_mul(node.function))) > 1:
        return node
    free = [f for f in factors if not f.has(inner[0])]
    if not free:
        return node
    bound = [f for f in factors if f.has(inner[0])]
    return sp.Sum(sp.Mul(*free) * sp.Sum(sp.Mul(*bound), inner), *outer)


FACTOR_OUT_OF_INNER = library_rule(
    N_("a factor free of the inner index comes out of the inner sum"),
    lambda expr: expr.replace(lambda e: isinstance(e, sp.Sum) and len(e.limits) > 1, _pull))
