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
from typing import Mapping

import sympy as sp

from tmath.meaning.points import POINTS, value_of

MAX_KNOWN_STEPS = 8
"""Known equalities followed from one atom at most (a cycle stops there)."""
MAX_OPERATIONS = 400
"""Larger expressions are not expanded for an atom's name (expansion can grow exponentially)."""

_ELEMENTARY = (sp.exp, sp.log, sp.sin, sp.cos, sp.tan, sp.tanh, sp.sinh, sp.cosh, sp.atan,
               sp.Abs, sp.sign, sp.Max, sp.Min, sp.erf, sp.gamma, sp.factorial, sp.floor,
               sp.ceiling, sp.binomial)
_ARITHMETIC = (sp.Add, sp.Mul, sp.Pow)
SCALAR_VALUED = frozenset({"E", "Var", "Cov", "KL", "H", "Norm", "ArgMin", "Inner"})
"""Operators whose value is a number even of matrices (Var(qᵀk)): their atoms commute."""


def canonical(expr: sp.Basic, known: Mapping[sp.Symbol, tuple[sp.Expr, str]] | None = None,
              used: set[str] | None = None) -> sp.Expr:
    """``expr`` with bound variables, indexed names and assumptions normalised and every part
    that cannot be evaluated replaced by an opaque atom.

    ``known`` maps atoms to what they are known to equal (canonical) and why (``premise``,
    ``lemma``…): each is put in where the atom arises, inside other atoms too; the reasons
    of those put in are added to ``used``."""
    return _Canon(known or {}, used if used is not None else set()).run(
        sp.sympify(expr, strict=True), 0)


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


class _Canon:
    """One canonicalisation: the known equalities to put in, and the reasons used."""

    def __init__(self, known: Mapping[sp.Symbol, tuple[sp.Expr, str]], used: set[str]) -> None:
        self.known, self.used = known, used

    def run(self, e: sp.Basic, depth: int) -> sp.Basic:
        if e.is_Number or e in (sp.pi, sp.E, sp.oo, -sp.oo, sp.zoo, sp.nan, sp.I):
            return e
        if isinstance(e, sp.Indexed):
            indices = [self.run(i, depth) for i in e.indices]
            made = _symbol("_".join([str(e.base.label), *map(str, indices)]), e.is_commutative)
            _BASE_OF.setdefault(made.name, _name(str(e.base.label)))
            return made
        if isinstance(e, sp.IndexedBase):
            return _symbol(str(e.label))
        if isinstance(e, sp.Symbol):   # Dummy included
            return _symbol(e.name, e.is_commutative is not False)
        if isinstance(e, sp.concrete.expr_with_limits.ExprWithLimits):
            return self.bound(e, depth)
        if isinstance(e, _ARITHMETIC) and not isinstance(e, sp.MatrixExpr):
            rebuilt = e.func(*(self.run(a, depth) for a in e.args))
            if isinstance(rebuilt, sp.Mul) and not rebuilt.is_commutative:
                scalars, ordered = rebuilt.args_cnc()   # the ordered factors: one atom, in order
                return sp.Mul(*scalars) * self.atom(sp.Mul(*ordered, evaluate=False))
            if not rebuilt.is_commutative:
                return self.atom(rebuilt)
            return rebuilt
        if isinstance(e, _ELEMENTARY) or (e.is_Function and e.func in _ELEMENTARY):
            return e.func(*(self.run(a, depth) for a in e.args))
        if isinstance(e, sp.Tuple):
            return sp.Tuple(*(self.run(a, depth) for a in e.args))
        if not e.args:
            return self.atom(e)
        name = type(e).__name__
        if name == "ArgMax" and len(e.args) == 2:   # argmax f = argmin (−f)
            return self.run(_argmin()(-e.args[0], e.args[1]), depth)
        if name == "SumOver" and len(e.args) == 2 and isinstance(e.args[1], sp.Symbol):
            return self.bound_over(e, depth)   # Σ_j and Σ_r with the range unprinted
        if name == "ArgMin" and len(e.args) == 2:
            return self.atom(_argmin()(*self.argmin_parts(e.args[0], e.args[1], depth)))
        try:
            rebuilt = e.func(*(self.run(a, depth) for a in e.args))
        except Exception:   # a construction that refuses canonical arguments keeps its own
            rebuilt = e
        return self.atom(rebuilt)

    def argmin_parts(self, f: sp.Basic, variable: sp.Basic, depth: int) -> tuple:
        """argmin over v of f: the terms of f that do not involve v do not move it."""
        f, v = self.run(f, depth), self.run(variable, depth)
        if isinstance(f, sp.Add) and isinstance(v, sp.Symbol):
            moving = [t for t in f.args if v.name in depends(t)]
            if moving:
                f = sp.Add(*moving)
        return f, v

    def bound(self, e: sp.Basic, depth: int) -> sp.Basic:
        """Σ, Π, ∫ with their variables renamed by nesting depth (Σᵢ and Σⱼ are one sum)."""
        body, limits = e.function, []
        for k, limit in enumerate(e.limits):
            variable = limit[0]
            renamed = sp.Symbol(f"_b{depth}_{k}")   # every symbol of that name: assumptions differ
            body = body.xreplace({s: renamed for s in body.free_symbols | {variable}
                                  if isinstance(s, sp.Symbol) and s.name == variable.name})
            limits.append((renamed, *[self.run(b, depth) for b in limit[1:]]))
        return self.atom(e.func(self.run(body, depth + 1), *limits))

    def bound_over(self, e: sp.Basic, depth: int) -> sp.Basic:
        """``SumOver(body, j)``: its variable renamed by nesting depth, as :meth:`bound`."""
        body, variable = e.args
        renamed = sp.Symbol(f"_b{depth}_0")
        body = body.xreplace({s: renamed for s in body.free_symbols
                              if isinstance(s, sp.Symbol) and s.name == variable.name})
        return self.atom(e.func(self.run(body, depth + 1), renamed))

    def atom(self, e: sp.Basic) -> sp.Basic:
        """``e``'s atom, or what it is known to equal."""
        made = _atom(e)
        for _ in range(MAX_KNOWN_STEPS):   # what it equals may be known in turn (a ≡ b ≡ c)
            if made not in self.known:
                break
            made, why = self.known[made]
            self.used.add(why)
        return made


def _argmin():
    from tmath.latex.operators import ArgMin

    return ArgMin


def _atom(e: sp.Basic, commutative: bool | None = None) -> sp.Symbol:
    """An opaque atom named after ``e``'s structure (commutative sums expanded first). It
    commutes only if ``e`` does: softmax(QKᵀ)·V keeps its order in a product."""
    if commutative is None:
        commutative = type(e).__name__ in SCALAR_VALUED or e.is_commutative is not False
    made = sp.Symbol("⟪" + sp.sstr(_expanded(e), order="lex") + "⟫", commutative=commutative)
    _DEPENDS.setdefault(made.name, depends(e))
    return made


_DEPENDS: dict[str, frozenset[str]] = {}
"""The plain names each atom's expression involves (through inner atoms too)."""


def depends(e: sp.Basic) -> frozenset[str]:
    """The plain names ``e`` involves, looking inside its atoms."""
    names: set[str] = set()
    for s in e.free_symbols:
        if isinstance(s, sp.Symbol) and s.name.startswith("⟪"):
            names |= _DEPENDS.get(s.name, frozenset())
        elif isinstance(s, sp.Symbol):
            names.add(s.name)
            if s.name in _BASE_OF:   # q_i involves q
                names.add(_BASE_OF[s.name])
    return frozenset(names)


_BASE_OF: dict[str, str] = {}
"""The name of the vector an entry's symbol was made from (``q_i`` → ``q``)."""


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

