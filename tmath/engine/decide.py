"""Deciding what a derivation claims without a rule: the sign of an expression (for
inequality steps) and the solutions of an equation (for ``proof.root``).

:func:`sign_holds` decides ``a ≥ b`` (or >, ≤, <) for every value the symbols' assumptions
allow: SymPy's assumptions first (never for an expression holding a sum, product or integral,
whose ranges SymPy's assumptions ignore); a sum, product or integral from its terms over a
range shown not to be reversed; a product from its factors' signs; a factored form; and a
function of one real variable by its critical points, its limits at the ends and on both sides
of each pole. A random point where the relation fails is reported as a counterexample.
:func:`unique_root` finds the one root of an equation in its variable's domain and says how
uniqueness was shown; :func:`solutions` returns the roots SymPy finds, each checked by
substituting it back. This module imports no other part of the engine but the numbers.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import mpmath
import sympy as sp
from sympy.calculus.util import continuous_domain
from sympy.core.function import AppliedUndef

from tmath.engine import numeric
from tmath.engine.point_values import DIGITS, Unsupported, Walker

SYMPY_FAILURES = (NotImplementedError, ValueError, TypeError, AttributeError, RecursionError,
                  sp.PolynomialError, sp.PoleError)
"""What SymPy raises when it cannot solve, take a limit or decide: the question stays open."""
NOT_SMOOTH = (sp.Abs, sp.sign, sp.Max, sp.Min, sp.Piecewise, sp.floor, sp.ceiling,
              sp.Heaviside, sp.frac)
"""Functions with kinks or jumps: a minimum need not sit at a critical point."""
CHECK_DIGITS = 2 * DIGITS
"""A counterexample is evaluated again at this precision: a rounding error shrinks with the
precision, a true value does not."""


def show(expr: Any) -> str:
    from tmath.engine.printing import linear

    return linear(expr)


def solutions(equation: Any, unknown: sp.Symbol) -> list:
    """The solutions of ``equation = 0`` for ``unknown`` that ``sp.solve`` finds, each checked
    by substitution (symbolically, and numerically at one point at least)."""
    found = sp.solve(_as_expression(equation), unknown, dict=False)
    return [root for root in found if _satisfies(_as_expression(equation), unknown, root)]


def _as_expression(equation: Any) -> sp.Basic:
    """``lhs − rhs`` for an equation, the expression itself otherwise."""
    equation = sp.sympify(equation)
    if isinstance(equation, sp.Equality):
        return equation.lhs - equation.rhs
    return equation


def _satisfies(expr: sp.Basic, unknown: sp.Symbol, root: Any, seed: int = 0) -> bool:
    """Substituting ``root`` leaves zero: SymPy simplifies the residue to 0, and random points
    (at least one evaluated) agree."""
    residue = expr.xreplace({unknown: root})
    try:
        if sp.simplify(residue) != 0:
            return False
    except SYMPY_FAILURES:
        return False
    return numeric.evidence(residue, 0, seed).checked


def _generic(expr: sp.Basic) -> sp.Basic:
    """``expr`` with indexed entries replaced by symbols carrying their bases' assumptions."""
    replacements = {}
    for k, entry in enumerate(expr.atoms(sp.Indexed)):
        assumptions = entry.base.label.assumptions0
        replacements[entry] = sp.Symbol(f"_entry{k}", **{key: v for key, v in assumptions.items()
                                                        if key in ("positive", "nonnegative",
                                                                   "real", "negative")})
    return expr.xreplace(replacements)


# -- the domain of a variable -----------------------------------------------------------------

def real_domain(x: sp.Symbol) -> sp.Set | None:
    """The real interval ``x``'s assumptions allow, or None when ``x`` is not known to be real."""
    if x.is_positive:
        return sp.Interval.open(0, sp.oo)
    if x.is_nonnegative:
        return sp.Interval(0, sp.oo)
    if x.is_negative:
        return sp.Interval.open(-sp.oo, 0)
    if x.is_nonpositive:
        return sp.Interval(-sp.oo, 0)
    if x.is_real:
        return sp.S.Reals
    return None


def domain_of(x: sp.Symbol) -> sp.Set:
    """The set ``x``'s assumptions allow: whole numbers for an integer, an interval for a real,
    the complex plane otherwise; without 0 for a nonzero symbol."""
    domain = _domain(x)
    return domain - sp.FiniteSet(0) if x.is_nonzero and domain.contains(0) is not sp.false \
        else domain


def _domain(x: sp.Symbol) -> sp.Set:
    if x.is_integer:
        if x.is_positive:
            return sp.S.Naturals
        if x.is_nonnegative:
            return sp.S.Naturals0
        if x.is_negative:
            return sp.Range(-1, -sp.oo, -1)
        if x.is_nonpositive:
            return sp.Range(0, -sp.oo, -1)
        return sp.S.Integers
    return real_domain(x) or sp.S.Complexes


# -- deciding inequalities --------------------------------------------------------------------

def sign_holds(a: Any, b: Any, relation: str, seed: int = 5) -> tuple[bool, str]:
    """Does ``a relation b`` hold for every value the symbols' assumptions allow?

    Fails closed: ``(True, "")`` only when the relation is shown; otherwise ``(False, why)``,
    with a point where it fails when random points (drawn from ``seed``) find one.
    """
    return sign_decision(a, b, relation, seed)[:2]


def sign_decision(a: Any, b: Any, relation: str, seed: int = 5) -> tuple[bool, str, int]:
    """:func:`sign_holds`, and at how many random points the difference was also evaluated
    (what an inequality step records as its numeric evidence)."""
    if relation in ("<", "<="):
        a, b, relation = b, a, ">" if relation == "<" else ">="
    difference = sp.simplify(sp.sympify(a) - sp.sympify(b))
    strict = relation == ">"
    counter, points = _counterexample(difference, strict, seed)
    if counter:
        return False, counter, points
    if _sign(difference, strict):
        return True, "", points
    return False, f"SymPy cannot show {show(difference)} {'>' if strict else '≥'} 0", points


def _sampled(difference: sp.Basic, seed: int = 5) -> Iterator[tuple[dict, Any]]:
    """The numeric guard's points (poles' neighbourhoods included) where ``difference`` has a
    value, with that value (or "not real")."""
    for k, point in enumerate(numeric.points([difference], seed=seed)):
        value = _value(difference, point, road=k < numeric.SYMPY_TRIES)
        if value is not None:
            yield point, value


def _counterexample(difference: sp.Basic, strict: bool, seed: int = 5) -> tuple[str | None, int]:
    """A random point where the difference is negative (zero, under ``strict``) or not real,
    and how many points were evaluated."""
    points = 0
    for point, value in _sampled(difference, seed):
        points += 1
        at = ", ".join(f"{s}={v}" for s, v in point.items()) or "every point"
        if value == "not real":
            return f"not real at {at}: {show(difference)}", points
        if value < 0 or (strict and value == 0):
            return f"false at {at} ({show(difference)} = {float(value):.4g})", points
    return None, points


def _value(expr: sp.Basic, point: dict, road: bool) -> Any:
    """The real value of ``expr`` at ``point`` (0 when it is zero up to rounding), the string
    "not real", or None when it cannot be evaluated or its sign is left open by rounding."""
    try:
        low = Walker(point, numeric._Opaque(random.Random(2))).value(expr)
        high = Walker(point, numeric._Opaque(random.Random(2)), CHECK_DIGITS).value(expr)
    except Unsupported:
        return _value_by_sympy(expr, point) if road else None
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError,
            OverflowError):
        return None
    if not all(isinstance(v, (int, mpmath.mpf, mpmath.mpc)) for v in (low, high)):
        return None
    if any(mpmath.isnan(v) or mpmath.isinf(v) for v in (low, high)):
        return None
    if _settled(mpmath.im(low), mpmath.im(high)) != 0:
        return "not real"
    return _settled(mpmath.re(low), mpmath.re(high))


def _settled(low: Any, high: Any) -> Any:
    """``high`` (the value at :data:`CHECK_DIGITS`), or 0 when the two precisions disagree in
    more than the last half of ``DIGITS`` digits: a rounding error around zero."""
    with mpmath.workdps(CHECK_DIGITS):
        if high == 0 or abs(low - high) > abs(high) * mpmath.mpf(10) ** (-DIGITS // 2):
            return 0
        return high


def _value_by_sympy(expr: sp.Basic, point: dict) -> Any:
    """SymPy's 30-digit evaluation (for what the walk does not know); a value within 10⁻²⁰
    of zero counts as zero."""
    number = numeric._evaluated_by_sympy(expr, point, numeric._Opaque(random.Random(2)))
    if number is None or number != number or abs(number) == float("inf"):
        return None
    if abs(number.imag) > 1e-20 * max(1.0, abs(number.real)):
        return "not real"
    return 0 if abs(number.real) <= 1e-20 else number.real


def _sympy_says(expr: sp.Basic, strict: bool) -> bool:
    """SymPy's assumptions, except for sums, products and integrals: SymPy reads their terms'
    signs from the index's assumptions and ignores reversed ranges."""
    if expr.has(sp.Sum, sp.Product, sp.Integral):
        return False
    return bool(expr.is_positive) or (not strict and (bool(expr.is_nonnegative) or expr == 0))


def _sign(expr: sp.Basic, strict: bool) -> bool:
    """Is ``expr`` ≥ 0 (> 0 with ``strict``) wherever its symbols' assumptions allow?"""
    expr = sp.sympify(expr)
    if _sympy_says(expr, strict):
        return True
    if isinstance(expr, (sp.Sum, sp.Product, sp.Integral)):
        return _range_sign(expr, strict)
    if isinstance(expr, sp.Add) and all(_sign(term, False) for term in expr.args) and \
            (not strict or any(_sign(term, True) for term in expr.args)):
        return True
    if isinstance(expr, sp.Mul) and all(_sign(f, strict) for f in expr.args):
        return True
    if isinstance(expr, sp.Pow) and _power_sign(expr, strict):
        return True
    if not expr.has(sp.Sum, sp.Product, sp.Integral):
        try:
            factored = sp.factor(expr)
        except SYMPY_FAILURES:
            factored = expr
        if factored != expr and _sign(factored, strict):
            return True
    return _univariate(expr, strict)


def _power_sign(power: sp.Pow, strict: bool) -> bool:
    """base^e for a real exponent: an even power of a real base is ≥ 0 (> 0 when the base is
    not zero); a base > 0 gives > 0; a base ≥ 0 gives ≥ 0 when e ≥ 0 (0 to a negative power
    is undefined)."""
    base, exponent = power.base, power.exp
    if exponent.is_real is not True:
        return False
    if exponent.is_even and base.is_real:
        return not strict or base.is_zero is False or _sign(base, True)
    if _sign(base, True):
        return True
    return not strict and exponent.is_nonnegative is True and _sign(base, False)


def _range_sign(total: sp.Basic, strict: bool) -> bool:
    """A sum, product or integral from its terms, over its outermost range, whose index is
    written ``low + t`` (or ``high − t``) with t ≥ 0 so the term's sign does not lean on the
    index's own assumptions. Under Karr's convention a reversed range flips a sum's sign (and
    inverts a product), so the range must be shown not to be reversed: high − low + 1 ≥ 0
    (high − low ≥ 0 for an integral); a strictly positive sum also needs a term."""
    limits = list(total.limits)
    if len(limits[-1]) != 3:
        return False
    index, low, high = limits[-1]
    inner = type(total)(total.function, *limits[:-1]) if limits[:-1] else total.function
    discrete = not isinstance(total, sp.Integral)
    if not _sign(high - low + 1 if discrete else high - low, False):
        return False  # maybe reversed
    if strict and not isinstance(total, sp.Product) and not _sign(high - low, not discrete):
        return False  # maybe empty (an empty product is 1)
    t = sp.Dummy("t", integer=True, nonnegative=True) if discrete else \
        sp.Dummy("t", nonnegative=True)
    for at in (low + t, high - t):
        term = _generic(inner.xreplace({index: at}))
        try:
            term = sp.simplify(term)
        except SYMPY_FAILURES:
            pass
        if _sign(term, strict):
            return True
    return False


# -- one real variable ------------------------------------------------------------------------

def _univariate(expr: sp.Basic, strict: bool) -> bool:
    """f ≥ 0 (> 0) on the domain of its one real variable. The domain is cut where f is not
    defined or not continuous (poles): only isolated points may be cut away. On each piece a
    differentiable f is smallest at a critical point or near an end, so those values and the
    one-sided limits at the ends (a pole's two sides included) decide; a limit of −∞ fails."""
    symbols = list(expr.free_symbols)
    if len(symbols) != 1 or expr.atoms(sp.Indexed) or \
            expr.has(*NOT_SMOOTH, sp.Sum, sp.Product, sp.Integral, sp.Derivative) or \
            expr.atoms(AppliedUndef):
        return False
    x = symbols[0]
    domain = real_domain(x)
    if domain is None:
        return False
    try:
        defined = continuous_domain(expr, x, domain)
        cut = sp.Complement(domain, defined)
    except SYMPY_FAILURES:
        return False
    pieces = _intervals(defined)
    if pieces is None or not (cut is sp.S.EmptySet or isinstance(cut, sp.FiniteSet)):
        return False
    return all(_piece_sign(expr, x, piece, strict) for piece in pieces)


def _intervals(region: sp.Set) -> list[sp.Interval] | None:
    if isinstance(region, sp.Interval):
        return [region]
    if isinstance(region, sp.Union) and all(isinstance(p, sp.Interval) for p in region.args):
        return list(region.args)
    return None


def _piece_sign(expr: sp.Basic, x: sp.Symbol, piece: sp.Interval, strict: bool) -> bool:
    """f ≥ 0 (> 0) on one interval where it is continuous."""
    try:
        critical = sp.solveset(sp.diff(expr, x), x, sp.Interval.open(piece.start, piece.end))
    except SYMPY_FAILURES:
        return False
    if not (critical is sp.S.EmptySet or isinstance(critical, sp.FiniteSet)):
        return False
    try:
        inside = [sp.simplify(expr.xreplace({x: c})) for c in critical]
        ends = [_end_value(expr, x, piece.start, piece.left_open, "+"),
                _end_value(expr, x, piece.end, piece.right_open, "-")]
    except SYMPY_FAILURES:
        return False
    if not all(_at_least(v, strict) for v in inside):
        return False
    closed = (not piece.left_open, not piece.right_open)
    return all(_at_least(v, strict and attained) for v, attained in zip(ends, closed))


def _end_value(expr: sp.Basic, x: sp.Symbol, end: Any, open_end: bool, side: str) -> Any:
    """f at a closed end, its one-sided limit at an open one (±∞ included)."""
    if not open_end:
        return sp.simplify(expr.xreplace({x: end}))
    if end in (sp.oo, -sp.oo):
        return sp.limit(expr, x, end)
    return sp.limit(expr, x, end, dir=side)


def _at_least(value: Any, strict: bool) -> bool:
    """Is ``value`` (a number, or ±∞) > 0 (strict) or ≥ 0, as SymPy can tell?"""
    value = sp.sympify(value)
    if value == sp.oo:
        return True
    if strict:
        return bool(value.is_positive)
    return bool(value.is_nonnegative) or value == 0


# -- roots ------------------------------------------------------------------------------------

def unique_root(equation: Any, variable: sp.Symbol, seed: int = 0) -> tuple[Any, str]:
    """The one root of ``equation`` (an ``Eq`` or an expression = 0) in the set ``variable``'s
    assumptions allow, and how its uniqueness was shown; ``(None, reason)`` when there is no
    root, more than one, or uniqueness cannot be shown. ``seed`` draws the numeric points.

    ``solveset`` on the domain must give exactly one element that passes substitution; a
    condition set, an image set, an infinite union or an intersection SymPy cannot reduce
    proves nothing, unless the left side is strictly monotone on a domain where it has no
    pole (its derivative > 0 or < 0 by :func:`sign_holds`), or strictly convex or concave with
    a zero derivative at the root (a strict extremum that touches zero), and a root is found.
    """
    expr = _as_expression(equation)
    failure = ""
    if variable not in expr.free_symbols:
        return None, f"{show(expr)} = 0 does not contain {variable}"
    domain = domain_of(variable)
    try:
        found = sp.solveset(expr, variable, domain)
    except SYMPY_FAILURES as exc:
        found = None
        failure = f"SymPy's solveset failed ({type(exc).__name__})"
    if isinstance(found, sp.FiniteSet):
        if len(found) != 1:
            return None, f"{show(expr)} = 0 has {len(found)} roots for {variable}, not one"
        (root,) = found
        if not _satisfies(expr, variable, root, seed):
            return None, f"the root {show(root)} does not pass substitution"
        return root, "solveset: the only root in the domain" + _unless(expr, variable)
    if found is not None:
        failure = f"solveset cannot list the roots ({type(found).__name__})"
    candidates, rejected = [], []
    for r in _candidates(expr, variable, found):
        if not _in_domain(r, variable, seed):
            rejected.append(f"{show(r)} is not shown to lie in {variable}'s domain")
        elif not _satisfies(expr, variable, r, seed):
            rejected.append(f"{show(r)} does not pass substitution")
        else:
            candidates.append(r)
    if not candidates:
        return None, "; ".join([failure, *rejected] if rejected else
                               [failure, "no root was found"])
    why = _only_root_argument(expr, variable, candidates[0], seed)
    if why is None:
        return None, (f"{failure}; {show(candidates[0])} is a root, but {show(expr)} is not "
                      f"strictly monotone in {variable} (nor convex with a zero slope there)")
    return candidates[0], why


def root_conditions(equation: Any, variable: sp.Symbol) -> tuple[str, ...]:
    """The parameters' factors of ``equation`` SymPy cannot show nonzero, as conditions
    ("μ ≠ 0"): where one vanishes, every value of ``variable`` is a root, and solveset answers
    only for generic parameters."""
    expr = _as_expression(equation)
    try:
        numerator = sp.fraction(sp.factor(sp.together(expr)))[0]
    except SYMPY_FAILURES:
        return ("generic values of the parameters",)
    factors = [f.base if isinstance(f, sp.Pow) else f for f in sp.Mul.make_args(numerator)]
    return tuple(f"{show(f)} ≠ 0" for f in factors
                 if not f.has(variable) and f.is_zero is not False)


def _unless(expr: sp.Basic, variable: sp.Symbol) -> str:
    conditions = root_conditions(expr, variable)
    return ", for parameters where " + " and ".join(conditions) if conditions else ""


def _candidates(expr: sp.Basic, variable: sp.Symbol, found: Any) -> list:
    """Roots to try when solveset gives no finite set: the finite parts of what it gave, then
    ``sp.solve``'s."""
    listed: list = []
    if isinstance(found, sp.Set):
        for part in sp.preorder_traversal(found):
            if isinstance(part, sp.FiniteSet):
                listed += [r for r in part if not r.has(variable)]
    try:
        listed += [r for r in sp.solve(expr, variable) if r not in listed]
    except SYMPY_FAILURES:
        pass
    return listed


def _in_domain(root: Any, variable: sp.Symbol, seed: int = 0) -> bool:
    """Is ``root`` shown to lie in ``variable``'s domain (by SymPy, or by :func:`sign_holds`)?"""
    root = sp.sympify(root)
    if domain_of(variable).contains(root) is sp.true:
        return True
    if root.is_real is not True or (variable.is_integer and root.is_integer is not True):
        return False
    bounds = [(variable.is_positive, ">"), (variable.is_nonnegative, ">="),
              (variable.is_negative, "<"), (variable.is_nonpositive, "<=")]
    return all(sign_holds(root, 0, relation, seed)[0] for assumed, relation in bounds if assumed)


def _only_root_argument(expr: sp.Basic, variable: sp.Symbol, root: Any,
                        seed: int = 0) -> str | None:
    """Why ``root`` is the only root in the domain, or None: f has no pole in the domain and
    is strictly monotone (f′ of one strict sign), or strictly convex or concave (f″ of one
    strict sign) with f′(root) = 0."""
    domain = real_domain(variable)
    if domain is None:
        return None
    try:
        if continuous_domain(expr, variable, domain) != domain:
            return None
        slope = sp.diff(expr, variable)
        curvature = sp.diff(slope, variable)
    except SYMPY_FAILURES:
        return None
    if any(sign_holds(slope, 0, relation, seed)[0] for relation in (">", "<")):
        return "strictly monotone in the variable, so the root found is the only one"
    if any(sign_holds(curvature, 0, relation, seed)[0] for relation in (">", "<")) and \
            _satisfies(slope, variable, root, seed):
        return ("strictly convex or concave with a zero slope at the root: a strict extremum "
                "at zero, so the root found is the only one")
    return None
