"""Issue 24: the nine ways an unsound proof got through, each now caught by the kernel.

Every case is a deliberately unsound derivation (several of false statements) run through
:func:`tmath.engine.runner.run_proof`, next to its honest twin, which still proves. Some are
also written as user claim modules and run through ``tmath verify --claims DIR``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy as sp

from tmath import Premise, Statement
from tmath.engine import decide, kernel
from tmath.engine.equality import same
from tmath.engine.moments import E, Moments, Var
from tmath.engine.proof import Derivation, ProofFailure
from tmath.engine.runner import run_proof

ROOT = Path(__file__).resolve().parent.parent

x = sp.Symbol("x", real=True)
xp, yp = sp.symbols("x y", positive=True)
y = sp.Symbol("y", real=True)
a, b = sp.symbols("a b", positive=True)
u, v = sp.symbols("u v", positive=True)
n = sp.Symbol("n", positive=True, integer=True)
k = sp.Symbol("k", positive=True, integer=True)


def verdict(lhs, value, prove, relation="=", premises=(), lemmas=None):
    """The public proof path on a claim made of ``prove(value, proof)``."""
    spec = SimpleNamespace(
        id="adversarial", no_proof=None, depends_on=tuple(lemmas or ()),
        statement=Statement("s", value, lhs, relation), premises=tuple(premises),
        lemmas=dict(lemmas or {}), implementation=SimpleNamespace(prove=prove))
    return run_proof(spec, value)


def refused(result, fragment: str, statuses=("failed", "error")) -> None:
    assert result.status in statuses, (result.status, result.reason)
    assert re.search(fragment, result.reason or ""), result.reason


def proved(result) -> None:
    assert (result.status, result.rests_on, result.cases) == ("proved", (), None), result.reason


# -- 1. computing steps are not "=" ------------------------------------------------------------

def test_a_derivative_does_not_prove_the_function_equals_it():
    result = verdict(x**2, 2 * x, lambda v, p: p.conclude(v, p.chain(x**2).differentiate(x)))
    refused(result, "numerically|cannot show")
    j = kernel.under(kernel.reflexivity(x**2), "diff", x, 1)
    with pytest.raises(kernel.Rejected, match="starts at Derivative"):
        kernel.conclude(x**2, "=", 2 * x, kernel.transitivity(j, kernel.evaluation(j.rhs)))


def test_a_limit_of_an_evaluated_sum_does_not_prove_the_sum_equals_it():
    total = sp.Sum(k, (k, 1, n))
    result = verdict(total, 1, lambda v, p: p.conclude(
        v, p.chain(total).evaluate().limit(n, 1)))
    refused(result, "cannot show they are equal|numerically|whole number")


def test_twin_the_derivative_on_the_left_proves():
    proved(verdict(sp.Derivative(x**2, x), 2 * x,
                   lambda v, p: p.conclude(v, p.chain(x**2).differentiate(x))))


# -- 2. strictness -------------------------------------------------------------------------------

def test_a_non_strict_bound_ending_at_the_value_does_not_give_strict():
    result = verdict(x**2 + 1, 1, lambda v, p: p.conclude(v, p.chain(x**2 + 1).ge(1)), ">")
    refused(result, "derives ≥, which does not give >")


def test_an_equality_chain_does_not_give_strict():
    lhs, value = (u + v) ** 2, u**2 + 2 * u * v + v**2
    for relation in (">", "<"):
        result = verdict(lhs, value, lambda val, p: p.conclude(
            val, p.chain(lhs).equals(value, method="expand")), relation)
        refused(result, f"derives =, which does not give {relation}")
    assert not kernel.implies("=", ">") and not kernel.implies(">=", ">")


def test_twin_a_true_strict_inequality_proves():
    proved(verdict(x**2 + 2, 1, lambda v, p: p.conclude(v, p.chain(x**2 + 2).ge(2)), ">"))
    proved(verdict(u * v, u * v + 1, lambda val, p: p.conclude(
        val, p.chain(u * v).le(u * v + 1, strict=True)), "<"))


# -- 3. lemma instances respect hypotheses -------------------------------------------------------

LOG_PRODUCT = {"log-product": Statement("log ab = log a + log b", sp.log(a) + sp.log(b),
                                        sp.log(a * b))}


def _log_product(lhs, value, **how):
    return verdict(lhs, value, lambda v, p: p.conclude(
        v, p.chain(lhs).substitute(lemma="log-product", **how)), lemmas=LOG_PRODUCT)


def test_a_lemma_for_positive_symbols_is_not_instantiated_at_real_ones():
    matched = _log_product(sp.log(x * y), sp.log(x) + sp.log(y),
                           mapping={sp.log(x * y): sp.log(x) + sp.log(y)})
    refused(matched, r"holds for [ab] real, positive.*; [xy] is not shown to be")
    renamed = _log_product(sp.log(x * y), sp.log(x) + sp.log(y), rename={a: x, b: y})
    refused(renamed, r"holds for a real, positive.*; x is not shown to be")


def test_rename_to_an_expression_not_shown_positive_is_refused():
    lhs = sp.log((xp - 1) * yp)
    result = _log_product(lhs, sp.log(xp - 1) + sp.log(yp), rename={a: xp - 1, b: yp})
    refused(result, "x - 1 is not shown to be")


def test_an_inequality_lemma_is_not_used_outside_its_domain():
    """y + 1/y ≥ 2 for y > 0 does not give x + 1/x ≥ 2 for real x (false at x = −1)."""
    lemma = {"am-gm": Statement("y + 1/y ≥ 2", 2, yp + 1 / yp, ">=")}
    result = verdict(x + 1 / x, 2, lambda v, p: p.conclude(
        v, p.chain(x + 1 / x).ge(2, lemma="am-gm", rename={yp: x})), ">=", lemmas=lemma)
    refused(result, "x is not shown to be")
    proved(verdict(xp + 1 / xp, 2, lambda v, p: p.conclude(
        v, p.chain(xp + 1 / xp).ge(2, lemma="am-gm", rename={yp: xp})), ">=", lemmas=lemma))


def test_a_lemma_about_a_bare_symbol_has_no_instances():
    t, s = sp.symbols("t s", real=True)
    lemma = {"t-two": Statement("t = 2", 2, t)}
    for how in ({"rename": {t: s}}, {"mapping": {s: 2}}):
        result = verdict(s, 2, lambda v, p, how=how: p.conclude(
            v, p.chain(s).substitute(lemma="t-two", **how)), lemmas=lemma)
        refused(result, "about the symbol t, whose meaning may depend on the others")
    with pytest.raises(kernel.Rejected, match="has no instances"):
        kernel.lemma_instance("t-two", t, "=", 2, {t: x**2})


def test_twin_instances_at_positive_expressions_prove():
    proved(_log_product(sp.log(xp * yp), sp.log(xp) + sp.log(yp),
                        mapping={sp.log(xp * yp): sp.log(xp) + sp.log(yp)}))
    lhs = sp.log((xp + 1) * yp**2)
    proved(_log_product(lhs, sp.log(xp + 1) + sp.log(yp**2), rename={a: xp + 1, b: yp**2}))


# -- 4. a free Dummy never stands for the statement's symbol -------------------------------------

t_dummy = sp.Dummy("t", positive=True)


def test_a_positive_dummy_does_not_prove_a_statement_about_real_x_at_the_start():
    """log(x²) = 2 log x is false for x < 0; it holds for the positive Dummy t."""
    result = verdict(sp.log(x**2), 2 * sp.log(x), lambda v, p: p.conclude(
        v, p.chain(sp.log(t_dummy**2)).equals(2 * sp.log(t_dummy), method="expand_log")))
    refused(result, "numerically")
    j = kernel.rewrite(sp.log(t_dummy**2), 2 * sp.log(t_dummy), method="expand_log")
    with pytest.raises(kernel.Rejected, match="the derivation starts at"):
        kernel.conclude(sp.log(x**2), "=", 2 * sp.log(x), j)
    named_x = sp.Dummy("x", real=True)
    assert not same(named_x, x) and not same(sp.log(named_x**2), sp.log(x**2))


def test_a_positive_dummy_does_not_prove_it_at_the_end():
    """x² + 1 > −2t holds for t > 0; x² + 1 > −2x is false at x = −1."""
    result = verdict(x**2 + 1, -2 * x, lambda v, p: p.conclude(
        v, p.chain(x**2 + 1).ge(-2 * t_dummy, strict=True)), ">")
    refused(result, "false at")
    j = kernel.rewrite(x**2 + 1, -2 * t_dummy, ">")
    with pytest.raises(kernel.Rejected, match="the derivation ends at"):
        kernel.conclude(x**2 + 1, ">", -2 * x, j)


def test_twin_the_same_step_for_a_positive_symbol_proves():
    t = sp.Symbol("t", positive=True)
    proved(verdict(sp.log(t**2), 2 * sp.log(t), lambda v, p: p.conclude(
        v, p.chain(sp.log(t**2)).equals(2 * sp.log(t), method="expand_log"))))


# -- 5. the body route ---------------------------------------------------------------------------

i = sp.Symbol("i", positive=True, integer=True)
d = sp.Symbol("d", positive=True, integer=True)
sigma = sp.Symbol("sigma", positive=True)
VARIANCES = sp.Sum(sigma**2, (i, 1, d))


def test_a_chain_from_the_body_of_a_sum_does_not_prove_the_sum():
    result = verdict(VARIANCES, sigma**2, lambda v, p: p.conclude(
        v, p.chain(sigma**2).equals((sigma + 1) ** 2 - 2 * sigma - 1).evaluate()))
    refused(result, "starts at the stated value|cannot show|numerically")
    proved(verdict(VARIANCES, d * sigma**2,
                   lambda v, p: p.conclude(v, p.chain(VARIANCES).evaluate())))


@pytest.mark.parametrize("body, right", [(1 / x, sp.oo), (sp.sign(x), 1), (sp.Heaviside(x), 1)],
                         ids=["1/x", "sign", "Heaviside"])
def test_a_right_limit_does_not_prove_the_left_one(body, right):
    left_limit = sp.Limit(body, x, 0, "-")
    result = verdict(left_limit, right, lambda v, p: p.conclude(
        v, p.chain(body).limit(x, 0, "+")))
    refused(result, "cannot show they are equal|numerically")
    j = kernel.evaluation(sp.Limit(body, x, 0, "+"))
    with pytest.raises(kernel.Rejected, match="the derivation starts at"):
        kernel.conclude(left_limit, "=", right, j)


@pytest.mark.parametrize("body, left", [(1 / x, -sp.oo), (sp.sign(x), -1)], ids=["1/x", "sign"])
def test_twin_the_left_limit_by_a_left_step_proves(body, left):
    proved(verdict(sp.Limit(body, x, 0, "-"), left,
                   lambda v, p: p.conclude(v, p.chain(body).limit(x, 0, "-"))))


# -- 6. premise equations are checked ------------------------------------------------------------

TAIL = sp.Sum(1 / k**2, (k, n + 1, sp.oo))
BASEL = sp.Sum(1 / k**2, (k, 1, sp.oo))
d_k = sp.Symbol("d_k", positive=True, integer=True)
PINNED = Premise("d_k = 64", {d_k: 64})


def _substituted(lhs, value, premise, mapping, relation="="):
    return verdict(lhs, value, lambda v, p: p.conclude(
        v, p.chain(lhs).substitute(mapping, premise=premise)), relation, premises=(premise,))


def test_a_premise_that_is_the_statement_is_only_assumed():
    restated = Premise("Σσ² = dσ²", {VARIANCES: d * sigma**2})
    result = _substituted(VARIANCES, d * sigma**2, restated, {VARIANCES: d * sigma**2})
    assert result.status == "proved-assuming"
    assert result.rests_on == ("premise: Σσ² = dσ² (it restates the statement)",)


def test_a_false_computable_premise_fails():
    false = Premise("the tail is 1/n", {TAIL: 1 / n})
    result = _substituted(TAIL + 1, 1 / n + 1, false, {TAIL: 1 / n})
    refused(result, "premise 'the tail is 1/n' is false")


def test_a_premise_pinning_a_free_symbol_proves_only_that_case():
    by_substitution = verdict(sp.sqrt(d_k), 8, lambda v, p: p.conclude(
        v, p.chain(sp.sqrt(d_k)).substitute({d_k: 64}, premise=PINNED).evaluate()),
        premises=(PINNED,))
    assert (by_substitution.status, by_substitution.cases) == ("proved-for-cases", "d_k = 64")
    by_using = verdict(sp.sqrt(d_k) ** 2, d_k, lambda v, p: p.conclude(
        v, p.chain(sp.sqrt(d_k) ** 2).equals(d_k).substitute({d_k: 64}, premise=PINNED),
        using=PINNED), premises=(PINNED,))
    assert (by_using.status, by_using.cases) == ("proved-for-cases", "d_k = 64")


def test_a_premise_pinning_a_free_symbol_indirectly_proves_only_that_case():
    total, z = sp.Sum(k, (k, 1, n)), sp.Symbol("z", positive=True, integer=True)
    renamed, three = Premise("n = z", {n: z}), Premise("z = 3", {z: 3})
    through = verdict(total, 6, lambda v, p: p.conclude(v, p.chain(total)
                      .substitute({n: z}, premise=renamed).evaluate()
                      .substitute({z: 3}, premise=three)), premises=(renamed, three))
    shifted = Premise("n + 1 = 4", {n + 1: 4})
    by_sum = verdict(total, 6, lambda v, p: p.conclude(v, p.chain(total).evaluate()
                     .substitute({n + 1: 4}, premise=shifted)
                     .equals(sp.Mul(2, n + 1, evaluate=False) - 2)
                     .substitute({n + 1: 4}, premise=shifted)), premises=(shifted,))
    assert (through.status, through.cases) == ("proved-for-cases", "n = 3"), through
    assert (by_sum.status, by_sum.cases) == ("proved-for-cases", "n = 3"), by_sum


def test_twin_an_honest_computable_premise_proves():
    honest = Premise("the Basel sum", {BASEL: sp.pi**2 / 6})
    proved(_substituted(BASEL + xp, sp.pi**2 / 6 + xp, honest, {BASEL: sp.pi**2 / 6}))


# -- 7. sign decisions ---------------------------------------------------------------------------

def _nonnegative(lhs):
    return verdict(lhs, 0, lambda v, p: p.conclude(v, p.chain(lhs).ge(0)), ">=")


def test_a_sign_across_a_pole_is_not_decided_from_the_ends():
    """x(x − 1.9)/(x − 2) < 0 on (1.9, 2): the critical points and ends alone miss it."""
    refused(_nonnegative(xp * (xp - sp.Rational(19, 10)) / (xp - 2)), "false at x=")


def test_a_sum_with_an_unrestricted_upper_end_is_not_nonnegative():
    """Karr's convention: Σ_{k=1}^{-2} k² = −1."""
    m, j = sp.Symbol("m", integer=True), sp.Symbol("j", integer=True)
    assert sp.Sum(j**2, (j, 1, -2)).doit() == -1
    refused(_nonnegative(sp.Sum(j**2, (j, 1, m))), "false at m=-2|cannot show")


def test_twin_signs_that_hold_prove():
    proved(_nonnegative(xp**2 / (xp + 1)))
    proved(_nonnegative(sp.Sum(k**2, (k, 1, n))))


# -- 8. a relation tuple shorter than the statement ----------------------------------------------

def _two_parts(relation):
    lhs, value = ((u + 1) ** 2 - u**2 - 1, u * v), (2 * u, u * v + 1)
    return verdict(lhs, value, lambda val, p: p.conclude(
        val, p.chain(lhs[0]).equals(2 * u), p.chain(u * v).le(u * v + 1, strict=True)),
        relation)


@pytest.mark.parametrize("relation", [("=",), ("=", "<", "<")])
def test_a_relation_tuple_of_another_length_is_an_error(relation):
    refused(_two_parts(relation), "must give one of .* for each of its 2 parts", ("error",))


def test_twin_one_relation_per_part_proves():
    proved(_two_parts(("=", "<")))


# -- 9. roots ------------------------------------------------------------------------------------

t = sp.Symbol("t", positive=True)
T_star = sp.Symbol("T_star", positive=True)


def _root(equation, variable, value):
    return verdict(T_star, value, lambda v, p: p.conclude(v, p.root(equation, variable, T_star)))


def test_a_root_of_an_equation_without_the_variable_fails():
    refused(_root(yp - 2, t, 2), "the equation does not contain t")


def test_a_periodic_equation_has_no_only_root():
    refused(_root(sp.sin(t) - sp.cos(t), t, sp.pi / 4), "is not strictly monotone")
    s = sp.Symbol("s", real=True)
    refused(_root(s**2 - 4, s, 2), "has 2 roots for s, not one")


def test_a_root_outside_an_integer_domain_is_refused():
    """2n − 3 = 0 has no positive integer root (the interim solveset fallback gave 3/2)."""
    refused(_root(2 * n - 3, n, sp.Rational(3, 2)), "no root was found")


def test_twin_a_unique_root_proves():
    proved(_root(t**2 - 4, t, 2))
    assert callable(decide.unique_root)


# -- 10. Bienaymé and independence: distinct terms, distinct variables ----------------------------

xs_, ys_ = sp.symbols("x y", real=True)
xi = sp.IndexedBase("x", real=True)
INDEPENDENT = "the random variables are independent"


def _variances_add(summand, random, value, upper=n, index=i):
    """Var(Σ_index summand) = value by Bienaymé, then a premise giving each term variance 1."""
    total = sp.Sum(summand, (index, 1, upper))
    unit = Premise("each term has variance 1", {Var(summand): 1})
    rules = Moments(random=random, independent=INDEPENDENT)
    return verdict(Var(total), value, lambda v, p: p.conclude(
        v, p.chain(Var(total)).apply(rules.bienayme).substitute({Var(summand): 1}, premise=unit)
        .evaluate()), premises=(INDEPENDENT, unit))


def test_bienayme_refuses_a_sum_of_one_variable_taken_n_times():
    """Var(Σ_{i=1}^n x) = n²·Var(x), not n·Var(x): the n terms are one variable."""
    refused(_variances_add(xs_, (xs_,), n), "may share the random variable x")


def test_bienayme_refuses_terms_that_share_a_variable():
    """Var(Σ_i (x_i + y)) = n·Var(x) + n²·Var(y); and x_i·x_{i+1} shares x_{i+1} with the next
    term, so those terms are correlated too."""
    refused(_variances_add(xi[i] + ys_, (xi, ys_), n), "may share the random variable y")
    refused(_variances_add(xi[i] * xi[i + 1], (xi,), n), "may share the random variable x")


def test_bienayme_refuses_a_reversed_range():
    """Karr: Σ_{i=1}^{-2} x_i = −(x_{−1} + x_0), of variance 2, where Σ_{i=1}^{-2} 1 = −2."""
    m, j = sp.Symbol("m", integer=True), sp.Symbol("j", integer=True)
    refused(_variances_add(xi[j], (xi,), m, upper=m, index=j), "not known to be a run of terms")


def test_twin_distinct_independent_terms_add_their_variances():
    proved(_variances_add(xi[i], (xi,), n))
    proved(_variances_add(xi[i] * ys_, (xi,), n))        # y is a constant here: not random
    w = sp.IndexedBase("w", real=True)
    proved(_variances_add(sp.exp(sp.Sum(w[i, k] * xi[k], (k, 1, n))), (w,), n))


def test_atoms_under_different_binders_may_be_the_same_variable():
    """Σ_j x_j and Σ_j x_{j+1} share x_2 (j is not one value in both): neither independence
    nor Bienaymé may split them."""
    j = sp.Symbol("j", integer=True)
    first, second = sp.Sum(xi[j], (j, 1, n)), sp.Sum(xi[j + 1], (j, 1, n))
    rules = Moments(random=(xi, ys_))
    assert rules.bienayme.apply(Var(first + second)) == Var(first + second)
    assert rules.independence.apply(E(first * second)) == E(first * second)
    assert rules.independence.apply(E(first * ys_)) == E(first) * E(ys_)


# -- 11. linearity: a fixed, finite number of terms ----------------------------------------------

def _centred_total(upper, random):
    """E[Σ_{i=1}^{upper} x_i] = 0 by linearity and a premise E[x_i] = 0."""
    total = sp.Sum(xi[i], (i, 1, upper))
    centred = Premise("each x_i has mean 0", {E(xi[i]): 0})
    rules = Moments(random=random)
    return verdict(E(total), 0, lambda v, p: p.conclude(
        v, p.chain(E(total)).apply(rules.linearity).substitute({E(xi[i]): 0}, premise=centred)
        .evaluate()), premises=(centred,))


def test_linearity_refuses_an_infinite_sum():
    """E[Σ_i 2X_i] = 2·Σ_i E[X_i] is false for X_1 = Y_1 − 1, X_i = Y_i − Y_{i−1} with
    Y_i = i·[U < 1/i]: every E[X_i] = 0, yet Σ_i X_i = lim Y_i − 1 = −1."""
    from tmath.engine.rules import FACTOR_OUT

    total, value = sp.Sum(2 * xi[i], (i, 1, sp.oo)), 2 * sp.Sum(E(xi[i]), (i, 1, sp.oo))
    result = verdict(E(total), value, lambda v, p: p.conclude(
        v, p.chain(E(total)).apply(Moments(random=(xi,)).linearity).apply(FACTOR_OUT)))
    refused(result, "the range of i is infinite")


def test_linearity_refuses_a_random_number_of_terms():
    """E[Σ_{i=1}^N 1] = E[N], a number, not the random N."""
    N = sp.Symbol("N", positive=True, integer=True)
    count = sp.Sum(1, (i, 1, N))
    result = verdict(E(count), N, lambda v, p: p.conclude(
        v, p.chain(E(count)).apply(Moments(random=(N,)).linearity).evaluate()))
    refused(result, "the range of i is random")


def test_twin_a_finite_centred_sum_has_mean_zero():
    proved(_centred_total(n, (xi,)))


def test_only_symbols_and_indexed_bases_are_random():
    """A process X(s) declared random was taken for a constant: E[X(s)] = X(s)."""
    process = sp.Function("X")(x)
    lhs, value = E(process) * (x + 1), process * (x + 1)
    result = verdict(lhs, value, lambda v, p: p.conclude(v, p.chain(lhs).equals(
        x * E(process) + E(process)).apply(Moments(random=(sp.Function("X"),)).linearity)))
    refused(result, "symbols or IndexedBase")


# -- 12. independence and normal laws are premises the claim declares ----------------------------

uu, ww = sp.symbols("u w", real=True)
PAIR = "u and w are independent"


def _product_mean(premises, independent=True):
    """E[2uw] = 2·E[u]·E[w]: linearity, then independence (false for w = u, Var(u) > 0)."""
    lhs, value = E(2 * uu * ww), 2 * E(uu) * E(ww)
    rules = Moments(random=(uu, ww), independent=independent)
    return verdict(lhs, value, lambda v, p: p.conclude(
        v, p.chain(lhs).apply(rules.linearity).apply(rules.independence)), premises=premises)


def _normal_mean(premises, law=True):
    """E[exp(Σ_i w_i x_i)] = exp(Σ_i x_i²/2), true only for independent N(0, 1) entries w_i."""
    from tmath.engine.rules_gaussian import PRODUCT_OF_EXPS, StandardNormal

    w = sp.IndexedBase("w", real=True)
    lhs, value = E(sp.exp(sp.Sum(w[i] * xi[i], (i, 1, n)))), sp.exp(sp.Sum(xi[i] ** 2 / 2, (i, 1, n)))
    rules = StandardNormal((w,), law=law)
    return verdict(lhs, value, lambda v, p: p.conclude(v, p.chain(lhs).apply(
        rules.independence).apply(rules.mgf).apply(PRODUCT_OF_EXPS)), premises=premises)


def test_independent_normal_entries_over_a_reversed_range_do_not_factor():
    """Σ_{i=1}^{m} w_i for m = −2 is −(w_{−1} + w_0): E[exp(·)] = e, not e^{m/2} = e^{−1}."""
    from tmath.engine.rules_gaussian import StandardNormal

    w, m = sp.IndexedBase("w", real=True), sp.Symbol("m", integer=True)
    law = "the w_i are independent N(0, 1)"
    rules, lhs = StandardNormal((w,), law=law), E(sp.exp(sp.Sum(w[i], (i, 1, m))))
    result = verdict(lhs, sp.exp(m / 2), lambda v, p: p.conclude(
        v, p.chain(lhs).apply(rules.independence).apply(rules.mgf).evaluate()), premises=(law,))
    refused(result, "not known to be a finite run of terms")


def _rests_on(result, fragment):
    assert result.status == "proved-assuming", (result.status, result.reason)
    assert any(re.search(fragment, r) for r in result.rests_on), result.rests_on


def test_independence_without_a_premise_is_only_assumed():
    _rests_on(_product_mean(()), "u, w are mutually independent")
    _rests_on(_product_mean((), independent=PAIR), f"{PAIR} \\(not a declared premise")


def test_a_normal_law_without_a_premise_is_only_assumed():
    _rests_on(_normal_mean(()), "entries of w are independent N")


def test_twin_a_declared_independence_or_law_proves():
    proved(_product_mean((PAIR,), independent=PAIR))
    law = "the w_i are independent N(0, 1)"
    proved(_normal_mean((law,), law=law))


# -- 13. exchanging sums: finite, or terms ≥ 0 --------------------------------------------------

def _swapped(summand, value, upper):
    """Σ_j Σ_i summand (i inner) = value, after exchanging the two sums and evaluating."""
    from tmath.engine.rules import SWAP_SUMS

    j = sp.Symbol("j", positive=True, integer=True)
    lhs = sp.Sum(sp.Sum(summand(i, j), (i, 1, upper)), (j, 1, upper))
    return verdict(lhs, value, lambda v, p: p.conclude(v, p.chain(lhs).apply(SWAP_SUMS).evaluate()))


def test_infinite_sums_with_signed_terms_are_not_exchanged():
    """a_ij = f(i)(δ_ij − δ_{j,i+1}): Σ_i Σ_j a_ij = 0, but Σ_j Σ_i a_ij = lim f(n) (1 for
    f = 1), so "Σ_j Σ_i a_ij = 0 for every f" is false."""
    f = sp.Function("f")
    result = _swapped(lambda i, j: f(i) * (sp.KroneckerDelta(i, j) - sp.KroneckerDelta(j, i + 1)),
                      0, sp.oo)
    refused(result, "not both finite")


def test_twin_finite_or_nonnegative_sums_are_exchanged():
    proved(_swapped(lambda i, j: i * j**2, (n * (n + 1) / 2) * n * (n + 1) * (2 * n + 1) / 6, n))
    proved(_swapped(lambda i, j: sp.Rational(1, 2) ** i * sp.Rational(1, 3) ** j,
                    sp.Rational(1, 2), sp.oo))


# -- 14. a limit is taken inside the domain the equation holds on -------------------------------

def test_a_limit_outside_the_variables_domain_is_refused():
    """log(x²) = 2·log x holds for x > 0 only: at x → −1 the left side tends to 0, the right
    side to 2πi, and x → 0⁻ approaches from where the equation is not known to hold."""
    f, g = sp.log(xp**2), 2 * sp.log(xp)
    for point, direction, value in ((-1, "+", 2 * sp.I * sp.pi), (0, "-", -sp.oo)):
        result = verdict(sp.Limit(f, xp, point, direction), value, lambda v, p: p.conclude(
            v, p.chain(f).equals(g, method="expand_log").limit(xp, point, direction)))
        refused(result, "leaves the domain of x")


def test_twin_a_limit_inside_the_domain_proves():
    f, g = sp.log(xp**2), 2 * sp.log(xp)
    proved(verdict(sp.Limit(f, xp, 0, "+"), -sp.oo, lambda v, p: p.conclude(
        v, p.chain(f).equals(g, method="expand_log").limit(xp, 0, "+"))))


def test_an_equation_goes_into_a_substitution_only_at_points_of_its_domain():
    """log(y²) = 2·log y holds for y > 0; put into (log y²)|_{y=−1}, whose value is 0, it
    gave 2πi."""
    at = sp.Subs(sp.log(yp**2), yp, -1)

    def prove(v, p):
        rule = p.fact(sp.log(yp**2), 2 * sp.log(yp), "expand the logarithm")
        p.conclude(v, p.chain(at).substitute(from_chain=rule).evaluate())

    refused(verdict(at, 2 * sp.pi * sp.I, prove), "point substituted leaves the domain")


# -- 15. a symbol not known to be real is checked at complex points too -------------------------

def test_an_identity_of_the_reals_is_not_proved_for_a_complex_symbol():
    """log(eᶻ) = z holds for real z, not for z = 3πi (log(e^{3πi}) = πi)."""
    z = sp.Symbol("z")
    result = verdict(sp.log(sp.exp(z)), z, lambda v, p: p.conclude(
        v, p.chain(sp.log(sp.exp(z))).equals(z, method="expand_log")))
    refused(result, "numerically .* at z=.*I")


def test_an_identity_of_the_reals_is_not_proved_for_complex_entries_or_functions():
    """The same for an entry w[i] of a base, and a function f(x), not known to be real."""
    w, f = sp.IndexedBase("w"), sp.Function("f")
    for atom in (w[k], f(x)):
        result = verdict(sp.log(sp.exp(atom)), atom, lambda v, p, atom=atom: p.conclude(
            v, p.chain(sp.log(sp.exp(atom))).equals(atom, method="expand_log")))
        refused(result, "numerically .*j")


def test_twin_an_identity_of_the_complex_numbers_proves():
    z = sp.Symbol("z")
    proved(verdict((z + 1) ** 2, z**2 + 2 * z + 1, lambda v, p: p.conclude(
        v, p.chain((z + 1) ** 2).equals(z**2 + 2 * z + 1))))


# -- 16. a lemma instance never lets a binder capture what is put in --------------------------

SUM_OF_CONSTANTS = {"sum-of-constants": Statement("Σ_{i=1}^n x = n·x", n * x, sp.Sum(x, (i, 1, n)))}


def test_a_lemma_instance_does_not_capture_a_bound_variable():
    """Σ_{i=1}^n x = n·x does not give Σ_{i=1}^n i = n·i (it is n(n+1)/2)."""
    total = sp.Sum(i, (i, 1, n))
    for how in ({"rename": {x: i}}, {"mapping": {total: n * i}}):
        result = verdict(total, n * i, lambda v, p, how=how: p.conclude(
            v, p.chain(total).substitute(lemma="sum-of-constants", **how)),
            lemmas=SUM_OF_CONSTANTS)
        refused(result, "captured by the bound i")


def test_an_entry_stands_for_its_base_only_where_it_is_the_only_entry():
    """Σ_{i=1}^n (x_{i+1} − x_i) = x_{n+1} − x_1; putting 0 for x_i alone is no instance:
    Σ_{i=1}^n x_{i+1} = x_{n+1} − x_1 is false (x = 1: n ≠ 0)."""
    lemma = {"telescoping": Statement("telescoping", xi[n + 1] - xi[1],
                                      sp.Sum(xi[i + 1] - xi[i], (i, 1, n)))}
    total = sp.Sum(xi[i + 1], (i, 1, n))
    result = verdict(total, xi[n + 1] - xi[1], lambda v, p: p.conclude(
        v, p.chain(total).substitute(lemma="telescoping", rename={xi[i]: 0})), lemmas=lemma)
    refused(result, "cannot stand for the whole of x")


def test_twin_an_instance_free_of_the_binder_proves():
    total = sp.Sum(n**2, (i, 1, n))
    proved(verdict(total, n**3, lambda v, p: p.conclude(v, p.chain(total).substitute(
        lemma="sum-of-constants", rename={x: n**2})), lemmas=SUM_OF_CONSTANTS))


# -- 17. a derivative is evaluated only where it exists ------------------------------------------

@pytest.mark.parametrize("function, formula", [(sp.Abs(x), sp.sign(x)),
                                               (sp.Max(x, 0), sp.Heaviside(x))],
                         ids=["abs", "relu"])
def test_a_derivative_at_a_kink_is_not_given_a_value(function, formula):
    """d/dx |x| = sign x and d/dx max(x, 0) = H(x) are false at x = 0, where neither
    derivative exists (sign 0 = 0, H(0) = ½)."""
    result = verdict(sp.Derivative(function, x), formula, lambda v, p: p.conclude(
        v, p.chain(function).differentiate(x)))
    refused(result, "not differentiable everywhere")


def test_twin_a_smooth_derivative_proves():
    proved(verdict(sp.Derivative(sp.exp(x) * sp.sin(x), x), sp.exp(x) * (sp.sin(x) + sp.cos(x)),
                   lambda v, p: p.conclude(v, p.chain(sp.exp(x) * sp.sin(x)).differentiate(x))))


# -- 18. induction starts at a whole number -----------------------------------------------------

def test_an_induction_from_a_half_proves_nothing_about_whole_numbers():
    """1/Γ(½ − n) is 0 at n = ½ and 1/Γ(z − 1) = (z − 1)/Γ(z) carries 0 from n to n + 1, but
    steps of 1 from ½ never reach a whole number: at n = 1 it is −1/(2√π)."""
    z, half = sp.Symbol("z", real=True), sp.Rational(1, 2)
    recursion = {"gamma-recursion": Statement("1/Γ(z − 1) = (z − 1)/Γ(z)", (z - 1) / sp.gamma(z),
                                              1 / sp.gamma(z - 1))}
    lhs = 1 / sp.gamma(half - n)

    def prove(v, p):
        induction = p.induction(n, half, lhs, 0)
        induction.base(p.chain(lhs.xreplace({n: half}), "n = ½").evaluate())
        step = p.chain(lhs.xreplace({n: n + 1}), "n + 1").substitute(
            lemma="gamma-recursion", rename={z: half - n})
        induction.step(induction.hypothesis(step).evaluate())
        p.conclude(v, induction.result())

    refused(verdict(lhs, 0, prove, lemmas=recursion), "must start at a whole number")


# -- the seal ------------------------------------------------------------------------------------

def test_judgements_and_theorems_are_made_only_by_the_kernel():
    with pytest.raises(TypeError, match="made only by the inferences"):
        kernel.Judgement(x, "=", x + 1, "rewrite")
    with pytest.raises(TypeError, match="made only by tmath.engine.kernel.conclude"):
        kernel.Theorem(x, "=", x + 1, frozenset(), frozenset())
    with pytest.raises(TypeError):
        kernel.Judgement(x, "=", x + 1, "rewrite", seal=object())


def test_replace_cannot_forge_a_judgement():
    """Judgements are minted only inside the kernel's inferences: dataclasses.replace calls the
    constructor outside them (it used to copy a seal field along)."""
    j = kernel.reflexivity(sp.Integer(1))
    with pytest.raises(TypeError):
        dataclasses.replace(j, rhs=sp.Integer(2))
    theorem = kernel.conclude(1, "=", 1, j)
    with pytest.raises(TypeError):
        dataclasses.replace(theorem, value=sp.Integer(2))


def test_replace_cannot_forge_a_vetted_rule():
    """dataclasses.replace kept the vetting token: a copy of FACTOR_OUT that rewrites anything
    to 0 proved (x + 1)² − 2x = 0."""
    from tmath.engine.rules import FACTOR_OUT

    def prove(v, p):
        forged = dataclasses.replace(FACTOR_OUT, apply=lambda e: sp.Integer(0), validate=None)
        p.conclude(v, p.chain((x + 1) ** 2 - 2 * x).equals(x**2 + 1, method="expand")
                   .apply(forged))

    refused(verdict((x + 1) ** 2 - 2 * x, 0, prove), "made only by tmath.engine.kernel")
    with pytest.raises(TypeError):
        kernel.Rule("forged", lambda e: 0, None, kernel._VETTED)


def _python_files(*folders: str):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_only_the_kernel_touches_the_seal_and_only_rule_libraries_the_vetting_token():
    seal, vetted = [], []
    allowed = re.compile(r"tmath/engine/(kernel|rules\w*|moments)\.py$")
    for path in _python_files("tmath", "claims"):
        source, name = path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()
        private = re.search(r"\b(_MINTING|_minted|_make)\b|kernel\._(?!VETTED)\w", source)
        if private and name != "tmath/engine/kernel.py":
            seal.append(name)
        if re.search(r"\b_VETTED\b", source) and name != "tmath/engine/kernel.py" or \
                re.search(r"\b(library_rule|vetted_rule)\b", source) and not allowed.search(name):
            vetted.append(name)
    assert (seal, vetted) == ([], [])


# -- the public path: user claim modules through `tmath verify --claims DIR` ----------------------

ADVERSARIAL = '''
import sympy as sp
from tmath import Foil, Premise, Statement, claim

x = sp.Symbol("x", real=True)
xp, yp = sp.symbols("x y", positive=True)
a, b = sp.symbols("a b", positive=True)
n, k = sp.symbols("n k", positive=True, integer=True)
t = sp.Symbol("t", positive=True)
T = sp.Symbol("T", positive=True)
TAIL = sp.Sum(1 / k**2, (k, n + 1, sp.oo))
FALSE_TAIL = Premise("the tail is 1/n", {TAIL: 1 / n})


class Noise:
    def check(self, value, experiment):
        experiment.mean(lambda rng, m: rng.normal(size=m), 0.0, "centred noise")


def made(id, text, value, lhs, relation="=", **extra):
    return claim(id=id, title=text, section="9.1", statistical_tests=1,
                 statement=Statement(text, value, lhs, relation),
                 premises=extra.pop("premises", ()), foils=(Foil("off by one", value + 1),),
                 **extra)


@made("adv-derivative-equality", "x² = 2x", 2 * x, x**2)
class DerivativeEquality(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(x**2, "x²").differentiate(x))


@made("adv-derivative", "d/dx x² = 2x", 2 * x, sp.Derivative(x**2, x))
class Derivative(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(x**2, "x²").differentiate(x))


@made("adv-strict", "x² + 1 > 1", sp.Integer(1), x**2 + 1, ">")
class Strict(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(x**2 + 1, "x² + 1").ge(1))


@made("adv-log-product", "log ab = log a + log b", sp.log(a) + sp.log(b), sp.log(a * b))
class LogProduct(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.log(a * b)).equals(value, method="expand_log"))


@made("adv-log-real", "log xy = log x + log y for real x, y", sp.log(x) + sp.log(x + 1),
      sp.log(x * (x + 1)), depends_on=("adv-log-product",))
class LogReal(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.log(x * (x + 1))).substitute(
            lemma="adv-log-product", rename={a: x, b: x + 1}))


@made("adv-log-positive", "log xy = log x + log y for x, y > 0", sp.log(xp) + sp.log(yp),
      sp.log(xp * yp), depends_on=("adv-log-product",))
class LogPositive(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.log(xp * yp)).substitute(
            lemma="adv-log-product", rename={a: xp, b: yp}))


@made("adv-left-limit", "1/x → ∞ as x → 0⁻", sp.oo, sp.Limit(1 / x, x, 0, "-"))
class LeftLimit(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(1 / x).limit(x, 0, "+"))


@made("adv-false-premise", "the tail plus one", 1 / n + 1, TAIL + 1, premises=(FALSE_TAIL,))
class FalsePremise(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(TAIL + 1).substitute({TAIL: 1 / n},
                                                                premise=FALSE_TAIL))


@made("adv-root-without-variable", "T = 2", sp.Integer(2), T)
class RootWithoutVariable(Noise):
    def prove(self, value, proof):
        proof.conclude(value, proof.root(yp - 2, t, T))
'''

UNSOUND = {"adv-derivative-equality": "numerically", "adv-strict": "does not give >",
           "adv-log-real": "x is not shown to be", "adv-left-limit": "cannot show|numerically",
           "adv-false-premise": "is false",
           "adv-root-without-variable": "does not contain t"}
HONEST = ("adv-derivative", "adv-log-product", "adv-log-positive")


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    """One ``tmath verify`` of the folder, as JSON and as a table."""
    from typer.testing import CliRunner

    from tmath.cli import app

    folder = tmp_path_factory.mktemp("adversarial_claims")
    (folder / "adversarial.py").write_text(textwrap.dedent(ADVERSARIAL), encoding="utf-8")
    args = ["verify", "--claims", str(folder), "--no-builtin", "--no-cache", "-j", "1"]
    runner = CliRunner()
    as_json = runner.invoke(app, [*args, "-f", "json"])
    table = runner.invoke(app, args, env={"COLUMNS": "200"})
    return as_json, table


def test_the_cli_fails_the_unsound_user_claims_and_proves_their_twins(verified):
    as_json, table = verified
    assert as_json.exit_code == 1 and table.exit_code == 1, table.output
    claims = {c["id"]: c for c in json.loads(as_json.stdout)["claims"]}
    assert set(claims) == set(UNSOUND) | set(HONEST)
    for claim_id, fragment in UNSOUND.items():
        proof = claims[claim_id]["proof"]
        assert proof["status"] == "failed", (claim_id, proof)
        assert re.search(fragment, proof["reason"]), (claim_id, proof["reason"])
        assert claims[claim_id]["verdict"] != "verified"
        assert re.search(rf"^{re.escape(claim_id)}\s+9\.1\s+✗ failed", table.output, re.M), \
            table.output
    for claim_id in HONEST:
        proof = claims[claim_id]["proof"]
        assert (proof["status"], proof["rests_on"]) == ("proved", []), (claim_id, proof)


def test_a_derivation_built_directly_refuses_the_same_as_the_runner():
    """The Derivation API the claims receive: the left-limit case, step by step."""
    proof = Derivation(statement=Statement("s", sp.oo, sp.Limit(1 / x, x, 0, "-")), value=sp.oo)
    chain = proof.chain(1 / x).limit(x, 0, "+")
    assert chain.judgement.lhs == sp.Limit(1 / x, x, 0, "+") and chain.value == sp.oo
    with pytest.raises(ProofFailure):
        proof.conclude(sp.oo, chain)
    assert proof.steps[-1].kind == "failed"


def test_pins_through_definitions_and_several_solutions_are_cases():
    """The solver behind proved-for-cases: definitions used nowhere else are set aside, a pin
    passes through them, and a symbol fixed to finitely many values is a case too."""
    n, z, m = sp.symbols("n z m", integer=True, positive=True)
    x = sp.Symbol("x", real=True)
    assert kernel._solved_pins(frozenset({(n, z), (z, sp.Integer(3))}), frozenset({n})) == \
        ("n = 3",)
    assert kernel._solved_pins(frozenset({(x**2, sp.Integer(9))}), frozenset({x})) == \
        ("x ∈ {-3, 3}",)
    assert kernel._solved_pins(frozenset({(m, n + 1)}), frozenset({n, m})) == ()


def test_a_bound_passes_to_a_limit_only_where_the_left_side_has_one():
    """sin²(1/x) ≤ 1 + sin²(1/x) everywhere, but lim_{x→0⁺} sin²(1/x) does not exist, so a
    bound on that limit is not a theorem; x·sin(1/x) ≤ x·sin(1/x) + x does pass to it."""
    x = sp.Symbol("x", positive=True)
    wild = sp.sin(1 / x) ** 2
    with pytest.raises(kernel.Rejected, match="not shown to exist"):
        kernel.under(kernel.rewrite(wild, 1 + wild, "<="), "limit", x, 0, "+")
    damped = x * sp.sin(1 / x)
    assert kernel.under(kernel.rewrite(damped, damped + x, "<="), "limit", x, 0,
                        "+").relation == "<="


def test_an_equation_goes_under_an_integral_or_sum_only_over_its_domain():
    """√(x²) = x holds for x > 0, not on [−1, 1]: its integral there is 1, not 0."""
    x, k = sp.Symbol("x", positive=True), sp.Symbol("k", positive=True, integer=True)
    root = kernel.rewrite(sp.sqrt(x**2), x)
    with pytest.raises(kernel.Rejected, match="leaves the domain"):
        kernel.under(root, "integral", (x, -1, 1))
    assert kernel.under(root, "integral", (x, 0, 1)).relation == "="
    with pytest.raises(kernel.Rejected, match="leaves the domain"):
        kernel.under(kernel.rewrite(sp.Abs(k), k), "sum", (k, -2, 3))
    with pytest.raises(kernel.Rejected, match="whole number"):
        kernel.under(kernel.rewrite(k**2, k * k), "diff", k, 1)
