"""Edit one row of an input at a time and see which output rows move.

A locality claim says how output i changes when input row j is moved by a vector: the check
moves each row j in turn (:func:`changes`) and stacks what the claim states for each j
(:func:`stated_changes`), so one comparison covers every (j, i) pair.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import sympy as sp

from tmath.reference import indexed


def changes(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """[f(x with row j moved by moves[j]) − f(x)] for j = 0 … len(x) − 1."""
    base = f(x)
    return np.stack([f(x + np.eye(len(x))[:, [row]] * moves[row]) - base for row in range(len(x))])


def stated_changes(value: Any, row: sp.Symbol, move: sp.IndexedBase, moves: np.ndarray,
                   shape: tuple[int, ...], over: Sequence[tuple], arrays: dict,
                   functions: dict | None = None, values: dict | None = None) -> np.ndarray:
    """The stated change for each edited row j (bound to ``row`` = j + 1, with ``move`` the
    vector added), each of ``shape`` (NaN where the statement does not evaluate)."""
    return np.stack([np.broadcast_to(indexed.values(
        value, arrays={**arrays, move: moves[r]}, functions=functions,
        values={**(values or {}), row: r + 1}, over=over), shape) for r in range(len(moves))])
