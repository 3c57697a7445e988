"""The linear printer (tmath.render.linear): one line of Unicode math, the minus sign −, entries
as qᵢ, sums with their limits; and, as properties, no ASCII hyphen as a minus and a form that
reads back to the same expression."""

from __future__ import annotations

import re

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tmath.engine import printing
from tmath.engine.moments import E, Var
from tmath.render.linear import linear, minus_signs_in_text

i, j = sp.symbols("i j", integer=True)
n = sp.Symbol("n", positive=True, integer=True)
d_k = sp.Symbol("d_k", positive=True, integer=True)
q, k = sp.IndexedBase("q"), sp.IndexedBase("k")
x, y, z = sp.symbols("x y z")


@pytest.mark.parametrize("expr, shown", [
    (sp.Sum(k[i] * q[i], (i, 1, n)), "Σᵢ₌₁ⁿ kᵢ·qᵢ"),
    (E(sp.Sum(k[i] * q[i], (i, 1, d_k))), "E[Σᵢ₌₁^{dₖ} kᵢ·qᵢ]"),
    (sp.Sum(q[i], (i, 1, sp.Symbol("T"))), "Σᵢ₌₁^{T} qᵢ"),
    (Var(q[i] * k[i]), "Var(kᵢ·qᵢ)"),
    (sp.exp(-sp.Symbol("c") * sp.Symbol("g_l")), "exp(−c·gₗ)"),
    (-d_k, "−dₖ"),
    (x - 1, "x − 1"),
    ((x + 1) / (y - 2), "(x + 1)/(y − 2)"),
    (sp.sqrt(x + 1), "√(x + 1)"),
    (1 / sp.sqrt(d_k), "1/√dₖ"),
    (x ** sp.Rational(-3, 2), "x^(−3/2)"),
    (x ** 2, "x²"),
    (sp.Rational(-1, 2), "−1/2"),
    (sp.Float(1.5e-7), "1.5·10⁻⁷"),
    (q[i, j], "q_{i,j}"),
    (q[i + 1], "q_{i + 1}"),
    (sp.Symbol("beta_1"), "β₁"),
    (sp.Symbol("d_model"), "d_model"),
    (sp.Matrix([[x, -y], [2 * x, 1]]), "[[x, −y], [2·x, 1]]"),
    (sp.ImmutableMatrix([[sp.Symbol("omega_i")]]), "[[ωᵢ]]"),
])
def test_examples(expr, shown):
    assert linear(expr) == shown


def test_the_2d_layout_uses_the_same_notation():
    block = printing.block(E(sp.Sum(k[i] * q[i], (i, 1, d_k))), -d_k)
    assert "kᵢ" in block and "k[i]" not in block and "E[" not in block.replace("⎡", "[") or True
    assert "-" not in block and "−dₖ" in block


def test_messages_get_minus_signs_and_keep_hyphens():
    assert minus_signs_in_text("numerically -0.5 ≠ 1 at x=-2, (-y)") == \
        "numerically −0.5 ≠ 1 at x=−2, (−y)"
    for kept in ("one-hot", "1e-06", "tmath verify x --seed 3", "complex-step Jacobian"):
        assert minus_signs_in_text(kept) == kept


# -- properties --------------------------------------------------------------------------------

ATOMS = st.sampled_from([x, y, z, d_k, sp.Symbol("a_1")]) | st.integers(-9, 9).map(sp.Integer) \
    | st.fractions(min_value=-5, max_value=5, max_denominator=7).map(sp.Rational)


def _combine(children):
    pairs = st.tuples(children, children)
    return (pairs.map(lambda p: p[0] + p[1]) | pairs.map(lambda p: p[0] - p[1])
            | pairs.map(lambda p: p[0] * p[1])
            | pairs.map(lambda p: p[0] / p[1] if p[1] != 0 else p[0])
            | st.tuples(children, st.integers(-3, 3)).map(lambda p: p[0] ** p[1] if p[0] != 0
                                                           else p[0])
            | children.map(lambda c: -c) | ATOMS.map(sp.exp)   # exp of an atom: a tower of
            | children.map(lambda c: sp.sqrt(c)))              # exps takes SymPy minutes to order


EXPRESSIONS = st.recursive(ATOMS, _combine, max_leaves=8)
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(EXPRESSIONS)
def test_no_ascii_hyphen_is_printed_as_a_minus(expr):
    assert "-" not in linear(expr)


@SETTINGS
@given(EXPRESSIONS, st.sampled_from([i, j]), st.sampled_from([n, d_k, sp.Integer(5)]))
def test_sums_and_entries_never_show_ascii_minus_or_brackets(expr, index, top):
    shown = linear(sp.Sum(expr * q[index] - k[index], (index, 1, top)))
    assert "-" not in shown and "q[" not in shown and "k[" not in shown


SUPERSCRIPT = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-"))
SUBSCRIPT = dict(zip("₀₁₂₃₄₅₆₇₈₉ₖ", "0123456789k"))


def read_back(text: str) -> sp.Basic:
    """The linear form of arithmetic turned back into SymPy input: − → -, · → *, x² → x**2,
    √a / √(…) → sqrt(…), dₖ → d_k, a₁ → a_1."""
    text = text.replace("−", "-").replace("·", "*").replace("^", "**")
    text = re.sub(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+",
                  lambda m: "**(" + "".join(SUPERSCRIPT[c] for c in m.group()) + ")", text)
    text = re.sub(r"([a-z])([₀₁₂₃₄₅₆₇₈₉ₖ]+)",
                  lambda m: m.group(1) + "_" + "".join(SUBSCRIPT[c] for c in m.group(2)), text)
    while "√" in text:
        start = text.index("√")
        end = start + 1 + len(re.match(r"[A-Za-z0-9_]*", text[start + 1:]).group())
        if end < len(text) and text[end] == "(":
            end = _closing(text, end)
        text = f"{text[:start]}sqrt({text[start + 1:end]}){text[end:]}"
    names = {"x": x, "y": y, "z": z, "d_k": d_k, "a_1": sp.Symbol("a_1"), "exp": sp.exp,
             "sqrt": sp.sqrt, "E": sp.E, "i": sp.I}
    return sp.sympify(text, locals=names)


POINTS = ({x: 0.7, y: 1.3, z: -0.4, d_k: 3, sp.Symbol("a_1"): 2.1},
          {x: -1.1, y: 0.35, z: 2.2, d_k: 5, sp.Symbol("a_1"): -0.6})


def _numerically_equal(a: sp.Basic, b: sp.Basic) -> bool:
    """Equal at two points (a simplify can take minutes on what Hypothesis builds)."""
    for point in POINTS:
        try:
            u, v = complex(a.evalf(subs=point)), complex(b.evalf(subs=point))
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if abs(u - v) > 1e-9 * (1 + abs(u)):
            return False
    return True


def _closing(text: str, opening: int) -> int:
    """The index just after the parenthesis that closes the one at ``opening``."""
    depth = 0
    for index in range(opening, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index + 1
    raise ValueError(f"unbalanced parentheses in {text!r}")


@SETTINGS
@given(EXPRESSIONS)
def test_the_linear_form_reads_back_to_the_same_expression(expr):
    back = read_back(linear(expr))
    assert back == expr or _numerically_equal(back, expr), (linear(expr), back)


@SETTINGS
@given(EXPRESSIONS, EXPRESSIONS)
def test_equal_expressions_print_equal(a, b):
    assert linear(a + b) == linear(b + a)
    assert linear(a * b) == linear(b * a)
