"""Deciding signs and roots, failing closed: deliberately false statements the old decisions
accepted (a pole ignored, a reversed sum, a root whose uniqueness was never shown), each with
an honest twin that is still proved."""

from __future__ import annotations

import random

import sympy as sp

from tmath.engine import decide
from tmath.engine.decide import sign_holds, unique_root

x = sp.Symbol("x", positive=True)
t = sp.Symbol("t", positive=True)
k = sp.Symbol("k", integer=True)
n = sp.Symbol("n", integer=True)
whole = sp.Symbol("whole", integer=True, nonnegative=True)
count = sp.Symbol("count", integer=True, positive=True)
FALSE_NEAR_POLE = x * (x - sp.Rational(19, 10)) / (x - 2)   # < 0 on (1.9, 2)


# -- poles ------------------------------------------------------------------------------------

def test_a_pole_is_not_ignored():
    """The deliberately false statement x(x − 1.9)/(x − 2) ≥ 0 for x > 0: its only critical
    points and both ends are ≥ 0, but it falls to −∞ just left of the pole at 2."""
    ok, detail = sign_holds(FALSE_NEAR_POLE, 0, ">=")
    assert not ok and "false at" in detail
    assert not decide._univariate(FALSE_NEAR_POLE, False)   # without the random points too
    far = x * (x - 19) / (sp.exp(x) - sp.exp(20))            # a pole no polynomial finds
    assert not decide._univariate(far, False)


def test_honest_twins_with_poles_still_pass():
    assert sign_holds(x * (x + sp.Rational(19, 10)) / (x + 2), 0, ">=") == (True, "")
    assert sign_holds((x - 1) ** 2 / x, 0, ">=") == (True, "")
    assert sign_holds(x + 1 / x, 2, ">=") == (True, "")
    assert sign_holds(x / (x - 2) ** 2, 0, ">=") == (True, "")   # +∞ on both sides of 2
    assert not sign_holds(x + 1 / x, 2, ">")[0]                  # = 2 at x = 1


def test_where_the_expression_is_not_real_it_fails():
    assert not sign_holds(sp.sqrt(x - 1), 0, ">=")[0]
    assert not decide._univariate(sp.sqrt(x - 1), False)
    assert not sign_holds(sp.Symbol("z") ** 2, 0, ">=")[0]   # z complex: z² can be −1


# -- sums -------------------------------------------------------------------------------------

def test_a_sum_over_a_range_that_may_be_reversed_is_not_nonnegative():
    """The deliberately false statement Σ_{k=1}^{n} k² ≥ 0 for every integer n: under Karr's
    convention it is −1 at n = −2."""
    ok, detail = sign_holds(sp.Sum(k**2, (k, 1, n)), 0, ">=")
    assert not ok and "n=-2" in detail
    assert not decide._sign(sp.Sum(k**2, (k, 1, n)), False)
    assert sign_holds(sp.Sum(k**2, (k, 1, whole)), 0, ">=") == (True, "")   # the honest twin


def test_a_positive_sum_needs_a_term():
    assert not sign_holds(sp.Sum(k**2, (k, 1, whole)), 0, ">")[0]   # 0 at whole = 0
    assert not decide._sign(sp.Sum(k**2, (k, 1, whole)), True)
    assert sign_holds(sp.Sum(k**2, (k, 1, count)), 0, ">") == (True, "")
    assert sign_holds(sp.Sum(1 / k, (k, 1, count)), 0, ">") == (True, "")


def test_an_index_assumption_does_not_make_terms_positive():
    """SymPy calls Σ_{i=−3}^{−1} i positive when the index symbol is declared positive."""
    i = sp.Symbol("i", integer=True, positive=True)
    assert not decide._sign(sp.Sum(i, (i, -3, -1)), True)
    assert not decide._sign(1 + sp.Sum(i, (i, -3, -1)), True)
    assert decide._sign(sp.Sum(i, (i, 1, count)), True)


def test_nested_sums_and_products():
    j = sp.Symbol("j", integer=True)
    assert sign_holds(sp.Sum(k * j, (k, 1, j), (j, 1, whole)), 0, ">=") == (True, "")
    assert not decide._sign(sp.Product(k, (k, 1, n)), False)
    assert decide._sign(sp.Product(k, (k, 1, whole)), True)


# -- powers -----------------------------------------------------------------------------------

def test_powers_need_a_real_exponent_and_an_even_power_a_real_base():
    z = sp.Symbol("z")
    assert not decide._sign(x**z, False)         # x^i is not real
    assert not decide._sign(z**2, False)
    assert decide._sign(x ** sp.Symbol("r", real=True), True)
    assert decide._sign(sp.Symbol("r", real=True) ** 2, False)
    assert not decide._power_sign(sp.Pow(whole, -1), False)   # 0⁻¹ is undefined


# -- counterexamples are told from rounding ----------------------------------------------------

def test_a_rounding_error_is_not_a_counterexample():
    """10⁴⁰·(e^{log x} − x) is zero; 50-digit rounding makes it about ±10⁻¹⁰."""
    zero = 10**40 * (sp.exp(sp.log(x), evaluate=False) - x)
    assert decide._value(zero, {x: sp.Rational(1, 3)}, road=True) == 0
    assert decide._value(x - 2, {x: sp.Rational(1, 3)}, road=True) < 0


# -- roots ------------------------------------------------------------------------------------

def test_sin_equals_cos_has_no_unique_positive_root():
    """The deliberately false uniqueness: sp.solve returns only π/4 for sin t = cos t, t > 0."""
    root, why = unique_root(sp.Eq(sp.sin(t), sp.cos(t)), t)
    assert root is None and why
    assert decide.solutions(sp.sin(t) - sp.cos(t), t) == [sp.pi / 4]   # what fooled proof.root


def test_unique_roots_and_how_they_were_shown():
    assert unique_root(sp.exp(t) - 2, t) == (sp.log(2), "solveset: the only root in the domain")
    assert unique_root(t**2 - 4, t)[0] == 2
    assert unique_root(t**3 + t - 2, t)[0] == 1
    root, why = unique_root(sp.log(t) - (t - 1), t)   # solveset gives a condition set
    assert root == 1 and "convex" in why


def test_roots_that_are_not_unique_or_absent_fail():
    r = sp.Symbol("r", real=True)
    assert unique_root(r**2 - 4, r)[0] is None               # ±2
    assert unique_root(t + 1, t)[0] is None                  # −1 is not positive
    root, why = unique_root(sp.Symbol("a") - 1, t)
    assert root is None and "does not contain" in why


def test_a_root_for_generic_parameters_says_so():
    """solveset answers for generic parameters: at μ = 0 every t solves μ(1 − t) = 0."""
    mu = sp.Symbol("mu", real=True)
    root, why = unique_root(mu * (1 - t), t)
    assert root == 1 and ("μ ≠ 0" in why or "mu ≠ 0" in why)
    assert unique_root(sp.Symbol("m", positive=True) * (1 - t), t) == (
        1, "solveset: the only root in the domain")


def test_monotone_equations_have_one_root():
    """solveset gives a condition set for these; a strictly increasing left side has at most
    one root. tan t − 1 has a positive derivative too, but poles: it has a root every π."""
    assert unique_root(t + sp.log(t) - 1, t) == (
        1, "strictly monotone in the variable, so the root found is the only one")
    assert unique_root(t**5 + t - 2, t)[0] == 1
    root, why = unique_root(sp.tan(t) - 1, t)
    assert root is None and "not strictly monotone" in why


def test_solutions_are_checked_by_substitution():
    assert decide.solutions(t**2 - 2, t) == [sp.sqrt(2)]
    assert decide.solutions(sp.Eq(t**2, 2), t) == [sp.sqrt(2)]


def test_integer_domains():
    assert unique_root(count**2 - 9, count)[0] == 3
    assert unique_root(n**2 - 9, n)[0] is None


def test_a_root_at_zero_is_outside_a_nonzero_symbols_domain():
    """A nonzero divisor c: c·(c − 0) style equations whose only real root is 0 have no root
    in c's domain (the domain used to ignore `nonzero`)."""
    c = sp.Symbol("c", real=True, nonzero=True)
    assert unique_root(c, c)[0] is None
    assert unique_root(c - 2, c)[0] == 2
