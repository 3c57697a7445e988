"""One form for expressions that mean the same, whoever wrote them (a claim or the reader).

:func:`canonical` renames what only spelling distinguishes: bound variables (Σᵢ and Σⱼ),
indexed names (``q[i]`` from the reader, the symbol ``q_i`` in a claim), symbol assumptions
(the reader knows none), Greek letters spelt as Unicode or as names. What cannot be evaluated
numerically (E[·], Var(·), softmax, sums with symbolic bounds, products of matrices, undefined
functions) becomes an *opaque atom*: a symbol named after its canonical structure, so the same
construction written twice is the same atom and a different one is another.

:func:`values` evaluates a canonical expression at seeded pseudo-random points (every symbol,
atom or not, gets a value in [0.5, 2.5] from a hash of its name and the point), which is what
:mod:`tmath.meaning.compare` compares.
"""

from __future__ import annotations

import functools
import unicodedata

import sympy as sp

from tmath.meaning.points import POINTS, value_of

MAX_OPERATIONS = 400
"""Larger expressions are not expanded for an atom's name (expansion can grow exponentially)."""

_ELEMENTARY = (sp.exp, sp.log, sp.sin, sp.cos, sp.tan, sp.tanh, sp.sinh, sp.cosh, sp.atan,
               sp.Abs, sp.sign, sp.Max, sp.Min, sp.erf, sp.gamma, sp.factorial, sp.floor,
               sp.ceiling, sp.binomial)
_ARITHMETIC = (sp.Add, sp.Mul, sp.Pow)
SCALAR_VALUED = frozenset({"E", "Var", "Cov", "KL", "H", "Norm", "ArgMin", "Inner"})
"""Operators whose value is a number even of matrices (Var(qᵀk)): their atoms commute."""


def canonical(expr: sp.Basic) -> sp.Expr:
    """``expr`` with bound variables, indexed names and assumptions normalised and every part
    that cannot be evaluated replaced by an opaque atom."""
    return _canonical(sp.sympify(expr, strict=True), 0)


@functools.lru_cache(maxsize=8192)
def _name(name: str) -> str:
    """``d_{model}`` and ``d_model``, ``β_1`` and ``beta_1`` are one name."""
    out = []
    for char in name.replace("{", "").replace("}", "").replace("\\", ""):
        if ord(char) > 127 and unicodedata.category(char).startswith("L"):
            words = unicodedata.name(char, "").split()
            if "GREEK" in words:
                letter = words[-1].lower()
                out.append(letter.capitalize() if "CAPITAL" in words else letter)
                continue
        out.append(char)
    return "".join(out)


def _symbol(name: str, commutative: bool = True) -> sp.Symbol:
    return sp.Symbol(_name(name), commutative=commutative)


def _canonical(e: sp.Basic, depth: int) -> sp.Basic:
    if e.is_Number or e in (sp.pi, sp.E, sp.oo, -sp.oo, sp.zoo, sp.nan, sp.I):
        return e
    if isinstance(e, sp.Indexed):
        indices = [_canonical(i, depth) for i in e.indices]
        return _symbol("_".join([str(e.base.label), *map(str, indices)]), e.is_commutative)
    if isinstance(e, sp.IndexedBase):
        return _symbol(str(e.label))
    if isinstance(e, sp.Symbol):   # Dummy included
        return _symbol(e.name, e.is_commutative is not False)
    if isinstance(e, sp.concrete.expr_with_limits.ExprWithLimits):
        return _bound(e, depth)
    if isinstance(e, _ARITHMETIC) and not isinstance(e, sp.MatrixExpr):
        rebuilt = e.func(*(_canonical(a, depth) for a in e.args))
        if isinstance(rebuilt, sp.Mul) and not rebuilt.is_commutative:
            scalars, ordered = rebuilt.args_cnc()   # the ordered factors: one atom, in order
            return sp.Mul(*scalars) * _atom(sp.Mul(*ordered, evaluate=False))
        if not rebuilt.is_commutative:
            return _atom(rebuilt)
        return rebuilt
    if isinstance(e, _ELEMENTARY) or (e.is_Function and e.func in _ELEMENTARY):
        return e.func(*(_canonical(a, depth) for a in e.args))
    if isinstance(e, sp.Tuple):
        return sp.Tuple(*(_canonical(a, depth) for a in e.args))
    if not e.args:
        return _atom(e)
    if type(e).__name__ == "ArgMax" and len(e.args) == 2:   # argmax f = argmin (−f)
        return _canonical(_argmin()(-e.args[0], e.args[1]), depth)
    try:
        rebuilt = e.func(*(_canonical(a, depth) for a in e.args))
    except Exception:   # a construction that refuses canonical arguments keeps its own
        rebuilt = e
    return _atom(rebuilt)


def _argmin():
    from tmath.latex.operators import ArgMin

    return ArgMin


def _bound(e: sp.Basic, depth: int) -> sp.Basic:
    """Σ, Π, ∫ with their variables renamed by nesting depth (Σᵢ and Σⱼ are one sum)."""
    body, limits = e.function, []
    for k, limit in enumerate(e.limits):
        variable = limit[0]
        renamed = sp.Symbol(f"_b{depth}_{k}")   # every symbol of that name: assumptions differ
        body = body.xreplace({s: renamed for s in body.free_symbols | {variable}
                              if isinstance(s, sp.Symbol) and s.name == variable.name})
        limits.append((renamed, *[_canonical(b, depth) for b in limit[1:]]))
    rebuilt = e.func(_canonical(body, depth + 1), *limits)
    return _atom(rebuilt)


def _atom(e: sp.Basic, commutative: bool | None = None) -> sp.Symbol:
    """An opaque atom named after ``e``'s structure (commutative sums expanded first). It
    commutes only if ``e`` does: softmax(QKᵀ)·V keeps its order in a product."""
    if commutative is None:
        commutative = type(e).__name__ in SCALAR_VALUED or e.is_commutative is not False
    return sp.Symbol("⟪" + sp.sstr(_expanded(e), order="lex") + "⟫", commutative=commutative)


def _expanded(e: sp.Basic) -> sp.Basic:
    if not e.args:
        return e
    args = [_expanded(a) for a in e.args]
    try:
        rebuilt = e.func(*args)
    except Exception:
        return e
    if isinstance(rebuilt, sp.Expr) and rebuilt.is_commutative and sp.count_ops(rebuilt) < MAX_OPERATIONS:
        return sp.expand(rebuilt)
    return rebuilt


def point_values(symbols, point: int) -> dict[sp.Symbol, sp.Float]:
    """The value each symbol takes at random point ``point`` (a hash of its name: the same
    name has the same value in every expression, so two expressions can be compared)."""
    return {s: sp.Float(value_of(s.name, point), 30) for s in symbols}


DIGITS = 25
"""Working precision of an evaluation: a difference of two sides keeps about 10 more digits
than :data:`RELATIVE` asks for."""


def values(expr: sp.Expr) -> tuple[complex | None, ...]:
    """``expr`` (canonical) at the :data:`POINTS` random points; None where undefined."""
    found = []
    free = expr.free_symbols
    for point in range(POINTS):
        try:
            number = complex(sp.N(expr.xreplace(point_values(free, point)), DIGITS))
        except (TypeError, ValueError, OverflowError, ZeroDivisionError, RecursionError):
            number = None
        if number is not None and (number != number or abs(number) == float("inf")):
            number = None
        found.append(number)
    return tuple(found)

