"""Evaluate SymPy formulas of indexed entries on NumPy arrays, vectorised over their indices.

A claim states an entry of a matrix as a formula: ``Σ_k W₂[m, k]·φ(Σ_l W₁[k, l]·X[σ(i), l])``.
Its randomized check needs that formula's numbers on random arrays, for every free index at
once. :func:`evaluate` walks the formula: each sum binds its index to a range along a new
axis, an entry ``X[a, b]`` reads the array at 1-based positions, a Kronecker delta compares
its two arguments (δ(i, j+1) is not δ(i, j)), and undefined functions (φ, σ) are the
callables the check passes. An index outside its array, or not a whole number, or a node
the evaluator does not know, raises :class:`NotEvaluable`; :func:`values` turns that into
NaN so the test that uses a foil fails instead of raising.

Arrays may carry trailing *batch* axes beyond their indices (rows of queries, say), and
plain symbols may be bound to arrays of those batch axes; the result has the free indices'
axes first, then the batch axes.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np
import sympy as sp

UFUNCS: dict[Any, Callable] = {sp.exp: np.exp, sp.log: np.log, sp.tanh: np.tanh,
                               sp.Abs: np.abs, sp.sign: np.sign}


class NotEvaluable(Exception):
    """The formula cannot be evaluated on these arrays (index out of range, unknown node)."""


def evaluate(expr: Any, arrays: Mapping[Any, np.ndarray] | None = None,
             functions: Mapping[Any, Callable] | None = None,
             values: Mapping[Any, Any] | None = None,
             over: Sequence[tuple[sp.Symbol, int, int]] = (), batch: tuple[int, ...] = ()
             ) -> np.ndarray:
    """``expr`` on the given arrays, for every value of the free indices in ``over``.

    ``arrays`` maps an IndexedBase (or its name) to an array indexed from 1; ``functions``
    maps an undefined function (or its name) to a NumPy callable; ``values`` binds plain
    symbols to numbers or batch arrays; ``over`` lists free indices as (symbol, low, high):
    they become the result's leading axes, in that order. ``batch`` is the shape of the
    trailing axes that arrays and bound values may carry (right-aligned, broadcast).
    """
    walker = _Walker({_name(k): np.asarray(v, dtype=float) for k, v in (arrays or {}).items()},
                     {_name(k): f for k, f in (functions or {}).items()},
                     {_name(k): np.asarray(v, dtype=float) for k, v in (values or {}).items()},
                     tuple(batch))
    env: dict[str, np.ndarray] = {}
    for depth, (index, low, high) in enumerate(over):
        env[str(index)] = walker.axis(int(low), int(high), depth)
    result = walker.walk(sp.sympify(expr), env, len(over))
    full = tuple(int(h) - int(lo) + 1 for _, lo, h in over) + walker.batch
    result = np.transpose(result, tuple(range(len(over)))[::-1] +
                          tuple(range(len(over), result.ndim)))
    return np.broadcast_to(result, full).copy()


def values(expr: Any, **kwargs: Any) -> np.ndarray | float:
    """:func:`evaluate`, or NaN where the formula cannot be evaluated (a foil's test fails)."""
    try:
        with np.errstate(all="ignore"):
            return evaluate(expr, **kwargs)
    except (NotEvaluable, IndexError, ValueError, TypeError, ZeroDivisionError):
        return float("nan")


def _name(key: Any) -> str:
    if isinstance(key, sp.IndexedBase):
        return str(key.label)
    if isinstance(key, sp.FunctionClass):
        return key.__name__
    return str(key)


class _Walker:
    def __init__(self, arrays: dict, functions: dict, bound: dict, batch: tuple) -> None:
        self.arrays, self.functions, self.bound = arrays, functions, bound
        self.batch = np.broadcast_shapes(batch, *(v.shape for v in bound.values()))
        self.nb = len(self.batch)

    def axis(self, low: int, high: int, depth: int) -> np.ndarray:
        n = max(high - low + 1, 0)
        return np.arange(low, low + n, dtype=float).reshape((n,) + (1,) * (depth + self.nb))

    def fit(self, a: Any, depth: int) -> np.ndarray:
        a = np.asarray(a, dtype=float)
        return a.reshape((1,) * (depth + self.nb - a.ndim) + a.shape)

    def walk(self, e: sp.Basic, env: dict, depth: int) -> np.ndarray:
        if e.is_Number or e in (sp.pi, sp.E):
            return self.fit(float(e), depth)
        if isinstance(e, sp.Symbol):
            if str(e) in env:
                return self.fit(env[str(e)], depth)
            if str(e) in self.bound:
                return self.fit(self.bound[str(e)], depth)
            raise NotEvaluable(f"no value for {e}")
        if isinstance(e, sp.Add):
            return sum(self.walk(a, env, depth) for a in e.args)
        if isinstance(e, sp.Mul):
            out = self.fit(1.0, depth)
            for a in e.args:
                out = out * self.walk(a, env, depth)
            return out
        if isinstance(e, sp.Pow):
            return np.power(self.walk(e.base, env, depth), self.walk(e.exp, env, depth))
        if isinstance(e, sp.KroneckerDelta):
            a, b = (self.walk(x, env, depth) for x in e.args)
            return (a == b).astype(float)
        if isinstance(e, sp.Indexed):
            return self.entry(e, env, depth)
        if isinstance(e, sp.Sum):
            return self.total(e, env, depth)
        if isinstance(e, (sp.Max, sp.Min)):
            combine = np.maximum if isinstance(e, sp.Max) else np.minimum
            args = [self.walk(a, env, depth) for a in e.args]
            out = args[0]
            for a in args[1:]:
                out = combine(out, a)
            return out
        func = UFUNCS.get(e.func) or self.functions.get(getattr(e.func, "__name__", ""))
        if func is not None and e.args:
            return self.fit(func(*(self.walk(a, env, depth) for a in e.args)), depth)
        raise NotEvaluable(f"cannot evaluate {type(e).__name__} {e}")

    def entry(self, e: sp.Indexed, env: dict, depth: int) -> np.ndarray:
        name = str(e.base.label)
        if name not in self.arrays:
            raise NotEvaluable(f"no array for {name}")
        array = self.arrays[name]
        if len(e.indices) > array.ndim:
            raise NotEvaluable(f"{name} has {array.ndim} axes, not {len(e.indices)}")
        positions = []
        for axis, index in enumerate(e.indices):
            at = self.walk(index, env, depth)
            if at.ndim > depth and int(np.prod(at.shape[depth:])) != 1:
                raise NotEvaluable(f"index {index} of {name} varies along the batch axes")
            at = at.reshape(at.shape[:depth])
            rounded = np.rint(at)
            if np.any(np.abs(at - rounded) > 1e-9) or np.any(rounded < 1) or \
                    np.any(rounded > array.shape[axis]):
                raise NotEvaluable(f"index {index} of {name} leaves 1..{array.shape[axis]}")
            positions.append(rounded.astype(int) - 1)
        picked = array[tuple(positions)]
        rest = array.ndim - len(e.indices)
        index_shape = picked.shape[:picked.ndim - rest]
        trailing = picked.shape[len(index_shape):]
        return picked.reshape(index_shape + (1,) * (self.nb - rest) + trailing)

    def total(self, e: sp.Sum, env: dict, depth: int) -> np.ndarray:
        body, limits = e.function, list(e.limits)
        if len(limits) > 1:
            body, limits = sp.Sum(body, *limits[:-1]), limits[-1:]
        (index, low, high), = limits
        lo, hi = (self.walk(b, env, depth) for b in (low, high))
        if lo.size != 1 and np.ptp(lo) or hi.size != 1 and np.ptp(hi):
            raise NotEvaluable(f"the range of {index} depends on another index")
        lo, hi = int(round(float(lo.ravel()[0]))), int(round(float(hi.ravel()[0])))
        n = hi - lo + 1
        if n <= 0:
            return self.fit(0.0, depth)
        inner = dict(env)
        inner[str(index)] = self.axis(lo, hi, depth)
        result = self.walk(body, inner, depth + 1)
        return result.sum(axis=0) if result.shape[0] == n else result[0] * n
