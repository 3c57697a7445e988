"""Renaming a summation index: allowed when the new name is fresh, refused when it would be
captured, and every application is checked numerically."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Statement
from tmath.engine.proof import Derivation
from tmath.engine.rules import SideConditionFailed
from tmath.engine.rules_dummies import rename_index

i, l = sp.symbols("i l", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
T = sp.Symbol("T", positive=True)
z = sp.IndexedBase("z", real=True)
Z = sp.Sum(sp.exp(z[l] / T), (l, 1, n))


def test_renaming_lets_a_normaliser_cancel():
    ratio = sp.Sum(sp.exp(z[i] / T), (i, 1, n)) / Z
    proof = Derivation(statement=Statement("Σ p = 1", sp.Integer(1), ratio), value=sp.Integer(1))
    chain = proof.chain(ratio, "Σ_i p_i").apply(rename_index(i, l))
    assert chain.value == 1 and proof.steps[-1].kind == "rule"
    proof.conclude(sp.Integer(1), chain)


def test_a_name_that_occurs_in_the_sum_is_refused():
    captured = sp.Sum(z[i] * l, (i, 1, n))          # l is free here: renaming i to l captures it
    with pytest.raises(SideConditionFailed, match="capture"):
        rename_index(i, l).apply(captured)


def test_a_rule_with_nothing_to_rename_is_refused():
    with pytest.raises(SideConditionFailed, match="no sum over"):
        rename_index(i, l).apply(Z)


def test_the_rename_is_validated_numerically():
    total = sp.Sum(z[i] ** 2, (i, 1, n))
    rule = rename_index(i, l)
    assert rule.validate(total, rule.apply(total)) is None
    assert rule.validate(total, sp.Sum(z[l] ** 3, (l, 1, n))) is not None   # a wrong rewrite
