"""Deciding ``a = b``: SymPy must reduce the difference to zero, and random points agree.

The kernel (:mod:`tmath.engine.kernel`) trusts this module for equalities, as it trusts
:mod:`tmath.engine.decide` for signs and :mod:`tmath.engine.numeric` for points. Numbers alone
never prove an equality; a point where the two sides differ refutes one.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import sympy as sp

from tmath.engine import numeric

SIMPLIFIERS: dict[str, Callable[[Any], Any]] = {
    "simplify": sp.simplify,
    "expand": sp.expand,
    "trigsimp": sp.trigsimp,
    "expand_trig": lambda e: sp.simplify(sp.expand_trig(e)),
    "factor": sp.factor,
    "cancel": sp.cancel,
    "together": sp.together,
    "ratsimp": sp.ratsimp,
    "radsimp": sp.radsimp,
    "powsimp": lambda e: sp.powsimp(e, force=True),
    "logcombine": lambda e: sp.simplify(sp.logcombine(e, force=True)),
    "expand_log": lambda e: sp.simplify(sp.expand_log(e, force=True)),
    "doit": lambda e: sp.simplify(e.doit()),
    "none": lambda e: e,
}
"""The ways a step may ask SymPy to reduce a difference to zero (``method=`` of a step), or to
bring an evaluated result into shape (``none`` keeps it as SymPy computed it). Each is an
equivalence; ``force=True`` ignores branch conditions, so a difference reduced that way must
also pass the random points, as every step must."""


SYMPY_FAILURES = (NotImplementedError, StopIteration, RecursionError, sp.PolynomialError)
"""What SymPy raises when it cannot decide (StopIteration inside sum_simplify,
NotImplementedError in series): a step SymPy cannot check fails, it is not a bug in the claim."""


def term(x: Any) -> sp.Basic:
    """An immutable SymPy object for ``x``: tuples become ``Tuple``, matrices immutable. Text
    is never parsed (``strict``): a string is not a term."""
    if isinstance(x, (tuple, list)):
        return sp.Tuple(*(term(e) for e in x))
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x)
    return sp.sympify(x, strict=True)


def same(a: Any, b: Any) -> bool:
    """The same term up to the names of *bound* variables (Σᵢ f(i) is Σₖ f(k)). Free symbols
    must be identical, assumptions included: a free Dummy never stands for a symbol."""
    a, b = term(a), term(b)
    return a == b or _alpha_equal(a, b)


_BINDERS = (sp.Sum, sp.Product, sp.Integral, sp.Lambda, sp.Limit, sp.Derivative)


@functools.lru_cache(maxsize=8192)
def _alpha_equal(a: sp.Basic, b: sp.Basic) -> bool:
    """Equal up to the names of bound variables; terms of different heads, or with neither a
    binder nor a Dummy, are settled without SymPy's free-symbol walk."""
    if type(a) is not type(b) or not any(t.has(*_BINDERS, sp.Dummy) for t in (a, b)):
        return False
    try:
        return a.free_symbols == b.free_symbols and a.dummy_eq(b)
    except (TypeError, ValueError, AttributeError):
        return False


def _is_zero(reduced: Any) -> bool:
    return reduced == 0 or bool(getattr(reduced, "is_zero", False))


def _expandable(expr: sp.Basic) -> bool:
    """No power of a sum above the 8th (expanding those can take longer than simplify)."""
    return not any(node.is_Pow and node.base.is_Add and node.exp.is_Integer and abs(node.exp) > 8
                   for node in sp.preorder_traversal(expr))


def vanishes(difference: Any, method: str = "simplify") -> str | None:
    """The method that reduces ``difference`` to exactly zero, or None. A term-by-term
    expansion (with the angle-addition formulas) is tried first: it settles many steps in
    milliseconds where ``simplify`` takes a third of a second; both are equivalences."""
    if isinstance(difference, (sp.MatrixBase, sp.Tuple)):
        used = [vanishes(entry, method) for entry in difference]
        return None if None in used else ("expand" if set(used) <= {"expand"} else method)
    difference = sp.sympify(difference)
    if _expandable(difference) and _is_zero(sp.expand(difference, trig=True)):
        return "expand"
    return method if _is_zero(SIMPLIFIERS[method](difference)) else None


def _difference(a: sp.Basic, b: sp.Basic) -> Any:
    if isinstance(a, sp.Tuple) or isinstance(b, sp.Tuple):
        if not (isinstance(a, sp.Tuple) and isinstance(b, sp.Tuple) and len(a) == len(b)):
            raise ValueError("a tuple is compared with something of another shape")
        return sp.Tuple(*(_difference(x, y) for x, y in zip(a, b)))
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        return sp.Matrix(a) - sp.Matrix(b)
    return a - b


def _pairs(a: sp.Basic, b: sp.Basic) -> list[tuple[Any, Any]]:
    if isinstance(a, sp.Tuple) and isinstance(b, sp.Tuple):
        return [p for x, y in zip(a, b) for p in _pairs(x, y)]
    return [(a, b)]


@functools.lru_cache(maxsize=4096)
def _decide(a: sp.Basic, b: sp.Basic, method: str, seed: int) -> tuple[bool, str, str, int]:
    """Random points first (a point where the two differ settles it in milliseconds, and a
    foil fails fast), then SymPy. Memoized per process by the terms' structure."""
    points = None
    for x, y in _pairs(a, b):
        found, checked = numeric.disagreement(x, y, seed=seed)
        if found:
            return False, found, method, checked
        points = checked if points is None else min(points, checked)
    try:
        used = vanishes(_difference(a, b), method)
    except SYMPY_FAILURES as exc:
        return False, f"SymPy could not check this ({type(exc).__name__}: {exc})", method, 0
    except (TypeError, ValueError) as exc:
        return False, f"these cannot be compared ({exc})", method, 0
    if used is None:
        return False, f"SymPy {method} cannot show they are equal", method, points or 0
    return True, "" if points else "no numeric point could be evaluated (SymPy only)", used, \
        points or 0


def decide(a: Any, b: Any, method: str = "simplify", seed: int = 0) -> tuple[bool, str, str, int]:
    """(equal?, why not, the SymPy method that decided, numeric points that agreed)."""
    a, b = term(a), term(b)
    if same(a, b):
        return True, "", "identical", 0
    return _decide(a, b, method, seed)


def equal(a: Any, b: Any, method: str = "simplify") -> tuple[bool, str]:
    """Whether SymPy shows ``a = b`` and random points agree; the detail says why not."""
    ok, detail, _, _ = decide(a, b, method)
    return ok, detail
