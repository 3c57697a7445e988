"""The position-wise feed-forward network FFN(x) = W₂·φ(W₁x + b₁) + b₂, two ways.

:func:`entry` writes one output component as a SymPy formula of indexed entries, for proofs
(``x_of(l)`` gives the token's l-th feature, so a proof can feed it a permuted or edited
row); :class:`Net` holds random NumPy weights of the same shapes (W₁: d_ff×d_model,
W₂: d_model×d_ff) and applies the network to every row of a token matrix, for checks. The
arrays it hands to :func:`tmath.reference.indexed.evaluate` are named like the formula's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sp

from tmath.engine.experiment import tolerance

d_model, d_ff = sp.symbols("d_model d_ff", positive=True, integer=True)
m = sp.Symbol("m", positive=True, integer=True)      # output component
k, l = sp.symbols("k l", integer=True)               # hidden unit, input feature
W1, W2, b1, b2 = sp.symbols("W_1 W_2 b_1 b_2", cls=sp.IndexedBase)
phi = sp.Function("phi")


def entry(x_of: Callable[[sp.Symbol], sp.Expr]) -> sp.Expr:
    """Component m of W₂φ(W₁x + b₁) + b₂ for the token whose l-th feature is ``x_of(l)``."""
    hidden = phi(sp.Sum(W1[k, l] * x_of(l), (l, 1, d_model)) + b1[k])
    return sp.Sum(W2[m, k] * hidden, (k, 1, d_ff)) + b2[m]


def gelu(z: np.ndarray) -> np.ndarray:
    """GELU in its tanh form."""
    return 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z**3)))


def relu(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0.0)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"ReLU": relu, "GELU": gelu}


@dataclass(frozen=True)
class Net:
    """Weights of one FFN and its activation."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    act: Callable[[np.ndarray], np.ndarray]

    @classmethod
    def random(cls, rng: np.random.Generator, dm: int, df: int, activation: str) -> Net:
        shapes = ((df, dm), (df,), (dm, df), (dm,))
        w1, c1, w2, c2 = (rng.normal(size=s) / np.sqrt(s[-1]) for s in shapes)
        return cls(w1, c1, w2, c2, ACTIVATIONS[activation])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The per-token formula applied to every row of ``x`` with the same weights."""
        return self.act(x @ self.w1.T + self.b1) @ self.w2.T + self.b2

    def arrays(self) -> dict:
        return {W1: self.w1, b1: self.b1, W2: self.w2, b2: self.b2}

    @property
    def parameters(self) -> int:
        return sum(a.size for a in (self.w1, self.b1, self.w2, self.b2))

    def tolerance(self, x: np.ndarray, computations: int) -> float:
        """Higham's bound for ``computations`` evaluations of the FFN on the rows of ``x``.

        A hidden entry carries γ_{d+1}·(|W₁||x| + |b₁|); GELU and ReLU have slope ≤ 1.13 < 2 and
        |φ(z)| ≤ |z|, so after φ that is ≤ 2γ_{d+1} plus φ's own rounding (tanh, cube: 3 ops);
        the output sum adds γ_{d_ff+1}; all on the scale |W₂|(|W₁||x| + |b₁|) + |b₂|.
        """
        scale = (np.abs(x) @ np.abs(self.w1).T + np.abs(self.b1)) @ np.abs(self.w2).T \
            + np.abs(self.b2)
        ops = (self.w2.shape[1] + 1) + 2 * (self.w1.shape[1] + 1) + 3
        return tolerance(computations * ops, float(scale.max()))
