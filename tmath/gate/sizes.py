"""Relations between a document's sizes, held to the ones it stated before.

A document fixes sizes in terms of each other (``p_q = p_k = p_v = p_o/h``) and later states
another relation of the same names (``p_q h = p_k h = p_v h = p_o``). With the earlier
relations of its section put in (each name that one defines, ``p_q = …``, the last stated
above), the later one must hold at every positive value of the names left: it is evaluated at
random points (seeded by the relation), and one that fails is reported on its line and on the
lines of the definitions it was read with (either may be the misprint).

Only relations of plain names are read: sums, products, quotients and powers of names, with
whole or fractional coefficients; no function, family member, matrix or decimal. A relation
that defines again a name already defined above (``n = 2m`` after ``n = m``) is a new
definition, not a claim about the old one, and is not checked.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from typing import Sequence

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

POINTS = 4
"""Random points a relation is evaluated at; it fails if its sides differ at one."""
RELATIVE = 1e-9
"""How far apart two values may be, relative to their size, and agree."""

_PLAIN = re.compile(r"^[\sA-Za-z0-9_{}=+\-*/^(),.]*$")
_SPELLING = re.compile(r"\\(?:frac|cdot|times|mathrm|text|operatorname|[,;: !])")


@dataclass(frozen=True)
class _Relation:
    formula: int
    lhs: object
    rhs: object
    shown: str


def contradictions(document: Document, formulas: Sequence[Math], texts: Sequence[str]
                   ) -> list[Finding]:
    """Findings for each relation of sizes that the definitions above it contradict."""
    import sympy as sp

    read = [_relations(k, text) for k, text in enumerate(texts)]
    findings = []
    for k, relations in enumerate(read):
        section = document.section_at(formulas[k].start)
        above = [r for j in range(k) for r in read[j]
                 if document.section_at(formulas[j].start) == section]
        defined = {}
        for r in above:   # the last definition above of each name
            if isinstance(r.lhs, sp.Symbol) and r.lhs not in r.rhs.free_symbols:
                defined[r.lhs] = r
        for relation in relations:
            if isinstance(relation.lhs, sp.Symbol) and relation.lhs in defined:
                continue   # defined again: a new definition
            used, lhs, rhs = _put_in(relation, defined)
            if not used:
                continue
            point = _differs(lhs, rhs, relation.shown)
            if point is not None:
                findings += _reported(document, formulas, relation, used, point)
    return findings


def _relations(k: int, text: str) -> list[_Relation]:
    if "=" not in text or not _PLAIN.match(_SPELLING.sub(" ", text)):
        return []
    import sympy as sp

    from tmath.meaning.recognise import relations_of

    relations = relations_of(text)
    found = []
    for r in relations:
        sides = (r.lhs, r.rhs)
        if r.op != "=" or not all(isinstance(s, sp.Expr) and _plain(s) for s in sides):
            continue
        names = sp.Add(*sides).free_symbols
        if len(names) >= 2:
            found.append(_Relation(k, r.lhs, r.rhs, r.text))
    return found


def _plain(expr) -> bool:
    import sympy as sp

    return all(isinstance(a, (sp.Symbol, sp.Integer, sp.Rational)) for a in expr.atoms()) and \
        all(isinstance(n, (sp.Add, sp.Mul, sp.Pow, sp.Symbol, sp.Number))
            for n in sp.preorder_traversal(expr)) and \
        all(s.is_commutative for s in expr.free_symbols)


def _put_in(relation: _Relation, defined: dict) -> tuple[list[_Relation], object, object]:
    """The relation's sides with the definitions above put in (three rounds: a definition may
    use a name defined before it), and the definitions used."""
    lhs, rhs, used = relation.lhs, relation.rhs, []
    for _ in range(3):
        swaps = {name: d.rhs for name, d in defined.items()
                 if d.formula != relation.formula and name in (lhs.free_symbols | rhs.free_symbols)}
        if not swaps:
            break
        used += [defined[name] for name in swaps if defined[name] not in used]
        lhs, rhs = lhs.xreplace(swaps), rhs.xreplace(swaps)
    return used, lhs, rhs


def _differs(lhs, rhs, shown: str) -> tuple[float, float] | None:
    import sympy as sp

    names = sorted((lhs - rhs).free_symbols, key=sp.default_sort_key)
    if not names:
        return None
    rng = random.Random(int(hashlib.sha256(shown.encode()).hexdigest()[:12], 16))
    for _ in range(POINTS):   # floats, not exact numbers: a tower of powers stays quick
        values = {n: sp.Float(rng.randint(2, 97) / rng.randint(1, 7), 30) for n in names}
        try:
            left, right = (complex(sp.N(side.xreplace(values), 30)) for side in (lhs, rhs))
        except (TypeError, ValueError, ArithmeticError):
            return None
        if not all(v == v and abs(v) < float("inf") and v.imag == 0 for v in (left, right)):
            return None   # undefined or infinite at this point: nothing is judged
        if abs(left - right) > RELATIVE * (1 + abs(left) + abs(right)):
            return left.real, right.real
    return None


def _reported(document: Document, formulas: Sequence[Math], relation: _Relation,
              used: Sequence[_Relation], point: tuple[float, float]) -> list[Finding]:
    here = formulas[relation.formula]
    lines = [document.where(formulas[d.formula].line) for d in used]
    common = dict(kind="formula", status="contradicts", meaning="contradicts",
                  document=document.path, compared_with=("document",))
    section = document.section_at(here.start)
    found = [Finding(**common, section=section.number if section else None, line=here.line,
                     column=document.column_of(here.start), formula=here.latex,
                     detail=f"{relation.shown} does not hold with the sizes stated on "
                            f"{', '.join(lines)}: at a random point its left side is "
                            f"{point[0]:.6g} and its right side {point[1]:.6g}")]
    for d in used:
        math = formulas[d.formula]
        found.append(Finding(**common, section=section.number if section else None,
                             line=math.line, column=document.column_of(math.start),
                             formula=math.latex,
                             detail=f"with {d.shown} as stated here, {relation.shown} on "
                                    f"{document.where(here.line)} does not hold: one of the "
                                    f"two is wrong"))
    return found
