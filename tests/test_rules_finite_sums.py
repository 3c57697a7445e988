"""The vetted finite-sum rules: telescoping and separating sums of products. Each is used in
a sound derivation, refused where its side condition fails, and a deliberately wrong rewrite
of the same kind is caught by the numeric validation every library rule gets."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Premise, Statement
from tmath.engine.proof import Derivation, ProofFailure
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.engine.rules_finite_sums import separate_sums, telescope

i, t = sp.symbols("i t", positive=True, integer=True)
a, b, n, k = sp.symbols("a b n k", positive=True, integer=True)
beta = sp.Symbol("beta", positive=True)
m, x = sp.IndexedBase("m", real=True), sp.IndexedBase("x", real=True)
f, g = sp.IndexedBase("f", positive=True), sp.IndexedBase("g", positive=True)
p = sp.IndexedBase("p", positive=True)


def derivation(lhs, value, premises=()):
    return Derivation(statement=Statement("s", value, lhs), value=value, premises=premises)


def test_telescoping_unrolls_an_ema_without_induction():
    ema = Premise("m_i = β m_{i−1} + (1−β) x_i, m_0 = 0",
                  {m[i]: beta * m[i - 1] + (1 - beta) * x[i], m[0]: 0})
    closed = sp.Sum((1 - beta) * beta ** (t - i) * x[i], (i, 1, t))
    proof = derivation(m[t], closed, (ema,))
    chain = (proof.chain(m[t], "m_t").apply(telescope(beta ** (t - i) * m[i], i, 1, t))
             .substitute(dict(ema.equations), premise=ema).equals(closed, "cancel"))
    proof.conclude(closed, chain)
    proof.finish()
    assert proof.level() == ("proved", ())
    assert proof.steps[0].kind == "rule"


def test_telescoping_needs_the_last_term_to_occur():
    proof = derivation(m[t], m[t])
    with pytest.raises(ProofFailure, match="does not occur"):
        proof.chain(m[t] + 1, "m_t + 1").apply(telescope(m[i], i, 1, t + 1))


def test_telescoping_needs_a_range_of_whole_terms():
    proof = derivation(m[t], m[t])
    with pytest.raises(ProofFailure, match="whole"):
        proof.chain(m[t - 5], "m").apply(telescope(m[i], i, 1, t - 5))


def test_a_wrong_telescoping_is_caught_by_the_numbers():
    """Off by one: f(b) = Σ_{k=a}^{b} (f(k) − f(k−1)) + f(a) is false; the validation on
    random small instances refuses it."""
    wrong = library_rule("telescoping, off by one", lambda e: e.xreplace(
        {m[t]: sp.Sum(m[i] - m[i - 1], (i, 1, t)) + m[1]}))
    proof = derivation(m[t], m[t])
    with pytest.raises(ProofFailure, match="rewrite is wrong"):
        proof.chain(m[t], "m_t").apply(wrong)


def test_a_sum_of_products_over_independent_ranges_separates():
    total = sp.Sum(f[a] * g[b] * beta, (b, 1, k), (a, 1, n))
    proof = derivation(total, total)
    chain = proof.chain(total, "Σ Σ").apply(separate_sums())
    assert chain.value == beta * sp.Sum(f[a], (a, 1, n)) * sp.Sum(g[b], (b, 1, k))
    assert proof.steps[-1].kind == "rule"


def test_factors_sharing_an_index_stay_in_one_sum_and_outer_sums_stay_outside():
    total = sp.Sum(p[a, b] * f[a] * g[b], (b, 1, k), (a, 1, n))
    assert separate_sums().apply(total) == total
    z = sp.Symbol("z", positive=True, integer=True)
    triple = sp.Sum(p[a, z] * g[b] * f[z], (a, 1, n), (b, 1, k), (z, 1, t))
    assert separate_sums(outer=z).apply(triple) == sp.Sum(
        f[z] * sp.Sum(p[a, z], (a, 1, n)) * sp.Sum(g[b], (b, 1, k)), (z, 1, t))


def test_dependent_ranges_do_not_separate():
    triangle = sp.Sum(f[a] * g[b], (b, 1, a), (a, 1, n))
    with pytest.raises(SideConditionFailed, match="depends on another summation index"):
        separate_sums().apply(triangle)


def test_a_wrong_separation_is_caught_by_the_numbers():
    wrong = library_rule("separate, forgetting a factor", lambda e: sp.Sum(f[a], (a, 1, n)))
    total = sp.Sum(f[a] * g[b], (b, 1, k), (a, 1, n))
    proof = derivation(total, total)
    with pytest.raises(ProofFailure, match="rewrite is wrong"):
        proof.chain(total, "Σ Σ").apply(wrong)
