"""Numeric evidence for symbolic steps: evaluate two expressions at random points.

SymPy's ``simplify``/``equals`` have known wrong answers, so every step SymPy accepts is also
evaluated at random points of its symbols' domains, and a disagreement fails the step.
Points respect the symbols' assumptions (positive, nonnegative, integer, ...; a symbol not
known to be real also gets complex values) and, besides
ordinary values, reach large and tiny magnitudes, integer edges (0, 1) and the neighbourhood
of poles (real roots of one-variable denominators). Symbols that bound a sum get small
integers so the sum can be expanded; indexed entries (``q[i]``) and applications of undefined
functions (``E(...)``, ``Var(...)``) are opaque to SymPy's algebra, so each distinct one gets
its own random value, the same on both sides. Matrix expressions (``MatrixSymbol`` products,
transposes, inverses) are evaluated with random dense matrices of their declared shapes, a
symbolic size drawn from 2 to 4. A step no point can evaluate has no numeric evidence: the
caller sees ``points == 0`` and must say so ("SymPy only").

The same machinery validates library rules that are computational rewrites (swapping finite
sums, sifting a Kronecker delta) on random small instances.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import Any, Iterator

import sympy as sp
from sympy.core.function import AppliedUndef

from tmath.engine.point_values import DIGITS, Unsupported, Walker, karr_range

TRIES = 12
"""Points per comparison. A wrong step usually differs almost everywhere, but some differ only
at large or tiny magnitudes, at an integer edge (0, 1) or next to a pole; twelve points leave
room for each of those kinds next to ordinary values, at about a millisecond a point in the
mpmath walk (three points on one grid missed all of them)."""
ORDINARY = 3
"""The first points take ordinary values (the 1/13 grid below 5, small integers); the later
ones mix large, tiny and edge values and poles' neighbourhoods."""
SYMPY_TRIES = 3
"""How many of the points may fall back on SymPy's evaluation when the mpmath walk cannot
evaluate an expression: that road costs about 100 walks a point, so later points skip it."""
POLE_TRIES = 3
"""Points placed next to a pole (a real root of a one-variable denominator), when there is one."""
RELATIVE = sp.Rational(1, 10**10)
"""Two values agree when they differ by less than 10⁻¹⁰ of their size (30-digit arithmetic)."""
MAX_BOUND = 4
"""Largest value given to a symbol that bounds a sum (keeps expansions small)."""
MAGNITUDES = (1, 6)
"""Large values lie in 10¹…10⁶ and tiny ones in 10⁻⁶…10⁻¹ (log-uniform): far enough to
expose a wrong asymptotic term, near enough that 50-digit evaluation keeps 30 digits."""
LARGE_INTEGER = 4
"""Large integers lie in 10¹…10⁴ (an exponent of 10⁴ is still cheap for mpmath)."""
MATRIX_SIZES = (2, 4)
"""A matrix's symbolic size is drawn from this range, the same for every matrix at a point."""
KINDS = ("ordinary", "large", "small", "edge")


@dataclass(frozen=True)
class NumericEvidence:
    """What random points say about ``before = after``: ``problem`` is where they differ (None
    when they agree), ``points`` how many points could be evaluated. ``points == 0`` means no
    numeric evidence at all: the step rests on SymPy alone."""

    problem: str | None
    points: int

    @property
    def checked(self) -> bool:
        """Agreement at one point at least."""
        return self.problem is None and self.points > 0

    def describe(self) -> str:
        if self.problem:
            return self.problem
        if not self.points:
            return "SymPy only: no point could be evaluated numerically"
        return f"agrees at {self.points} random points"


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


def _sign_of(symbol: sp.Symbol, rng: random.Random) -> int:
    """+1 or −1 as the symbol's sign assumptions allow (either, at random, when free)."""
    if symbol.is_nonnegative:
        return 1
    if symbol.is_nonpositive:
        return -1
    return rng.choice((1, -1))


def _magnitude(rng: random.Random, low: float, high: float) -> sp.Rational:
    """10ᵘ for u uniform in [low, high], to six significant digits (an exact decimal)."""
    u = rng.uniform(low, high)
    whole = math.floor(u)
    return sp.Rational(round(10 ** (u - whole + 5))) * sp.Rational(10) ** (whole - 5)


@functools.lru_cache(maxsize=4096)
def _sign_assumptions(symbol: sp.Symbol) -> tuple[bool, bool, bool, bool, bool]:
    """positive, nonnegative, negative, nonpositive, nonzero: what the symbol's assumptions
    say for certain (asked once per symbol)."""
    return (bool(symbol.is_positive), bool(symbol.is_nonnegative), bool(symbol.is_negative),
            bool(symbol.is_nonpositive), symbol.is_zero is False)


def _allowed(symbol: sp.Symbol, value: sp.Expr) -> bool:
    """Does ``value`` (a rational) satisfy the symbol's sign assumptions?"""
    v = value.p if value.q == 1 else float(value)  # the sign is all that matters
    positive, nonnegative, negative, nonpositive, nonzero = _sign_assumptions(symbol)
    return not ((positive and v <= 0) or (nonnegative and v < 0) or (negative and v >= 0) or
                (nonpositive and v > 0) or (nonzero and v == 0))


EDGES = tuple(sp.Integer(v) for v in (0, 1, -1, 2, -2))
"""Integer edges: where off-by-one and sign errors show."""
REAL_EDGES = EDGES[:3] + (sp.Rational(1, 2), -sp.Rational(1, 2), sp.Integer(2))


def _edge(symbol: sp.Symbol, rng: random.Random, candidates: tuple) -> sp.Expr | None:
    allowed = [v for v in candidates if _allowed(symbol, v)]
    return rng.choice(allowed) if allowed else None


def sample(symbol: sp.Symbol, rng: random.Random, bounding: bool = False,
           kind: str = "ordinary") -> sp.Expr:
    """A random exact value for ``symbol`` that satisfies its assumptions; ``kind`` is one of
    :data:`KINDS` (a sum's bound only ever gets a small whole number)."""
    if bounding:  # a sum's bound: a small whole number, so the sum can be expanded
        if kind == "edge":
            value = _edge(symbol, rng, EDGES)
            if value is not None:
                return value
        return sp.Integer(rng.randint(0 if symbol.is_positive is False else 1, MAX_BOUND))
    if kind == "edge" or (kind == "small" and symbol.is_integer):
        value = _edge(symbol, rng, EDGES if symbol.is_integer else REAL_EDGES)
        if value is not None:
            return value
    elif kind == "large" and symbol.is_integer:
        return _sign_of(symbol, rng) * sp.Integer(round(10 ** rng.uniform(1, LARGE_INTEGER)))
    elif kind in ("large", "small"):
        low, high = MAGNITUDES
        exponents = (low, high) if kind == "large" else (-high, -low)
        return _sign_of(symbol, rng) * _magnitude(rng, *exponents)
    return _ordinary(symbol, rng)


def _ordinary(symbol: sp.Symbol, rng: random.Random) -> sp.Expr:
    """Small integers, or multiples of 1/13 below 5 in size; for a symbol not known to be
    real, half the time a complex number (an identity true on the reals only, log(eᶻ) = z,
    must not pass for it)."""
    if symbol.is_real is None and symbol.is_integer is None and rng.random() < 0.5:
        return sp.Rational(rng.randint(1, 60) - 30, 13) + sp.I * sp.Rational(rng.randint(1, 60), 13)
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


def _denominators(expr: sp.Basic) -> set[sp.Basic]:
    """Bases raised to a negative number in ``expr``."""
    return {node.base for node in sp.preorder_traversal(expr)
            if isinstance(node, sp.Pow) and node.exp.is_number and node.exp.is_negative}


@functools.lru_cache(maxsize=2048)
def _real_roots(base: sp.Basic, symbol: sp.Symbol) -> tuple[sp.Rational, ...]:
    """Real roots of ``base`` (a polynomial of degree ≤ 4 in ``symbol`` alone), to 20 digits;
    nothing when it is not such a polynomial (finding roots must stay cheap)."""
    try:
        if not base.is_polynomial(symbol):
            return ()
        poly = sp.Poly(base, symbol)
        if poly.degree() > 4 or poly.degree() < 1:
            return ()
        return tuple(sp.Rational(str(sp.N(r, 20))) for r in poly.real_roots())
    except (sp.PolynomialError, ValueError, TypeError, NotImplementedError):
        return ()


def _near_poles(expressions: list[sp.Basic], symbols: list[sp.Symbol],
                rng: random.Random) -> list[tuple[sp.Symbol, sp.Expr]]:
    """(symbol, value) pairs a small step (10⁻⁸…10⁻³, relative) to either side of a real root
    of a denominator that depends on that symbol alone, within the symbol's domain."""
    found = []
    for expr in expressions:
        for base in _denominators(expr):
            free = base.free_symbols
            if len(free) != 1 or next(iter(free)) not in symbols:
                continue
            symbol = next(iter(free))
            for root in _real_roots(base, symbol):
                for side in (1, -1):
                    step = sp.Rational(1, 10 ** rng.randint(3, 8)) * max(1, abs(root))
                    if _allowed(symbol, root + side * step):
                        found.append((symbol, root + side * step))
    return found


class _Opaque:
    """Random values for atoms SymPy treats as opaque (indexed entries, undefined functions),
    the same value for the same atom (``q[2]`` is keyed by its label and whole-number indices,
    so the mpmath walk need not build the SymPy object). With ``complex_values``, an atom not
    known to be real gets a complex value half the time, as a plain symbol does."""

    def __init__(self, rng: random.Random, complex_values: bool = False) -> None:
        self.rng = rng
        self.complex_values = complex_values
        self.values: dict[Any, sp.Expr] = {}

    def value(self, atom: sp.Basic) -> sp.Expr:
        if isinstance(atom, sp.Indexed) and all(i.is_Integer for i in atom.indices):
            return self.entry(atom.base, tuple(int(i) for i in atom.indices))
        if atom not in self.values:
            self.values[atom] = self._draw(_known(atom, "positive"), _known(atom, "real"))
        return self.values[atom]

    def entry(self, base: sp.IndexedBase, indices: tuple[int, ...]) -> sp.Expr:
        """The value of ``base[indices]``."""
        key = (base, indices)
        if key not in self.values:
            self.values[key] = self._draw(base.label.is_positive, base.label.is_real)
        return self.values[key]

    def _draw(self, positive: Any, real: Any = True) -> sp.Expr:
        numerator = self.rng.randint(1, 60)
        value = sp.Rational(numerator if positive else numerator - 30, 17)
        if self.complex_values and not real and self.rng.random() < 0.5:
            return value + sp.I * sp.Rational(self.rng.randint(1, 60), 13)
        return value

    def replace(self, expr: sp.Basic) -> sp.Basic:
        atoms = list(expr.atoms(sp.Indexed)) + list(expr.atoms(AppliedUndef))
        atoms += [f for f in expr.atoms(sp.Function) if (type(f).__module__ or "").startswith("tmath")]
        return expr.xreplace({a: self.value(a) for a in atoms}) if atoms else expr


def _known(atom: sp.Basic, assumption: str) -> bool:
    """Whether an opaque atom is known to be ``positive`` or ``real``. SymPy may try to
    evaluate a function by its name (``E(2/15)`` reaches for mpmath's constant e and raises):
    then nothing is known."""
    if isinstance(atom, sp.Indexed):
        return bool(getattr(atom.base.label, f"is_{assumption}"))
    try:
        return bool(getattr(atom, f"is_{assumption}"))
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


def _concrete(expr: sp.Basic, point: dict, opaque: _Opaque,
              sympy_road: bool = True, digits: int = DIGITS) -> complex | None:
    """The value of ``expr`` at ``point``, or None when it cannot be evaluated there: one
    walk over the tree in mpmath (:mod:`tmath.engine.point_values`) with ``digits``, or
    (``sympy_road``) SymPy's evaluation of the substituted expression for what the walk does
    not know."""
    try:
        number = complex(Walker(point, opaque, digits).value(sp.sympify(expr)))
    except Unsupported:
        number = _evaluated_by_sympy(expr, point, opaque) if sympy_road else None
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
    """Random points for the free symbols of ``expressions``: :data:`ORDINARY` ordinary ones
    first, then up to :data:`POLE_TRIES` next to poles, then a mix of large, tiny, edge and
    ordinary values (each symbol's kind drawn on its own)."""
    rng = random.Random(seed)
    exprs = [sp.sympify(e) for e in expressions]
    symbols = set().union(*(_plain_symbols(e) for e in exprs))
    small = set().union(*(_bounding_symbols(e) | _index_symbols(e) for e in exprs))
    ordered = sorted(symbols, key=str)
    continuous = [s for s in ordered if s not in small and not s.is_integer]
    near = _near_poles(exprs, continuous, random.Random(seed + 1)) if tries > ORDINARY else []
    for k in range(tries):
        if k < ORDINARY:
            yield {s: sample(s, rng, s in small) for s in ordered}
            continue
        pole = near[(k - ORDINARY) % len(near)] if near and k < ORDINARY + POLE_TRIES else None
        point = {}
        for s in ordered:
            kind = "ordinary" if pole else rng.choice(KINDS)
            point[s] = pole[1] if pole and s == pole[0] else sample(s, rng, s in small, kind)
        yield point


def evidence(before: Any, after: Any, seed: int = 0, tries: int = TRIES) -> NumericEvidence:
    """Whether ``before`` and ``after`` agree at ``tries`` random points drawn from ``seed``
    (the kernel passes one derived from the claim), and at how many points both could be
    evaluated. Matrix expressions are evaluated with random matrices of their shapes."""
    if _has_matrix_symbols(before) or _has_matrix_symbols(after):
        return _matrix_evidence(before, after, seed, tries)
    if isinstance(before, sp.MatrixBase) or isinstance(after, sp.MatrixBase):
        a, b = sp.Matrix(before), sp.Matrix(after)
        if a.shape != b.shape:
            return NumericEvidence(f"shapes differ: {a.shape} vs {b.shape}", 0)
        pairs = list(zip(a, b))
    else:
        pairs = [(before, after)]
    checked = 0
    for k, point in enumerate(points([e for pair in pairs for e in pair], seed, tries)):
        opaque = _Opaque(random.Random(seed + 7 + k), complex_values=True)
        road = k < SYMPY_TRIES
        values = [(_concrete(x, point, opaque, road), _concrete(y, point, opaque, road))
                  for x, y in pairs]
        if any(x is None or y is None for x, y in values):
            continue
        problem = _differ(values, point)
        if problem:  # a counterexample only if twice the digits say the same
            precise = [(_concrete(x, point, opaque, road, 2 * DIGITS),
                        _concrete(y, point, opaque, road, 2 * DIGITS)) for x, y in pairs]
            if any(x is None or y is None for x, y in precise) or \
                    _differ(list(zip([v for pair in values for v in pair],
                                     [v for pair in precise for v in pair])), point):
                continue  # rounding decides this point (cancellation, a huge exponent)
            problem = _differ(precise, point)
        checked += 1
        if problem:
            return NumericEvidence(problem, checked)
    return NumericEvidence(None, checked)


def disagreement(before: Any, after: Any, seed: int = 0,
                 tries: int = TRIES) -> tuple[str | None, int]:
    """Where ``before`` and ``after`` differ numerically, and how many points were evaluated.

    Returns ``(None, k)`` when they agree at all ``k`` points that could be evaluated;
    ``(None, 0)`` means no numeric evidence (see :func:`evidence`).
    """
    found = evidence(before, after, seed, tries)
    return found.problem, found.points


def _differ(values: list[tuple[complex, complex]], point: dict) -> str | None:
    for x, y in values:
        if abs(x - y) > float(RELATIVE) * max(1.0, abs(x), abs(y)):
            at = ", ".join(f"{s}={_short_value(v)}" for s, v in point.items()) or "every point"
            return f"numerically {_short(x)} ≠ {_short(y)} at {at}"
    return None


def _short_value(value: Any) -> str:
    """A point's coordinate for a message (a matrix by its shape)."""
    if isinstance(value, sp.MatrixBase):
        return f"a random {value.rows}×{value.cols} matrix"
    return str(value)


# -- matrices ---------------------------------------------------------------------------------

_SIZED = (sp.MatrixSymbol, sp.Identity, sp.ZeroMatrix, sp.OneMatrix)


def _has_matrix_symbols(expr: Any) -> bool:
    if isinstance(expr, sp.MatrixExpr) and not isinstance(expr, sp.MatrixBase):
        return True
    if isinstance(expr, sp.MatrixBase):
        return any(isinstance(e, sp.Basic) and e.has(sp.MatrixSymbol) for e in expr)
    return isinstance(expr, sp.Basic) and expr.has(sp.MatrixSymbol)


def _matrix_atoms(expr: Any) -> set[sp.Basic]:
    if isinstance(expr, sp.MatrixBase):
        return set().union(*(sp.sympify(e).atoms(*_SIZED) for e in expr))
    return sp.sympify(expr).atoms(*_SIZED)


def _scalars(expr: Any) -> list[sp.Basic]:
    return [sp.sympify(e) for e in expr] if isinstance(expr, sp.MatrixBase) else [expr]


def _matrix_evidence(before: Any, after: Any, seed: int, tries: int) -> NumericEvidence:
    """``before = after`` for matrix expressions, with a random dense matrix of its declared
    shape for each ``MatrixSymbol`` (one size from :data:`MATRIX_SIZES` per symbolic size)."""
    atoms = _matrix_atoms(before) | _matrix_atoms(after)
    sizes = sorted(set().union(*(sp.sympify(d).free_symbols for a in atoms for d in a.shape)),
                   key=str)
    rng = random.Random(seed + 3)
    exprs = [sp.sympify(e) for e in _scalars(before) + _scalars(after)]
    checked = 0
    for k, point in enumerate(points(exprs, seed, tries)):
        point.update({d: sp.Integer(rng.randint(*MATRIX_SIZES)) for d in sizes})
        matrices = _random_matrices(atoms, point, rng)
        if matrices is None:
            continue
        opaque = _Opaque(random.Random(seed + 7))
        x, y = _entries(before, point, matrices, opaque), _entries(after, point, matrices, opaque)
        if x is None or y is None:
            continue
        if len(x) != len(y):
            return NumericEvidence(f"shapes differ: {len(x)} vs {len(y)} entries", checked)
        checked += 1
        problem = _differ(list(zip(x, y)), {**point, **matrices})
        if problem:
            return NumericEvidence(problem, checked)
    return NumericEvidence(None, checked)


def _random_matrices(atoms: set[sp.Basic], point: dict,
                     rng: random.Random) -> dict[sp.Basic, sp.ImmutableMatrix] | None:
    """A dense random matrix (entries k/17, |k| ≤ 40) for each matrix symbol, or None when
    a shape is not a positive whole number at ``point``."""
    matrices = {}
    for atom in sorted((a for a in atoms if isinstance(a, sp.MatrixSymbol)), key=str):
        rows, cols = (sp.sympify(d).xreplace(point) for d in atom.shape)
        if not (rows.is_Integer and cols.is_Integer and rows > 0 and cols > 0):
            return None
        matrices[atom] = sp.ImmutableMatrix(int(rows), int(cols), lambda i, j: sp.Rational(
            rng.randint(-40, 40), 17))
    return matrices


def _entries(expr: Any, point: dict, matrices: dict, opaque: _Opaque) -> list[complex] | None:
    """The entries (one for a scalar) of ``expr`` with the point and matrices substituted."""
    try:
        value = sp.sympify(expr).xreplace({**point, **matrices}).doit()
        if isinstance(value, sp.MatrixExpr) and not isinstance(value, sp.MatrixBase):
            value = value.as_explicit()
        entries = list(value) if isinstance(value, sp.MatrixBase) else [value]
        numbers = [complex(sp.N(opaque.replace(sp.sympify(e)), 30)) for e in entries]
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError,
            NotImplementedError, OverflowError, sp.matrices.exceptions.MatrixError):
        return None
    if any(v != v or abs(v) == float("inf") for v in numbers):
        return None
    return numbers


def _short(value: complex) -> str:
    if abs(value.imag) < 1e-12:
        return f"{value.real:.6g}"
    return f"{value:.4g}"
