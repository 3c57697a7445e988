"""The random points meanings are compared at, and when two values agree (no SymPy here:
the gate compares cached forms without importing it)."""

from __future__ import annotations

import hashlib

POINTS = 4
"""Random points per comparison. Two analytic expressions that differ agree at a random point
with probability 0; at 4 points, agreement to :data:`RELATIVE` is not an accident."""
RELATIVE = 1e-9
"""Two values agree when they differ by at most this, relative to the larger (or absolutely,
below 1): 15-digit arithmetic of formulas of a few dozen operations loses far less."""
LOW, HIGH = 0.5, 2.5
"""Where the random values lie: positive (dimensions, variances, temperatures are), away from
0 and from the poles of 1/x and log x, and not so large that a power overflows."""


def unit(name: str, point: int) -> float:
    """A number in [0, 1) from a hash of a symbol's name and the point."""
    digest = hashlib.blake2b(f"{point}|{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2 ** 64


def value_of(name: str, point: int) -> float:
    """The value the symbol ``name`` takes at random point ``point``."""
    return LOW + (HIGH - LOW) * unit(name, point)


def agree(a: complex | None, b: complex | None) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= RELATIVE * max(1.0, abs(a), abs(b))
