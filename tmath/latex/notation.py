"""The declared notation: which names are operators, functions, matrices and indices.

A formula is read against a :class:`Notation`; nothing outside it is guessed. ``DEFAULT`` is the
notation of transformer lecture notes; ``BARE`` declares nothing (the reader's plain LaTeX).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

import sympy as sp

from tmath.latex import operators as op


def _frozen(mapping: dict) -> Mapping:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Notation:
    """What names mean.

    - ``operators``: a name (as printed: ``Var``, ``E``, ``softmax``, ``D_KL``) → the SymPy
      function it applies; applied with ``(…)`` or ``[…]``.
    - ``functions``: names that are functions when followed by ``(`` (``f``, ``p``, ``PE``,
      ``phi``); other names followed by ``(`` are products, or unread when the two readings
      differ (``a(b)`` with no space and one argument).
    - ``matrices``: names of vectors and matrices, non-commutative (``Q K^T`` keeps its order);
      a name printed with ``^T`` is one in that formula too. A single subscript on a matrix
      names another matrix (``W_Q``, ``q_i``); two index letters name an entry (``M_{ij}``).
    - ``index_letters``: subscripts made of these letters (or integers, or expressions of them)
      are indices, ``q_i`` → ``q[i]``; any other subscript is part of the name,
      ``d_{model}`` → the symbol ``d_model``.
    - ``divergences``: operators whose arguments may be separated by ``\\|`` (``D_{KL}(p \\| q)``).
    - ``lowercase_words``: a run of two or more lowercase letters is one name (``pos``, ``lr``);
      a run of capitals is a product of single letters (``QK`` = Q·K).
    """

    operators: Mapping[str, type] = field(default_factory=lambda: _frozen({}))
    functions: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    index_letters: frozenset[str] = frozenset("ijklmnt")   # and the index of an enclosing sum
    divergences: frozenset[str] = frozenset()
    lowercase_words: bool = False

    def with_matrices(self, names: frozenset[str]) -> "Notation":
        return replace(self, matrices=self.matrices | names)


BARE = Notation()

DEFAULT = Notation(
    operators=_frozen({
        "E": op.E, "Var": op.Var, "Cov": op.Cov,
        "softmax": op.Softmax, "Softmax": op.Softmax,
        "Attention": op.Attention,
        "KL": op.KL, "D_KL": op.KL, "D_{KL}": op.KL,
        "H": op.H,
        "Concat": op.Concat, "LayerNorm": op.LayerNorm,
        "argmin": op.ArgMin, "argmax": op.ArgMax,
    }),
    functions=frozenset({"f", "g", "F", "G", "P", "p", "q", "O", "PE", "phi", "kappa", "sigma",
                         "psi", "I", "fhat"}),
    matrices=frozenset({"Q", "K", "V", "X", "W", "I"}),   # I: the identity
    divergences=frozenset({"KL", "D_KL", "D"}),
    index_letters=frozenset("ijlmnt"),      # not k: d_k is the key dimension (k indexes a sum)
    lowercase_words=True,
)

#: Names SymPy constants take in LaTeX.
CONSTANTS = _frozen({"pi": sp.pi, "infty": sp.oo})
