"""Formulas compiled once: the same formula, arguments and namespace reuse one function; a
different one (even one differing only in an assumption) never does."""

from __future__ import annotations

import numpy as np
import sympy as sp

from tmath.reference.compiled import lambdified


def test_the_same_formula_is_compiled_once_and_a_different_one_is_not():
    x = sp.Symbol("x")
    positive = sp.Symbol("x", positive=True)
    first, again = lambdified([x], x**2 + 1), lambdified([x], x**2 + 1)
    assert first is again and first(np.array([2.0]))[0] == 5.0
    assert lambdified([positive], positive**2 + 1) is not first   # another symbol
    assert lambdified([x], x**2 + 2) is not first                 # another formula
    assert lambdified([x], x**2 + 2)(3.0) == 11.0


def test_an_extra_namespace_is_part_of_the_key():
    x, y = sp.symbols("x y")
    f = sp.Function("same")
    equal = (("same", lambda a, b: np.equal(a, b).astype(float)),)
    unequal = (("same", lambda a, b: np.not_equal(a, b).astype(float)),)
    assert lambdified([x, y], f(x, y), equal)(1, 1) == 1.0
    assert lambdified([x, y], f(x, y), unequal)(1, 1) == 0.0
