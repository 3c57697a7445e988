"""A vetted rule for summation indices: an index is a bound (dummy) variable, so it may be
renamed.

SymPy treats ``Σ_i f(i)`` and ``Σ_l f(l)`` as different expressions: it neither cancels
``Σ_i e^{z_i}/Σ_l e^{z_l}`` to 1 nor, in ``simplify``, always survives being shown two sums
over different dummies (its ``sum_simplify`` can raise). Renaming the dummy of one sum makes
the two the same expression. The side condition: the new name must not occur free in the sum
(in its summand or bounds), or the renamed sum would capture it. Every application is
validated on random small instances by :func:`tmath.engine.rules.library_rule`.
"""

from __future__ import annotations

import sympy as sp

from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_

__all__ = ["rename_index"]


def rename_index(old: sp.Symbol, new: sp.Symbol) -> Rule:
    """Σ_{old=a}^{b} f(old) = Σ_{new=a}^{b} f(new), for every single sum over ``old``.

    Refused (:class:`~tmath.engine.rules.SideConditionFailed`) when no sum runs over ``old``,
    or when ``new`` occurs free in one that does.
    """

    def rename(total: sp.Sum) -> sp.Basic:
        (index, low, high), = total.limits
        if sp.Tuple(total.function, low, high).has(new):
            raise SideConditionFailed(f"{new} occurs in {show(total)}: renaming its index to "
                                      f"{new} would capture it")
        return sp.Sum(total.function.xreplace({index: new}), (new, low, high))

    def apply(expr: sp.Basic) -> sp.Basic:
        targets = [s for s in expr.atoms(sp.Sum) if len(s.limits) == 1 and s.limits[0][0] == old]
        if not targets:
            raise SideConditionFailed(f"no sum over {old} here")
        return expr.xreplace({s: rename(s) for s in targets})

    return library_rule(N_("a summation index is a dummy: renaming it changes nothing"), apply)
