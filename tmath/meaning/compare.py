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

from dataclasses import dataclass, field
from typing import Any, Literal

from tmath.meaning.points import POINTS, RELATIVE, agree, value_of

Verdict = Literal["equivalent", "contradicts"]
MIN_POINTS = 3
"""Points at which both relations must be defined for any verdict."""


@dataclass(frozen=True)
class Form:
    """A relation ``lhs op rhs`` in canonical form (op: =, <=, < or in) with its values at
    the random points: of each side, and of ``rhs − lhs`` (at 25 digits, so no cancellation).

    ``lhs_kind``/``rhs_kind`` say what a side is (``number``, ``atom``: an operator applied,
    ``name:<name>``, ``compound``) and ``names`` are its plain symbols: all a comparison needs,
    so a form can be stored and compared without SymPy (:mod:`tmath.meaning.forms` makes
    them; ``lhs``/``rhs``, the canonical sides, are kept where they were computed)."""

    op: str
    left: tuple[complex | None, ...]
    right: tuple[complex | None, ...]
    gap: tuple[complex | None, ...]
    lhs_kind: str = "compound"
    rhs_kind: str = "compound"
    names: tuple[str, ...] = ()
    words: bool = False
    """It involves a condition stated in words (``j \\text{ is padding}``) no notation gave
    a meaning: it can be the same as another, never said to contradict it."""
    lhs: Any = field(default=None, compare=False)
    rhs: Any = field(default=None, compare=False)

    @property
    def family(self) -> str:
        return {"=": "equation", "in": "membership"}.get(self.op, "inequality")

    @property
    def identity(self) -> bool:
        """True at every point by arithmetic alone (``0 · 0 = 0``, ``1/√d = d^{-1/2}``)."""
        return self.op == "=" and _defined(self.gap) >= MIN_POINTS and all(
            g is None or agree(g, 0) for g in self.gap)


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
            return "equivalent" if same else "contradicts" if _substantial(mine.lhs_kind) else None
        return None
    if mine.identity:   # true by arithmetic: it means only an identity with the same sides
        same = (sides_match(mine.left, theirs.left) and sides_match(mine.right, theirs.right)) \
            or (sides_match(mine.left, theirs.right) and sides_match(mine.right, theirs.left))
        return "equivalent" if same and theirs.identity else None
    if proportional(mine.gap, theirs.gap, positive=mine.family == "inequality") \
            and (mine.op != "<" or theirs.op == "<"):
        return "equivalent"
    if _shared_side(mine, theirs, named) and not (mine.words or theirs.words):
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


def _substantial(kind: str, named: bool = False) -> bool:
    """More than a bare name or number: an operator applied, a sum, a product, a power (or,
    when ``named``, a name with a subscript or of several letters)."""
    if kind == "number":
        return False
    if kind.startswith("name:"):
        name = kind[5:]
        return named and ("_" in name or len(name) > 1)
    return True


def _shared_side(mine: Form, theirs: Form, named: bool = False) -> bool:
    pairs = [(mine.lhs_kind, mine.left, theirs.left), (mine.rhs_kind, mine.right, theirs.right)]
    if mine.family == "equation":
        pairs += [(mine.lhs_kind, mine.left, theirs.right), (mine.rhs_kind, mine.right, theirs.left)]
    if "number" in (mine.lhs_kind, mine.rhs_kind):
        named = False   # "d_k = 64" is a figure, not a formula that redefines d_k
    return any(_substantial(side, named) and sides_match(a, b) for side, a, b in pairs)


def differing_point(mine: Form, theirs: Form, limit: int = 4) -> str:
    """A point where the two differ, in words: the plain symbols' values and both gaps."""
    for point in range(POINTS):
        g, h = mine.gap[point], theirs.gap[point]
        if g is None or h is None or agree(g, h):
            continue
        where = ", ".join(f"{name} = {value_of(name, point):.4g}"
                          for name in mine.names[:limit])
        return (f"at {where or 'a random point'}, right side minus left side is "
                f"{_number(g)} in this formula and {_number(h)} in the claim's")
    return ""


def _number(z: complex) -> str:
    return f"{z.real:.6g}" if abs(z.imag) <= RELATIVE * max(1.0, abs(z)) else f"{z:.6g}"
