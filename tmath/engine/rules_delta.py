"""Vetted rules for Kronecker deltas beyond sifting a sum (:func:`tmath.engine.rules.sift`).

A delta δ(a, b) only takes the values 0 and 1, which gives two general rewrites:

* :data:`DELTA_CASES`: any expression g(δ) equals g(0) + δ·(g(1) − g(0)), the line through
  its two possible values (how "editing token j changes output i by δ_ij·(…)" is derived);
* :func:`delta_identifies`: in a product with δ(a, b), a may be replaced by b, since the
  product is 0 unless a = b (the side condition: a is a plain symbol, so this is a
  substitution, and the delta's arguments are exactly a and b).

Both are computational rewrites, validated on random instances where they are applied.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.engine.rules import _numerically_equal as _validate
from tmath.i18n.markers import N_


def _cases(expr: sp.Basic) -> sp.Basic:
    deltas = sorted(sp.sympify(expr).atoms(sp.KroneckerDelta), key=sp.default_sort_key)
    if not deltas:
        raise SideConditionFailed(f"{show(expr)} has no Kronecker delta to split on")
    delta = deltas[0]
    placeholder = sp.Dummy("delta")
    g = expr.xreplace({delta: placeholder})
    at_zero, at_one = g.xreplace({placeholder: 0}), g.xreplace({placeholder: 1})
    return at_zero + delta * (at_one - at_zero)


@functools.lru_cache(maxsize=256)
def _memo(before: str, after: str, a: Any, b: Any) -> str | None:
    return _validate(a, b)


def _vetted(name: str, apply: Any) -> Rule:
    """A library rule validated on random instances, each (before, after) pair once per
    process (an audit re-runs the same derivation for every foil)."""
    return library_rule(name, apply, numeric_check=False,
                        validate=lambda a, b: _memo(sp.srepr(a), sp.srepr(b), a, b))


DELTA_CASES = _vetted(
    N_("a Kronecker delta is 0 or 1, so g(δ) = g(0) + δ·(g(1) − g(0))"), _cases)


def delta_identifies(old: sp.Symbol, new: Any) -> Rule:
    """δ(old, new)·f(old) = δ(old, new)·f(new) in every product holding that delta."""
    if not isinstance(old, sp.Symbol):
        raise SideConditionFailed(f"{show(old)} is not a symbol: replacing it is not a "
                                  "substitution")
    new = sp.sympify(new)
    wanted = sp.KroneckerDelta(old, new)

    def apply(expr: sp.Basic) -> sp.Basic:
        def swap(term: sp.Mul) -> sp.Basic:
            if wanted not in term.args:
                return term
            rest = sp.Mul(*[f for f in term.args if f != wanted])
            return wanted * rest.xreplace({old: new})
        if not expr.has(wanted):
            raise SideConditionFailed(f"no factor {show(wanted)} here")
        if not any(isinstance(t, sp.Mul) and wanted in t.args
                   for t in sp.preorder_traversal(expr)):
            raise SideConditionFailed(f"{show(wanted)} is not a factor of a product here")
        return expr.replace(lambda e: isinstance(e, sp.Mul) and wanted in e.args, swap)

    return _vetted(N_("under δ(a, b) the indices a and b are interchangeable"), apply)
