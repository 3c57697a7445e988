"""The value of a SymPy expression at a point, computed in one walk over its tree with mpmath.

Numeric evidence (:mod:`tmath.engine.numeric`) used to substitute the point into the
expression and let SymPy rebuild it: every node it creates asks SymPy's assumption system and
exact arithmetic to simplify it, which made three random points cost more than many of the
symbolic steps they check. Here each node is evaluated once, in 50-digit binary floating
point, with the same meaning SymPy gives it: principal branches, Karr's convention for empty
and reversed sums, the same random value for the same opaque atom (``q[2]``, ``E(x)``).

A derivative is taken numerically by mpmath (so a differentiation step is checked by other
means than SymPy's rules). A node this walker does not know (an integral, a limit, a function
SymPy defines but this module does not list) raises :class:`Unsupported`, and the caller takes SymPy's slower road for the
whole expression: nothing is guessed.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

DIGITS = 50
"""Working precision: 20 digits more than the 30 the comparison needs, for cancellation."""


class Unsupported(Exception):
    """The walker cannot evaluate this node; use SymPy's evaluation instead."""


def _real(x: Any) -> Any:
    """``x`` as a real number for a comparison, or Unsupported when it is not real."""
    if isinstance(x, mpmath.mpc):
        if x.imag != 0:
            raise Unsupported("a comparison of complex numbers")
        return x.real
    return x


def karr_range(low: int, high: int) -> tuple[int, int, bool]:
    """The terms a sum from ``low`` to ``high`` runs over, and whether it is reversed. Karr's
    convention, which SymPy follows: Σ_{a}^{a−1} is empty, and for b < a − 1
    Σ_{a}^{b} = −Σ_{b+1}^{a−1} (a product: its inverse)."""
    if high < low:
        return high + 1, low - 1, True
    return low, high, False


def _whole(x: Any) -> int:
    """``x`` as an exact whole number (a sum's bound, an index), or Unsupported."""
    if isinstance(x, int):
        return x
    raise Unsupported("a bound or index that is not a whole number")


_FUNCTIONS: dict[type, Callable[..., Any]] = {
    sp.exp: mpmath.exp, sp.log: mpmath.log, sp.sin: mpmath.sin, sp.cos: mpmath.cos,
    sp.tan: mpmath.tan, sp.sinh: mpmath.sinh, sp.cosh: mpmath.cosh, sp.tanh: mpmath.tanh,
    sp.asin: mpmath.asin, sp.acos: mpmath.acos, sp.atan: mpmath.atan, sp.erf: mpmath.erf,
    sp.gamma: mpmath.gamma, sp.Abs: abs, sp.re: mpmath.re, sp.im: mpmath.im,
    sp.conjugate: mpmath.conj, sp.atan2: lambda y, x: mpmath.atan2(_real(y), _real(x)),
    sp.floor: lambda x: int(mpmath.floor(_real(x))),
    sp.ceiling: lambda x: int(mpmath.ceil(_real(x))),
    sp.sign: lambda x: mpmath.sign(x),
    sp.Max: lambda *a: max(_real(v) for v in a),
    sp.Min: lambda *a: min(_real(v) for v in a),
}

_PERIODIC = (sp.sin, sp.cos, sp.tan)

_RELATIONS: dict[type, Callable[[Any, Any], bool]] = {
    sp.StrictLessThan: operator.lt, sp.LessThan: operator.le,
    sp.StrictGreaterThan: operator.gt, sp.GreaterThan: operator.ge,
}

_CONSTANTS = {sp.pi: lambda: +mpmath.pi, sp.E: lambda: +mpmath.e,
              sp.EulerGamma: lambda: +mpmath.euler, sp.I: lambda: mpmath.mpc(0, 1)}


class Walker:
    """Evaluates expressions at ``point`` (symbol → exact SymPy number). ``opaque`` gives
    the random values of opaque atoms, the same ones SymPy's road uses: ``value(atom)``, and
    ``entry(base, indices)`` for ``base[indices]``."""

    def __init__(self, point: dict, opaque: Any, digits: int = DIGITS) -> None:
        self.digits = digits
        """Working precision (a second, higher one tells a rounding error from a value)."""
        with mpmath.workdps(digits):  # the point at full precision, as every node after it
            self.env: dict[sp.Basic, Any] = {s: _number(v) for s, v in point.items()}
        self.point = point
        self.opaque = opaque
        self.moved: dict[tuple, Any] = {}
        """Entries ``q[i]`` a numerical derivative is moving, with their current values."""

    def value(self, expr: sp.Basic) -> Any:
        with mpmath.workdps(self.digits):
            return self._walk(expr)

    def _walk(self, node: sp.Basic) -> Any:  # noqa: C901 -- one dispatch on the node's kind
        if node in self.env:
            return self.env[node]
        if node.is_Number:
            return _number(node)
        if node in _CONSTANTS:
            return _CONSTANTS[node]()
        if node.is_Symbol:
            raise Unsupported(f"no value for {node}")
        if node.is_Add:
            total = self._walk(node.args[0])
            for arg in node.args[1:]:
                total = total + self._walk(arg)
            return total
        if node.is_Mul:
            product = self._walk(node.args[0])
            for arg in node.args[1:]:
                product = product * self._walk(arg)
            return product
        if node.is_Pow:
            return _power(self._walk(node.base), self._walk(node.exp))
        if isinstance(node, (sp.Sum, sp.Product)):
            return self._series(node)
        if isinstance(node, sp.KroneckerDelta):
            i, j = (_whole(self._walk(a)) for a in node.args)
            return 1 if i == j else 0
        if isinstance(node, sp.Piecewise):
            for piece, condition in node.args:
                if self._truth(condition):
                    return self._walk(piece)
            raise Unsupported("no piece applies")  # SymPy: undefined here
        if isinstance(node, sp.Indexed):
            key = (node.base, tuple(_whole(self._walk(i)) for i in node.indices))
            if key in self.moved:
                return self.moved[key]
            return _number(self.opaque.entry(*key))
        if isinstance(node, AppliedUndef) or _opaque_function(node):
            return _number(self.opaque.value(self._opaque_atom(node)))
        if isinstance(node, sp.Derivative):
            return self._derivative(node.expr, list(node.variable_count), node)
        function = _FUNCTIONS.get(type(node))
        if function is not None:
            args = [self._walk(a) for a in node.args]
            if isinstance(node, _PERIODIC) and abs(args[0]) > mpmath.mpf(10) ** (self.digits // 2):
                raise Unsupported("a periodic function of an argument whose rounding exceeds "
                                  "its period")  # and whose reduction costs minutes
            return function(*args)
        raise Unsupported(f"{type(node).__name__} is not evaluated here")

    def _opaque_atom(self, node: sp.Basic) -> sp.Basic:
        """The atom as SymPy's road names it: its arguments replaced by their exact values."""
        exact = {s: v for s, v in self.point.items()}
        exact.update({s: sp.Integer(v) for s, v in self.env.items()
                      if isinstance(v, int) and s not in exact})
        atom = node.xreplace(exact)
        if any(a.free_symbols or a.has(sp.Sum, sp.Product, sp.Indexed) for a in atom.args):
            raise Unsupported("an opaque function of an unevaluated argument")
        return atom

    def _derivative(self, body: sp.Basic, variables: list, node: sp.Basic) -> Any:
        """∂ⁿ/∂vⁿ by mpmath's numerical differentiation (extra precision, not SymPy's rules, so
        a symbolic differentiation step gets independent evidence). ``v`` is a real symbol or
        an entry ``q[i]``: then every entry with the same label and index values moves."""
        if not variables:
            return self._walk(body)
        (variable, order), rest = variables[0], variables[1:]
        opaque = [f for f in body.atoms(sp.Function)
                  if isinstance(f, AppliedUndef) or _is_tmath_function(f)]
        if not isinstance(order, (int, sp.Integer)) or \
                any(variable.free_symbols & f.free_symbols for f in opaque):
            raise Unsupported("a derivative of an opaque function, or of unknown order")
        if isinstance(variable, sp.Indexed):
            key = (variable.base, tuple(_whole(self._walk(i)) for i in variable.indices))
            store = self.moved
            at = self._walk(variable)
        elif variable.is_Symbol and variable in self.env and not variable.is_integer:
            key, store, at = variable, self.env, self.env[variable]
        else:
            raise Unsupported("a derivative in a variable without a real value")
        before = store.get(key, _MISSING)

        def along(t: Any) -> Any:
            store[key] = t
            try:
                return self._derivative(body, rest, node)
            finally:
                if before is _MISSING:
                    store.pop(key, None)
                else:
                    store[key] = before
        size = abs(along(at))
        if size > mpmath.mpf(10) ** (self.digits // 2):
            raise Unsupported("the function is too large here for a numerical derivative at "
                              "this precision (its change would be lost to rounding)")
        return mpmath.diff(along, at, int(order))

    def _series(self, node: sp.Basic) -> Any:
        """A sum or product over whole-number ranges, innermost limit last (as SymPy)."""
        is_sum = isinstance(node, sp.Sum)
        return self._over(node.function, list(node.limits), is_sum)

    def _over(self, body: sp.Basic, limits: list, is_sum: bool) -> Any:
        if not limits:
            return self._walk(body)
        index, low, high = limits[-1]
        low, high, reversed_range = karr_range(_whole(self._walk(low)), _whole(self._walk(high)))
        saved = self.env.get(index, _MISSING)
        total: Any = 0 if is_sum else 1
        try:
            for v in range(low, high + 1):
                self.env[index] = v
                term = self._over(body, limits[:-1], is_sum)
                total = total + term if is_sum else total * term
        finally:
            if saved is _MISSING:
                self.env.pop(index, None)
            else:
                self.env[index] = saved
        if reversed_range:
            return -total if is_sum else 1 / total
        return total

    def _truth(self, condition: sp.Basic) -> bool:
        if condition is sp.true:
            return True
        if condition is sp.false:
            return False
        if isinstance(condition, sp.And):
            return all(self._truth(c) for c in condition.args)
        if isinstance(condition, sp.Or):
            return any(self._truth(c) for c in condition.args)
        if isinstance(condition, sp.Not):
            return not self._truth(condition.args[0])
        if isinstance(condition, (sp.Eq, sp.Ne)):
            a, b = (self._walk(x) for x in condition.args)
            if not (isinstance(a, int) and isinstance(b, int)):
                raise Unsupported("equality of inexact values")
            return (a == b) == isinstance(condition, sp.Eq)
        relation = _RELATIONS.get(type(condition))
        if relation is None:
            raise Unsupported(f"condition {type(condition).__name__}")
        a, b = (_real(self._walk(x)) for x in condition.args)
        if not (isinstance(a, int) and isinstance(b, int)) and a == b:
            raise Unsupported("a condition decided by rounding")
        return relation(a, b)


_MISSING = object()


def _is_tmath_function(node: sp.Basic) -> bool:
    return isinstance(node, sp.Function) and (type(node).__module__ or "").startswith("tmath")


def _opaque_function(node: sp.Basic) -> bool:
    """A function tmath defines without evaluating it (E, Var, shape): opaque to SymPy."""
    if not _is_tmath_function(node):
        return False
    if getattr(type(node).eval, "__func__", None) is not sp.Function.eval.__func__:
        raise Unsupported(f"{type(node).__name__} evaluates itself")
    return True


def _number(value: Any) -> Any:
    """A SymPy number (or a Python one) as an exact int or an mpmath number."""
    if isinstance(value, int):
        return value
    if isinstance(value, sp.Integer):
        return int(value)
    if isinstance(value, sp.Rational):
        return mpmath.mpf(value.p) / value.q
    if isinstance(value, sp.Float):
        return mpmath.mpf(value._mpf_)
    if isinstance(value, (float, mpmath.mpf, mpmath.mpc)):
        return value
    if isinstance(value, sp.Basic):
        if value.is_number:
            return mpmath.mpmathify(complex(sp.N(value, DIGITS)))
    raise Unsupported(f"{value!r} is not a number")


def _power(base: Any, exponent: Any) -> Any:
    if isinstance(exponent, int):
        if isinstance(base, int):
            if exponent >= 0:
                return base**exponent
            if base == 0:
                raise ZeroDivisionError("0 to a negative power")
            return mpmath.mpf(1) / mpmath.mpf(base) ** -exponent
        return base**exponent
    if isinstance(base, int):
        base = mpmath.mpf(base)
    if isinstance(base, mpmath.mpf) and base < 0:
        base = mpmath.mpc(base)  # principal branch, as SymPy: (−8)^(1/3) = 1 + i√3
    return mpmath.power(base, exponent)
