"""inner_sum: regroups a merged double sum, and refuses ranges that depend on each other."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Statement
from tmath.engine.proof import Derivation, ProofFailure
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.engine.rules_inner_sums import inner_sum

i, x, n, N = sp.symbols("i x n N", positive=True, integer=True)
q, s = sp.IndexedBase("q", positive=True), sp.IndexedBase("s", positive=True)


def _proof(lhs):
    return Derivation(statement=Statement("s", lhs, lhs), value=lhs)


def test_samples_group_by_label():
    merged = sp.Sum(sp.Sum(sp.KroneckerDelta(x, s[i]) * sp.log(q[x]), (x, 1, n)), (i, 1, N))
    assert len(merged.limits) == 2  # SymPy merged the two sums
    chain = _proof(merged).chain(merged, "Σ_i log q(s_i)").apply(inner_sum(i))
    assert chain.value == sp.Sum(sp.log(q[x]) * sp.Sum(sp.KroneckerDelta(x, s[i]), (i, 1, N)),
                                 (x, 1, n))
    assert chain.kinds == ["rule"]


def test_dependent_ranges_are_refused():
    triangle = sp.Sum(q[i] * sp.log(q[x]), (i, 1, x), (x, 1, n))
    with pytest.raises(SideConditionFailed, match="depends on another summation index"):
        _proof(triangle).chain(triangle, "triangle").apply(inner_sum(i))


def test_a_wrong_regrouping_is_refused_by_the_numbers():
    """The same mechanism with a wrong rewrite (the factor dragged out of the sum it needs)."""
    merged = sp.Sum(q[i] * q[x], (i, 1, N), (x, 1, n))
    wrong = library_rule("wrong", lambda e: sp.Sum(q[i] * sp.Sum(q[x], (x, 1, n)), (i, 1, 1)))
    with pytest.raises(ProofFailure, match="the rewrite is wrong here"):
        _proof(merged).chain(merged, "product").apply(wrong)
