"""A map and its inverse printed one after the other, held to each other.

A reversible layer is written as a map, ``y_1 = x_1 + F(x_2), y_2 = x_2 + G(y_1)``, and then
undone, ``x_2 = y_2 − G(y_1), x_1 = y_1 − F(x_2)``. The second formula defines the names the
first one takes as given from those it defines: it is the first one's inverse, and must hold
wherever the first does, whatever F and G are. Read are two display formulas in a row (little
prose between) whose every relation defines a plain name (``x_2 = …``), when

* the second defines only names the first takes as given, and uses some the first defines
  (or the other way round);
* every function they apply is a function the document leaves open (``F``, ``G``) or one
  SymPy knows.

Each open function is replaced by a smooth function drawn at random (the same in both), the
given names by random numbers, and the first formula's definitions are worked out in order;
each relation of the second must then hold at each of :data:`POINTS` draws. One that fails
contradicts the first formula: it is reported on its own row and on the map's (either formula
may be the misprint).
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

POINTS = 4
"""Random draws each inverse relation must hold at."""
GAP = 400
"""How much prose (characters) may stand between the two formulas."""
RELATIVE = 1e-9
"""How far apart two sides computed in double precision may be, relative to their size."""


@dataclass(frozen=True)
class Failed:
    """A relation of an inverse that does not undo the map before it."""

    math: Math
    index: int
    relation: str
    against: Math
    sides: tuple[float, float]
    relations: int      # how many the formula has (to find the row of this one)


def failed_inverses(document: Document) -> list[Failed]:
    """Every relation of a printed inverse that the map before it does not satisfy."""
    from tmath.meaning.recognise import relations_of

    formulas = [m for m in document.formulas if m.inner >= 0]
    found = []
    for first, second in zip(formulas, formulas[1:]):
        if second.start - first.end > GAP or not (_plausible(first.latex, second.latex) or
                                                  _plausible(second.latex, first.latex)):
            continue
        read = [_definitions(relations_of(m.latex)) for m in (first, second)]
        if None in read:
            continue
        for (a, map_), (b, inverse) in (((first, read[0]), (second, read[1])),
                                        ((second, read[1]), (first, read[0]))):
            if _undoes(map_, inverse):
                found += [Failed(b, k, f"{lhs} = {rhs}", a, sides, len(inverse))
                          for k, (lhs, rhs, sides) in enumerate(_check(map_, inverse))
                          if sides is not None]
                break
    return found


_PARTS = re.compile(r",|\\q?quad\b|\\[;,]|\\\\|&|\\text\{[^{}]*\}")


def _left_sides(latex: str) -> list[str]:
    """What stands left of each ``=`` of the formula's parts, spaces taken out."""
    return [re.sub(r"\s+", "", part.split("=")[0]) for part in _PARTS.split(latex) if "=" in part]


def _plausible(map_: str, inverse: str) -> bool:
    """Whether ``inverse`` may undo ``map_``, by their text alone (before SymPy reads them):
    each name it defines is printed in the map, and some name the map defines in it."""
    defines, defined = _left_sides(inverse), _left_sides(map_)
    squeezed = (re.sub(r"\s+", "", map_), re.sub(r"\s+", "", inverse))
    return bool(defines) and bool(defined) and all(0 < len(n) <= 24 for n in defines + defined) \
        and all(n in squeezed[0].split("=", 1)[-1] for n in defines) and \
        any(n in squeezed[1] for n in defined)


def _definitions(relations) -> list | None:
    """(name, expression) of each relation, when each defines a plain name by an expression
    that does not use it; None otherwise."""
    import sympy as sp

    found = []
    for r in relations:
        if r.op != "=" or not isinstance(r.lhs, (sp.Symbol, sp.Indexed)) or \
                not isinstance(r.rhs, sp.Expr) or r.lhs in _names(r.rhs):
            return None
        found.append((r.lhs, r.rhs))
    return found or None


def _undoes(map_: list, inverse: list) -> bool:
    """``inverse`` defines only names ``map_`` takes as given, from some that it defines."""
    defined = {name for name, _ in map_}
    given = set().union(*(_names(e) for _, e in map_)) - defined
    used = set().union(*(_names(e) for _, e in inverse))
    return all(name in given for name, _ in inverse) and bool(used & defined) and \
        len({name for name, _ in inverse}) == len(inverse)


def _check(map_: list, inverse: list) -> list[tuple]:
    """Each inverse relation with the two sides where it fails (None where it holds)."""
    import sympy as sp

    seed = int(hashlib.sha256(repr((map_, inverse)).encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    opened = sorted({f.func for _, e in map_ + inverse
                     for f in e.atoms(sp.core.function.AppliedUndef)}, key=str)
    results = [None] * len(inverse)
    for _ in range(POINTS):
        functions = {f: _smooth(rng) for f in opened}
        values = {s: sp.Float(rng.uniform(-2, 2), 30)
                  for s in sorted(set().union(*(_names(e) for _, e in map_))
                                  - {name for name, _ in map_}, key=sp.default_sort_key)}
        pending = list(map_)
        for _ in range(len(map_)):   # definitions in the order they can be worked out
            left = []
            for name, expr in pending:
                value = _value(expr, values, functions)
                if value is None:
                    left.append((name, expr))
                else:
                    values[name] = sp.Float(value, 30)
            pending = left
        if pending:
            return []   # the map cannot be worked out: nothing is said
        for k, (name, expr) in enumerate(inverse):
            right = _value(expr, values, functions)
            if right is None or name not in values:
                return []
            left_side = float(values[name])
            if abs(left_side - right) > RELATIVE * (1 + abs(left_side) + abs(right)) * 1e3:
                results[k] = results[k] or (left_side, right)
    return [(name, expr, results[k]) for k, (name, expr) in enumerate(inverse)]


def _names(expr) -> set:
    """The names ``expr`` uses: its symbols and family members (``u_1``), not the families'
    own letters."""
    import sympy as sp

    return expr.free_symbols - {i.base.label for i in expr.atoms(sp.Indexed)}


def _smooth(rng: random.Random):
    """A function drawn at random: a·sin(b·z + c) + e·z, of the sum of its arguments."""
    import sympy as sp

    a, b, c, e = (rng.uniform(0.5, 1.5) for _ in range(4))
    return lambda *args: a * sp.sin(b * sp.Add(*args) + c) + e * sp.Add(*args)


def _value(expr, values: dict, functions: dict) -> float | None:
    """``expr`` worked out, or None when a name is not known yet or it is not a real number."""
    import sympy as sp

    if not _names(expr) <= set(values):
        return None
    try:
        done = expr.xreplace(values)
        for f, replacement in functions.items():
            done = done.replace(f, replacement)
        number = complex(sp.N(done, 30))
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return None
    return number.real if abs(number.imag) < 1e-12 * (1 + abs(number.real)) else None


def _shown(relation: str) -> str:
    """A relation as SymPy prints it, its family members written as subscripts (x[2] → x_2)."""
    import re

    return re.sub(r"\b([A-Za-z]\w*)\[([^\[\]]+)\]", r"\1_\2", relation)


def judged(document: Document, failed: Failed) -> list[Finding]:
    """The failing relation, on its row; and the map it fails to undo, on its first row
    (either may be the misprint)."""
    from tmath.gate.recognition import line_of

    section = document.section_at(failed.math.start)
    line = line_of(document, failed.math, failed.index, failed.relations, own_rows=True)
    mapped = line_of(document, failed.against, 0, 1)
    sides = f"{failed.sides[0]:.6g} and its right side {failed.sides[1]:.6g}"
    places = [(failed.math, line, f"{_shown(failed.relation)} does not undo the map on "
                                  f"{document.where(mapped)}: with the functions it leaves open "
                                  f"drawn at random, its left side is {sides}")]
    if mapped != line:
        places.append((failed.against, mapped,
                       f"this map is not undone by {_shown(failed.relation)} on "
                       f"{document.where(line)} (either may be the misprint): with the "
                       f"functions left open drawn at random, that relation's left side is "
                       f"{sides}"))
    return [Finding(kind="formula", status="contradicts", meaning="contradicts",
                    document=document.path, section=section.number if section else None,
                    line=at, column=document.column_of(math.start), formula=math.latex,
                    compared_with=("inverse",), detail=detail)
            for math, at, detail in places]
