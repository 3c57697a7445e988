"""Mathematics as people read it: one line of Unicode, a 2D Unicode block, LaTeX and MathML.

Derivation steps and statements are typeset in the worker that computed them, because a
result read back from the cache is data (it is never turned back into a SymPy expression):

* :func:`linear` — one line of Unicode math (``Σᵢ₌₁ⁿ qᵢ·kᵢ``, ``∞``, ``x²``, ``√dₖ``, the minus
  sign −; :mod:`tmath.render.linear`), used in every message, in JSON and where it fits;
* :func:`block` — SymPy's 2D pretty printer in Unicode, for the terminal when a line is too long;
* :func:`latex` and :func:`mathml` — for ``--latex`` and the HTML report (presentation MathML,
  which browsers render without any script).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.stringpict import prettyForm

from tmath.render.linear import linear, with_minus_signs

__all__ = ["block", "latex", "linear", "mathml"]


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
    """``before R after`` in SymPy's 2D Unicode pretty printer, in the linear form's notation
    (entries as qᵢ, expectations as E[…], the minus sign −)."""
    rel = _relation(before, after, relation)
    if rel is None:
        return ""
    try:
        return with_minus_signs(_BlockPrinter({"use_unicode": True, "wrap_line": False})
                                .doprint(rel))
    except Exception:
        return ""


class _BlockPrinter(PrettyPrinter):
    """SymPy's 2D printer, with indexed entries and expectations written as on one line."""

    def _print_Indexed(self, expr: Any) -> prettyForm:
        return prettyForm(linear(expr))

    def _print_E(self, expr: Any) -> prettyForm:
        inner = self._print(expr.args[0])
        return prettyForm(*prettyForm(*inner.parens("[", "]")).left("E"))


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
