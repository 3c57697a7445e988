"""Do two relations mean the same? ``equivalent``, ``contradicts`` (the near form of the other,
with another meaning) or unrelated (None).

A relation is put in one form first: ``a ≥ b`` is ``b ≤ a``, ``a > b`` is ``b < a``, ``:=``
and ``≡`` are ``=``. Two equations are equivalent when one's ``lhs − rhs`` is a constant
non-zero multiple of the other's at every random point (sides swapped, terms moved across,
both sides scaled: the same solutions); two inequalities when their gaps ``rhs − lhs`` are a
positive multiple of each other (a strict one implies the non-strict). Both are decided on
the values of :mod:`tmath.meaning.canonical`, computed at 25 digits.

Two memberships ``x ∈ S`` are equivalent when both sides are; they contradict when the same
(compound) x is put in another set.

They contradict when they are of one family (two equations, or two inequalities) and share a
side that is more than a bare name or number (the same ``Var(qᵀk)``, the same
``Attention(Q, K, V)``), yet are not equivalent: the document changed what that quantity is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sympy as sp

from tmath.meaning.canonical import POINTS, RELATIVE, agree, canonical, point_values, values

Verdict = Literal["equivalent", "contradicts"]
_FLIP = {">=": "<=", ">": "<"}
_SAME = {":=": "=", "equiv": "=", "=": "=", "<=": "<=", "<": "<", "in": "in"}
MIN_POINTS = 3
"""Points at which both relations must be defined for any verdict."""


@dataclass(frozen=True)
class Form:
    """A relation ``lhs op rhs`` in canonical form (op: =, <= or <) with its values at the
    random points: of each side, and of ``rhs − lhs`` (at 25 digits, so no cancellation)."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr
    left: tuple[complex | None, ...]
    right: tuple[complex | None, ...]
    gap: tuple[complex | None, ...]

    @property
    def family(self) -> str:
        return {"=": "equation", "in": "membership"}.get(self.op, "inequality")

    @property
    def identity(self) -> bool:
        """True at every point by arithmetic alone (``0 · 0 = 0``, ``1/√d = d^{-1/2}``)."""
        return self.op == "=" and _defined(self.gap) >= MIN_POINTS and all(
            g is None or agree(g, 0) for g in self.gap)


def form(lhs: sp.Basic, op: str, rhs: sp.Basic) -> Form | None:
    """The canonical form of ``lhs op rhs``; None for relations not compared (≈, ∝, →, ≠)
    or sides that are not expressions (``x ∈ ℝ^{a×b}`` is compared side by side)."""
    if op in _FLIP:
        lhs, op, rhs = rhs, _FLIP[op], lhs
    lhs, op, rhs = _membership(lhs, op, rhs)
    op = _SAME.get(op)
    if op is None:
        return None
    try:
        return canonical_form(canonical(lhs), op, canonical(rhs))
    except (TypeError, ValueError, sp.SympifyError, AttributeError, RecursionError):
        return None


def _membership(lhs: sp.Basic, op: str, rhs: sp.Basic) -> tuple[sp.Basic, str, sp.Basic]:
    """``shape(M) = (a, b)`` (a claim's shape statement) and ``M = ℝ^{a×b}`` (a definition
    of what M is) say ``M ∈ ℝ^{a×b}``, as a document writes it."""
    from tmath.latex.operators import RealSpace

    if op != "=":
        return lhs, op, rhs
    if type(rhs).__name__ == "shape" and not type(lhs).__name__ == "shape":
        lhs, rhs = rhs, lhs
    if type(lhs).__name__ == "shape" and len(lhs.args) == 1:
        sizes = list(rhs) if isinstance(rhs, (sp.Tuple, sp.MatrixBase, tuple)) else None
        if sizes and len(sizes) == 2:
            return lhs.args[0], "in", RealSpace(*sizes)
    if isinstance(rhs, RealSpace):
        return lhs, "in", rhs
    return lhs, op, rhs


def canonical_form(left: sp.Basic, op: str, right: sp.Basic) -> Form | None:
    """The form of a relation whose sides are canonical already (op: =, <= or <)."""
    if not (isinstance(left, sp.Expr) and isinstance(right, sp.Expr)):
        return None
    return Form(left, op, right, values(left), values(right), values(right - left))


def compare(mine: Form, theirs: Form, named: bool = False) -> Verdict | None:
    """Whether ``mine`` means what ``theirs`` means (or is implied by it, for a bound),
    contradicts it, or is unrelated. ``named``: ``theirs`` states or defines a named quantity
    (a statement, a definition), so a name with a subscript or of several letters (``x_L``,
    ``m_t``, ``lr``) shared with it counts as a shared side; a bare letter never does."""
    if mine.family != theirs.family:
        return None
    if mine.family == "membership":   # x ∈ ℝ^{a×b}: the same x, the same set
        if sides_match(mine.left, theirs.left):
            same = sides_match(mine.right, theirs.right)
            return "equivalent" if same else "contradicts" if _substantial(mine.lhs) else None
        return None
    if mine.identity:   # true by arithmetic: it means only an identity with the same sides
        same = (sides_match(mine.left, theirs.left) and sides_match(mine.right, theirs.right)) \
            or (sides_match(mine.left, theirs.right) and sides_match(mine.right, theirs.left))
        return "equivalent" if same and theirs.identity else None
    if proportional(mine.gap, theirs.gap, positive=mine.family == "inequality") \
            and (mine.op != "<" or theirs.op == "<"):
        return "equivalent"
    if _shared_side(mine, theirs, named):
        return "contradicts"
    return None


def sides_match(a: tuple, b: tuple) -> bool:
    """Two sides equal at every point where both are defined (and at enough of them)."""
    both = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    return len(both) >= MIN_POINTS and all(agree(x, y) for x, y in both)


def _defined(found: tuple) -> int:
    return sum(1 for v in found if v is not None)


def proportional(a: tuple, b: tuple, positive: bool) -> bool:
    """``a = λ·b`` at every point for one constant λ ≠ 0 (λ > 0 if ``positive``)."""
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    if len(pairs) < MIN_POINTS:
        return False
    zero = [(agree(x, 0), agree(y, 0)) for x, y in pairs]
    if any(zx != zy for zx, zy in zero):
        return False
    ratios = [x / y for (x, y), (zx, _) in zip(pairs, zero) if not zx]
    if not ratios:
        return True   # both vanish everywhere: two identities
    first = ratios[0]
    if abs(first.imag) > RELATIVE * abs(first) or (positive and first.real <= 0):
        return False
    return all(agree(r, first) for r in ratios[1:])


def _substantial(expr: sp.Expr, named: bool = False) -> bool:
    """More than a bare name or number: an operator applied, a sum, a product, a power (or,
    when ``named``, a name with a subscript or of several letters)."""
    if expr.is_Number:
        return False
    if isinstance(expr, sp.Symbol):
        return expr.name.startswith("⟪") or named and ("_" in expr.name or len(expr.name) > 1)
    return True


def _shared_side(mine: Form, theirs: Form, named: bool = False) -> bool:
    pairs = [(mine.lhs, mine.left, theirs.left), (mine.rhs, mine.right, theirs.right)]
    if mine.family == "equation":
        pairs += [(mine.lhs, mine.left, theirs.right), (mine.rhs, mine.right, theirs.left)]
    if mine.lhs.is_Number or mine.rhs.is_Number:
        named = False   # "d_k = 64" is a figure, not a formula that redefines d_k
    return any(_substantial(side, named) and sides_match(a, b) for side, a, b in pairs)


def differing_point(mine: Form, theirs: Form, limit: int = 4) -> str:
    """A point where the two differ, in words: the plain symbols' values and both gaps."""
    for point in range(POINTS):
        g, h = mine.gap[point], theirs.gap[point]
        if g is None or h is None or agree(g, h):
            continue
        names = sorted((s for s in mine.lhs.free_symbols | mine.rhs.free_symbols
                        if not s.name.startswith("⟪")), key=lambda s: s.name)[:limit]
        shown = point_values(names, point)
        where = ", ".join(f"{s.name} = {float(v):.4g}" for s, v in shown.items())
        return (f"at {where or 'a random point'}: rhs − lhs is {_number(g)} here, "
                f"{_number(h)} in the claim's form")
    return ""


def _number(z: complex) -> str:
    return f"{z.real:.6g}" if abs(z.imag) <= RELATIVE * max(1.0, abs(z)) else f"{z:.6g}"
