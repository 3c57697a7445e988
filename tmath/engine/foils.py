"""Automatic near-misses of a statement, chosen by the type of its value.

Besides the foils a claim declares, ``tmath audit`` runs both checks against statements that
are almost the stated one, as mutation testing runs a test suite against mutants of the code:
the value ×1.05, ×2 and ×½, its sign flipped, ±1 for a whole number, its square root and its
square, an exponent one higher or lower, an index shifted by one, two arguments swapped, and,
for a tuple, each of these on one component at a time. Candidates equal to the stated value
(SymPy or random points say so) or to each other are dropped. A claim whose value cannot be
mutated this way (−∞, a relation) defines ``perturbations(self, value)`` instead.
"""

from __future__ import annotations

from typing import Any, Iterator

import sympy as sp

from tmath.engine import numeric
from tmath.engine.foil_kinds import KINDS, statement_and_kind  # noqa: F401 (re-exported)

FACTORS = ((sp.Rational(21, 20), "5 % too large"), (sp.Integer(2), "twice the value"),
           (sp.Rational(1, 2), "half the value"))
MAX_SCALAR = 8
"""Near-misses of a single value (the first ones of the list above, structural ones kept)."""
MAX_PER_PART = 3
"""Near-misses per component of a tuple, plus its structural ones (index shift, swap)."""
STRUCTURAL = ("an index shifted by one", "two arguments swapped", "transposed")
def near_misses(value: Any, lhs: Any = None) -> list[tuple[str, Any]]:
    """(what it says, value) for each automatic near-miss of ``value``."""
    if isinstance(value, tuple):
        out = []
        names = lhs if isinstance(lhs, tuple) and len(lhs) == len(value) else [None] * len(value)
        for index, (part, name) in enumerate(zip(value, names)):
            for text, changed in _pick(_scalar(part, name), MAX_PER_PART):
                mutated = list(value)
                mutated[index] = changed
                out.append((text if name is not None else f"part {index + 1} of the value: {text}",
                            tuple(mutated)))
        return out
    return _pick(_scalar(value, lhs), MAX_SCALAR)


def _pick(candidates: list[tuple[str, Any]], most: int) -> list[tuple[str, Any]]:
    structural = [c for c in candidates if any(c[0].endswith(f", {s}") for s in STRUCTURAL)]
    plain = [c for c in candidates if c not in structural]
    return plain[:most] + structural


def _scalar(value: Any, lhs: Any) -> list[tuple[str, Any]]:
    if isinstance(value, sp.MatrixBase):
        candidates = _matrix(value)
    elif isinstance(value, (sp.Basic, int, float)) and not _is_truth(value):
        candidates = _expression(sp.sympify(value))
    else:
        return []
    kept: list[tuple[str, Any]] = []
    for description, candidate in candidates:
        if any(_same(candidate, c) for _, c in kept) or _equal(candidate, value):
            continue
        kept.append((_say(lhs, candidate, description), candidate))
    return kept


def _is_truth(value: Any) -> bool:
    """Relations and truth values are not mutated by scaling (a Symbol is a Boolean in SymPy,
    so the type alone does not tell)."""
    return isinstance(value, (sp.core.relational.Relational, sp.logic.boolalg.BooleanAtom)) or \
        isinstance(value, sp.logic.boolalg.BooleanFunction)


def _say(lhs: Any, candidate: Any, description: str) -> str:
    """What the near-miss says, in the statement's terms: "Var(qᵀk) = 21·dₖ/20, 5 % too large"."""
    from tmath.engine.printing import linear

    shown = linear(candidate)
    if lhs is not None and isinstance(lhs, sp.Basic):
        return f"{linear(lhs)} = {shown}, {description}"
    return f"{shown}, {description}"


def _expression(value: sp.Expr) -> Iterator[tuple[str, Any]]:
    if value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return
    if value != 0:
        yield FACTORS[0][1], value * FACTORS[0][0]
        yield "sign flipped", -value
        for factor, description in FACTORS[1:]:
            yield description, value * factor
    if value.is_integer:
        yield "one more", value + 1
        yield "one less", value - 1
    elif value == 0:
        yield "1 instead of 0", sp.Integer(1)
    if value.is_nonnegative is not False and value not in (0, 1):
        yield "its square root", sp.sqrt(value)
        yield "squared", value**2
    powers = [p for p in sp.preorder_traversal(value) if isinstance(p, sp.Pow) and p.exp.is_number
              and p.exp not in (-1,)]
    if powers:
        first = powers[0]
        yield "exponent one higher", value.xreplace({first: first.base ** (first.exp + 1)})
        yield "exponent one lower", value.xreplace({first: first.base ** (first.exp - 1)})
    shifted = _index_shift(value)
    if shifted is not None:
        yield "an index shifted by one", shifted
    swapped = _swap_arguments(value)
    if swapped is not None:
        yield "two arguments swapped", swapped


def _matrix(value: sp.MatrixBase) -> Iterator[tuple[str, Any]]:
    if not value.is_zero_matrix:
        for factor, description in FACTORS[:2]:
            yield description, value * factor
        yield "sign flipped", -value
    if value.shape[0] == value.shape[1] and value != value.T:
        yield "transposed", value.T
    if value.shape[0] > 1:
        yield "two rows swapped", value.elementary_row_op("n<->m", row1=0, row2=1)


def _index_shift(value: sp.Expr) -> sp.Expr | None:
    """Shift one index of an indexed entry or a Kronecker delta by one (δ(i, j) → δ(i, j+1))."""
    for node in sp.preorder_traversal(value):
        if isinstance(node, sp.KroneckerDelta):
            a, b = node.args
            return value.xreplace({node: sp.KroneckerDelta(a, b + 1)})
        if isinstance(node, sp.Indexed) and node.indices:
            indices = list(node.indices)
            indices[-1] = indices[-1] + 1
            return value.xreplace({node: node.base[tuple(indices)]})
    return None


def _swap_arguments(value: sp.Expr) -> sp.Expr | None:
    """Swap the two sides of a non-commutative piece: a − b → b − a is the sign flip already, so
    swap a power's base and exponent, or a two-index entry's indices."""
    for node in sp.preorder_traversal(value):
        if isinstance(node, sp.Indexed) and len(node.indices) == 2 and node.indices[0] != node.indices[1]:
            return value.xreplace({node: node.base[node.indices[1], node.indices[0]]})
        if isinstance(node, sp.Pow) and not node.exp.is_number and not node.base.is_number:
            return value.xreplace({node: sp.Pow(node.exp, node.base)})
    return None


def _same(a: Any, b: Any) -> bool:
    """Structurally the same candidate (cheap; near-misses that mean the same are harmless)."""
    try:
        if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
            return sp.Matrix(a) == sp.Matrix(b)
        return sp.sympify(a) == sp.sympify(b)
    except (TypeError, ValueError, sp.SympifyError):
        return False


def _equal(candidate: Any, value: Any) -> bool:
    """Is a candidate secretly the stated value? A near-miss that is true would make the audit
    fail a sound check, so a candidate stays only when some random point tells them apart, or,
    where no point can be evaluated, SymPy cannot show they are equal."""
    if _same(candidate, value):
        return True
    try:
        found, checked = numeric.disagreement(candidate, value, tries=10)
    except (TypeError, ValueError, sp.SympifyError):
        return False
    if found:
        return False
    if checked >= 5:
        return True
    try:
        if isinstance(candidate, sp.MatrixBase) or isinstance(value, sp.MatrixBase):
            return sp.simplify(sp.Matrix(candidate) - sp.Matrix(value)).is_zero_matrix is True
        return sp.simplify(sp.sympify(candidate) - sp.sympify(value)) == 0
    except (TypeError, ValueError, sp.SympifyError, NotImplementedError):
        return False
