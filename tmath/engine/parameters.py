"""Parameters of a randomized check, drawn from the statement's domain.

A statement that holds for every d_k, every β in (0, 1) or every temperature is not checked
at one value of them: a check draws its parameters from declared domains, edge values first
(the smallest legal size, the largest, β near 1), then values spread over the domain and off
its edges (at least one point strictly inside), from the claim's own seeded stream. Every test records the point it ran at, so the JSON of ``verify``
shows the drawn values and they change with ``--seed``. It is the empirical counterpart of a
proof's ``for_cases``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence, Protocol

import numpy as np


@dataclass(frozen=True)
class Integers:
    """Whole numbers in [low, high]; drawn log-uniformly when the range spans decades.
    ``edges`` are always among the draws (default: both ends)."""

    low: int
    high: int
    edges: tuple[int, ...] | None = None
    log: bool | None = None

    def edge_values(self) -> tuple[int, ...]:
        return tuple(self.edges) if self.edges is not None else tuple(dict.fromkeys((self.low, self.high)))

    def draw(self, rng: np.random.Generator) -> int:
        log = self.log if self.log is not None else self.low >= 1 and self.high / self.low > 20
        if log and self.low >= 1:
            value = math.floor(math.exp(rng.uniform(math.log(self.low), math.log(self.high + 1))))
            return int(min(max(value, self.low), self.high))
        return int(rng.integers(self.low, self.high + 1))

    def draw_off_edges(self, rng: np.random.Generator, strict: bool) -> int | None:
        """A draw that is none of the edge values (nor ``low`` or ``high`` when ``strict``),
        or None when the range holds no such integer."""
        avoid = set(_avoided(self, strict))
        if self.high - self.low + 1 <= sum(1 for v in avoid if self.low <= v <= self.high):
            return None
        value = _redraw(self, rng, avoid)
        if value is None:  # the domain's own law rarely leaves the avoided values: go uniform
            while value is None or value in avoid:
                value = int(rng.integers(self.low, self.high + 1))
        return value


@dataclass(frozen=True)
class Reals:
    """Real numbers in [low, high] (uniform, or log-uniform with ``log=True``); ``edges`` are
    among the draws (default: both ends)."""

    low: float
    high: float
    edges: tuple[float, ...] | None = None
    log: bool = False

    def edge_values(self) -> tuple[float, ...]:
        return tuple(self.edges) if self.edges is not None else (self.low, self.high)

    def draw(self, rng: np.random.Generator) -> float:
        if self.log:  # exp(log(x)) may round one ulp outside the interval
            value = math.exp(rng.uniform(math.log(self.low), math.log(self.high)))
            return float(min(max(value, self.low), self.high))
        return float(rng.uniform(self.low, self.high))

    def draw_off_edges(self, rng: np.random.Generator, strict: bool) -> float | None:
        """A draw that is none of the edge values (nor ``low`` or ``high`` when ``strict``),
        or None when the interval is a single point."""
        return _redraw(self, rng, set(_avoided(self, strict))) if self.low < self.high else None


@dataclass(frozen=True)
class Choice:
    """One of a few named options (a distribution, a mask kind); each is drawn in turn."""

    options: tuple[Any, ...]

    def edge_values(self) -> tuple[Any, ...]:
        return tuple(self.options)

    def draw(self, rng: np.random.Generator) -> Any:
        return self.options[int(rng.integers(len(self.options)))]

    def draw_off_edges(self, rng: np.random.Generator, strict: bool) -> None:
        """None: every option is an edge value (each is drawn in turn)."""
        return None


Domain = Integers | Reals | Choice
MAX_REDRAWS = 64
"""Draws of a domain's own law before a value off its edges is given up (or, for integers,
drawn uniformly from the allowed ones)."""


class _Drawable(Protocol):
    def edge_values(self) -> tuple[Any, ...]: ...
    def draw(self, rng: np.random.Generator) -> Any: ...


def _avoided(domain: Integers | Reals, strict: bool) -> tuple[Any, ...]:
    """The values an off-edge draw must avoid: the edges, and the ends when ``strict``."""
    return domain.edge_values() + ((domain.low, domain.high) if strict else ())


def _redraw(domain: _Drawable, rng: np.random.Generator, avoid: set) -> Any:
    """The first of up to MAX_REDRAWS draws of ``domain`` not in ``avoid``, else None."""
    for _ in range(MAX_REDRAWS):
        value = domain.draw(rng)
        if value not in avoid:
            return value
    return None


def draw_off_edges(domain: _Drawable, rng: np.random.Generator, strict: bool = False) -> Any:
    """A value of ``domain`` that is none of its edge values (and, when ``strict``, strictly
    inside its range), or None when it has no such value. A domain defined elsewhere with only
    ``edge_values`` and ``draw`` is redrawn until it leaves its edges."""
    method = getattr(domain, "draw_off_edges", None)
    if method is not None:
        return method(rng, strict)
    return _redraw(domain, rng, set(domain.edge_values()))


@dataclass(frozen=True)
class Point:
    """One drawn combination of parameter values. ``point[d_k]`` (or ``point["d_k"]``) is the
    value; ``point.value(expr)`` evaluates a statement's value there."""

    values: tuple[tuple[str, Any], ...]
    symbols: tuple[Any, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        name = str(key)
        for k, v in self.values:
            if k == name:
                return v
        raise KeyError(name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("values", "symbols"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_show(v)}" for k, v in self.values)

    def substitutions(self) -> dict:
        return {s: v for s, (_, v) in zip(self.symbols, self.values) if not isinstance(s, str)}

    def value(self, expr: Any, data: Mapping[Any, Any] | None = None) -> Any:
        """``expr`` at this point as floats (a tuple stays a tuple, a matrix becomes an array);
        a part that does not evaluate to a finite real number becomes NaN, so the test that
        uses it fails instead of raising.

        The point's numbers are put in and SymPy evaluates in double precision, operation by
        operation as ``expr`` is written. ``data`` maps an ``IndexedBase`` to the array of its
        entries, numbered from 1 (``x[1]`` is ``values[0]``): sums over them are then added
        up in NumPy (:func:`tmath.reference.indexed.values`); an entry outside the array, as
        a foil with a shifted index asks for, makes the value NaN."""
        if data is None:
            return evaluate(expr, self.substitutions())
        if isinstance(expr, (tuple, list)):
            return tuple(self.value(e, data) for e in expr)
        from tmath.reference.indexed import values

        scalars = {s: v for s, v in self.substitutions().items()
                   if isinstance(v, (int, float, np.integer, np.floating))}
        found = values(expr, arrays=data, values=scalars)
        return float(found) if np.ndim(found) == 0 else found


def evaluate(expr: Any, substitutions: Mapping[Any, Any] | None = None) -> Any:
    """``expr`` with ``substitutions`` as floats, NaN where it is not a finite real number."""
    if isinstance(expr, (tuple, list)):
        return tuple(evaluate(e, substitutions) for e in expr)
    try:
        import sympy as sp
    except ImportError:  # pragma: no cover
        sp = None
    if sp is not None and isinstance(expr, sp.MatrixBase):
        return np.array([[evaluate(e, substitutions) for e in row] for row in expr.tolist()],
                        dtype=float)
    try:
        if sp is not None and isinstance(expr, sp.Basic):
            expr = expr.xreplace({sp.sympify(k): sp.sympify(v) for k, v in (substitutions or {}).items()})
            number = complex(sp.N(expr, 20))
        else:
            number = complex(expr)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
        return math.nan
    if abs(number.imag) > 1e-12 * max(1.0, abs(number.real)) or not math.isfinite(number.real):
        return math.nan
    return number.real


def draw(rng: np.random.Generator, domains: Mapping[Any, Domain], count: int) -> list[Point]:
    """``count`` points: first the combinations of edge values (in order, each domain cycling
    through its edges), then random draws; each from the claim's stream.

    A value that matches the truth on the edge grid only must not pass, so every parameter
    whose domain has a value off its edges takes one at some point: the first random point is
    strictly inside every such domain and none of its edges (when ``count`` leaves no room for
    a random point, it replaces the last edge point, whose other values stay), and the later
    random points avoid the edge values, which their own points have already covered."""
    keys = list(domains)
    names = tuple(str(k) for k in keys)
    edges = [domains[k].edge_values() for k in keys]
    rows: list[tuple[Any, ...]] = []
    n_edges = max((len(e) for e in edges), default=0)
    for row in range(min(count, n_edges)):
        rows.append(tuple(edge[row % len(edge)] for edge in edges))
    if 0 < count <= n_edges:
        rows[-1] = _random_row(domains, keys, rng, strict=True, keep=rows[-1])
    while len(rows) < count:
        rows.append(_random_row(domains, keys, rng, strict=len(rows) == n_edges))
    return [Point(tuple(zip(names, values)), tuple(keys)) for values in rows]


def _random_row(domains: Mapping[Any, Domain], keys: list, rng: np.random.Generator,
                strict: bool, keep: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """One value per domain off its edges (strictly inside when ``strict``); a domain with no
    such value keeps its value in ``keep``, or is drawn plainly."""
    values = []
    for index, key in enumerate(keys):
        value = draw_off_edges(domains[key], rng, strict)
        if value is None:
            value = keep[index] if keep is not None else domains[key].draw(rng)
        values.append(value)
    return tuple(values)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def as_record(point: Point | None) -> tuple[tuple[str, Any], ...]:
    """What a test result stores of its point: names and plain values (JSON-friendly)."""
    if point is None:
        return ()
    return tuple((k, v if isinstance(v, (int, float, str, bool)) else str(v))
                 for k, v in point.values)


def describe(points: Sequence[Point]) -> str:
    return "; ".join(p.label for p in points)
