"""Relations made comparable: a reader's or a claim's relation → its :class:`Form`.

``a ≥ b`` is ``b ≤ a``, ``a > b`` is ``b < a``, ``:=`` and ``≡`` are ``=``; ``shape(M) = (a, b)``
and ``M = ℝ^{a×b}`` are ``M ∈ ℝ^{a×b}``. The sides are put in canonical form
(:mod:`tmath.meaning.canonical`) and evaluated at the random points.
"""

from __future__ import annotations

from typing import Mapping

import sympy as sp

from tmath.meaning.canonical import canonical, depends, values
from tmath.meaning.compare import Form

_FLIP = {">=": "<=", ">": "<"}
_SAME = {":=": "=", "equiv": "=", "=": "=", "<=": "<=", "<": "<", "in": "in"}


def form(lhs: sp.Basic, op: str, rhs: sp.Basic, known: Mapping | None = None,
         used: set[str] | None = None) -> Form | None:
    """The canonical form of ``lhs op rhs``; None for relations not compared (≈, ∝, →, ≠)
    or sides that are not expressions (``x ∈ ℝ^{a×b}`` is compared side by side). ``known``
    and ``used``: as for :func:`~tmath.meaning.canonical.canonical`."""
    if op in _FLIP:
        lhs, op, rhs = rhs, _FLIP[op], lhs
    lhs, op, rhs = _membership(lhs, op, rhs)
    op = _SAME.get(op)
    if op is None:
        return None
    try:
        return canonical_form(canonical(lhs, known, used), op, canonical(rhs, known, used))
    except Exception:   # SymPy refused a construction: this relation is not compared
        return None


def canonical_form(left: sp.Basic, op: str, right: sp.Basic) -> Form | None:
    """The form of a relation whose sides are canonical already (op: =, <=, < or in)."""
    if not (isinstance(left, sp.Expr) and isinstance(right, sp.Expr)):
        return None
    names = sorted({s.name for s in left.free_symbols | right.free_symbols
                    if not s.name.startswith("⟪")})
    words = any(n.startswith("⟦") for n in depends(left) | depends(right))
    return Form(op, values(left), values(right), values(right - left), kind_of(left),
                kind_of(right), tuple(names), words, left, right)


def kind_of(side: sp.Expr) -> str:
    """``number``, ``atom`` (an operator applied), ``name:<name>`` or ``compound``."""
    if side.is_Number:
        return "number"
    if isinstance(side, sp.Symbol):
        return "atom" if side.name.startswith("⟪") else f"name:{side.name}"
    return "compound"


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
