"""The engine's vetted rules: rewrites a derivation may rest on without assuming anything.

Each rule here either checks its side conditions against the symbols' assumptions where it is
applied (a sum swap needs ranges that do not depend on each other, and finite ones or terms
≥ 0; sifting a Kronecker delta needs its argument inside the range), or is a computational
rewrite that is validated by
evaluating before and after on random small instances (:mod:`tmath.engine.numeric`), or both.
A claim that needs a rewrite not found here writes its own :class:`~tmath.engine.proof.Rule`
and declares it as a premise: the claim is then *proved assuming* it.

Also here: :func:`sign_holds`, how the engine decides an inequality step.
"""

from __future__ import annotations

import functools

from typing import Any, Callable

import sympy as sp

from tmath.engine import numeric
from tmath.engine.decide import _generic, _sign, _univariate, sign_holds, solutions  # noqa: F401
from tmath.engine.kernel import Rule, vetted_rule
from tmath.engine.proof import show
from tmath.i18n.markers import N_


class SideConditionFailed(Exception):
    """A vetted rule was applied where its side condition does not hold."""


def library_rule(name: str, apply: Callable[[Any], Any], numeric_check: bool = True,
                 premise: str | None = None,
                 validate: Callable[[Any, Any], str | None] | None = None) -> Rule:
    """A vetted rule. With ``numeric_check`` each application is validated on random instances
    (or by ``validate``); with ``premise`` its use rests on that text unless the claim
    declares it."""
    validate = validate or (_numerically_equal if numeric_check else None)
    return vetted_rule(name, _guarded(apply), validate, premise=premise)


def _guarded(apply: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(expr: Any) -> Any:
        return apply(sp.sympify(expr))
    return run


RULE_POINTS = numeric.ORDINARY + numeric.POLE_TRIES
"""Random small instances per application of a vetted computational rewrite: the rule's code
is reviewed and its side conditions checked, so these guard against a slip, and each costs
as much as a step's own check (a step's rewrites get :data:`numeric.TRIES`)."""


def _numerically_equal(before: Any, after: Any) -> str | None:
    found, _ = numeric.disagreement(before, after, seed=3, tries=RULE_POINTS)
    return f"the rewrite is wrong here: {found}" if found else None


# -- finite sums ------------------------------------------------------------------------------

def _free_of(expr: Any, symbol: sp.Symbol) -> bool:
    return not sp.sympify(expr).has(symbol)


def _infinite(*bounds: Any) -> bool:
    """Is a bound infinite (the sum a series, not a finite sum)?"""
    return any(sp.sympify(b).has(sp.oo, -sp.oo, sp.zoo) for b in bounds)


def _swap_first(expr: sp.Basic) -> sp.Basic:
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Sum):
            limits = list(node.limits)
            function = node.function
            if len(limits) == 1 and isinstance(function, sp.Sum) and len(function.limits) == 1:
                inner, outer = function.limits[0], limits[0]
                body = function.function
            elif len(limits) >= 2:
                inner, outer, body = limits[0], limits[1], sp.Sum(function, *limits[2:]) \
                    if len(limits) > 2 else function
            else:
                continue
            (i, a1, b1), (j, a2, b2) = inner, outer
            if not (_free_of(a1, j) and _free_of(b1, j) and _free_of(a2, i) and _free_of(b2, i)):
                raise SideConditionFailed(
                    f"the ranges of {i} and {j} depend on each other: the sums over "
                    f"{i} ∈ [{show(a1)}, {show(b1)}] and {j} ∈ [{show(a2)}, {show(b2)}] cannot "
                    "simply be exchanged")
            if _infinite(a1, b1, a2, b2) and not _provably_nonnegative(body):
                raise SideConditionFailed(
                    f"the sums over {i} and {j} are not both finite and the terms are not known "
                    "to be ≥ 0: exchanging infinite sums needs absolute convergence")
            swapped = sp.Sum(sp.Sum(body, (j, a2, b2)), (i, a1, b1))
            return expr.xreplace({node: swapped})
    return expr


SWAP_SUMS = library_rule(N_("finite sums with independent ranges can be exchanged"), _swap_first)


def _factor_out(expr: sp.Basic) -> sp.Basic:
    def pull(node: sp.Sum) -> sp.Basic:
        indices = [limit[0] for limit in node.limits]
        inner = pull(node.function) if isinstance(node.function, sp.Sum) else node.function
        if isinstance(inner, sp.Add):  # a sum of terms: split it first (SPLIT_SUM)
            return sp.Sum(inner, *node.limits)
        factors = sp.Mul.make_args(inner)
        free = [f for f in factors if all(_free_of(f, i) for i in indices)]
        bound = [f for f in factors if f not in free]
        if not free:
            return sp.Sum(inner, *node.limits)
        return sp.Mul(*free) * sp.Sum(sp.Mul(*bound), *node.limits)
    return expr.replace(lambda e: isinstance(e, sp.Sum), pull)


FACTOR_OUT = library_rule(N_("a factor free of the summation index comes out of the sum"),
                          _factor_out)


def _distribute(expr: sp.Basic) -> sp.Basic:
    def push(node: sp.Mul) -> sp.Basic:
        sums = [f for f in node.args if isinstance(f, sp.Sum)]
        if len(sums) != 1:
            return node
        total = sums[0]
        rest = sp.Mul(*[f for f in node.args if f is not total])
        if any(not _free_of(rest, limit[0]) for limit in total.limits):
            return node
        return sp.Sum(rest * total.function, *total.limits)
    return expr.replace(lambda e: isinstance(e, sp.Mul) and any(isinstance(f, sp.Sum)
                                                                 for f in e.args), push)


DISTRIBUTE = library_rule(N_("a factor free of the summation index goes into the sum"), _distribute)


def _split(expr: sp.Basic) -> sp.Basic:
    def split(node: sp.Sum) -> sp.Basic:
        terms = sp.Add.make_args(sp.expand(node.function))
        if len(terms) == 1:
            return node
        return sp.Add(*[sp.Sum(t, *node.limits) for t in terms])
    return expr.replace(lambda e: isinstance(e, sp.Sum), split)


SPLIT_SUM = library_rule(N_("the sum of a sum of terms is the sum of their sums"), _split)


def _combine(expr: sp.Basic) -> sp.Basic:
    terms = sp.Add.make_args(expr)
    groups: dict[tuple, list[sp.Basic]] = {}
    rest = []
    for term in terms:
        coefficient, total = sp.Integer(1), term
        if isinstance(term, sp.Mul):
            sums = [f for f in term.args if isinstance(f, sp.Sum)]
            if len(sums) == 1:
                total = sums[0]
                coefficient = sp.Mul(*[f for f in term.args if f is not total])
        if isinstance(total, sp.Sum) and all(_free_of(coefficient, lim[0]) for lim in total.limits):
            groups.setdefault(total.limits, []).append(coefficient * total.function)
        else:
            rest.append(term)
    return sp.Add(*rest, *[sp.Sum(sp.Add(*fs), *limits) for limits, fs in groups.items()])


COMBINE_SUMS = library_rule(N_("sums over the same range add term by term"), _combine)


def absorb_last_term(index: sp.Symbol) -> Rule:
    """Σ_{i=a}^{u} f(i) + f(u+1) = Σ_{i=a}^{u+1} f(i)."""

    def absorb(expr: sp.Basic) -> sp.Basic:
        for total in expr.atoms(sp.Sum):
            (i, low, high), = total.limits
            if i != index:
                continue
            following = total.function.xreplace({i: high + 1})
            rest = sp.simplify(expr - total - following)
            if not rest.has(total.function.xreplace({i: high + 1})):
                return rest + sp.Sum(total.function, (i, low, high + 1))
        raise SideConditionFailed(f"no sum over {index} followed by its next term")

    return library_rule(N_("a sum up to u plus its term u+1 is the sum up to u+1"), absorb)


def sift(lower: Any, upper: Any) -> Rule:
    """Σ_{t=lower}^{upper} δ(t, a)·f(t) = f(a), for a that lies in [lower, upper] (checked)."""

    def apply(expr: sp.Basic) -> sp.Basic:
        def one(node: sp.Sum) -> sp.Basic:
            (t, low, high), = node.limits
            deltas = [d for d in node.function.atoms(sp.KroneckerDelta) if d.has(t)]
            if len(deltas) != 1:
                return node
            delta = deltas[0]
            a = delta.args[1] if delta.args[0] == t else delta.args[0] if delta.args[1] == t else None
            if a is None or a.has(t):
                return node
            if not (_provably_nonnegative(a - low) and _provably_nonnegative(high - a)):
                raise SideConditionFailed(f"{show(a)} is not known to lie in [{show(low)}, "
                                          f"{show(high)}]: the delta does not sift")
            return sp.sympify(node.function).xreplace({delta: sp.Integer(1)}).xreplace({t: a})
        return expr.replace(lambda e: isinstance(e, sp.Sum) and
                            sp.sympify(e.limits[0][1]) == lower and sp.sympify(e.limits[0][2]) == upper,
                            one)

    return library_rule(N_("sifting: a Kronecker delta picks the one term of the sum"), apply)


def _provably_nonnegative(expr: Any) -> bool:
    expr = sp.simplify(sp.sympify(expr))
    return bool(expr.is_nonnegative) or expr == 0


def pointwise_bound(name: str, lower: Any, upper: Any, variable: sp.Symbol) -> Rule:
    """Replace ``lower(u)`` by ``upper(u)`` wherever it occurs, for a one-variable inequality
    ``lower ≤ upper`` on ``variable``'s domain (log t ≤ t − 1, say). Use it in a bound step,
    ``chain.le(expr, why, rule=...)`` or ``chain.ge(...)``. The engine proves the inequality
    itself (critical points and ends), checks that each ``u`` lies in the domain, and that the
    expression grows with every replaced occurrence (for ``le``: its coefficient is ≥ 0) or
    falls with every one (for ``ge``), so the rewrite bounds it on the side claimed.
    The inequality is proved when the rule is first used (once per process), so importing a
    module that defines a bound costs nothing; a bound that cannot be proved fails every step
    that uses it."""
    lower, upper = sp.sympify(lower), sp.sympify(upper)
    wild = sp.Wild("u")
    pattern, replacement = lower.xreplace({variable: wild}), upper.xreplace({variable: wild})
    @functools.cache
    def proved() -> bool:
        return bool(_univariate(sp.simplify(upper - lower), strict=False))

    def occurrences(expr: sp.Basic) -> list[tuple[sp.Basic, sp.Basic]]:
        if not proved():
            raise SideConditionFailed(f"cannot show {show(lower)} ≤ {show(upper)} for every "
                                      f"{variable} in its domain")
        found = [(o, o.match(pattern)[wild]) for o in expr.find(pattern)]
        if not found:
            raise SideConditionFailed(f"{show(lower)} does not occur here")
        for _, u in found:
            generic = _generic(u)
            if variable.is_positive and not generic.is_positive or \
                    variable.is_nonnegative and not generic.is_nonnegative:
                raise SideConditionFailed(f"{show(u)} is not known to lie in the domain of "
                                          f"{variable}")
        return found

    def apply(expr: sp.Basic) -> sp.Basic:
        return expr.xreplace({o: replacement.xreplace({wild: u}) for o, u in occurrences(expr)})

    def bounds(expr: Any, relation: str) -> str | None:
        expr = sp.sympify(expr)
        for occurrence, _ in occurrences(expr):
            placeholder = sp.Dummy("w")
            slope = sp.simplify(sp.diff(expr.xreplace({occurrence: placeholder}), placeholder))
            rising = relation in ("<=", "<")
            if not _sign(slope if rising else -slope, strict=False):
                return (f"the expression is not known to {'grow' if rising else 'fall'} with "
                        f"{show(occurrence)}, so the rewrite is not a bound on that side")
        return None

    return vetted_rule(name, _guarded(apply), bounds=bounds)


_T = sp.Symbol("t", positive=True)
LOG_BOUND = pointwise_bound(N_("log t ≤ t − 1 for t > 0"), sp.log(_T), _T - 1, _T)
"""Gibbs' inequality and its relatives rest on this bound."""
