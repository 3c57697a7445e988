"""Values a derivation solves for, held to the equations it solved.

A derivation that finds unknown coefficients prints an equation that must hold for every
value of some name (``[[u₁, v₁], [u₂, v₂]]·[sin ωp; cos ωp] = [sin ω(p+k); cos ω(p+k)]`` for
every position p), then the values it found (``u₂ = −sin ωk``). Each equation before those
values, in the same section, that is linear in the unknowns it shares with them is solved
anew at random points: its other names (those the values use, ω and k) get random values,
and it is written out at several random values of the rest (p), which gives a linear system
for the unknowns. Then:

* an equation that no value of the unknowns makes hold for every p is not that kind of
  equation (``y = mx + c`` with m and c given is about one line, not every x): left alone,
  unless another equation of the derivation holds with the printed values (then it is a
  false step, as below);
* where the printed values make some of these equations hold and not others, each other one
  is a false step, reported on its row;
* where they make none hold, the printed values are wrong: a value that differs from what the
  equations give is reported on its row (or, when the equations leave it open, the values'
  first row).

Everything is elementary, as for :mod:`tmath.gate.steps`; the points are seeded from the
formulas, so a run is replayed exactly.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Sequence

import sympy as sp

from tmath.gate.steps import HIGH, LOW, RELATIVE, elementary, names_in, value_at

EXTRA_POINTS = 3
"""How many more points than unknowns each equation is written out at: enough that an
equation holding for every p is told from one holding at a few."""


@dataclass(frozen=True)
class Stated:
    """A value a formula states for a name: ``u_2 = -\\sin(\\omega_i k)``."""

    name: sp.Basic
    value: sp.Basic
    formula: int     # which formula (the caller's numbering)
    index: int       # which of its relations


@dataclass(frozen=True)
class Equation:
    lhs: sp.Basic
    rhs: sp.Basic
    formula: int
    index: int


@dataclass(frozen=True)
class Unsolved:
    """A disagreement found: the formula and relation to report it on, and what to say."""

    formula: int
    index: int
    name: str        # the wrong value's name; "" for a false equation
    detail: str
    row: str = ""    # a false matrix equation's one wrong row, "row:r/R" (see line_of)


def stated_values(relations: Sequence, formula: int) -> tuple[Stated, ...]:
    """The values a formula states, when each of its relations states one (a bare name equal
    to an elementary expression without it, not a plain number) and there are some."""
    found = []
    for index, relation in enumerate(relations):
        lhs, rhs = relation.lhs, relation.rhs
        if relation.op != "=" or not isinstance(lhs, (sp.Symbol, sp.Indexed)) or \
                not isinstance(rhs, sp.Expr) or rhs.is_Number or not elementary(rhs) or \
                lhs in _names(rhs):
            return ()
        found.append(Stated(lhs, rhs, formula, index))
    return tuple(found)


def equation(relation, formula: int, index: int) -> Equation | None:
    """The relation as an equation the values may solve: ``=``, elementary, not a definition."""
    lhs, rhs = relation.lhs, relation.rhs
    if relation.op != "=" or isinstance(lhs, (sp.Symbol, sp.Indexed)) or \
            not all(isinstance(s, sp.Basic) and elementary(s) for s in (lhs, rhs)):
        return None
    if isinstance(lhs, sp.MatrixBase) != isinstance(rhs, sp.MatrixBase) or \
            isinstance(lhs, sp.MatrixBase) and lhs.shape != rhs.shape:
        return None
    return Equation(lhs, rhs, formula, index)


@dataclass(frozen=True)
class _Solved:
    holds: bool
    solved: dict            # unknown → the value the equation gives, where it fixes it
    printed: dict           # unknown → the printed value, at the same point
    point: dict             # the parameters' random values
    sides: tuple[float, float]   # where it does not hold: its two sides with the printed values
    solvable: bool = True   # some values make it hold for every value of its other names
    row: str = ""           # a matrix equation's one row that does not hold: "row:r/R"


def unsolved(equations: Sequence[Equation], values: Sequence[Stated]) -> list[Unsolved]:
    """The disagreements between ``values`` (one formula's) and the ``equations`` before it.

    Each equation that fixes an unknown is a vote on its value: a printed value most votes
    are against is wrong (in a tie, when the first equation, the problem as posed, is
    against it); an equation that does not hold with values the other votes uphold is a
    false step."""
    given = {v.name: v for v in values}
    solved = [(eq, r) for eq in equations for r in [_solve(eq, given)] if r is not None]
    checked = [(eq, r) for eq, r in solved if r.solvable]
    if not any(r.holds for _, r in checked):   # no equation upholds the values: those that
        solved = checked                       # no values solve are not that kind of equation
    if all(r.holds for _, r in solved):
        return []
    found, wrong = [], set()
    for name, stated in given.items():
        votes = [(eq, r) for eq, r in checked if name in r.solved]
        against = [(eq, r) for eq, r in votes if _differ(r.solved[name], r.printed[name])]
        upheld = len(votes) - len(against)
        if not against or upheld > len(against) or upheld == len(against) and \
                votes[0] not in against:
            continue   # most votes, or the first equation (the problem as posed), uphold it
        wrong.add(name)
        eq, r = against[0]
        at = ", ".join(f"{_shown(n)} = {v:.4g}" for n, v in r.point.items())
        found.append(Unsolved(stated.formula, stated.index, _shown(name),
                              f"{_shown(name)} does not solve the equation"
                              f"{'s' if len(against) > 1 else ''} on {_lines(e for e, _ in against)}: "
                              f"at {at} {'they give' if len(against) > 1 else 'it gives'} "
                              f"{r.solved[name]:.6g}, this value is {r.printed[name]:.6g}"))
    for eq, r in solved:
        if r.holds or wrong & set(r.printed):
            continue
        upheld = [e for e, other in checked if other.holds and set(other.printed) & set(r.printed)]
        found.append(Unsolved(eq.formula, eq.index, "",
                              "with the values stated later"
                              + (f", which solve the equation{'s' if len(upheld) > 1 else ''} on "
                                 f"{_lines(upheld)}" if upheld else "")
                              + f", this equation does not hold: at a random point its left "
                                f"side is {r.sides[0]:.6g} and its right side {r.sides[1]:.6g}",
                              r.row))
    return found


def _wrong_row(eq: Equation, off, draws: Sequence, tolerance: float) -> str:
    """``row:r/R`` when every entry of matrix equation ``eq`` that fails is in its row r."""
    if not isinstance(eq.lhs, sp.MatrixBase):
        return ""
    rows = {draws[k][1] // eq.lhs.cols for k in range(len(off)) if abs(off[k]) > tolerance}
    return f"row:{rows.pop()}/{eq.lhs.rows}" if len(rows) == 1 else ""


def _names(expr: sp.Basic) -> set:
    """:func:`names_in` without the families' own letters (``u`` of ``u_1``)."""
    labels = {i.base.label for i in expr.atoms(sp.Indexed)}
    return names_in(expr) - labels


def _lines(equations) -> str:
    """Where the equations are, for the caller to fill in: each as ``{formula:index}``."""
    return ", ".join(dict.fromkeys(f"{{{eq.formula}:{eq.index}}}" for eq in equations))


def _shown(name: sp.Basic) -> str:
    if isinstance(name, sp.Indexed):
        return f"{name.base}_{','.join(map(str, name.indices))}"
    return str(name)


def _differ(a: float, b: float) -> bool:
    return abs(a - b) > RELATIVE * 1e3 * (1 + abs(a) + abs(b))


def _solve(eq: Equation, given: dict) -> _Solved | None:
    """``eq`` solved for the unknowns it shares with ``given``, at random parameters; None
    when it is not an equation for them that holds for every value of its other names."""
    names = _names(eq.lhs) | _names(eq.rhs)
    unknowns = sorted((n for n in names if n in given), key=sp.default_sort_key)
    if not unknowns:
        return None
    parameters = set().union(*(_names(given[u].value) for u in unknowns))
    if not parameters <= names - set(unknowns):
        return None   # a value uses a name the equation does not: not its solution
    free = sorted(names - set(unknowns) - parameters, key=sp.default_sort_key)
    if not free:
        return None   # nothing it must hold for every value of: an equation to solve once
    seed = int(hashlib.sha256(f"{eq.lhs} = {eq.rhs}".encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    point = {p: sp.Float(rng.uniform(LOW, HIGH), 30)
             for p in sorted(parameters, key=sp.default_sort_key)}
    symbols = [sp.Dummy() for _ in unknowns]
    residual = eq.lhs - eq.rhs
    rows, draws = [], []
    for _ in range(len(unknowns) + EXTRA_POINTS):
        draw = {f: sp.Float(rng.uniform(LOW, HIGH), 30) for f in free}
        at = {**point, **draw, **dict(zip(unknowns, symbols))}
        entries = residual if isinstance(residual, sp.MatrixBase) else [residual]
        rows += [sp.expand(e.xreplace(at)) for e in entries]
        draws += [(draw, k) for k in range(len(entries))]
    try:
        a, b = sp.linear_eq_to_matrix(rows, symbols)
        a = sp.matrix2numpy(a, dtype=complex)
        b = sp.matrix2numpy(b, dtype=complex)[:, 0]
    except (sp.polys.polyerrors.PolynomialError, TypeError, ValueError, ArithmeticError):
        return None   # not linear in the unknowns, or not a number everywhere
    import numpy as np

    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))) or \
            np.abs(a.imag).max(initial=0) > 1e-12 or np.abs(b.imag).max(initial=0) > 1e-12:
        return None
    a, b = a.real, b.real
    solution, *_ = np.linalg.lstsq(a, b, rcond=None)
    scale = 1 + np.abs(b).max(initial=0) + np.abs(a).max(initial=0) * np.abs(solution).max(initial=0)
    solvable = bool(np.abs(a @ solution - b).max(initial=0) <= 1e-9 * scale)
    printed = {}
    for u in unknowns:
        value = sp.N(given[u].value.xreplace(point), 30)
        if not value.is_real:
            return None
        printed[u] = float(value)
    vector = np.array([printed[u] for u in unknowns])
    off = a @ vector - b
    worst = int(np.argmax(np.abs(off)))
    tolerance = 1e-9 * (1 + np.abs(b).max(initial=0)
                        + np.abs(a).max(initial=0) * np.abs(vector).max(initial=0))
    holds = bool(np.abs(off).max(initial=0) <= tolerance)
    fixed = solvable and np.linalg.matrix_rank(a) == len(unknowns)
    solved = {u: float(s) for u, s in zip(unknowns, solution)} if fixed else {}
    sides = (0.0, 0.0)
    if not holds:   # the two sides where they differ most, with the printed values put in
        draw, entry = draws[worst]
        at = {**point, **draw, **{u: given[u].value.xreplace(point) for u in unknowns}}
        pairs = list(zip(eq.lhs, eq.rhs)) if isinstance(eq.lhs, sp.MatrixBase) else \
            [(eq.lhs, eq.rhs)]
        left, right = (value_at(side, at) for side in pairs[entry])
        if left is None or right is None:
            return None
        sides = (left, right)
    return _Solved(holds, solved, printed, {p: float(v) for p, v in point.items()}, sides,
                   solvable, "" if holds else _wrong_row(eq, off, draws, tolerance))
