"""Vetted rules for the shapes of matrix expressions, derived one operation at a time.

``shape(M)`` is the unevaluated shape of a SymPy matrix expression ``M`` of symbolic size
(``MatrixSymbol("Q", T_dec, d_k)``, products, sums, transposes, inverses, elementwise
functions such as ``M.applyfunc(exp)``, ``DiagMatrix`` of a column, ``OneMatrix``).
:data:`SHAPE_STEP` rewrites every ``shape``, ``rows`` and ``cols`` in an expression one
operation down: ``shape(M) = (rows(M), cols(M))``, ``rows(A·B) = rows(A)``,
``cols(Aᵀ) = rows(A)``, ``rows(MatrixSymbol) = its declared size`` and so on. Its side
conditions are checked where it is applied: a product needs cols(A) = rows(B) for each
neighbouring pair (SymPy itself accepts ``A·B`` for unrelated symbolic sizes), a sum equal
shapes, an inverse a square matrix, ``DiagMatrix`` a column. Each application is also
validated on random sizes: the matrices are built with NumPy and the shapes NumPy computes
are compared with the rewrite's.
"""

from __future__ import annotations

import functools
import random
from functools import reduce
from typing import Any

import numpy as np
import sympy as sp
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.matrices.expressions.diagonal import DiagMatrix

from tmath.engine.proof import show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_


class shape(sp.Function):  # noqa: N801 - reads as a function in formulas
    """The shape (rows, cols) of a matrix expression, unevaluated."""

    nargs = 1


class rows(sp.Function):  # noqa: N801
    """The number of rows of a matrix expression, unevaluated."""

    nargs = 1


class cols(sp.Function):  # noqa: N801
    """The number of columns of a matrix expression, unevaluated."""

    nargs = 1


def _agree(a: Any, b: Any, what: str) -> None:
    if sp.simplify(sp.sympify(a) - sp.sympify(b)) != 0:
        raise SideConditionFailed(f"{what}: {show(a)} ≠ {show(b)}")


def _matrices(m: sp.MatMul) -> list:
    return [f for f in m.args if getattr(f, "is_Matrix", False)]


def _down(node: sp.Basic) -> sp.Basic:
    """One operation down for rows(M) or cols(M)."""
    m, is_rows = node.args[0], isinstance(node, rows)
    side = rows if is_rows else cols
    if isinstance(m, (sp.MatrixSymbol, sp.OneMatrix, sp.ZeroMatrix, sp.Identity)):
        return m.shape[0 if is_rows else 1]
    if isinstance(m, sp.MatMul):
        factors = _matrices(m)
        for a, b in zip(factors, factors[1:]):
            _agree(a.shape[1], b.shape[0], f"{show(a)}·{show(b)} needs cols = rows")
        return side(factors[0] if is_rows else factors[-1])
    if isinstance(m, (sp.MatAdd, sp.HadamardProduct)):
        first = [a for a in m.args if getattr(a, "is_Matrix", False)]
        for other in first[1:]:
            _agree(first[0].shape[0], other.shape[0], "a sum needs equal shapes")
            _agree(first[0].shape[1], other.shape[1], "a sum needs equal shapes")
        return side(first[0])
    if isinstance(m, sp.Transpose):
        return (cols if is_rows else rows)(m.arg)
    if isinstance(m, sp.Inverse):
        _agree(m.arg.shape[0], m.arg.shape[1], f"{show(m.arg)} must be square to invert")
        return side(m.arg)
    if isinstance(m, ElementwiseApplyFunction):
        return side(m.expr)
    if isinstance(m, DiagMatrix):
        _agree(m.args[0].shape[1], 1, f"DiagMatrix({show(m.args[0])}) needs a column")
        return rows(m.args[0])
    raise SideConditionFailed(f"no shape rule for {type(m).__name__}")


def _step(expr: Any) -> Any:
    expr = sp.sympify(expr)
    if isinstance(expr, shape):
        return sp.ImmutableMatrix([rows(expr.args[0]), cols(expr.args[0])])
    nodes = expr.atoms(rows, cols)
    if not nodes:
        raise SideConditionFailed(f"{show(expr)} has no shape left to derive")
    return expr.xreplace({n: _down(n) for n in nodes})


# -- validation on random sizes ------------------------------------------------------------

def _numeric(m: Any, arrays: dict, sizes: dict, rng: np.random.Generator) -> np.ndarray:
    def size(x: Any) -> int:
        return int(sp.sympify(x).xreplace(sizes))
    if isinstance(m, sp.MatrixSymbol):
        if m not in arrays:
            arrays[m] = rng.uniform(0.5, 1.5, size=(size(m.shape[0]), size(m.shape[1])))
        return arrays[m]
    if isinstance(m, (sp.OneMatrix, sp.ZeroMatrix, sp.Identity)):
        return np.ones((size(m.shape[0]), size(m.shape[1])))
    parts = [_numeric(a, arrays, sizes, rng) for a in m.args if getattr(a, "is_Matrix", False)]
    if isinstance(m, sp.MatMul):
        return reduce(np.matmul, parts)
    if isinstance(m, (sp.MatAdd, sp.HadamardProduct)):
        return reduce(np.add, parts)
    if isinstance(m, sp.Transpose):
        return parts[0].T
    if isinstance(m, sp.Inverse):
        return np.linalg.inv(parts[0])
    if isinstance(m, ElementwiseApplyFunction):
        return _elementwise(m.function.xreplace(sizes))(_numeric(m.expr, arrays, sizes, rng))
    if isinstance(m, DiagMatrix):
        return np.diagflat(_numeric(m.args[0], arrays, sizes, rng))
    raise ValueError(f"no NumPy form for {type(m).__name__}")


@functools.lru_cache(maxsize=64)
def _elementwise(function: sp.Lambda) -> Any:
    return sp.lambdify(function.variables, function.expr, "numpy")


def _shapes(expr: Any, sizes: dict, arrays: dict, rng: np.random.Generator) -> np.ndarray:
    def number(node: sp.Basic) -> sp.Basic:
        got = _numeric(node.args[0], arrays, sizes, rng).shape
        return sp.Integer(got[0] if isinstance(node, rows) else got[1])
    if isinstance(expr, shape):
        got = _numeric(expr.args[0], arrays, sizes, rng).shape
        return np.array(got).reshape(-1, 1)
    done = sp.sympify(expr).xreplace({n: number(n) for n in sp.sympify(expr).atoms(rows, cols)})
    return np.array(done.xreplace(sizes), dtype=float)


def _sizes(expr: Any) -> set:
    """The size symbols in an expression: its plain symbols and its matrices' dimensions."""
    found = {s for s in sp.sympify(expr).free_symbols if isinstance(s, sp.Symbol)}
    for node in sp.preorder_traversal(sp.sympify(expr)):
        if getattr(node, "is_Matrix", False) and hasattr(node, "shape"):
            for size in node.shape:
                found |= sp.sympify(size).free_symbols
    return {s for s in found if isinstance(s, sp.Symbol) and s.is_integer}


def _validate(before: Any, after: Any) -> str | None:
    before, after = sp.sympify(before), sp.sympify(after)
    return _validate_memo(sp.srepr(before), sp.srepr(after), before, after)


@functools.lru_cache(maxsize=256)
def _validate_memo(_before: str, _after: str, before: Any, after: Any) -> str | None:
    symbols = sorted(_sizes(before) | _sizes(after), key=str)
    for seed in range(3):
        pick = random.Random(seed)
        sizes = {s: sp.Integer(pick.randint(1, 6)) for s in symbols if s.is_integer}
        rng, arrays = np.random.default_rng(seed), {}
        try:
            a, b = _shapes(before, sizes, arrays, rng), _shapes(after, sizes, arrays, rng)
        except (ValueError, np.linalg.LinAlgError) as exc:
            return f"NumPy cannot build the matrices at {sizes}: {exc}"
        if a.shape != b.shape or not np.array_equal(a, b):
            return f"at {sizes} NumPy gives {a.ravel().tolist()}, the rewrite {b.ravel().tolist()}"
    return None


SHAPE_STEP = library_rule(N_("the shape of a matrix expression, one operation down"), _step,
                          numeric_check=False, validate=_validate)


def derive_shape(proof: Any, expr: Any, label: str) -> Any:
    """A chain of ``proof`` from ``expr`` (a ``shape(M)``) applying :data:`SHAPE_STEP` until
    only sizes are left: one operation of M per step."""
    chain = proof.chain(expr, label)
    while chain.value.atoms(shape, rows, cols):
        chain.apply(SHAPE_STEP)
    return chain
