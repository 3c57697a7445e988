"""Mathematics as people read it: one line of Unicode, a 2D Unicode block, LaTeX and MathML.

Derivation steps and statements are typeset in the worker that computed them, because a
result read back from the cache is data (it is never turned back into a SymPy expression):

* :func:`linear` — one line of Unicode math (``Σ_{i=1}^{d_k} qᵢ·kᵢ``, ``∞``, ``x²``, ``√d_k``,
  Greek letters and subscripts), used in every message, in JSON and where it fits;
* :func:`block` — SymPy's 2D pretty printer in Unicode, for the terminal when a line is too long;
* :func:`latex` and :func:`mathml` — for ``--latex`` and the HTML report (presentation MathML,
  which browsers render without any script).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "lam": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
SUBSCRIPTS = dict(zip("0123456789+-=()aehijklmnoprstuvx",
                      "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
SUPERSCRIPTS = dict(zip("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ"))


def _script(text: str, table: dict[str, str]) -> str | None:
    return "".join(table[c] for c in text) if text and all(c in table for c in text) else None


def _name(name: str) -> str:
    """``beta_1`` → β₁, ``d_k`` → dₖ, ``d_model`` stays d_model."""
    head, sep, tail = name.partition("_")
    head = GREEK.get(head, head)
    if not sep:
        return head
    tail_greek = GREEK.get(tail, tail)
    return head + (_script(tail, SUBSCRIPTS) or f"_{tail_greek}" if tail_greek == tail
                   else f"_{tail_greek}")


class LinearPrinter(StrPrinter):
    """One line of Unicode math."""

    printmethod = "_tmath_linear"

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return _name(expr.name)

    _print_Dummy = _print_Symbol

    def _print_Infinity(self, expr: Any) -> str:
        return "∞"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "−∞"

    def _print_ComplexInfinity(self, expr: Any) -> str:
        return "∞̃"

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Pi(self, expr: Any) -> str:
        return "π"

    def _print_ImaginaryUnit(self, expr: Any) -> str:
        return "i"

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base, exp = expr.as_base_exp()
        if exp == sp.Rational(1, 2):
            return "√" + self._wrap(base)
        if exp == -sp.Rational(1, 2):
            return "1/√" + self._wrap(base)
        if exp.is_Integer and exp < 0:
            denominator = base if exp == -1 else sp.Pow(base, -exp, evaluate=False)
            return "1/" + self.parenthesize(denominator, PRECEDENCE["Mul"], strict=True)
        shown = self.parenthesize(base, PRECEDENCE["Pow"], strict=True)
        if exp.is_Integer or (exp.is_Symbol and len(exp.name) == 1):
            small = _script(str(exp), SUPERSCRIPTS)
            if small:
                return shown + small
        return f"{shown}^{self.parenthesize(exp, PRECEDENCE['Pow'], strict=False)}" \
            if exp.is_Atom else f"{shown}^({self._print(exp)})"

    def _wrap(self, expr: Any) -> str:
        text = self._print(expr)
        return text if getattr(expr, "is_Atom", False) or isinstance(expr, (sp.Indexed, sp.Function)) \
            else f"({text})"

    def _print_Mul(self, expr: sp.Mul) -> str:
        return super()._print_Mul(expr).replace("*", "·")

    def _print_MatMul(self, expr: Any) -> str:
        return "·".join(self.parenthesize(a, precedence(expr)) for a in expr.args)

    def _print_Add(self, expr: sp.Add, order: Any = None) -> str:
        return super()._print_Add(expr, order).replace(" - ", " − ")

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        base = self._print(expr.base.label)
        indices = [self._print(i) for i in expr.indices]
        if len(indices) == 1:
            small = _script(str(expr.indices[0]), SUBSCRIPTS)
            return base + (small if small else f"_{{{indices[0]}}}")
        return f"{base}_{{{','.join(indices)}}}"

    def _print_IndexedBase(self, expr: Any) -> str:
        return self._print(expr.label)

    def _print_Sum(self, expr: sp.Sum) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        limits = "".join(f"Σ_{{{self._print(i)}={self._print(a)}}}^{{{self._print(b)}}} "
                         for i, a, b in reversed(expr.limits))
        return limits + body

    def _print_Product(self, expr: sp.Product) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        limits = "".join(f"Π_{{{self._print(i)}={self._print(a)}}}^{{{self._print(b)}}} "
                         for i, a, b in reversed(expr.limits))
        return limits + body

    def _print_Limit(self, expr: sp.Limit) -> str:
        e, z, z0, direction = expr.args
        side = "" if z0 in (sp.oo, -sp.oo) else ("⁺" if str(direction) == "+" else "⁻")
        return f"lim_{{{self._print(z)}→{self._print(z0)}{side}}} " + \
            self.parenthesize(e, PRECEDENCE["Mul"], strict=True)

    def _print_Derivative(self, expr: sp.Derivative) -> str:
        parts = []
        for variable, count in expr.variable_count:
            parts.append(f"∂{self._print(variable)}" + (_script(str(count), SUPERSCRIPTS) or
                                                        f"^{count}" if count > 1 else ""))
        total = sum(c for _, c in expr.variable_count)
        top = "∂" + (_script(str(total), SUPERSCRIPTS) if total > 1 else "")
        return f"{top}/{''.join(parts)} " + self.parenthesize(expr.expr, PRECEDENCE["Mul"],
                                                              strict=True)

    def _print_Integral(self, expr: sp.Integral) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        out = ""
        for limit in expr.limits:
            variable = self._print(limit[0])
            bounds = f"_{{{self._print(limit[1])}}}^{{{self._print(limit[2])}}}" if len(limit) == 3 \
                else ""
            out = f"∫{bounds} {out}"
        return out + body + "".join(f" d{self._print(limit[0])}" for limit in expr.limits)

    def _print_Transpose(self, expr: Any) -> str:
        return self.parenthesize(expr.arg, PRECEDENCE["Pow"], strict=True) + "ᵀ"

    def _print_HadamardProduct(self, expr: Any) -> str:
        return " ∘ ".join(self.parenthesize(a, PRECEDENCE["Mul"], strict=True) for a in expr.args)

    def _print_Lambda(self, expr: Any) -> str:
        variables = ", ".join(self._print(v) for v in expr.variables)
        return f"({variables} ↦ {self._print(expr.expr)})"

    def _print_ElementwiseApplyFunction(self, expr: Any) -> str:
        return f"{self._print(expr.function)}.({self._print(expr.expr)})"

    def _print_MatrixSymbol(self, expr: Any) -> str:
        return _name(expr.name)

    def _print_KroneckerDelta(self, expr: Any) -> str:
        return f"δ({self._print(expr.args[0])}, {self._print(expr.args[1])})"

    def _print_Abs(self, expr: Any) -> str:
        return f"|{self._print(expr.args[0])}|"

    def _print_Relational(self, expr: Any) -> str:
        symbol = {"==": "=", "<=": "≤", ">=": "≥", "!=": "≠", "<": "<", ">": ">"}[expr.rel_op]
        return f"{self._print(expr.lhs)} {symbol} {self._print(expr.rhs)}"

    def _print_E(self, expr: Any) -> str:  # tmath.engine.moments.E
        return f"E[{self._print(expr.args[0])}]"

    def _print_Function(self, expr: Any) -> str:
        name = type(expr).__name__
        if name == "E" and type(expr).__module__.startswith("tmath"):
            return f"E[{self._print(expr.args[0])}]"
        return super()._print_Function(expr)

    def _print_Rational(self, expr: sp.Rational) -> str:
        return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

    def _print_ImmutableDenseMatrix(self, expr: Any) -> str:
        return "[" + ", ".join("[" + ", ".join(self._print(e) for e in row) + "]"
                               for row in expr.tolist()) + "]"

    _print_MutableDenseMatrix = _print_ImmutableDenseMatrix


_LINEAR = LinearPrinter()


def linear(expr: Any) -> str:
    """One line of Unicode math for an expression (a tuple as a parenthesised list)."""
    if isinstance(expr, (tuple, list)):
        return "(" + ", ".join(linear(e) for e in expr) + ")"
    if not isinstance(expr, sp.Basic):
        return str(expr)
    try:
        return _LINEAR.doprint(expr)
    except Exception:  # a printer gap must never lose a result: fall back to SymPy's text
        return sp.sstr(expr)


def _relation(before: Any, after: Any, relation: str) -> sp.Basic | None:
    try:
        a, b = sp.sympify(before), sp.sympify(after)
    except (sp.SympifyError, TypeError):
        return None
    kind = {"=": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}.get(relation, sp.Eq)
    try:
        return kind(a, b, evaluate=False)
    except (TypeError, ValueError):
        return None


def block(before: Any, after: Any, relation: str = "=") -> str:
    """``before R after`` in SymPy's 2D Unicode pretty printer."""
    rel = _relation(before, after, relation)
    if rel is None:
        return ""
    try:
        return sp.pretty(rel, use_unicode=True, wrap_line=False)
    except Exception:
        return ""


def latex(before: Any, after: Any, relation: str = "=") -> str:
    rel = _relation(before, after, relation)
    if rel is None:
        return ""
    try:
        return sp.latex(rel)
    except Exception:
        return ""


def mathml(before: Any, after: Any = None, relation: str = "=") -> str:
    """Presentation MathML (a ``<math>`` element) of ``before R after``, or of one expression."""
    from sympy.printing.mathml import mathml as to_mathml

    target = sp.sympify(before) if after is None else _relation(before, after, relation)
    if target is None:
        return ""
    try:
        inner = to_mathml(target, printer="presentation")
    except Exception:
        return ""
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">{inner}</math>'
