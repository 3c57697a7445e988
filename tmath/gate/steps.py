"""The steps of a derivation a document prints, checked as identities.

A chain ``a = b = c = d`` says that each link holds for every value of its names. Where a
link is made of elementary functions only (sums, products, powers, sin, cos, tan, exp, log,
and matrices of those), it can be checked without any claim: its two sides are evaluated at
random points (positive values, a seed made from the link itself, so a run is replayed
exactly) and a link whose sides differ is a false step, reported on its row. A sign flipped
inside ``\\sin((i + \\delta)\\omega_j)`` is found even when the chain's ends are right.

What is not checked, so that only a step that is false for every reading is reported:

* a link whose left side is a bare name (``y = …`` defines y);
* a link with anything but elementary functions: an operator (E, Var, softmax, a norm), a
  function of the document's own, a sum, a limit, a constant such as π (identities that
  hold only at integers, ``\\cos(2\\pi k) = 1``, are not identities of real numbers);
* a link whose two sides do not use the same names: ``d_{model}/h = 64`` states values, not
  an identity, and a family member on one side only (``p_{i+\\delta, 2j}``) is defined
  elsewhere (one on both sides, ``\\omega_j``, is a value like any name);
* ``≈`` and every relation other than ``=``, and formulas with a single relation (an equation
  may be a condition to solve).
"""

from __future__ import annotations

import hashlib
import random
from typing import Sequence

import sympy as sp

ELEMENTARY = (sp.Add, sp.Mul, sp.Pow, sp.sin, sp.cos, sp.tan, sp.exp, sp.log)
"""The functions a checked step may use."""
POINTS = 4
"""How many random points a step is evaluated at; it is false if its sides differ at one."""
RELATIVE = 1e-9
"""How far apart (relative to the sides' size) two values may be and still agree: far above
the 30-digit evaluation's error, far below any real difference."""
LOW, HIGH = 0.2, 1.9
"""The range random values are drawn from (positive, so logs and roots are real)."""


def false_steps(relations: Sequence) -> tuple[tuple[int, str, float, float], ...]:
    """(index, shown, left, right) of each link of a chain among ``relations`` (read
    relations, :func:`tmath.meaning.recognise.relations_of`) that is an elementary identity
    and is false: its sides at the first point where they differ."""
    from tmath.meaning.recognise import chains_of

    found = []
    for chain in chains_of(relations):
        for index in range(chain.first, chain.last + 1):
            relation = relations[index]
            point = _differs(relation.lhs, relation.rhs) if _checkable(relation) else None
            if point is not None:
                found.append((index, relation.text, *point))
    return tuple(found)


def _checkable(relation) -> bool:
    lhs, rhs = relation.lhs, relation.rhs
    if relation.op != "=" or not all(isinstance(s, sp.Basic) for s in (lhs, rhs)):
        return False
    if isinstance(lhs, (sp.Symbol, sp.Indexed)):
        return False   # a definition of that name
    if not (_elementary(lhs) and _elementary(rhs)):
        return False
    names = [side.free_symbols | side.atoms(sp.Indexed) for side in (lhs, rhs)]
    return names[0] == names[1]


def _elementary(expr: sp.Basic) -> bool:
    if isinstance(expr, sp.MatrixBase):
        return all(_elementary(e) for e in expr)
    if isinstance(expr, (sp.Symbol, sp.Indexed)):
        return True
    if isinstance(expr, sp.Number):
        return bool(expr.is_finite)
    if isinstance(expr, sp.NumberSymbol) or not isinstance(expr, ELEMENTARY):
        return False
    return all(_elementary(a) for a in expr.args)


def _differs(lhs: sp.Basic, rhs: sp.Basic) -> tuple[float, float] | None:
    """The two sides' values at the first random point where they differ; None if they
    agree at every point (matrices: entry by entry, the first entry that differs)."""
    if isinstance(lhs, sp.MatrixBase) != isinstance(rhs, sp.MatrixBase):
        return None
    pairs = list(zip(lhs, rhs)) if isinstance(lhs, sp.MatrixBase) else [(lhs, rhs)]
    if isinstance(lhs, sp.MatrixBase) and lhs.shape != rhs.shape:
        return None
    names = sorted({a for side in (lhs, rhs) for a in side.free_symbols | side.atoms(sp.Indexed)
                    if not isinstance(a, sp.Idx)}, key=sp.default_sort_key)
    names = [n for n in names if not any(n in i.indices for i in names
                                         if isinstance(i, sp.Indexed))]
    seed = int(hashlib.sha256(f"{lhs} = {rhs}".encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    for _ in range(POINTS):
        values = {n: sp.Float(rng.uniform(LOW, HIGH), 30) for n in names}
        for a, b in pairs:
            left, right = _value(a, values), _value(b, values)
            if left is None or right is None:
                continue
            if abs(left - right) > RELATIVE * (1 + abs(left) + abs(right)):
                return float(left), float(right)
    return None


def _value(expr: sp.Basic, values: dict) -> complex | None:
    try:
        value = complex(sp.N(expr.xreplace(values), 30))
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if value != value or abs(value) == float("inf") or abs(value.imag) > 1e-12 * abs(value):
        return None
    return value.real
