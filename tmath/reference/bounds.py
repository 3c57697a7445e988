"""Near-misses of statements that are inequalities.

The audit's automatic near-misses scale or shift a stated value. For an equality each of them
is false; for a bound ``lhs ≥ c`` the ones below ``c`` (``c − 1``, ``−c``, ``c/2`` for c > 0) are
true, only weaker, so neither channel can or should reject them. :func:`stronger_near_misses`
keeps, for each part of a statement that is a bound, only the candidates that claim more.
"""

from __future__ import annotations

from typing import Any

__all__ = ["stronger_near_misses", "stronger_only"]


def stronger_near_misses(value: Any, lhs: Any, relation: Any) -> list[tuple[str, Any]]:
    """The automatic near-misses of ``value`` (:func:`tmath.engine.foils.near_misses`), without
    those that weaken a bound: for a part stated ``≥``/``>`` a smaller number, for ``≤``/``<`` a
    larger one. Candidates that are not numbers are kept (the channels judge them)."""
    import sympy as sp

    from tmath.engine.foils import near_misses

    parts = value if isinstance(value, tuple) else (value,)
    relations = relation if isinstance(relation, tuple) else (relation,) * len(parts)

    def weaker(candidate: Any) -> bool:
        changed = candidate if isinstance(candidate, tuple) else (candidate,)
        for old, new, rel in zip(parts, changed, relations):
            difference = sp.sympify(new) - sp.sympify(old)
            if rel == "=" or not difference.is_number or difference == 0:
                continue
            return bool(difference < 0) if rel in (">=", ">") else bool(difference > 0)
        return False

    return [(text, v) for text, v in near_misses(value, lhs) if not weaker(v)]


def stronger_only(lhs: Any, relation: Any):
    """A ``perturbations`` method for a claim class whose statement has bounds:
    ``perturbations = stronger_only(LHS, ("=", ">="))``."""

    def perturbations(self: Any, value: Any) -> list[tuple[str, Any]]:
        return stronger_near_misses(value, lhs, relation)

    return perturbations
