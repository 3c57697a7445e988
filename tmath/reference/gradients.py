"""Jacobians of small networks, and random deep stacks of residual or plain blocks.

Derivatives are taken by the complex step: for f analytic and real on real inputs,
f(x + i·h·u) = f(x) + i·h·J(x)u + O(h²), so Im f(x + i·h·u)/h is the Jacobian-vector product
with a truncation error O(h²) and, unlike a finite difference, no cancellation. With
h = 1e-20 the truncation term is ~1e-40 and only rounding is left, which
:func:`tmath.experiment.tolerance` bounds. The blocks here use only analytic operations
(matmul, tanh, no abs or max) so the complex step is exact up to rounding.

Blocks are batched: every array may carry leading sample dimensions, so one call simulates
thousands of independently initialised networks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sp

from tmath.reference.distributions import gaussian
from tmath.engine.proof import Rule

STEP = 1e-20
# Σ_{k=1}^{d} δ_{k,j} evaluates to Piecewise((1, j ≤ d), (0, True)): an index inside its range
# picks the first branch. Applied mechanically and shown as an assumption.
INDEX_IN_RANGE = Rule("the index lies inside its range 1..d", lambda e: e.replace(
    lambda p: isinstance(p, sp.Piecewise), lambda p: p.args[0].expr))


def value_and_jvp(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray,
                  u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(f(x), J_f(x)·u) from one complex-step evaluation (x, u real, any batch dimensions)."""
    out = f(x + 1j * STEP * u)
    return np.real(out), np.imag(out) / STEP


def jvp(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """J_f(x)·u by the complex step."""
    return value_and_jvp(f, x, u)[1]


def jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """Full Jacobian ∂f_a/∂x_b at x of dimension n, one complex step per column (the last axis
    of the result indexes b; a scalar f gives its gradient)."""
    n = x.shape[-1]
    return np.stack([jvp(f, x, np.eye(n)[b]) for b in range(n)], axis=-1)


def block_ops(d: int, m: int) -> int:
    """Rounding steps along one output of a tanh block evaluated in complex arithmetic:
    W1·x (2d), + b1, tanh, W2·h (2m), + skip, each complex step counted as two real ones."""
    return 2 * (2 * d + 2 * m + 3)


def entry_matrix(entry: sp.Expr, row: sp.Symbol, col: sp.Symbol, n: int,
                 vector: tuple[sp.IndexedBase, np.ndarray] | None = None,
                 values: dict | None = None) -> np.ndarray:
    """The n×n matrix whose (a, b) entry is the SymPy formula ``entry`` at row = a+1,
    col = b+1, with δ_row,col, ``base[row]``, ``base[col]`` and scalar symbols filled in."""
    delta, v_row, v_col = sp.symbols("delta_rc v_row v_col")
    expr = sp.sympify(entry).replace(sp.KroneckerDelta, lambda p, q: delta)
    args, numeric = [delta], [np.eye(n)]
    if vector is not None:
        base, array = vector
        expr = expr.xreplace({base[row]: v_row, base[col]: v_col})
        args += [v_row, v_col]
        numeric += [np.asarray(array)[:, None], np.asarray(array)[None, :]]
    for symbol, number in (values or {}).items():
        args.append(symbol)
        numeric.append(number)
    result = sp.lambdify(args, expr, "numpy")(*numeric)
    return np.broadcast_to(np.asarray(result, dtype=float), (n, n)).copy()


@dataclass(frozen=True)
class Block:
    """F(x) = W2·tanh(W1·x + b1), possibly batched over leading dimensions."""

    W1: np.ndarray  # (..., m, d)
    b1: np.ndarray  # (..., m)
    W2: np.ndarray  # (..., d, m)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        hidden = np.tanh(_matvec(self.W1, x) + self.b1)
        return _matvec(self.W2, hidden)

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """Exact ∂F/∂x = W2·diag(1 − tanh²(W1x + b1))·W1 (chain rule, real x)."""
        slope = 1 - np.tanh(_matvec(self.W1, x) + self.b1) ** 2
        return self.W2 @ (slope[..., :, None] * self.W1)

    def abs_bound(self) -> np.ndarray:
        """|W2|·|W1| entrywise: bounds |∂F/∂x| and the magnitude of its rounding errors."""
        return np.abs(self.W2) @ np.abs(self.W1)


def random_block(rng: np.random.Generator, d: int, m: int, gain: float, batch: tuple = (),
                 w2_law=gaussian) -> Block:
    """Standard random init: W1 ~ N(0, 1/d), b1 ~ N(0, 1/4), W2 = gain·(zero-mean, unit
    variance law)/√m, all entries independent."""
    W1 = rng.standard_normal(batch + (m, d)) / np.sqrt(d)
    b1 = rng.standard_normal(batch + (m,)) / 2
    W2 = gain * w2_law(rng, batch + (d, m)) / np.sqrt(m)
    return Block(W1, b1, W2)


def stack_bound(blocks: list[Block]) -> float:
    """Largest entry of ∏(I + |W2_i||W1_i|): bounds every entry of the residual stack's
    Jacobian and of the terms its rounding errors multiply."""
    d = blocks[0].W2.shape[-2]
    bound = np.eye(d)
    for block in blocks:
        bound = (np.eye(d) + block.abs_bound()) @ bound
    return float(bound.max())


def _matvec(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.matmul(a, x[..., None])[..., 0]
