"""Information measures of discrete distributions, and random distributions to test them on.

Everything is in nats and follows the textbook definitions (Cover & Thomas, ch. 2) with the
convention 0·log 0 = 0. Mutual information is computed from entropies,
I(X;Y) = H(X) + H(Y) − H(X,Y), never from the KL form that claims state, so a check that
compares the two exercises the definitions rather than the conclusion.

:func:`evaluate_indexed` evaluates a stated value that has indexed entries and finite sums
(Σ_x p(x) log q(x), q*_j = p_j) on concrete arrays, NaN where it does not evaluate.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from tmath.reference.nn import entropy

__all__ = ["entropy", "cross_entropy", "kl_divergence", "random_simplex", "batch_rows",
           "smooth_labels", "evaluate_indexed", "divergence_bound", "joint_entropy",
           "mutual_information", "conditional_mutual_information", "markov_chain_joint"]


def cross_entropy(p: np.ndarray, q: np.ndarray, axis: int = -1) -> np.ndarray:
    """H(p, q) = −Σ p(x) log q(x), with 0·log q = 0."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log(q), 0.0)
    return terms.sum(axis=axis)


def kl_divergence(p: np.ndarray, q: np.ndarray, axis: int = -1) -> np.ndarray:
    """D_KL(p‖q) = Σ p(x) log(p(x)/q(x)), with 0·log(0/q) = 0."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p / q), 0.0)
    return terms.sum(axis=axis)


def random_simplex(rng: np.random.Generator, size, k: int,
                   concentration: float = 1.0) -> np.ndarray:
    """Dirichlet(concentration·1) draws: ``size`` probability vectors of length ``k``.

    concentration 1 is uniform on the simplex; smaller values give peaked vectors.
    """
    shape = (size,) if np.isscalar(size) else tuple(size)
    return rng.dirichlet(np.full(k, concentration), size=shape)


def batch_rows(k: int, entries: int = 100_000, low: int = 20, high: int = 2000) -> int:
    """How many random vectors of length ``k`` a check draws: about ``entries`` numbers in
    all, between ``low`` and ``high`` vectors (many small ones, a few long ones)."""
    return max(low, min(high, entries // max(k, 1)))


def smooth_labels(onehot: np.ndarray, epsilon: Any) -> np.ndarray:
    """(1 − ε)·y + ε/K for label vectors y of length K (the last axis); ε broadcasts."""
    onehot = np.asarray(onehot, dtype=float)
    return (1 - np.asarray(epsilon, dtype=float)) * onehot + \
        np.asarray(epsilon, dtype=float) / onehot.shape[-1]


def evaluate_indexed(expr: Any, arrays: Mapping[Any, np.ndarray],
                     scalars: Mapping[Any, Any] | None = None, index: Any = None) -> np.ndarray:
    """A SymPy value with indexed entries (``p[x]``) and finite sums over them, evaluated on
    concrete arrays: what ``Point.value`` does for plain symbols.

    ``arrays`` maps IndexedBases to arrays whose last axis holds the entries 1..k (math is
    1-based); ``scalars`` maps plain symbols to numbers, or to arrays that broadcast against
    the arrays' leading axes (a sum's bounds must come out whole). With ``index`` (a free
    entry index such as ``j``) the result gains a last axis: the value at j = 1..k. An entry
    out of range (``p[j + 1]`` at j = k), a symbol left unknown or anything that does not
    evaluate to a real number gives NaN, so the test that uses it fails instead of raising.
    """
    import sympy as sp

    from tmath.reference.compiled import lambdified

    arrays = {getattr(b, "label", b): np.asarray(a, dtype=float) for b, a in arrays.items()}
    scalars = {sp.sympify(s): v for s, v in (scalars or {}).items()}
    k = next(iter(arrays.values())).shape[-1] if arrays else 1
    lead = np.broadcast_shapes(*(a.shape[:-1] for a in arrays.values()),
                               *(np.shape(v) for v in scalars.values()))
    shape = lead + (k,) if index is not None else lead
    try:
        numbers = {s: v for s, v in scalars.items() if np.ndim(v) == 0}
        body = sp.sympify(expr).xreplace({s: sp.sympify(v) for s, v in numbers.items()})
        values, outer = {}, body
        for total in body.atoms(sp.Sum):
            symbol = sp.Dummy("S")
            values[symbol] = _sum_values(total, arrays, scalars)
            outer = outer.xreplace({total: symbol})
        if index is not None:
            values = {s: v[..., None] for s, v in values.items()}
        values.update(_entries(outer, arrays, index, k))
        for s, v in scalars.items():
            if np.ndim(v) and outer.has(s):
                values[s] = np.asarray(v, dtype=float)[..., None] if index is not None else v
        outer = outer.xreplace({e: s for s, e in _named_entries(outer, index)})
        if outer.free_symbols - set(values) - ({index} if index is not None else set()):
            return np.full(shape, np.nan)
        args = sorted(values, key=str)
        positions = np.arange(1, k + 1) if index is not None else 0
        f = lambdified(args + ([index] if index is not None else []), outer)
        with np.errstate(all="ignore"):
            result = np.asarray(f(*(values[a] for a in args),
                                  *([positions] if index is not None else [])))
        if np.iscomplexobj(result):
            result = np.where(np.abs(result.imag) > 1e-12, np.nan, result.real)
        return np.broadcast_to(result.astype(float), shape).copy()
    except (TypeError, ValueError, ZeroDivisionError, KeyError, NameError, AttributeError,
            OverflowError, IndexError):
        return np.full(shape, np.nan)


def divergence_bound(proof: Any, p: Any, q: Any, limits: tuple, premise: Any,
                     label: str = "D_KL(p‖q)") -> Any:
    """Gibbs' inequality as a derivation chain: Σ p log(p/q) ≥ Σ p − Σ q = 0, with the vetted
    bound log t ≤ t − 1 at t = q/p (:data:`tmath.engine.rules.LOG_BOUND`).

    ``p`` and ``q`` are the terms (``p[x]``, or ``1/K`` for the uniform law) summed over
    ``limits`` (``(x, 1, n)``); ``premise`` is a declared :class:`~tmath.Premise` whose
    equations give the sums that are 1 (a sum SymPy can evaluate, Σ 1/K say, needs none).
    Returns the chain, which starts at Σ p log(p/q) and ends at 0 with relation ≥.
    """
    import sympy as sp

    from tmath.engine.rules import LOG_BOUND

    def total(term: Any) -> Any:
        return sp.Sum(term, limits)

    sums = {k: v for k, v in getattr(premise, "equations", ()) if k in (total(p), total(q))}
    return (proof.chain(total(p * sp.log(p / q)), label)
            .equals(-total(p * sp.log(q / p)), "log of a quotient", method="expand_log")
            .ge(-total(p * (q / p - 1)), "log t ≤ t − 1", rule=LOG_BOUND)
            .equals(total(p).doit() - total(q).doit(), "split the sum")
            .substitute(sums, premise=premise))


def _offset(entry: Any, index: Any) -> int:
    """c in ``base[index + c]`` (an entry at a fixed number: that number minus 1 when index is
    None), or ValueError."""
    import sympy as sp

    (position,) = entry.indices
    shift = sp.simplify(position - index) if index is not None else position - 1
    if not (shift.is_Integer if hasattr(shift, "is_Integer") else False):
        raise ValueError(f"entry {entry} is not at the index plus a whole number")
    return int(shift)


def _shifted(array: np.ndarray, start: int, count: int) -> np.ndarray:
    """``count`` entries from 0-based ``start`` along the last axis, NaN where out of range."""
    out = np.full(array.shape[:-1] + (count,), np.nan)
    lo, hi = max(start, 0), min(start + count, array.shape[-1])
    if hi > lo:
        out[..., lo - start:hi - start] = array[..., lo:hi]
    return out


def _named_entries(expr: Any, index: Any) -> list:
    import sympy as sp

    return [(sp.Symbol(f"_e{n}"), e) for n, e in
            enumerate(sorted(expr.atoms(sp.Indexed), key=sp.default_sort_key))]


def _entries(expr: Any, arrays: Mapping, index: Any, k: int) -> dict:
    """Values of the indexed entries outside sums: at every position (with ``index``) or at
    their fixed number."""
    values = {}
    for symbol, entry in _named_entries(expr, index):
        array = arrays[entry.base.label]
        if index is not None:
            values[symbol] = _shifted(array, _offset(entry, index), k)
        else:
            values[symbol] = _shifted(array, _offset(entry, None), 1)[..., 0]
    return values


def _sum_values(total: Any, arrays: Mapping, scalars: Mapping) -> np.ndarray:
    """Σ_{x=lo}^{hi} f(x) for concrete bounds, vectorised over x (one level of sum)."""
    import sympy as sp

    from tmath.reference.compiled import lambdified

    (x, lo, hi), = total.limits
    lo, hi = (int(sp.sympify(b).xreplace({s: sp.sympify(v) for s, v in scalars.items()
                                          if np.ndim(v) == 0})) for b in (lo, hi))
    count = max(hi - lo + 1, 0)
    body = total.function
    if body.has(sp.Sum):
        raise ValueError("nested sums are not evaluated")
    named = _named_entries(body, x)
    values = {s: _shifted(arrays[e.base.label], lo - 1 + _offset(e, x), count) for s, e in named}
    body = body.xreplace({e: s for s, e in named})
    for s, v in scalars.items():
        if np.ndim(v) and body.has(s):
            values[s] = np.asarray(v, dtype=float)[..., None]
    args = sorted(values, key=str)
    f = lambdified(args + [x], body)
    with np.errstate(all="ignore"):
        terms = np.asarray(f(*(values[a] for a in args), np.arange(lo, hi + 1)))
    return np.broadcast_to(terms, np.broadcast_shapes(terms.shape, (count,))).sum(axis=-1) \
        if count else np.zeros(())


def joint_entropy(joint: np.ndarray) -> float:
    """Entropy of a joint table (all cells together)."""
    return float(entropy(np.asarray(joint, dtype=float).ravel()))


def _marginal(joint: np.ndarray, keep: tuple[int, ...]) -> np.ndarray:
    drop = tuple(a for a in range(joint.ndim) if a not in keep)
    return joint.sum(axis=drop)


def mutual_information(joint: np.ndarray, a: tuple[int, ...] = (0,),
                       b: tuple[int, ...] = (1,)) -> float:
    """I(A;B) = H(A) + H(B) − H(A,B) for groups of axes ``a`` and ``b`` of a joint table."""
    joint = np.asarray(joint, dtype=float)
    return (joint_entropy(_marginal(joint, a)) + joint_entropy(_marginal(joint, b))
            - joint_entropy(_marginal(joint, tuple(sorted(a + b)))))


def conditional_mutual_information(joint: np.ndarray, a: int, b: int, given: int) -> float:
    """I(A;B|C) = H(A,C) + H(B,C) − H(A,B,C) − H(C) for single axes of a 3-way table."""
    joint = np.asarray(joint, dtype=float)
    h = lambda *axes: joint_entropy(_marginal(joint, tuple(sorted(axes))))  # noqa: E731
    return h(a, given) + h(b, given) - h(a, b, given) - h(given)


def markov_chain_joint(rng: np.random.Generator, ky: int, kx: int, kz: int,
                       concentration: float = 1.0) -> np.ndarray:
    """A random joint table p[y, x, z] = p(y)·p(x|y)·p(z|x): a Markov chain Y → X → Z."""
    p_y = random_simplex(rng, 1, ky, concentration)[0]
    p_x_given_y = random_simplex(rng, ky, kx, concentration)
    p_z_given_x = random_simplex(rng, kx, kz, concentration)
    return p_y[:, None, None] * p_x_given_y[:, :, None] * p_z_given_x[None, :, :]
