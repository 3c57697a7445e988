"""Deciding what a derivation claims without a rule: the sign of an expression (for
inequality steps) and the solutions of an equation (for ``proof.root``).

:func:`sign_holds` decides ``a ≥ b`` (or >, ≤, <) for every value the symbols' assumptions
allow: SymPy's assumptions first; a sum is nonnegative when its generic term is; a product when
its factors' signs are known; a factored form; and a function of one variable on an interval by
its critical points and its limits at the ends. A random point where the relation fails is
reported as a counterexample. :func:`solutions` returns the roots SymPy finds, each checked by
substituting it back. This module imports no other part of the engine but the numbers.
"""

from __future__ import annotations

import random
from typing import Any

import sympy as sp

from tmath.engine import numeric


def show(expr: Any) -> str:
    from tmath.engine.printing import linear

    return linear(expr)


def solutions(equation: Any, unknown: sp.Symbol) -> list:
    """The solutions of ``equation = 0`` for ``unknown``, each checked by substitution."""
    found = sp.solve(sp.sympify(equation), unknown, dict=False)
    checked = []
    for root in found:
        residue = sp.simplify(sp.sympify(equation).xreplace({unknown: root}))
        problem, _ = numeric.disagreement(sp.sympify(equation).xreplace({unknown: root}), 0)
        if residue == 0 and problem is None:
            checked.append(root)
    return checked



def _generic(expr: sp.Basic) -> sp.Basic:
    """``expr`` with indexed entries replaced by symbols carrying their bases' assumptions."""
    replacements = {}
    for k, entry in enumerate(expr.atoms(sp.Indexed)):
        assumptions = entry.base.label.assumptions0
        replacements[entry] = sp.Symbol(f"_entry{k}", **{key: v for key, v in assumptions.items()
                                                        if key in ("positive", "nonnegative",
                                                                   "real", "negative")})
    return expr.xreplace(replacements)


# -- deciding inequalities --------------------------------------------------------------------

def sign_holds(a: Any, b: Any, relation: str) -> tuple[bool, str]:
    """Does ``a relation b`` hold for every value the symbols' assumptions allow?

    SymPy decides the sign of the difference from the assumptions; a sum is nonnegative when
    its terms are; a product when its factors' signs are known; a function of one variable
    on an interval by its critical points and its limits at the ends. A random point where
    the relation fails is reported as a counterexample.
    """
    if relation in ("<", "<="):
        a, b, relation = b, a, ">" if relation == "<" else ">="
    difference = sp.simplify(sp.sympify(a) - sp.sympify(b))
    strict = relation == ">"
    counter = _counterexample(difference, strict)
    if counter:
        return False, counter
    verdict = _sign(difference, strict)
    if verdict:
        return True, ""
    return False, f"SymPy cannot show {show(difference)} {'>' if strict else '≥'} 0"


def _counterexample(difference: sp.Basic, strict: bool) -> str | None:
    for point in numeric.points([difference], seed=5, tries=6):
        value = numeric._concrete(difference, point, numeric._Opaque(random.Random(2)))
        if value is None or abs(value.imag) > 1e-12:
            continue
        if value.real < -1e-12 or (strict and abs(value.real) <= 1e-30):
            at = ", ".join(f"{s}={v}" for s, v in point.items())
            return f"false at {at} ({show(difference)} = {value.real:.4g})"
    return None


def _sign(expr: sp.Basic, strict: bool) -> bool:
    """Is ``expr`` ≥ 0 (> 0 with ``strict``) wherever its symbols' assumptions allow?"""
    if expr.is_positive or (not strict and (expr.is_nonnegative or expr == 0)):
        return True
    if isinstance(expr, sp.Sum):
        return _term_sign(expr, strict)
    if isinstance(expr, sp.Add) and all(_sign(term, False) for term in expr.args) and \
            (not strict or any(_sign(term, True) for term in expr.args)):
        return True
    if isinstance(expr, sp.Mul) and all(_sign(f, strict) for f in expr.args):
        return True
    if isinstance(expr, sp.Pow) and expr.exp.is_even and (not strict or _sign(expr.base, True)):
        return True
    if isinstance(expr, sp.Pow) and _sign(expr.base, strict):  # a positive base to any power
        return bool(expr.base.is_positive) or expr.exp.is_nonnegative is True
    factored = sp.factor(expr) if not isinstance(expr, (sp.Sum, sp.Integral)) else expr
    if factored != expr and _sign(factored, strict):
        return True
    return _univariate(expr, strict)


def _term_sign(total: sp.Sum, strict: bool) -> bool:
    """A sum is ≥ 0 when its generic term is (indexed entries keep their bases' assumptions);
    > 0 also needs a nonempty range."""
    generic = _generic(total.function)
    if not _sign(sp.simplify(generic), strict):
        return False
    if strict:
        (_, low, high), = total.limits
        return bool(sp.simplify(high - low).is_nonnegative)
    return True


def _univariate(expr: sp.Basic, strict: bool) -> bool:
    """f ≥ 0 (> 0) on the domain of its one variable: a differentiable f attains its minimum at
    a critical point or approaches it at an end, so those values decide."""
    symbols = list(expr.free_symbols)
    if len(symbols) != 1 or expr.atoms(sp.Indexed):
        return False
    x = symbols[0]
    bounded_below = bool(x.is_positive or x.is_nonnegative)
    low, open_low = (0, not x.is_nonnegative or bool(x.is_positive)) if bounded_below \
        else (-sp.oo, True)
    try:
        critical = sp.solveset(sp.diff(expr, x), x, sp.Interval(low, sp.oo, open_low, True))
    except (NotImplementedError, ValueError, TypeError):
        return False
    if not isinstance(critical, sp.FiniteSet):
        return False
    inside = [sp.simplify(expr.xreplace({x: c})) for c in critical]
    ends = [sp.limit(expr, x, low, dir="+") if low != -sp.oo else sp.limit(expr, x, -sp.oo),
            sp.limit(expr, x, sp.oo)]

    def positive(v: Any) -> bool:
        v = sp.sympify(v)
        return v == sp.oo or bool(v.is_positive)

    def nonnegative(v: Any) -> bool:
        v = sp.sympify(v)
        return v == sp.oo or bool(v.is_nonnegative)

    if not strict:
        return all(nonnegative(v) for v in inside + ends)
    attained_low = not open_low
    return (all(positive(v) for v in inside) and
            (positive(ends[0]) if attained_low else nonnegative(ends[0])) and nonnegative(ends[1]))
