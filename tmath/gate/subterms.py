"""The softmax of a claim's formula, met inside a document's formula.

Claim ``attention-temperature`` proves Attention(Q, K, V) = softmax(QKᵀ/√d_k)V. Documents
also print its weights alone: ``A = \\text{softmax}(QK^\\top/\\sqrt{d_k})``, or an inline
``$\\mathrm{softmax}(QK^T/\\sqrt{d_k})$``. A softmax in a document's formula whose argument
uses, under the document's mapping, exactly the names of the argument of a softmax in a
claim's relation is that softmax; where the two arguments differ (at random values of the
names, transposes read as the matrices themselves), the document's contradicts the claim.
A softmax of other names (a mask added, the scale left out) is another quantity and is not
compared, except in one way: a dot product of any names divided by the very name the claim's
argument divides by the square root of (``(x_i W^q)(x_j W^k)^\\top / d_k``) is the claim's
scale printed without its root, and contradicts it; one that agrees once a name is left out (a mask added inside or outside the
scale, ``(QK^\\top + M)/\\sqrt{d_k}`` or ``QK^\\top/\\sqrt{d_k} + M``: a mask is 0 or −∞) is the
same softmax.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Mapping, Sequence

import sympy as sp

from tmath.latex.operators import Softmax, Transpose

POINTS = 3
"""Random points the two arguments are compared at."""


@dataclass(frozen=True)
class Known:
    """The argument of a softmax in a claim's relation."""

    claim: str
    recorded: str
    argument: sp.Basic
    names: frozenset[str]


def known_softmaxes(library: Sequence) -> list[Known]:
    """Each softmax argument in the relations of the verified claims (:func:`library`)."""
    found, seen = [], set()
    for known in library:
        for side in (known.lhs, known.rhs):
            if not isinstance(side, sp.Basic):
                continue
            for node in side.atoms(Softmax):
                if len(node.args) != 1 or (known.claim, node) in seen:
                    continue
                seen.add((known.claim, node))
                found.append(Known(known.claim, known.recorded, node.args[0], _names(node.args[0])))
    return found


def contradicted(latex: str, known: Sequence[Known], mapping: Mapping[str, str]
                 ) -> tuple[int, Known, str] | None:
    """(relation index, the claim's softmax, the document's argument as read) of the first
    softmax in the formula ``latex`` (its relations, or the expression it is) with a claim's
    names and another value; None when there is none."""
    from tmath.latex import read
    from tmath.meaning.recognise import rename

    reading = read(latex)
    sides = [(k, side) for k, r in enumerate(reading.relations) for side in (r.lhs, r.rhs)] + \
        [(0, e) for e in reading.expressions]
    for index, side in sides:
        if not isinstance(side, sp.Basic):
            continue
        for node in side.atoms(Softmax):
            if len(node.args) != 1:
                continue
            argument = rename(node.args[0], mapping)
            names = _names(argument)
            for other in known:
                if other.names == names and _differ(argument, other.argument) and \
                        not _same_without_a_term(argument, other.argument):
                    return index, other, str(node.args[0])
            for other in known:
                if _unrooted(argument, other.argument):
                    return index, other, str(node.args[0])
    return None


def _unrooted(argument: sp.Basic, claims: sp.Basic) -> bool:
    """Whether ``argument`` is a product with a transpose (a dot product of any names)
    divided by the very name the claim's argument divides by the square root of: the scale
    √d_k printed as d_k."""
    numerator, denominator = sp.fraction(sp.together(argument))
    _, scale = sp.fraction(sp.together(claims))
    if not isinstance(denominator, sp.Symbol) or not numerator.has(Transpose) or \
            not (isinstance(scale, sp.Pow) and scale.exp == sp.Rational(1, 2)):
        return False
    return denominator == scale.base


def _same_without_a_term(a: sp.Basic, b: sp.Basic) -> bool:
    """Whether a name whose value is left out (set to 0) makes ``a`` and ``b`` agree while
    neither vanishes: a mask M of 0 or −∞ added inside or outside the scale,
    ``(QKᵀ + M)/√d_k`` and ``QKᵀ/√d_k + M``, is the same softmax."""
    a, b = _plain(a, b)
    for name in a.free_symbols:
        left, right = a.subs(name, 0), b.subs(name, 0)
        if left.has(sp.zoo, sp.nan, sp.oo) or right.has(sp.zoo, sp.nan, sp.oo) or \
                left == 0 or right == 0:
            continue
        if not _differ(left, right):
            return True
    return False


def _plain(a: sp.Basic, b: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    """``a`` and ``b`` as numbers: each name a positive number, a transpose its matrix."""
    plain = {}
    for expr in (a, b):
        for s in expr.free_symbols:
            plain.setdefault(s, sp.Symbol(s.name, positive=True))
    return tuple(expr.replace(lambda e: isinstance(e, Transpose), lambda e: e.args[0])
                 .xreplace(plain) for expr in (a, b))


def _names(expr: sp.Basic) -> frozenset[str]:
    return frozenset(str(s) for s in expr.free_symbols)


def _differ(a: sp.Basic, b: sp.Basic) -> bool:
    """Whether ``a`` and ``b`` differ at random positive values of their names (matrices
    read as numbers, a transpose as its matrix: the scale is what is compared)."""
    a, b = _plain(a, b)
    rng = random.Random(int(hashlib.sha256(f"{a}|{b}".encode()).hexdigest()[:12], 16))
    for _ in range(POINTS):
        values = {s: sp.Float(rng.uniform(0.2, 1.9), 30)
                  for s in sorted(a.free_symbols | b.free_symbols, key=sp.default_sort_key)}
        try:
            left, right = complex(sp.N(a.xreplace(values))), complex(sp.N(b.xreplace(values)))
        except (TypeError, ValueError, ArithmeticError):
            return False
        if abs(left - right) > 1e-9 * (1 + abs(left) + abs(right)):
            return True
    return False
