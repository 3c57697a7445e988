"""Vetted rules for finite sums beyond :mod:`tmath.engine.rules`: telescoping, and sums of
products that separate into products of sums.

SymPy cannot show either identity for symbolic bounds (it neither telescopes
``Σ_k (f(k) − f(k−1))`` nor factors ``Σ_a Σ_b f(a) g(b)``, and it flattens nested sums into
one ``Sum`` with several limits). Both rules check their side conditions where they are
applied (a range that is a whole number of terms, ranges that do not depend on each other,
factors that each involve one summation index) and every application is validated on random
small instances by :func:`tmath.engine.rules.library_rule`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_

__all__ = ["telescope", "separate_sums"]


def telescope(term: Any, index: sp.Symbol, low: Any, high: Any) -> Rule:
    """f(high) = Σ_{index=low}^{high} (f(index) − f(index−1)) + f(low−1), with f = ``term``.

    The rule rewrites each occurrence of f(high) in the expression. Side conditions: f(high)
    occurs, and high − low + 1 is provably a whole number ≥ 0 (an honest, possibly empty,
    range), so the sum is the ordinary finite sum the identity is about.
    """
    term, low, high = sp.sympify(term), sp.sympify(low), sp.sympify(high)
    last = term.xreplace({index: high})

    def apply(expr: sp.Basic) -> sp.Basic:
        count = sp.simplify(high - low + 1)
        if not (count.is_integer and count.is_nonnegative):
            raise SideConditionFailed(f"{show(high)} − {show(low)} + 1 is not known to be a whole "
                                      "number ≥ 0: the range is not a finite run of terms")
        if not expr.has(last):
            raise SideConditionFailed(f"{show(last)} does not occur here: nothing to telescope")
        unfolded = sp.Sum(term - term.xreplace({index: index - 1}), (index, low, high)) \
            + term.xreplace({index: low - 1})
        return expr.xreplace({last: unfolded})

    return library_rule(N_("telescoping: f(b) = Σ_{k=a}^{b} (f(k) − f(k−1)) + f(a−1)"), apply)


def separate_sums(outer: sp.Symbol | None = None) -> Rule:
    """Σ over independent ranges of a product splits into a product of sums:
    Σ_a Σ_b f(a)·g(b) = (Σ_a f(a))·(Σ_b g(b)); factors that involve no index come out.

    With ``outer`` the sum over that index stays outermost and the rule separates what is
    inside it: Σ_z Σ_x Σ_y h(z) f(x, z) g(y, z) = Σ_z h(z)·(Σ_x f(x, z))·(Σ_y g(y, z)).
    Side conditions: no range depends on another summation index, and, inside, every factor
    involves the indices of one group only (factors sharing an index stay in one sum).
    """

    def split(total: sp.Sum) -> sp.Basic:
        limits = list(total.limits)
        indices = [lim[0] for lim in limits]
        for index, low, high in limits:
            if any(sp.sympify(b).has(other) for b in (low, high) for other in indices):
                raise SideConditionFailed(f"the range of {index} depends on another summation "
                                          "index: the sums do not separate")
        factors = sp.Mul.make_args(total.function)
        constant = sp.Mul(*[f for f in factors if not any(f.has(i) for i in indices)])
        body = sp.Mul(*[f for f in factors if any(f.has(i) for i in indices)])
        kept = [lim for lim in limits if outer is not None and lim[0] == outer]
        inner = [lim for lim in limits if lim not in kept]
        if outer is not None and not kept:
            return total
        sums, count = _groups(body, inner)
        if len(sums) <= 1 and count == 1:  # nothing separates: only the constant comes out
            return constant * sp.Sum(body, *limits)
        separated = count * sp.Mul(*sums)
        return constant * (sp.Sum(separated, *kept) if kept else separated)

    def apply(expr: sp.Basic) -> sp.Basic:
        return expr.replace(lambda e: isinstance(e, sp.Sum) and len(e.limits) >= 2, split)

    name = N_("a sum of products over independent ranges is a product of sums")
    return library_rule(name, apply)


def _groups(function: sp.Basic, limits: list) -> tuple[list, sp.Basic]:
    """The sums over groups of indices that no factor of ``function`` links (factors free of
    every index stay with the first group), and the number of terms of the indices no factor
    involves."""
    indices = [lim[0] for lim in limits]
    groups: list[tuple[set, list]] = []
    free = []
    for factor in sp.Mul.make_args(function):
        used = {i for i in indices if factor.has(i)}
        if not used:
            free.append(factor)
            continue
        merged_indices, merged = set(used), [factor]
        rest = []
        for group_indices, group in groups:
            if group_indices & merged_indices:
                merged_indices |= group_indices
                merged += group
            else:
                rest.append((group_indices, group))
        groups = rest + [(merged_indices, merged)]
    sums = [sp.Sum(sp.Mul(*group), *[lim for lim in limits if lim[0] in group_indices])
            for group_indices, group in groups]
    if free:
        sums = [sp.Mul(*free) * (sums[0] if sums else 1)] + sums[1:]
    unused = [lim for lim in limits if not any(lim[0] in g for g, _ in groups)]
    return sums, sp.Mul(*[high - low + 1 for _, low, high in unused])
