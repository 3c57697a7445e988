"""What the reader returns: small immutable results, never a guess."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sympy as sp

_SYMPY = {"=": sp.Eq, "!=": sp.Ne, "<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge}
#: Relation operators the reader knows; those without a SymPy relational are kept by name.
OPERATORS = frozenset(_SYMPY) | {"approx", "propto", "to", "in", ":=", "equiv"}


@dataclass(frozen=True)
class Relation:
    """``lhs op rhs``; ``op`` is one of :data:`OPERATORS` (``in``: rhs is a ``RealSpace`` shape)."""

    lhs: sp.Basic
    op: str
    rhs: sp.Basic

    @property
    def sympy(self) -> sp.Basic | None:
        """The unevaluated SymPy relational (None for ≈, ∝, →, ∈, :=, ≡)."""
        make = _SYMPY.get(self.op)
        return make(self.lhs, self.rhs, evaluate=False) if make else None

    def __str__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"


@dataclass(frozen=True)
class Reading:
    """A formula read: ``parsed`` with its relations (chains and rows split, one per pair) and
    bare expressions (a formula, or a list, with no relation), or ``unparsed`` with the reason."""

    source: str
    status: Literal["parsed", "unparsed"]
    relations: tuple[Relation, ...] = ()
    expressions: tuple[sp.Basic, ...] = ()
    reason: str = ""

    @property
    def parsed(self) -> bool:
        return self.status == "parsed"

    @classmethod
    def unparsed(cls, source: str, reason: str) -> "Reading":
        return cls(source, "unparsed", reason=reason)
