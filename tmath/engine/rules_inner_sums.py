"""A vetted rule for SymPy's merged sums: take one index's sum inside and pull out what does
not depend on it.

SymPy flattens ``Σ_i Σ_x f`` into one ``Sum`` with two limits, which
:data:`tmath.engine.rules.FACTOR_OUT` leaves alone, so ``Σ_i Σ_x δ(x, s_i)·log q_x`` cannot be
regrouped into ``Σ_x log q_x·Σ_i δ(x, s_i)`` (grouping samples by label). :func:`inner_sum`
does that step. Side condition, checked where it is applied: no summation range depends on
another summation index (then the order of the sums is free). Every application is also
validated on random small instances by :func:`tmath.engine.rules.library_rule`.
"""

from __future__ import annotations

import sympy as sp

from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_

__all__ = ["inner_sum"]


def inner_sum(index: sp.Symbol) -> Rule:
    """Σ_{x} Σ_{index} g(x)·h(index, x) = Σ_x g(x)·Σ_{index} h(index, x), in any sum with
    several limits that include ``index``: its sum becomes the innermost one, and the factors
    free of ``index`` come out of it."""

    def pull(total: sp.Sum) -> sp.Basic:
        limits = list(total.limits)
        mine = [lim for lim in limits if lim[0] == index]
        if not mine:
            return total
        indices = [lim[0] for lim in limits]
        for name, low, high in limits:
            if any(sp.sympify(b).has(other) for b in (low, high) for other in indices):
                raise SideConditionFailed(
                    f"the range of {name} ({show(low)}..{show(high)}) depends on another "
                    "summation index: the sums cannot be reordered")
        factors = sp.Mul.make_args(total.function)
        outside = sp.Mul(*[f for f in factors if not f.has(index)])
        inside = sp.Mul(*[f for f in factors if f.has(index)])
        others = [lim for lim in limits if lim[0] != index]
        return sp.Sum(outside * sp.Sum(inside, mine[0]), *others)

    def apply(expr: sp.Basic) -> sp.Basic:
        return expr.replace(lambda e: isinstance(e, sp.Sum) and len(e.limits) >= 2, pull)

    return library_rule(N_("a factor free of one summation index comes out of that index's "
                           "sum"), apply)
