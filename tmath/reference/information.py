"""Information measures of discrete distributions, and random distributions to test them on.

Everything is in nats and follows the textbook definitions (Cover & Thomas, ch. 2) with the
convention 0·log 0 = 0. Mutual information is computed from entropies,
I(X;Y) = H(X) + H(Y) − H(X,Y), never from the KL form that claims state, so a check that
compares the two exercises the definitions rather than the conclusion.
"""

from __future__ import annotations

import numpy as np

from tmath.reference.nn import entropy

__all__ = ["entropy", "cross_entropy", "kl_divergence", "random_simplex", "joint_entropy",
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
