"""Joint probability tables for claims about information measures over general finite
distributions.

A proof writes a joint table and its marginals as SymPy ``IndexedBase`` objects (``p[y, x, z]``,
``p_x[x]``, ...), so that it holds for every alphabet size; a check evaluates the statement's
value, an expression in such entries, on numeric tables cell by cell (:func:`cellwise`). The
random tables here include the cases where the inequalities are tight: joints close to
independence (:func:`near_independent`) and Markov chains whose second channel is a
relabelling (:func:`markov_chains`), where data processing loses nothing.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from tmath.reference.compiled import lambdified

from tmath.engine.stats import rounding_tolerance
from tmath.reference.information import markov_chain_joint, mutual_information, random_simplex

__all__ = ["y", "x", "z", "K_y", "K_x", "K_z", "P", "P_xy", "P_yx", "P_xz", "P_yz", "P_x", "P_y",
           "P_z", "total", "marginals", "entropy_tolerance", "cellwise", "mutual_informations",
           "conditional_mutual_informations", "expected_over_chains", "information_lost", "near_independent", "markov_chains", "tightened",
           "selection_joint", "bottleneck_terms", "bottleneck_lagrangian",
           "data_processing_plot"]

# -- symbols: cells y, x, z of tables over K_y, K_x, K_z symbols -------------------------------
y, x, z = sp.symbols("y x z", positive=True, integer=True)
K_y, K_x, K_z = sp.symbols("K_y K_x K_z", positive=True, integer=True)
SIZE = {y: K_y, x: K_x, z: K_z}
P, P_xy, P_yx, P_xz, P_yz, P_x, P_y, P_z = (
    sp.IndexedBase(name, positive=True)
    for name in ("p", "p_xy", "p_yx", "p_xz", "p_yz", "p_x", "p_y", "p_z"))
"""p[y, x, z] is a three-way joint, p_xy[x, y] a two-way one; the others are marginals."""


def total(term: Any, *cells: sp.Symbol) -> sp.Sum:
    """Σ of ``term`` over the given cell indices, each from 1 to its alphabet size."""
    return sp.Sum(term, *((c, 1, SIZE[c]) for c in cells))


def marginals(joints: np.ndarray) -> dict:
    """For N three-way tables p[y, x, z] (shape (N, K_y, K_x, K_z)): the joint and each
    marginal, keyed by its ``IndexedBase``, for :func:`cellwise` with ``batched=True``."""
    p = joints
    return dict(zip((P, P_yx, P_xz, P_yz, P_x, P_y, P_z),
                    (p, p.sum(3), p.sum(1), p.sum(2), p.sum((1, 3)), p.sum((2, 3)), p.sum((1, 2)))))


def entropy_tolerance(cells: int, scale: float | None = None) -> float:
    """Rounding bound for comparing entropies of ≤ 4 tables of ``cells`` terms (a log, a
    product and a sum each) on values of size ``scale`` (default log ``cells``, the largest
    entropy of such a table)."""
    return rounding_tolerance(4 * (3 * cells + 2), np.log(cells) if scale is None else scale)


def cellwise(expr: Any, tables: Mapping[Any, np.ndarray], indices: Sequence[Any],
             shape: tuple[int, ...], batched: bool = False) -> np.ndarray:
    """``expr`` at every cell of a table of ``shape``: ``indices`` are its index symbols (one
    per axis, 1-based as in the proof), ``tables`` maps each ``IndexedBase`` to an array whose
    axes are those its entries are indexed by (``p_xz[x, z]`` → shape (K_x, K_z)); with
    ``batched`` every array has a first axis of N tables and so has the result. An entry
    past the end of its table (index K + 1), at index 0, or a value that is not a real number
    gives NaN."""
    import sympy as sp

    bases = list(tables)
    arrays = [np.asarray(tables[b], dtype=float) for b in bases]
    if batched:  # the batch axis goes last, where entries' indices do not reach it
        arrays = [np.moveaxis(a, 0, -1) for a in arrays]
    lead = [a.ndim - (1 if batched else 0) for a in arrays]
    padded = [np.pad(a, [(1, 0)] * k + [(0, 0)] * (a.ndim - k), constant_values=np.nan)
              for a, k in zip(arrays, lead)]  # 1-based, index 0 is NaN
    grids = np.indices(shape) + 1  # an entry p[y, x, z] of a batch is then (…, N)
    full = shape + ((arrays[0].shape[-1],) if batched and arrays else ())
    try:
        f = lambdified([*bases, *indices], sp.sympify(expr))
        with np.errstate(all="ignore"):
            out = np.asarray(f(*padded, *grids))
        if np.iscomplexobj(out):
            out = np.where(np.abs(out.imag) > 1e-12, np.nan, out.real)
        out = np.broadcast_to(out.astype(float), full).copy()
    except (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, NameError,
            AttributeError, OverflowError):
        out = np.full(full, np.nan)
    return np.moveaxis(out, -1, 0) if batched else out


def mutual_informations(joints: np.ndarray, a: tuple[int, ...], b: tuple[int, ...]) -> np.ndarray:
    """I(A;B) = H(A) + H(B) − H(A,B) for each of N joint tables (axis 0 counts them); ``a``
    and ``b`` are axes of one table. The same textbook definition as
    :func:`tmath.reference.information.mutual_information`, for a batch."""
    return _entropy(joints, a) + _entropy(joints, b) - _entropy(joints, tuple(sorted(a + b)))


def conditional_mutual_informations(joints: np.ndarray, a: int, b: int, given: int) -> np.ndarray:
    """I(A;B|C) = H(A,C) + H(B,C) − H(A,B,C) − H(C) for each of N three-way tables."""
    h = lambda *axes: _entropy(joints, tuple(sorted(axes)))  # noqa: E731
    return h(a, given) + h(b, given) - h(a, b, given) - h(given)


def _entropy(joints: np.ndarray, keep: tuple[int, ...]) -> np.ndarray:
    """Entropy of each table's marginal on ``keep`` (0·log 0 = 0)."""
    drop = tuple(1 + k for k in range(joints.ndim - 1) if k not in keep)
    marginal = joints.sum(axis=drop) if drop else joints
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(marginal > 0, -marginal * np.log(marginal), 0.0)
    return terms.reshape(len(joints), -1).sum(axis=1)


def near_independent(rng: np.random.Generator, count: int, kx: int, ky: int):
    """``count`` joint tables (count, K_x, K_y) with full support, from independent to
    strongly dependent: (1 − λ)·p(x)p(y) + λ·D with D a random joint and λ log-uniform on
    [10⁻⁴, 1], and the first table exactly independent (λ = 0). Returns the tables, their
    marginals (p(x), p(y)) and the products p(x)p(y) of those marginals."""
    px = random_simplex(rng, count, kx, 1.0)[:, :, None]
    py = random_simplex(rng, count, ky, 1.0)[:, None, :]
    dependent = random_simplex(rng, count, kx * ky, 0.5).reshape(count, kx, ky)
    weight = np.exp(rng.uniform(np.log(1e-4), 0.0, size=(count, 1, 1)))
    weight[0] = 0.0
    joints = (1 - weight) * px * py + weight * dependent
    margins = (joints.sum(2), joints.sum(1))
    return joints, margins, margins[0][:, :, None] * margins[1][:, None, :]


def expected_over_chains(expr: Any, chains: np.ndarray) -> np.ndarray:
    """E_p[expr] for each of N chains p[y, x, z] (shape (N, K_y, K_x, K_z)): ``expr`` in the
    entries of :data:`P` and its marginals, evaluated cell by cell (:func:`cellwise`)."""
    shape = chains.shape[1:]
    return (chains * cellwise(expr, marginals(chains), (y, x, z), shape, batched=True)).sum(
        axis=(1, 2, 3))


def information_lost(chains: np.ndarray) -> np.ndarray:
    """I(Y;X) − I(Y;Z) for each of N chains p[y, x, z]."""
    return mutual_informations(chains, (0,), (1,)) - mutual_informations(chains, (0,), (2,))


def markov_chains(rng: np.random.Generator, count: int, ky: int, kx: int, kz: int) -> np.ndarray:
    """``count`` random chains p[y, x, z] = p(y)·p(x|y)·p(z|x), shape (count, K_y, K_x, K_z):
    peaked, flat and, for the first one when K_z = K_x, a second channel that relabels X
    (so I(Y;Z) = I(Y;X))."""
    chains = [markov_chain_joint(rng, ky, kx, kz, rng.choice([0.1, 0.5, 1.0, 3.0]))
              for _ in range(count)]
    if kz == kx:
        joint_yx = chains[0].sum(axis=2)
        relabel = np.eye(kx)[rng.permutation(kx)] * (1 - 1e-9) + 1e-9 / kx
        chains[0] = joint_yx[:, :, None] * relabel[None, :, :]
    return np.array(chains)


def tightened(value: tuple, relations: Sequence[str],
              extra: Sequence[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
    """Near-misses of a statement with bound parts: the engine's automatic ones
    (:func:`tmath.engine.foils.near_misses`) and ``extra``, except that a part ``≥ c`` changed
    to ``≥ c'`` with c' < c is a weaker, true statement, not a near-miss, so those are dropped
    (likewise for ``≤``)."""
    from tmath.engine.foils import near_misses

    candidates = near_misses(value, (None,) * len(value)) + list(extra)
    kept = []
    for text, candidate in candidates:
        weaker = False
        for old, new, relation in zip(value, candidate, relations):
            if relation in (">=", ">", "<=", "<") and old != new:
                try:
                    change = float(new) - float(old)
                except (TypeError, ValueError):
                    continue
                weaker = change < 0 if relation[0] == ">" else change > 0
        if not weaker:
            kept.append((text, candidate))
    return kept


def selection_joint(weight: float) -> np.ndarray:
    """p[x1, x2, z] for two independent fair-bit tokens, where attention reads token 1 with
    probability ``weight`` and token 2 otherwise, and Z is the token it reads."""
    p = np.zeros((2, 2, 2))
    for x1 in (0, 1):
        for x2 in (0, 1):
            p[x1, x2, x1] += 0.25 * weight
            p[x1, x2, x2] += 0.25 * (1 - weight)
    return p


def bottleneck_terms(weight: float) -> tuple[float, float]:
    """(I(Z;X), I(Z;Y)) of :func:`selection_joint` with X = (X1, X2) and the target Y = X1."""
    p = selection_joint(weight)
    return mutual_information(p, (0, 1), (2,)), mutual_information(p, (0,), (2,))


def bottleneck_lagrangian(weights: np.ndarray, trade_off: float) -> np.ndarray:
    """The IB Lagrangian I(Z;X) − β·I(Z;Y) of the selection toy at each attention weight."""
    terms = np.array([bottleneck_terms(w) for w in np.atleast_1d(weights)])
    return terms[:, 0] - trade_off * terms[:, 1]


def data_processing_plot(seed: int = 1508, count: int = 1500, k: int = 4, groups: int = 25):
    """An illustration (fixed seed, not a check): ``count`` random chains Y → X → Z with
    ``k`` symbols each, peaked or flat (Dirichlet concentration 0.05, 0.3 or 1), against the
    diagonal I(Y;Z) = I(Y;X). Plots have no scatter style, so the chains are sorted by I(Y;X)
    into ``groups`` groups; each shows its chain with the largest I(Y;Z) and its median."""
    from tmath.engine.plots import Plot, Series

    rng = np.random.default_rng(seed)
    chains = np.array([markov_chain_joint(rng, k, k, k, rng.choice([0.05, 0.3, 1.0]))
                       for _ in range(count)])
    ixy, iyz = mutual_informations(chains, (0,), (1,)), mutual_informations(chains, (0,), (2,))
    parts = np.array_split(np.argsort(ixy), groups)
    top, end, size = [g[np.argmax(iyz[g])] for g in parts], float(ixy.max()), count // groups
    return Plot(f"Data processing: {count} random chains Y → X → Z ({k} symbols each)", (
        Series("diagonal I(Y;Z) = I(Y;X)", (0.0, end), (0.0, end), "dashed"),
        Series(f"chain with the largest I(Y;Z) in each group of {size}", tuple(ixy[top]),
               tuple(iyz[top])),
        Series("median of each group", tuple(np.median(ixy[g]) for g in parts),
               tuple(np.median(iyz[g]) for g in parts))),
        xlabel=f"I(Y;X) (nats), chains sorted into {groups} groups of {size}",
        ylabel="I(Y;Z) (nats)")
