"""Parameters of a randomized check, drawn from the statement's domain.

A statement that holds for every d_k, every β in (0, 1) or every temperature is not checked
at one value of them: a check draws its parameters from declared domains, edge values first
(the smallest legal size, the largest, β near 1), then values spread over the domain, from the
claim's own seeded stream. Every test records the point it ran at, so the JSON of ``verify``
shows the drawn values and they change with ``--seed``. It is the empirical counterpart of a
proof's ``for_cases``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

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
        if self.log:
            return float(math.exp(rng.uniform(math.log(self.low), math.log(self.high))))
        return float(rng.uniform(self.low, self.high))


@dataclass(frozen=True)
class Choice:
    """One of a few named options (a distribution, a mask kind); each is drawn in turn."""

    options: tuple[Any, ...]

    def edge_values(self) -> tuple[Any, ...]:
        return tuple(self.options)

    def draw(self, rng: np.random.Generator) -> Any:
        return self.options[int(rng.integers(len(self.options)))]


Domain = Integers | Reals | Choice


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

    def value(self, expr: Any) -> Any:
        """``expr`` at this point as floats (a tuple stays a tuple, a matrix becomes an array);
        a part that does not evaluate to a finite real number becomes NaN, so the test that
        uses it fails instead of raising."""
        return evaluate(expr, self.substitutions())


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
    through its edges), then random draws; each from the claim's stream."""
    keys = list(domains)
    names = tuple(str(k) for k in keys)
    edges = [domains[k].edge_values() for k in keys]
    points: list[Point] = []
    n_edges = max((len(e) for e in edges), default=0)
    for row in range(min(count, n_edges)):
        values = tuple(edge[row % len(edge)] for edge in edges)
        points.append(Point(tuple(zip(names, values)), tuple(keys)))
    while len(points) < count:
        values = tuple(domains[k].draw(rng) for k in keys)
        points.append(Point(tuple(zip(names, values)), tuple(keys)))
    return points


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
