"""Numeric evidence for symbolic steps: evaluate two expressions at random points.

SymPy's ``simplify``/``equals`` have known wrong answers, so every step SymPy accepts is also
evaluated at a few random points of its symbols' domains, and a disagreement fails the step.
Points respect the symbols' assumptions (positive, nonnegative, integer, ...). Symbols that
bound a sum get small integers so the sum can be expanded; indexed entries (``q[i]``) and
applications of undefined functions (``E(...)``, ``Var(...)``) are opaque to SymPy's algebra,
so each distinct one gets its own random value, the same on both sides.

The same machinery validates library rules that are computational rewrites (swapping finite
sums, sifting a Kronecker delta) on random small instances.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import sympy as sp
from sympy.core.function import AppliedUndef

from tmath.engine.point_values import Unsupported, Walker, karr_range

TRIES = 3
"""Random points tried per comparison."""
RELATIVE = sp.Rational(1, 10**10)
"""Two values agree when they differ by less than 10⁻¹⁰ of their size (30-digit arithmetic)."""
MAX_BOUND = 4
"""Largest value given to a symbol that bounds a sum (keeps expansions small)."""


def _bounding_symbols(expr: sp.Basic) -> set[sp.Symbol]:
    found: set[sp.Symbol] = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (sp.Sum, sp.Product)):
            for _, low, high in node.limits:
                found |= sp.sympify(low).free_symbols | sp.sympify(high).free_symbols
    return found


def _plain_symbols(expr: sp.Basic) -> set[sp.Symbol]:
    """Free symbols that stand for numbers: not the labels of indexed bases (``q`` in ``q[i]``)."""
    labels = {i.base.label for i in expr.atoms(sp.Indexed)}
    labels |= {b.label for b in expr.atoms(sp.IndexedBase)}
    return {s for s in expr.free_symbols if isinstance(s, sp.Symbol) and s not in labels}


def sample(symbol: sp.Symbol, rng: random.Random, bounding: bool = False) -> sp.Expr:
    """A random exact value for ``symbol`` that satisfies its assumptions."""
    if bounding:  # a sum's bound: a small whole number, so the sum can be expanded
        return sp.Integer(rng.randint(0 if symbol.is_positive is False else 1, MAX_BOUND))
    if symbol.is_integer:
        low = 1 if symbol.is_positive else 0 if symbol.is_nonnegative else -6
        high = -1 if symbol.is_negative else 9
        return sp.Integer(rng.randint(low, max(low, high)))
    numerator = rng.randint(1, 60)
    if symbol.is_positive or symbol.is_nonnegative:
        return sp.Rational(numerator, 13)
    if symbol.is_negative or symbol.is_nonpositive:
        return -sp.Rational(numerator, 13)
    return sp.Rational(numerator - 30, 13)


class _Opaque:
    """Random values for atoms SymPy treats as opaque (indexed entries, undefined functions),
    the same value for the same atom (``q[2]`` is keyed by its label and whole-number indices,
    so the mpmath walk need not build the SymPy object)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.values: dict[Any, sp.Expr] = {}

    def value(self, atom: sp.Basic) -> sp.Expr:
        if isinstance(atom, sp.Indexed) and all(i.is_Integer for i in atom.indices):
            return self.entry(atom.base, tuple(int(i) for i in atom.indices))
        if atom not in self.values:
            self.values[atom] = self._draw(_known_positive(atom))
        return self.values[atom]

    def entry(self, base: sp.IndexedBase, indices: tuple[int, ...]) -> sp.Expr:
        """The value of ``base[indices]``."""
        key = (base, indices)
        if key not in self.values:
            self.values[key] = self._draw(base.label.is_positive)
        return self.values[key]

    def _draw(self, positive: Any) -> sp.Expr:
        numerator = self.rng.randint(1, 60)
        return sp.Rational(numerator if positive else numerator - 30, 17)

    def replace(self, expr: sp.Basic) -> sp.Basic:
        atoms = list(expr.atoms(sp.Indexed)) + list(expr.atoms(AppliedUndef))
        atoms += [f for f in expr.atoms(sp.Function) if (type(f).__module__ or "").startswith("tmath")]
        return expr.xreplace({a: self.value(a) for a in atoms}) if atoms else expr


def _known_positive(atom: sp.Basic) -> bool:
    """Whether an opaque atom is known to be positive. SymPy may try to evaluate a function
    by its name (``E(2/15)`` reaches for mpmath's constant e and raises): then nothing is
    known."""
    if isinstance(atom, sp.Indexed):
        return bool(atom.base.label.is_positive)
    try:
        return bool(atom.is_positive)
    except (TypeError, ValueError, AttributeError):
        return False


def unroll(expr: sp.Basic) -> sp.Basic:
    """Sums and products with whole-number bounds written out term by term (what ``doit``
    gives, without SymPy's search for a closed form first); an empty range follows SymPy's
    (Karr's) convention: Σ_{a}^{a-1} = 0 and Σ_{a}^{b} = −Σ_{b+1}^{a−1} for b < a − 1."""
    if not isinstance(expr, sp.Basic) or not expr.has(sp.Sum, sp.Product):
        return expr
    if isinstance(expr, (sp.Sum, sp.Product)):
        return _unroll_limits(type(expr), expr.function, list(expr.limits))
    return expr.func(*[unroll(a) for a in expr.args])


def _unroll_limits(kind: type, body: sp.Basic, limits: list) -> sp.Basic:
    """``body`` summed (or multiplied) over ``limits``, innermost first: the outermost range
    is written out first, so an inner bound that depends on its index becomes a number."""
    if not limits:
        return unroll(body)
    index, low, high = limits[-1]
    low, high = unroll(low), unroll(high)
    if not (low.is_Integer and high.is_Integer):
        return kind(unroll(body), *limits[:-1], (index, low, high))
    low, high, reversed_range = karr_range(int(low), int(high))
    terms = []
    for v in range(low, high + 1):
        at = {index: sp.Integer(v)}
        inner = [(i, a.xreplace(at), b.xreplace(at)) for i, a, b in limits[:-1]]
        terms.append(_unroll_limits(kind, body.xreplace(at), inner))
    if kind is sp.Sum:
        total = sp.Add(*terms)
        return -total if reversed_range else total
    total = sp.Mul(*terms)
    return 1 / total if reversed_range else total


def _concrete(expr: sp.Basic, point: dict, opaque: _Opaque) -> complex | None:
    """The value of ``expr`` at ``point``, or None when it cannot be evaluated there: one
    walk over the tree in mpmath (:mod:`tmath.engine.point_values`), or SymPy's evaluation
    of the substituted expression for what the walk does not know."""
    try:
        number = complex(Walker(point, opaque).value(sp.sympify(expr)))
    except Unsupported:
        number = _evaluated_by_sympy(expr, point, opaque)
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError,
            OverflowError):
        return None
    if number is None or number != number or abs(number) == float("inf"):
        return None  # nan or inf: not a usable point
    return number


def _evaluated_by_sympy(expr: sp.Basic, point: dict, opaque: _Opaque) -> complex | None:
    try:
        value = unroll(sp.sympify(expr).xreplace(point))
        if value.has(sp.Sum, sp.Product, sp.Derivative, sp.Integral, sp.KroneckerDelta,
                     sp.Piecewise):
            value = value.doit()
        value = opaque.replace(value)
        return complex(sp.N(value, 30))
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError,
            NotImplementedError, OverflowError):
        return None


def _index_symbols(expr: sp.Basic) -> set[sp.Symbol]:
    """Integer symbols that pick entries or compare indices (δ(i, j), q[i]): drawn from a small
    range, so that the coincidences such terms depend on (i = j, i = j + 1) do happen."""
    found: set[sp.Symbol] = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.KroneckerDelta):
            found |= {s for a in node.args for s in sp.sympify(a).free_symbols}
        elif isinstance(node, sp.Indexed):
            found |= {s for a in node.indices for s in sp.sympify(a).free_symbols}
    return {s for s in found if isinstance(s, sp.Symbol) and s.is_integer}


def points(expressions: list[sp.Basic], seed: int = 0, tries: int = TRIES) -> Iterator[dict]:
    """Random points for the free symbols of ``expressions``."""
    rng = random.Random(seed)
    symbols = set().union(*(_plain_symbols(sp.sympify(e)) for e in expressions))
    bounding = set().union(*(_bounding_symbols(sp.sympify(e)) for e in expressions))
    indices = set().union(*(_index_symbols(sp.sympify(e)) for e in expressions))
    ordered = sorted(symbols, key=str)
    for _ in range(tries):
        yield {s: sample(s, rng, s in bounding or s in indices) for s in ordered}


def disagreement(before: Any, after: Any, seed: int = 0, tries: int = TRIES) -> tuple[str | None, int]:
    """Where ``before`` and ``after`` differ numerically, and how many points were evaluated.

    Returns ``(None, k)`` when they agree at all ``k`` points that could be evaluated.
    """
    if isinstance(before, sp.MatrixBase) or isinstance(after, sp.MatrixBase):
        a, b = sp.Matrix(before), sp.Matrix(after)
        if a.shape != b.shape:
            return f"shapes differ: {a.shape} vs {b.shape}", 0
        pairs = list(zip(a, b))
    else:
        pairs = [(before, after)]
    checked = 0
    for point in points([e for pair in pairs for e in pair], seed, tries):
        opaque = _Opaque(random.Random(seed + 7))
        values = [(_concrete(x, point, opaque), _concrete(y, point, opaque)) for x, y in pairs]
        if any(x is None or y is None for x, y in values):
            continue
        checked += 1
        for x, y in values:
            if abs(x - y) > float(RELATIVE) * max(1.0, abs(x), abs(y)):
                at = ", ".join(f"{s}={v}" for s, v in point.items()) or "every point"
                return f"numerically {_short(x)} ≠ {_short(y)} at {at}", checked
    return None, checked


def _short(value: complex) -> str:
    if abs(value.imag) < 1e-12:
        return f"{value.real:.6g}"
    return f"{value:.4g}"
