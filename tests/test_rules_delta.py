"""Kronecker-delta rules: they derive what they should, and refuse what does not hold."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Statement
from tmath.engine.proof import Derivation, ProofFailure
from tmath.engine.rules import SideConditionFailed
from tmath.engine.rules_delta import DELTA_CASES, delta_identifies

i, j = sp.symbols("i j", positive=True, integer=True)
x, u = sp.IndexedBase("x"), sp.IndexedBase("u")
f = sp.Function("f")
CHANGE = f(x[i] + sp.KroneckerDelta(i, j) * u[i]) - f(x[i])
STATED = sp.KroneckerDelta(i, j) * (f(x[j] + u[j]) - f(x[j]))


def derivation(value):
    return Derivation(statement=Statement("s", value, CHANGE), value=value)


def test_an_edit_of_row_j_changes_row_i_by_delta_times_the_change():
    proof = derivation(STATED)
    chain = proof.chain(CHANGE, "Δ").apply(DELTA_CASES).apply(delta_identifies(i, j))
    proof.conclude(STATED, chain, method="expand")
    proof.finish()
    assert proof.level() == ("proved", ())
    assert [s.kind for s in proof.steps] == ["rule", "rule", "checked"]


def test_the_delta_one_row_off_is_not_derived():
    wrong = STATED.xreplace({sp.KroneckerDelta(i, j): sp.KroneckerDelta(i, j + 1)})
    proof = derivation(wrong)
    chain = proof.chain(CHANGE, "Δ").apply(DELTA_CASES).apply(delta_identifies(i, j))
    with pytest.raises(ProofFailure):
        proof.conclude(wrong, chain, method="expand")


def test_cases_split_is_exact_for_any_function_of_the_delta():
    g = sp.exp(3 * sp.KroneckerDelta(i, j)) * x[i]
    out = DELTA_CASES.apply(g)
    assert sp.simplify(out - (x[i] + sp.KroneckerDelta(i, j) * (sp.E**3 - 1) * x[i])) == 0
    assert DELTA_CASES.validate(g, out) is None


def test_identifying_indices_needs_the_delta_as_a_factor():
    with pytest.raises(SideConditionFailed, match="no factor"):
        delta_identifies(i, j).apply(f(x[i]) + sp.KroneckerDelta(i, j + 1) * x[i])
    with pytest.raises(SideConditionFailed, match="not a factor of a product"):
        delta_identifies(i, j).apply(f(sp.KroneckerDelta(i, j)) * x[i] + x[i])
    with pytest.raises(SideConditionFailed, match="not a symbol"):
        delta_identifies(i + 1, j)


def test_a_wrong_rewrite_under_the_delta_is_caught_by_validation():
    """A rule that drops the delta after substituting is refused on random instances."""
    product = sp.KroneckerDelta(i, j) * x[i]
    assert DELTA_CASES.validate(product, x[j]) is not None


def test_sifting_a_permuted_row_needs_its_range():
    """ffn-permutation-equivariant sifts Σ_t δ(t, σ(i)) x_t: only once σ(i) ≤ T is known
    (T = σ(i) + r, r ≥ 0) does the engine's sift accept it."""
    from tmath.engine.rules import sift

    sigma = sp.Function("sigma", positive=True, integer=True)
    t, T = sp.Symbol("t", integer=True), sp.Symbol("T", positive=True, integer=True)
    r = sp.Symbol("r", nonnegative=True, integer=True)
    row = sp.Sum(sp.KroneckerDelta(t, sigma(i)) * x[t], (t, 1, T))
    with pytest.raises(SideConditionFailed, match="not known to lie"):
        sift(1, T).apply(row)
    assert sift(1, sigma(i) + r).apply(row.xreplace({T: sigma(i) + r})) == x[sigma(i)]
