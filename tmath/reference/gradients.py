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

from tmath.reference.compiled import lambdified

from tmath.reference.distributions import gaussian

STEP = 1e-20
_DELTA = sp.Function("delta_by_arguments")
_EVALUATION_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, NameError,
                      AttributeError, OverflowError, SyntaxError, RecursionError)


def value_and_jvp(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, u: np.ndarray,
                  per_row: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(f(x), J_f(x)·u) from one complex-step evaluation (x, u real, any batch dimensions).

    The step is taken along u scaled by a power of two to size about 1 and the result scaled
    back (both exactly: J·u is linear in u), so a tiny u, as deep in a stack whose Jacobians
    shrink, does not push the step STEP·u into subnormal numbers, where it would lose its
    digits. ``per_row``: f acts on each row (last axis) of x separately, so each row of u is
    scaled on its own."""
    size = np.max(np.abs(u), axis=-1, keepdims=True) if per_row else np.max(np.abs(u))
    _, exponent = np.frexp(np.where(size > 0, size, 1.0))
    scale = np.ldexp(1.0, exponent)
    out = f(x + 1j * STEP * (u / scale))
    return np.real(out), np.imag(out) / STEP * scale


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
                 vectors: dict[sp.IndexedBase, np.ndarray] | None = None,
                 values: dict | None = None) -> np.ndarray:
    """The n×n matrix whose (a, b) entry is the SymPy formula ``entry`` at row = a, col = b
    (1-based). Every Kronecker delta is evaluated by its arguments (δ(i, j+1) is the
    superdiagonal, not the identity), an entry ``base[expr]`` of a known vector by its index
    expression (NaN outside 1..len), other symbols from ``values``. A formula that does not
    evaluate to real numbers gives a NaN matrix, so a test comparing it fails instead of raising.
    """
    grid = {row: np.arange(1, n + 1)[:, None], col: np.arange(1, n + 1)[None, :]}
    try:
        expr = sp.sympify(entry).replace(sp.KroneckerDelta, lambda p, q: _DELTA(p, q))
        env = {**grid, **{sp.sympify(k): v for k, v in (values or {}).items()}}
        for k, indexed in enumerate(sorted(expr.atoms(sp.Indexed), key=sp.default_sort_key)):
            position = _numeric(indexed.indices[0], env)
            dummy = _stand_in(indexed, k)
            env[dummy] = _gather(np.asarray((vectors or {})[indexed.base], dtype=float), position)
            expr = expr.xreplace({indexed: dummy})
        result = _numeric(expr, env)
        return np.broadcast_to(np.asarray(result, dtype=float), (n, n)).copy()
    except _EVALUATION_ERRORS:
        return np.full((n, n), np.nan)


def indexed_values(expr: sp.Expr, arrays: dict[sp.IndexedBase, np.ndarray],
                   values: dict | None = None) -> np.ndarray:
    """``expr`` with ``values`` substituted and its sums expanded, each ``base[k]`` read as
    row k of ``arrays[base]`` (0-based rows, NaN outside the array); NaN where the formula does
    not evaluate (a symbolic foil), so the test that uses it fails instead of raising."""
    try:
        concrete = sp.sympify(expr).xreplace({sp.sympify(k): v for k, v in (values or {}).items()})
        concrete = concrete.doit()
        env, dummies = {}, {}
        for k, indexed in enumerate(sorted(concrete.atoms(sp.Indexed), key=sp.default_sort_key)):
            array = np.asarray(arrays[indexed.base], dtype=float)
            row = int(indexed.indices[0])
            dummies[indexed] = dummy = _stand_in(indexed, k)
            env[dummy] = array[row] if 0 <= row < len(array) else np.full(array.shape[1:], np.nan)
        concrete = concrete.xreplace(dummies)
        width = next(iter(arrays.values())).shape[1:]
        return np.broadcast_to(np.asarray(_numeric(concrete, env), dtype=float), width).copy()
    except _EVALUATION_ERRORS:
        return np.full(next(iter(arrays.values())).shape[1:], np.nan)


def _numeric(expr: sp.Expr, env: dict):
    symbols = sorted(expr.free_symbols, key=str)
    if any(s not in env for s in symbols):
        raise ValueError(f"no value for {[s for s in symbols if s not in env]}")
    return lambdified(symbols, expr, _DELTA_NUMPY)(*[env[s] for s in symbols])


def _delta(p, q):
    return np.equal(p, q).astype(float)


_DELTA_NUMPY = (("delta_by_arguments", _delta),)


def _stand_in(indexed: sp.Indexed, k: int) -> sp.Dummy:
    """The variable standing for an entry: the same for the same formula in every call, so
    its compiled form is reused (:mod:`tmath.reference.compiled`)."""
    return sp.Dummy(str(indexed.base), dummy_index=_STAND_IN_BASE + k)


_STAND_IN_BASE = 10**15  # far above the indices SymPy's own Dummy objects get


def _gather(vector: np.ndarray, position) -> np.ndarray:
    """vector[position − 1] for 1-based integer positions, NaN outside 1..len(vector)."""
    position = np.asarray(position)
    whole = np.round(position).astype(int)
    inside = (whole == position) & (whole >= 1) & (whole <= len(vector))
    return np.where(inside, vector[np.clip(whole, 1, len(vector)) - 1], np.nan)


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


def stack_bound(blocks: list[Block], x: np.ndarray) -> float:
    """∏_k ‖I + J_k(x_k)‖₂ · (1 + max |W2||W1|) along the residual stack started at x: the
    spectral norm bounds every entry of the stack's Jacobian and, to first order, how much a
    rounding error made in one block can grow through the blocks after it."""
    d = x.shape[-1]
    bound, growth = 1.0, 0.0
    for block in blocks:
        bound *= float(np.linalg.norm(np.eye(d) + block.jacobian(x), 2))
        growth = max(growth, float(block.abs_bound().max()))
        x = x + block(x)
    return bound * (1 + growth)


def _matvec(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.matmul(a, x[..., None])[..., 0]


# -- random residual stacks for the section-10 checks ---------------------------------------

def gpt2_gain(depth: int) -> float:
    """GPT-2's residual init: the last weights of each branch scaled by 1/√N, N = 2·depth."""
    return (2 * depth) ** -0.5


def unit_rows(rng: np.random.Generator, size: int, dim: int) -> np.ndarray:
    """``size`` independent uniformly random unit vectors in ℝ^dim."""
    u = rng.standard_normal((size, dim))
    return u / np.sqrt((u * u).sum(-1, keepdims=True))


def residual_stack(rng: np.random.Generator, start: int, end: int, dim: int,
                   hidden: int = 8) -> tuple[np.ndarray, np.ndarray, float]:
    """(x, F, tol): states x_k of a residual stack of random tanh blocks and its branch outputs
    F_k = F(x_k, W_k), x_{k+1} = x_k + F_k, for k up to end + 1 (so a formula may read one
    block too far); x_0 is standard normal. ``tol`` bounds the rounding of x_end against the
    unrolled sum from ``start``: both add end − start terms of size at most their sum."""
    from tmath.engine.stats import rounding_tolerance as tolerance

    count = end + 2
    xs, fs = np.zeros((count, dim)), np.zeros((count, dim))
    xs[0] = rng.standard_normal(dim)
    for step in range(count):
        fs[step] = random_block(rng, dim, hidden, gain=1.0)(xs[step])
        if step + 1 < count:
            xs[step + 1] = xs[step] + fs[step]
    scale = float(np.abs(xs[start]).max() + np.abs(fs[start:end]).sum(0).max())
    return xs, fs, tolerance(2 * (end - start) + 2, scale)


def energy_identity_draw(depth: int, dim: int, hidden: int, law: str, pre_norm: bool):
    """A sampler of ‖u_L‖² − Σ_k ‖J_k u_k‖² over fresh random residual stacks (GPT-2 gain, W2
    from the standardized ``law``): u_0 a random unit vector, x_0 a standardised token (mean 0,
    variance 1, like an embedding after LayerNorm), u_{k+1} = (I + J_k)u_k."""
    from tmath.reference.distributions import STANDARDIZED
    from tmath.reference.norms import layer_norm

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        x = layer_norm(rng.standard_normal((size, dim)), 0.0) if dim > 1 else \
            np.zeros((size, dim))
        u, branch_energy = unit_rows(rng, size, dim), 0.0
        for _ in range(depth):
            block = random_block(rng, dim, hidden, gpt2_gain(depth), (size,), STANDARDIZED[law])
            branch = (lambda z: block(layer_norm(z, 1e-5))) if pre_norm else block  # noqa: B023
            out, tangent = value_and_jvp(branch, x, u, per_row=True)
            branch_energy = branch_energy + (tangent * tangent).sum(-1)
            x, u = x + out, u + tangent
        return (u * u).sum(-1) - branch_energy
    return draw


def linear_energy_draw(depth: int, dim: int, gain: float, residual: bool):
    """A sampler of ‖u_L‖² for a unit u_0 through ``depth`` fresh linear blocks u ↦ (I + W)u
    (or Wu), W with independent uniform entries of variance gain²/dim."""
    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        u = unit_rows(rng, size, dim)
        for _ in range(depth):
            w = rng.uniform(-1.0, 1.0, size=(size, dim, dim)) * (gain * np.sqrt(3.0 / dim))
            step = _matvec(w, u)
            u = u + step if residual else step
        return (u * u).sum(-1)
    return draw


def mean_direction_draw(rng: np.random.Generator, depth: int, dim: int, post_norm: bool,
                        count: int = 16, eps: float = 1e-5) -> tuple[np.ndarray, float]:
    """(mean over features of (∂x_L/∂x_0)·1, its rounding tolerance) for ``count`` random
    pre-norm (x + F(LN(x))) or post-norm (LN(x + F(x))) stacks of tanh blocks."""
    from tmath.engine.stats import rounding_tolerance as tolerance
    from tmath.reference.norms import centred_moments, layer_norm

    blocks = [random_block(rng, dim, 2 * dim, 1.0, (count,)) for _ in range(depth)]
    x, u, scale = rng.standard_normal((count, dim)), np.ones((count, dim)), 1.0
    last = 1.0
    for block in blocks:
        step = ((lambda z: layer_norm(z + block(z), eps)) if post_norm  # noqa: B023
                else (lambda z: z + block(layer_norm(z, eps))))  # noqa: B023
        sigma = np.sqrt(centred_moments(x)[2] + eps)
        bound = block.abs_bound().max((-2, -1))
        growth = bound * 2 / sigma[:, 0] * np.abs(u).max(-1)
        scale += float(growth.max())
        if post_norm:  # the last step's JVP: J_LN(y)(I + J_F)u, |J_LN| ≤ 2/σ_y
            sigma_y = np.sqrt(centred_moments(x + block(x))[2] + eps)
            last = float((2 / sigma_y[:, 0] * (1 + bound) * np.abs(u).max(-1)).max())
        x, u = value_and_jvp(step, x, u, per_row=True)
    # post-norm: the mean of u is 0 exactly; its rounding comes from the last step alone (its
    # block and LayerNorm, about block_ops + 12d operations) on entries of size ``last``, not
    # from u's own size (which may be far smaller after cancellation);
    # pre-norm: every block's forward (block_ops) and LayerNorm (≈ 8d), scaled by the growth
    if post_norm:
        return u.mean(-1), tolerance(block_ops(dim, 2 * dim) + 12 * dim + 8, last)
    return u.mean(-1), tolerance(depth * (block_ops(dim, 2 * dim) + 8 * dim), scale)


# -- measured Jacobians of residual computations, with their rounding tolerances -----------

@dataclass(frozen=True)
class JacobianCase:
    """Jacobians of one random residual computation, measured by the complex step.

    ``skip`` is ∂(output)/∂x − ∂(branch)/∂x; ``after`` is what the skip term multiplies in the
    chain rule (I, or the branch Jacobian plus I); ``total`` the measured Jacobian of a
    composite (a loss, or a norm after the addition) and ``outer`` the Jacobian in front of it,
    so that ``total = outer @ (skip·after …)`` is what the claim's chain rule predicts. ``tol``
    and ``total_tol`` bound the rounding of the two comparisons (Higham-style op counts)."""

    skip: np.ndarray
    branch: np.ndarray
    total: np.ndarray
    outer: np.ndarray
    tol: float
    total_tol: float
    y: np.ndarray | None = None


def residual_block_case(rng: np.random.Generator, n: int, m: int) -> JacobianCase:
    """y = x + F(x) for a random tanh block; the composite is L = w·tanh(y)."""
    from tmath.engine.stats import rounding_tolerance as tolerance

    block, x, w = random_block(rng, n, m, gain=1.0), rng.standard_normal(n), rng.standard_normal(n)
    exact = block.jacobian(x)
    # complex-step forward (block_ops), exact Jacobian (2m + 4), one subtraction; every term
    # is bounded by |W2||W1| + I
    scale = float(block.abs_bound().max()) + 1
    return JacobianCase(jacobian(lambda z: block(z) + z, x) - exact, exact,
                        jacobian(lambda z: np.tanh(block(z) + z) @ w, x),
                        w * (1 - np.tanh(block(x) + x) ** 2),
                        tolerance(block_ops(n, m) + 2 * m + 5, scale),
                        tolerance(block_ops(n, m) + 2 * m + 2 * n + 9,
                                  scale * float(np.abs(w).sum())))


def residual_stack_case(rng: np.random.Generator, depth: int, n: int,
                        hidden: int = 8) -> JacobianCase:
    """x_L of ``depth`` random tanh blocks (GPT-2 gain) against x_l; branch = Σ_k F(x_k);
    the composite is L = g·x_L."""
    from tmath.engine.stats import rounding_tolerance as tolerance

    blocks = [random_block(rng, n, hidden, gain=gpt2_gain(depth)) for _ in range(depth)]
    x, g = rng.standard_normal(n), rng.standard_normal(n)

    def run(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        total = 0 * z
        for block in blocks:
            out = block(z)
            z, total = z + out, total + out
        return z, total

    top, branches = (jacobian(lambda z: run(z)[part], x) for part in (0, 1))
    # per block: forward (block_ops) plus two accumulations; errors grow at most by
    # ∏‖I + J_k‖₂ through the blocks after the one that made them
    ops, bound = depth * (block_ops(n, hidden) + 2) + 2, stack_bound(blocks, x)
    return JacobianCase(top - branches, branches, jacobian(lambda z: run(z)[0] @ g, x), g,
                        tolerance(ops, bound),
                        tolerance(ops + 2 * n + 2, bound * float(np.abs(g).sum())))


def norm_placement_case(rng: np.random.Generator, n: int, eps: float) -> JacobianCase:
    """Pre-norm x + F(LN(x)) (skip term) and post-norm LN(x + F(x)) (total, with
    ``outer`` = I + ∂F/∂x and ``y`` = x + F(x), LN's input) for a random tanh block."""
    from tmath.engine.stats import rounding_tolerance as tolerance
    from tmath.reference.norms import centred_moments, layer_norm

    block, x = random_block(rng, n, 2 * n, gain=1.0), rng.standard_normal(n)
    pre_branch = jacobian(lambda z: block(layer_norm(z, eps)), x)
    skip = jacobian(lambda z: z + block(layer_norm(z, eps)), x) - pre_branch
    y = x + block(x)
    # LN adds ~4n steps (mean, centring, variance, division) to the block's; entries of J_LN
    # are at most 2/σ, those of the branch |W2||W1|
    scale = (1 + float(block.abs_bound().max())) * 2 / np.sqrt(centred_moments(y)[2][0] + eps)
    tol = tolerance(block_ops(n, 2 * n) + 8 * n + 8, scale)
    return JacobianCase(skip, pre_branch, jacobian(lambda z: layer_norm(z + block(z), eps), x),
                        np.eye(n) + block.jacobian(x), tol, tol, y)


# -- proof and check pieces shared by the residual claims ------------------------------------

def skip_term_chain(proof, total: sp.Expr, branch: sp.Expr, wrt: sp.Expr, block, label: str):
    """The chain ∂(total)/∂wrt − ∂(branch)/∂wrt → (the skip term), with ``total`` rewritten by
    the declared premise ``block`` (total = branch + skip) and SymPy differentiating."""
    start = sp.Derivative(total, wrt) - sp.Derivative(branch, wrt)
    return (proof.chain(start, label).substitute(dict(block.equations), premise=block)
            .evaluate("differentiate term by term; ∂x_i/∂x_j = δ_ij"))


def delta_sum_chain(proof, row: sp.Symbol, summed: sp.Symbol, d: sp.Symbol, rest: sp.Symbol,
                    in_range):
    """The chain Σ_{summed=1}^{d} δ(row, summed) → 1, for a ``row`` inside 1..d: the declared
    premise ``in_range`` says d = row + rest with rest ≥ 0, and SymPy's evaluation of the sum
    then sees that the delta's term is inside the range."""
    return (proof.chain(sp.Sum(sp.KroneckerDelta(row, summed), (summed, 1, d)),
                        "a delta picks one feature")
            .substitute({d: row + rest}, premise=in_range)
            .evaluate("the delta picks one term of the sum"))


def check_jacobian_case(experiment, case: JacobianCase, skip: np.ndarray, point,
                        labels: tuple[str, str], inputs: tuple[str, str]) -> None:
    """Two tests: the measured skip term is ``skip``, and the chain rule through the
    composite holds with it (``total = outer·(branch + skip)``)."""
    experiment.close(case.skip, skip, case.tol, labels[0], inputs=inputs[0], at=point)
    experiment.close(case.total, case.outer @ (case.branch + skip), case.total_tol, labels[1],
                     inputs=inputs[1], at=point)
