"""The named operators a formula can apply, as unevaluated SymPy functions.

``E`` and ``Var`` are the engine's own (``tmath.engine.moments``), so a formula read here can be
compared with what a claim proves. The others are opaque: the reader records *which* operator is
applied to *what*, never what it computes.
"""

from __future__ import annotations

import sympy as sp

from tmath.engine.moments import E, Var


class _Opaque(sp.Function):
    """An operator the reader names but never evaluates."""

    @classmethod
    def eval(cls, *args):
        return None


class Softmax(_Opaque):
    """softmax(z)."""


class Attention(_Opaque):
    """Attention(Q, K, V): a matrix, so a product keeps its order."""

    is_commutative = False


class KL(_Opaque):
    """Kullback–Leibler divergence KL(p, q), printed D_{KL}(p ‖ q)."""


class H(_Opaque):
    """Entropy H(p) and cross-entropy H(p, q) (also any function a document calls H)."""


class Concat(_Opaque):
    """Concatenation of its arguments: a matrix, so a product keeps its order."""

    is_commutative = False


class Stack(_Opaque):
    """``[A_1, A_2, \\ldots, A_n]``: the members stacked along a new first axis (a batch of
    matrices), Stack(Dots(…)); an array, so a product keeps its order."""

    is_commutative = False


class Rows(_Opaque):
    """``\\begin{bmatrix} h_1 \\\\ \\vdots \\\\ h_h \\end{bmatrix}``: the members stacked one
    above the other (their rows joined), Rows(Dots(…)); a matrix, so a product keeps its
    order."""

    is_commutative = False


class Joined(_Opaque):
    """``a \\oplus b``: two parts joined (a direct sum, a concatenation); which is not read."""


class Maximum(_Opaque):
    """``\\max(0, xW + b)`` of a matrix: the larger of its arguments entry by entry."""

    is_commutative = False


class Minimum(_Opaque):
    """``\\min(0, xW + b)`` of a matrix: the smaller of its arguments entry by entry."""

    is_commutative = False


class LayerNorm(_Opaque):
    """LayerNorm(x)."""


class Cov(_Opaque):
    """Covariance Cov(X, Y)."""


class ArgMin(_Opaque):
    """argmin over the second argument of the first."""


class ArgMax(_Opaque):
    """argmax over the second argument of the first."""


class Norm(_Opaque):
    """The norm ‖x‖."""


class SumOver(_Opaque):
    """Σ_j body with the range of j left unprinted: SumOver(body, j)."""


class Dots(_Opaque):
    """An ellipsis list ``a_1, …, a_h``: Dots(Tuple(items before …), Tuple(items after …))."""


class Inner(_Opaque):
    """``a^T b`` of two vectors (lowercase names): their inner product, a number."""

    is_commutative = True


class SetOf(_Opaque):
    """``\\{a, b\\}`` or ``\\{W_i\\}``: the set (or indexed family) of its items."""


class RealSpace(_Opaque):
    """ℝ^{a × b}: the set of real arrays of the given shape (the right side of an ∈)."""


class Transpose(_Opaque):
    """Xᵀ of a vector or matrix X (not commutative: products keep their order)."""

    is_commutative = False

    @property
    def arg(self) -> sp.Basic:
        """The transposed operand (SymPy's printers of a transpose read ``.arg``)."""
        return self.args[0]


__all__ = ["E", "Var", "Softmax", "Attention", "KL", "H", "Concat", "Stack", "Joined", "Maximum", "Minimum", "LayerNorm", "Cov",
           "ArgMin", "ArgMax", "Norm", "SumOver", "Dots", "Inner", "SetOf", "RealSpace", "Transpose"]
