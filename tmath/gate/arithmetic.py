"""Arithmetic a document prints, checked at the precision it prints it.

A relation between numbers only (``\\sqrt{64} = 8``, ``512/8 \\approx 64``) is true or false by
arithmetic. So is a relation between names the document gives values to (``h = 8`` and
``d_{model} = 512`` stated in its text make ``d_{model}/h = 64`` arithmetic): the *bindings*
in force where the relation is printed are put in, the last stated above it, or else the
first below in its paragraph ("where h = 8"). Nothing is ever evaluated from the document's
text: the reader builds the expressions and SymPy computes them. A relation with a bare name
on one side
(``\\sigma = 2\\sqrt{p}``) says what that name is, so it is never checked this way.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

_DECIMAL = re.compile(r"(?<![\w.])\d+\.(\d+)")


@dataclass(frozen=True)
class Binding:
    """``name = value`` stated by the document at ``offset`` (on ``line``)."""

    name: str
    value: str
    offset: int
    line: int


def bindings_of(relations: Sequence) -> tuple[tuple[str, str], ...]:
    """The ``name = number`` relations among ``relations`` (a plain name, a plain number)."""
    import sympy as sp

    found = []
    for relation in relations:
        if relation.op == "=" and isinstance(relation.lhs, sp.Symbol) and \
                getattr(relation.rhs, "is_Number", False) and relation.rhs.is_finite:
            found.append((relation.lhs.name, str(relation.rhs)))
    return tuple(found)


def in_force(bindings: Sequence[Binding], names: Sequence[str], offset: int,
             text: str = "") -> dict[str, Binding]:
    """The binding of each name that has one where ``offset`` is: the last stated above it,
    else the first below in the same paragraph (``…, where h = 8``; ``text`` is the
    document's, to see the paragraph's end)."""
    chosen = {}
    for name in names:
        stated = [b for b in bindings if b.name == name and b.offset != offset]
        above = [b for b in stated if b.offset < offset]
        below = [b for b in stated if b.offset > offset and "\n\n" not in text[offset:b.offset]]
        pick = above[-1] if above else below[0] if below else None
        if pick is not None:
            chosen[name] = pick
    return chosen


def false_under(latex: str, relations: Sequence, values: Mapping[str, str]
                ) -> tuple[tuple[str, float, float, float, tuple[str, ...]], ...]:
    """:func:`false_relations` of the relations that print a number, once ``values`` are put
    in for their names, each with the names put in (a binding itself, ``h = 8``, is not
    checked against itself)."""
    import sympy as sp

    from tmath.meaning.recognise import Read

    found = []
    for relation in relations:
        sides = (relation.lhs, relation.rhs)
        if not all(isinstance(side, sp.Basic) for side in sides) or \
                not any(a not in (sp.S.One, sp.S.NegativeOne)
                        for side in sides for a in side.atoms(sp.Number)):
            continue
        if isinstance(relation.lhs, sp.Symbol) or isinstance(relation.rhs, sp.Symbol):
            continue   # x = … says what x is (or a binding): a formula, not arithmetic
        swaps = {a: sp.Rational(values[a.name]) for side in sides
                 for a in side.atoms(sp.Symbol) if a.name in values}
        lhs, rhs = (side.xreplace(swaps) for side in sides)
        if not swaps or lhs.free_symbols or rhs.free_symbols:
            continue
        put = Read(lhs, relation.op, rhs, frozenset(), frozenset(), relation.text)
        names = tuple(sorted({a.name for a in swaps}))
        found += [(*false, names) for false in false_relations(latex, [put])]
    return tuple(found)


def false_relations(latex: str, relations: Sequence
                    ) -> tuple[tuple[str, float, float, float], ...]:
    r"""Each relation between numbers only (``=`` or ``≈``) that is false at the precision it
    is printed with (half a unit of the last decimal printed, or of the last non-zero digit
    of a whole number after ``≈``; exactly otherwise): (shown, computed, printed, tolerance).
    The printed figure is the right side (``\sqrt{64} = 7``), or the left one when only it is
    a bare number (``0.81 \approx 0.283^2``)."""
    import sympy as sp

    found = []
    for relation in relations:
        if relation.op not in ("=", "approx") or relation.names or relation.functions:
            continue
        try:   # SymPy's floats have no overflow: 10^{400}·3 = 5 is still false
            left, right = sp.N(relation.lhs, 30), sp.N(relation.rhs, 30)
        except (TypeError, ValueError):
            continue
        if not (left.is_extended_real and right.is_extended_real) or \
                not (left.is_finite and right.is_finite):
            continue
        printed, spelt = relation.rhs, latex
        first = _FIGURE_FIRST.match(latex) if len(relations) == 1 else None
        if first:   # the figure is on the left, printed as the number it starts with
            left, right, printed, spelt = right, left, relation.lhs, first.group("figure")
        tolerance = _printed_precision(spelt, printed, relation.op)
        if abs(left - right) > tolerance + sp.Float("1e-12") * max(1, abs(left)):
            found.append((relation.text, _plain(left), _plain(right), tolerance))
    return tuple(found)


_BARE = r"[-+−]?\d[\d,]*(?:\.\d+)?"
_FIGURE_FIRST = re.compile(
    rf"^\s*(?P<figure>{_BARE})\s*(?:=|\\approx|≈)(?!\s*{_BARE}\s*[.,]?\s*$)")
r"""A formula that prints a bare number first, then what it is of: ``0.81 \approx 0.283^2``."""


def _plain(value) -> float | str:
    """A float where one holds the value; beyond a float's range, SymPy's printing of it."""
    as_float = float(value)
    return as_float if math.isfinite(as_float) else str(value.evalf(6))


def _printed_precision(latex: str, rhs, op: str) -> float:
    places = [len(d) for d in _DECIMAL.findall(latex)]
    if places:
        return 0.5 * 10 ** -min(places)
    power = _power_of_ten(rhs)
    if power >= 3 and re.search(rf"10\^\{{?\s*{power}\s*\}}?", latex):
        return 0.5 * 10 ** power   # 10^{12} written as a power: one significant figure
    if op == "approx" and getattr(rhs, "is_Integer", False) and rhs != 0:
        digits = str(abs(int(rhs)))
        return 0.5 * 10 ** (len(digits) - len(digits.rstrip("0")))
    if op == "approx" and getattr(rhs, "is_Rational", False) and rhs != 0:
        p, q = abs(int(rhs.p)), abs(int(rhs.q))   # ≈ 1/9647: as precise as 9647 is printed
        return abs(float(rhs)) * (0.5 / q + (0.5 / p if p > 1 else 0.0))
    return 0.0


def number(x: float | str) -> str:
    return x if isinstance(x, str) else f"{x:.6g}"


def _power_of_ten(value) -> int:
    """n when ``value`` is the whole number 10^n, else -1."""
    if not getattr(value, "is_Integer", False) or value <= 0:
        return -1
    digits = str(int(value))
    return len(digits) - 1 if digits.strip("0") == "1" else -1
