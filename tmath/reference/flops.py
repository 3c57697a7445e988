"""Counting arithmetic: scalars that tally every operation done on them.

A cost claim runs a small implementation on :class:`Tracked` scalars (NumPy object arrays,
so ``@``, ``np.exp`` and reductions call the scalars' own operators) and reads the tally of
each stage. The counts therefore come from the arithmetic actually performed, never from the
formula under test; the same run also returns the numbers, so it can be checked against the
reference implementation in :mod:`tmath.reference.nn`.

:func:`count` is the proofs' side: an operation count written as a sum of ones over the index
tuples an operation runs over (Σ_{i,j,c} 1 for the multiplies of QKᵀ). The functions at the
end run the tracked computations the cost claims of section 8 count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Callable

import numpy as np


@dataclass
class Tally:
    """Operations performed so far (a subtraction counts as an add)."""

    mul: int = 0
    add: int = 0
    div: int = 0
    exp: int = 0
    cmp: int = 0

    def copy(self) -> Tally:
        return Tally(**vars(self))

    def __sub__(self, other: Tally) -> Tally:
        return Tally(**{f.name: getattr(self, f.name) - getattr(other, f.name)
                        for f in fields(self)})


def _value(x: Any) -> float:
    return x.x if isinstance(x, Tracked) else float(x)


class Tracked:
    """A float that records each arithmetic operation in a shared :class:`Tally`."""

    __slots__ = ("x", "tally")

    def __init__(self, x: float, tally: Tally) -> None:
        self.x = float(x)
        self.tally = tally

    def _new(self, kind: str, x: float) -> Tracked:
        setattr(self.tally, kind, getattr(self.tally, kind) + 1)
        return Tracked(x, self.tally)

    def __mul__(self, o): return self._new("mul", self.x * _value(o))
    def __rmul__(self, o): return self._new("mul", _value(o) * self.x)
    def __add__(self, o): return self._new("add", self.x + _value(o))
    def __radd__(self, o): return self._new("add", _value(o) + self.x)
    def __sub__(self, o): return self._new("add", self.x - _value(o))
    def __rsub__(self, o): return self._new("add", _value(o) - self.x)
    def __truediv__(self, o): return self._new("div", self.x / _value(o))
    def __rtruediv__(self, o): return self._new("div", _value(o) / self.x)

    def _compare(self, o, op) -> bool:
        self.tally.cmp += 1
        return op(self.x, _value(o))

    def __gt__(self, o): return self._compare(o, float.__gt__)
    def __ge__(self, o): return self._compare(o, float.__ge__)
    def __lt__(self, o): return self._compare(o, float.__lt__)
    def __le__(self, o): return self._compare(o, float.__le__)

    def exp(self) -> Tracked:  # called by np.exp on object arrays
        return self._new("exp", math.exp(self.x))

    def __float__(self) -> float:
        return self.x


@dataclass(frozen=True)
class Stage:
    """One step of a computation: the operations it did and the entries of its result."""

    ops: Tally
    stored: int


@dataclass
class Meter:
    """Runs named stages on tracked arrays and keeps, per stage, its operations and output size."""

    tally: Tally = field(default_factory=Tally)
    stages: dict[str, Stage] = field(default_factory=dict)

    def track(self, a: np.ndarray) -> np.ndarray:
        flat = [Tracked(x, self.tally) for x in np.asarray(a, dtype=float).ravel()]
        return np.array(flat, dtype=object).reshape(np.shape(a))

    def run(self, name: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
        before = self.tally.copy()
        out = compute()
        self.stages[name] = Stage(self.tally - before, int(np.size(out)))
        return out


def values(a: np.ndarray) -> np.ndarray:
    """Plain floats of a tracked array."""
    return np.vectorize(_value, otypes=[float])(a)


def softmax(z: np.ndarray) -> np.ndarray:
    """Row softmax by the definition (max-shifted), written to run on tracked arrays."""
    shifted = z - np.max(z, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def attention(meter: Meter, q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """softmax(QKᵀ/√d_k)V in three metered stages: "QK^T", "softmax", "weights V"."""
    Q, K, V = meter.track(q), meter.track(k), meter.track(v)
    scores = meter.run("QK^T", lambda: Q @ K.T)
    weights = meter.run("softmax", lambda: softmax(scores * (1 / math.sqrt(q.shape[-1]))))
    return values(meter.run("weights V", lambda: weights @ V))


def relu(h: np.ndarray) -> np.ndarray:
    """max(h, 0) entrywise, on tracked or plain arrays."""
    return np.where(h > 0, h, 0.0)


def ffn(meter: Meter, x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
        b2: np.ndarray) -> np.ndarray:
    """Row-wise W₂·ReLU(W₁x + b₁) + b₂ in two metered stages: "up" and "down"."""
    X, W1, B1, W2, B2 = (meter.track(a) for a in (x, w1, b1, w2, b2))
    hidden = meter.run("up", lambda: relu(X @ W1.T + B1))
    return values(meter.run("down", lambda: hidden @ W2.T + B2))


def matmul(meter: Meter, name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A metered matrix product of two tracked arrays."""
    return meter.run(name, lambda: a @ b)


def count(*ranges: tuple) -> Any:
    """Σ 1 over the given (index, upper) ranges, each from 1: one operation per index tuple."""
    import sympy as sp

    return sp.Sum(1, *((var, 1, upper) for var, upper in ranges))


# -- what the cost claims count -----------------------------------------------------------------

def attention_counts(rng: np.random.Generator, t: int, d: int) -> tuple[tuple[int, ...], bool]:
    """Tracked softmax(QKᵀ/√d)V on random Q, K, V ∈ ℝ^{t×d}: (multiplies in QKᵀ, exps in the
    softmax, multiplies in weights·V, entries of the scores, of the weights, of the output),
    and whether the tracked run computed attention (:func:`tmath.reference.nn.attention`)."""
    from tmath.reference.nn import attention as reference

    q, k, v = rng.normal(size=(3, t, d))
    meter = Meter()
    out = attention(meter, q, k, v)
    st = meter.stages
    counts = (st["QK^T"].ops.mul, st["softmax"].ops.exp, st["weights V"].ops.mul,
              st["QK^T"].stored, st["softmax"].stored, st["weights V"].stored)
    return counts, bool(np.allclose(out, reference(q, k, v), rtol=1e-12, atol=1e-12))


def ffn_counts(rng: np.random.Generator, t: int, d: int, d_ff: int) -> tuple[tuple[int, ...], bool]:
    """Tracked row-wise W₂·ReLU(W₁x + b₁) + b₂ on small random integers (so every result is an
    exact float): (multiplies up, multiplies down, hidden entries, output entries), and whether
    the tracked run equals NumPy's exactly."""
    x, w1, b1, w2, b2 = (rng.integers(-3, 4, size=s).astype(float) for s in
                         ((t, d), (d_ff, d), (d_ff,), (d, d_ff), (d,)))
    meter = Meter()
    out = ffn(meter, x, w1, b1, w2, b2)
    up, down = meter.stages["up"], meter.stages["down"]
    exact = bool(np.array_equal(out, relu(x @ w1.T + b1) @ w2.T + b2))
    return (up.ops.mul, down.ops.mul, up.stored, down.stored), exact


def head_multiplies(rng: np.random.Generator, t: int, heads: int, width: int) -> tuple[int, int]:
    """Multiplies in QKᵀ and in weights·V summed over ``heads`` tracked heads, each attending
    with its own ``width`` columns of Q, K, V ∈ ℝ^{t×(heads·width)}."""
    q, k, v = rng.normal(size=(3, t, heads * width))
    totals = [0, 0]
    for cols in np.split(np.arange(heads * width), heads):
        meter = Meter()
        attention(meter, q[:, cols], k[:, cols], v[:, cols])
        totals[0] += meter.stages["QK^T"].ops.mul
        totals[1] += meter.stages["weights V"].ops.mul
    return totals[0], totals[1]


def multiply_gap(rng: np.random.Generator, t: int, d: int, d_ff: int) -> int:
    """Counted multiplies of attention's two matrix products minus the FFN's two layers."""
    meter = Meter()
    attention(meter, *rng.normal(size=(3, t, d)))
    ffn(meter, rng.normal(size=(t, d)), *(rng.normal(size=s) for s in
                                          ((d_ff, d), (d_ff,), (d, d_ff), (d,))))
    mul = {name: stage.ops.mul for name, stage in meter.stages.items()}
    return mul["QK^T"] + mul["weights V"] - mul["up"] - mul["down"]


def linear_attention_counts(rng: np.random.Generator, t: int, d: int) -> tuple[int, ...]:
    """Both groupings of φ(Q)φ(K)ᵀV with φ(Q), φ(K), V ∈ ℝ^{t×d} run tracked: (multiplies of
    φ(Q)(φ(K)ᵀV), multiplies of (φ(Q)φ(K)ᵀ)V, entries of φ(K)ᵀV, entries of φ(Q)φ(K)ᵀ)."""
    meter = Meter()
    pq, pk, v = (meter.track(a) for a in np.exp(rng.normal(size=(3, t, d))))
    matmul(meter, "right", pq, matmul(meter, "S", pk.T, v))
    matmul(meter, "left", matmul(meter, "A", pq, pk.T), v)
    st = meter.stages
    return (st["S"].ops.mul + st["right"].ops.mul, st["A"].ops.mul + st["left"].ops.mul,
            st["S"].stored, st["A"].stored)
