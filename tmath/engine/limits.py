"""Limits for derivations: SymPy's ``limit``, the algebraic limit laws where SymPy cannot see
through a finite sum, and a numeric cross-check of every result.

SymPy's ``limit`` cannot take ``1/(1 + Σ_{l=2}^{n} exp(−c·g_l))`` as ``c → ∞`` for symbolic
``n``. The limit laws can: a sum whose bounds do not depend on ``c`` is finite, so its limit
is the sum of its terms' limits; an expression that depends on ``c`` only through such sums,
built from elementary functions, is continuous wherever it is finite, so its limit is its
value at the sums' limits. Every result, however it was found, is then evaluated close to the
point at random parameter values (:func:`cross_check`).
"""

from __future__ import annotations

import random
from typing import Any

import sympy as sp

from tmath.engine import numeric

SYMPY = "SymPy limit, cross-checked numerically"
TERMWISE = "limit laws: term by term through finite sums, then continuity; cross-checked numerically"


class LimitUnknown(Exception):
    """Neither SymPy nor the limit laws determine the limit."""


def _determined(result: Any) -> bool:
    result = sp.sympify(result)
    return not (result.has(sp.Limit, sp.AccumBounds) or result is sp.nan or result.has(sp.zoo)
                or result.has(sp.nan))


def limit(expr: Any, variable: sp.Symbol, point: Any, direction: str = "+") -> tuple[Any, str]:
    """The limit of ``expr`` and how it was found."""
    expr = sp.sympify(expr)
    sums = [s for s in expr.atoms(sp.Sum) if s.has(variable)]
    if not sums:
        result = sp.limit(expr, variable, point, dir=direction)
        if _determined(result):
            return result, SYMPY
        raise LimitUnknown("SymPy could not determine the limit")
    return _termwise(expr, variable, point, direction, sums), TERMWISE


def _termwise(expr: sp.Basic, variable: sp.Symbol, point: Any, direction: str,
              sums: list[sp.Sum]) -> sp.Basic:
    names, limits = {}, {}
    for k, total in enumerate(sorted(sums, key=sp.default_sort_key)):
        for index, low, high in total.limits:
            if sp.sympify(low).has(variable) or sp.sympify(high).has(variable):
                raise LimitUnknown(f"the bounds of {sp.sstr(total)} depend on {variable}: the "
                                   "sum is not a fixed finite sum")
        if len(total.limits) != 1 or total.function.has(sp.Sum):
            raise LimitUnknown("nested sums: take the limit of the inner sum first")
        index, low, high = total.limits[0]
        term = sp.limit(total.function, variable, point, dir=direction)
        if not _determined(term) or term.has(sp.oo, -sp.oo) or term.has(variable):
            raise LimitUnknown(f"the terms of {sp.sstr(total)} have no finite limit")
        symbol = sp.Dummy(f"S{k}")
        names[total] = symbol
        limits[symbol] = sp.Sum(term, (index, low, high)).doit()
    outer = expr.xreplace(names)
    value = sp.simplify(_laws(outer, variable, point, direction, limits))
    if not _determined(value) or value.has(sp.oo, -sp.oo):
        raise LimitUnknown("the expression is not finite at the sums' limits, so continuity "
                           "does not give its limit")
    return value


def _laws(expr: sp.Basic, variable: sp.Symbol, point: Any, direction: str,
          limits: dict) -> sp.Basic:
    """The limit of ``expr`` (in which each finite sum is a symbol with a known limit) by the
    sum, product and quotient laws: a term or factor free of the variable is continuous at the
    sums' limits; one free of the sums is left to SymPy; each must be finite, and a
    denominator's limit nonzero. A piece that mixes the variable and the sums is refused."""
    sums = set(limits)
    if not expr.has(variable):
        value = expr.xreplace(limits)
        return _finite(value, "a part continuous in the sums")
    if not (expr.free_symbols & sums):
        return _finite(sp.limit(expr, variable, point, dir=direction), sp.sstr(expr))
    if isinstance(expr, sp.Add):
        return sp.Add(*[_laws(a, variable, point, direction, limits) for a in expr.args])
    if isinstance(expr, sp.Mul):
        return sp.Mul(*[_laws(a, variable, point, direction, limits) for a in expr.args])
    if isinstance(expr, sp.Pow) and not expr.exp.has(variable) and not (expr.exp.free_symbols & sums):
        base = _laws(expr.base, variable, point, direction, limits)
        if (expr.exp.is_negative or not expr.exp.is_nonnegative) and sp.simplify(base) == 0:
            raise LimitUnknown("a denominator tends to 0: the quotient law does not apply")
        return base ** expr.exp
    raise LimitUnknown(f"{variable} and the finite sums are mixed inside {sp.sstr(expr)}: "
                       "rewrite so that each factor holds one or the other")


def _finite(value: sp.Basic, what: str) -> sp.Basic:
    if not _determined(value) or sp.sympify(value).has(sp.oo, -sp.oo):
        raise LimitUnknown(f"{what} has no finite limit")
    return value


def cross_check(expr: Any, variable: sp.Symbol, point: Any, direction: str, result: Any,
                tries: int = 3) -> tuple[str | None, int]:
    """SymPy's limit has returned wrong values for expressions with several symbolic
    parameters, so each limit is evaluated with 50 digits close to the point (10⁻¹² away, or at
    ±10¹² for ±∞) at random parameter values; it must agree with the limit to 10⁻³. Points
    where the expression cannot be evaluated are skipped. Returns the disagreement (or None)
    and the number of points evaluated."""
    if point in (sp.oo, -sp.oo):
        near = sp.Integer(10) ** 12 * (1 if point == sp.oo else -1)
    else:
        step = sp.Rational(1, 10**12)
        near = sp.sympify(point) + (step if direction != "-" else -step)
    expr, result = sp.sympify(expr), sp.sympify(result)
    others, checked = [e for e in (expr, result)], 0
    for k, values in enumerate(numeric.points(others, seed=1, tries=tries)):
        values.pop(variable, None)
        opaque = numeric._Opaque(random.Random(k + 11))
        try:
            at_point = expr.xreplace(values)
            at_point = at_point.doit() if at_point.has(sp.Sum) else at_point
            got = complex(sp.N(opaque.replace(at_point).xreplace({variable: near}), 50))
            limit_value = result.xreplace(values)
            limit_value = limit_value.doit() if limit_value.has(sp.Sum) else limit_value
            want = complex(sp.N(opaque.replace(limit_value), 50))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue
        checked += 1
        if abs(got - want) > 1e-3 * max(1.0, abs(want)):
            at = ", ".join(f"{s}={v}" for s, v in values.items()) or "every parameter"
            return (f"the limit {sp.sstr(result)} disagrees with the value {got.real:.4g} near "
                    f"the point (at {at})"), checked
    return None, checked
