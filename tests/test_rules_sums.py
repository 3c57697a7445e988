"""Factoring out of the inner sum of a multiple sum, which SymPy forms by itself."""

from __future__ import annotations

import sympy as sp

from tmath.engine.rules import DISTRIBUTE, SWAP_SUMS
from tmath.engine.rules_sums import FACTOR_OUT_OF_INNER

T, D = sp.symbols("T D", positive=True, integer=True)
i, j, c = sp.symbols("i j c", integer=True)
q, k, v = sp.symbols("q k v", cls=sp.IndexedBase)


def test_linear_attention_regroups_with_vetted_steps():
    pairwise = sp.Sum(sp.Sum(q[i, c] * k[j, c], (c, 1, D)) * v[j], (j, 1, T))
    grouped = FACTOR_OUT_OF_INNER.apply(SWAP_SUMS.apply(DISTRIBUTE.apply(pairwise)))
    assert grouped == sp.Sum(q[i, c] * sp.Sum(k[j, c] * v[j], (j, 1, T)), (c, 1, D))


def test_a_factor_of_the_inner_index_stays_and_a_wrong_pull_is_caught():
    inner = sp.Sum(q[j] * k[j, c], (j, 1, T), (c, 1, D))
    assert FACTOR_OUT_OF_INNER.apply(inner) == inner  # every factor involves j
    double = sp.Sum(q[c] * k[j, c], (j, 1, T), (c, 1, D))
    wrong = sp.Sum(q[c], (c, 1, D)) * sp.Sum(k[j, c], (j, 1, T), (c, 1, D))
    assert FACTOR_OUT_OF_INNER.validate(double, wrong) is not None
    assert FACTOR_OUT_OF_INNER.validate(double, FACTOR_OUT_OF_INNER.apply(double)) is None
