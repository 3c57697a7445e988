"""Linear Unicode math: an expression on one line, as a learner reads it.

``Σᵢ₌₁ⁿ kᵢ·qᵢ``, ``E[qᵀk]``, ``(a + b)/√dₖ``, ``exp(−c·gₗ)``: sub- and superscripts where
Unicode has glyphs for every character (else ``_{…}`` and ``^{…}``), the true minus sign −,
``·`` for products, ``√`` for square roots, fractions as ``a/b`` with the parentheses their
precedence needs, and indexed entries always as ``qᵢ`` (never ``q[i]``).

The engine typesets derivation steps with it in the worker that computed them (a cached result
holds text, never expressions), so this module is part of what a cached result depends on (see
``tmath.engine.cache.COMPUTING``).
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

from tmath.render.minus import MINUS, minus_signs_in_text  # noqa: E402,F401 (re-exported)
NAME_HYPHEN = "‑"
"""U+2011: a hyphen inside a symbol's name, so it is not taken for a minus."""
GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "lam": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
SUBSCRIPTS = dict(zip("0123456789+-−=()aehijklmnoprstuvx",
                      "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
SUPERSCRIPTS = dict(zip("0123456789+-−=()abcdefghijklmnoprstuvwxyz",
                        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))


def script(text: str, table: dict[str, str]) -> str | None:
    """``text`` in sub- or superscript glyphs, or None when one of its characters has none."""
    return "".join(table[c] for c in text) if text and all(c in table for c in text) else None


def lower(text: str) -> str:
    """``text`` as a subscript: ``ᵢ₌₁`` when every glyph exists, else ``_{i=1}``."""
    return script(text, SUBSCRIPTS) or f"_{{{text}}}"


def upper(text: str) -> str:
    """``text`` as a superscript: ``ⁿ`` when every glyph exists, else ``^{dₖ}``."""
    return script(text, SUPERSCRIPTS) or f"^{{{text}}}"


def symbol_name(name: str) -> str:
    """``beta_1`` → β₁, ``d_k`` → dₖ, ``d_model`` stays d_model, ``alpha`` → α."""
    head, sep, tail = name.replace("-", NAME_HYPHEN).partition("_")
    head = GREEK.get(head, head)
    if not sep:
        return head
    if tail in GREEK:
        return f"{head}_{GREEK[tail]}"
    return head + (script(tail, SUBSCRIPTS) or f"_{tail}")


class LinearPrinter(StrPrinter):
    """One line of Unicode math (call :func:`linear`, which also sets the minus signs)."""

    printmethod = "_tmath_linear"

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return symbol_name(expr.name)

    _print_Dummy = _print_Symbol
    _print_MatrixSymbol = _print_Symbol

    def _print_Infinity(self, expr: Any) -> str:
        return "∞"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "-∞"

    def _print_ComplexInfinity(self, expr: Any) -> str:
        return "∞̃"

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Pi(self, expr: Any) -> str:
        return "π"

    def _print_ImaginaryUnit(self, expr: Any) -> str:
        return "i"

    def _print_Float(self, expr: sp.Float) -> str:
        text = super()._print_Float(expr)
        mantissa, e, exponent = text.partition("e")
        if not e:
            return text
        power = "10" + upper(str(int(exponent)))
        return power if mantissa in ("1", "1.0") else f"{mantissa}·{power}"

    def _print_Rational(self, expr: sp.Rational) -> str:
        return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base, exp = expr.as_base_exp()
        if exp == sp.Rational(1, 2):
            return "√" + self._wrap(base)
        if exp == -sp.Rational(1, 2):
            return "1/√" + self._wrap(base)
        if exp.is_Integer and exp < 0:
            denominator = base if exp == -1 else sp.Pow(base, -exp, evaluate=False)
            return "1/" + self.parenthesize(denominator, PRECEDENCE["Mul"], strict=True)
        shown = self._print(base)
        bare = base.is_Symbol or isinstance(base, (sp.Indexed, sp.Function)) or \
            (base.is_Integer and base >= 0) or base in (sp.E, sp.pi)
        if not bare:
            shown = f"({shown})"
        if exp.is_Integer or (exp.is_Symbol and len(exp.name) == 1):
            small = script(str(exp), SUPERSCRIPTS)
            if small:
                return shown + small
        if exp.is_Symbol or (exp.is_Integer and exp >= 0):
            return f"{shown}^{self._print(exp)}"
        return f"{shown}^({self._print(exp)})"

    def _wrap(self, expr: Any) -> str:
        """An argument of √: bare when it is one symbol, number, entry or call."""
        text = self._print(expr)
        bare = getattr(expr, "is_Atom", False) or isinstance(expr, (sp.Indexed, sp.Function))
        return text if bare and not text.startswith("-") else f"({text})"

    def _print_Mul(self, expr: sp.Mul) -> str:
        return super()._print_Mul(expr).replace("*", "·")

    def _print_MatMul(self, expr: Any) -> str:
        return "·".join(self.parenthesize(a, precedence(expr)) for a in expr.args)

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        base = self._print(expr.base.label)
        return base + lower(",".join(self._print(i) for i in expr.indices))

    def _print_IndexedBase(self, expr: Any) -> str:
        return self._print(expr.label)

    def _limits(self, sign: str, limits: Any) -> str:
        """``Σᵢ₌₁ⁿ `` for each limit, innermost last."""
        shown = []
        for limit in reversed(limits):
            variable, *bounds = limit
            if len(bounds) == 2:
                low = f"{self._print(variable)}={self._print(bounds[0])}"
                shown.append(f"{sign}{lower(low)}{upper(self._print(bounds[1]))} ")
            else:
                shown.append(f"{sign}{lower(self._print(variable))} ")
        return "".join(shown)

    def _print_Sum(self, expr: sp.Sum) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        return self._limits("Σ", expr.limits) + body

    def _print_Product(self, expr: sp.Product) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        return self._limits("Π", expr.limits) + body

    def _print_Limit(self, expr: sp.Limit) -> str:
        e, z, z0, direction = expr.args
        side = "" if z0 in (sp.oo, -sp.oo) else ("⁺" if str(direction) == "+" else "⁻")
        return (f"lim_{{{self._print(z)}→{self._print(z0)}{side}}} "
                + self.parenthesize(e, PRECEDENCE["Mul"], strict=True))

    def _print_Derivative(self, expr: sp.Derivative) -> str:
        parts = []
        for variable, count in expr.variable_count:
            parts.append(f"∂{self._print(variable)}"
                         + ((script(str(count), SUPERSCRIPTS) or f"^{count}") if count > 1 else ""))
        total = sum(c for _, c in expr.variable_count)
        top = "∂" + (script(str(total), SUPERSCRIPTS) or "" if total > 1 else "")
        return f"{top}/{''.join(parts)} " + self.parenthesize(expr.expr, PRECEDENCE["Mul"],
                                                              strict=True)

    def _print_Integral(self, expr: sp.Integral) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"], strict=True)
        out = ""
        for limit in expr.limits:
            if len(limit) == 3:
                out = f"∫_{{{self._print(limit[1])}}}^{{{self._print(limit[2])}}} {out}"
            else:
                out = f"∫ {out}"
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
        if type(expr).__name__ == "E" and type(expr).__module__.startswith("tmath"):
            return f"E[{self._print(expr.args[0])}]"  # tmath.engine.moments.E
        return super()._print_Function(expr)

    def _print_ImmutableDenseMatrix(self, expr: Any) -> str:
        return "[" + ", ".join("[" + ", ".join(self._print(e) for e in row) + "]"
                               for row in expr.tolist()) + "]"

    _print_MutableDenseMatrix = _print_ImmutableDenseMatrix


_PRINTER = LinearPrinter({"full_prec": False})


def with_minus_signs(text: str) -> str:
    """Every ASCII hyphen of printed math as the minus sign − (names keep U+2011)."""
    return text.replace("-", MINUS)


def linear(expr: Any) -> str:
    """One line of Unicode math for an expression (a tuple as a parenthesised list)."""
    if isinstance(expr, (tuple, list)):
        return "(" + ", ".join(linear(e) for e in expr) + ")"
    if isinstance(expr, sp.MatrixBase) and not isinstance(expr, sp.Basic):
        expr = sp.ImmutableMatrix(expr)  # a mutable matrix is no Basic: print it all the same
    if not isinstance(expr, sp.Basic):
        return str(expr)
    try:
        return with_minus_signs(_PRINTER.doprint(expr))
    except Exception:  # noqa: BLE001 -- a printer gap must never lose a result
        return with_minus_signs(sp.sstr(expr))
