"""The numeric guard's points: magnitudes, integer edges and poles' neighbourhoods within each
symbol's domain; matrices evaluated with random dense matrices; and a step no point can
evaluate reported as resting on SymPy alone."""

from __future__ import annotations

import sympy as sp

from tmath.engine.numeric import ORDINARY, TRIES, disagreement, evidence, points

x = sp.Symbol("x", positive=True)
r = sp.Symbol("r", real=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
m = sp.Symbol("m", integer=True, negative=True)
size, other = sp.symbols("size other", integer=True, positive=True)
C, D = sp.MatrixSymbol("C", size, size), sp.MatrixSymbol("D", size, size)
A, B = sp.MatrixSymbol("A", size, other), sp.MatrixSymbol("B", other, size)


def test_points_respect_the_domain_and_reach_far():
    drawn = list(points([x + r + n + m], seed=4))
    assert len(drawn) == TRIES
    assert all(p[x] > 0 and p[n] >= 0 and p[m] < 0 and p[m].is_Integer for p in drawn)
    assert max(p[x] for p in drawn) >= 10 and min(p[x] for p in drawn) <= sp.Rational(1, 10)
    assert {p[r] > 0 for p in drawn} == {True, False}
    assert 0 in {p[n] for p in drawn}


def test_a_step_false_only_far_out_is_caught():
    """The deliberately false steps: min(x, 10) = x for x > 0, and max(n, 1) = n for whole
    n ≥ 0. Three ordinary points (below 5, n from 0..9 at random) let them through."""
    assert disagreement(sp.Min(x, 10), x, tries=ORDINARY) == (None, ORDINARY)
    assert disagreement(sp.Min(x, 10), x)[0]
    assert disagreement(sp.Max(n, 1), n, seed=1, tries=ORDINARY) == (None, ORDINARY)
    assert disagreement(sp.Max(n, 1), n, seed=1)[0]
    assert disagreement(sp.Min(x, x + 10), x) == (None, TRIES)  # the honest twin


def test_points_visit_both_sides_of_a_pole():
    near = [p[x] for p in points([x * (x - sp.Rational(19, 10)) / (x - 2)], seed=0)]
    assert any(2 - sp.Rational(1, 1000) <= v < 2 for v in near)
    assert any(2 < v <= 2 + sp.Rational(1, 1000) for v in near)


def test_a_wrong_matrix_identity_is_caught():
    """The deliberately false steps: (CD)ᵀ = CᵀDᵀ and (CD)⁻¹ = C⁻¹D⁻¹ (no point could evaluate a
    MatrixSymbol before, so both passed as checked). Their honest twins agree everywhere."""
    assert disagreement((C * D).T, C.T * D.T)[0]
    assert disagreement((C * D).I, C.I * D.I)[0]
    assert disagreement((C * D).T, D.T * C.T) == (None, TRIES)
    assert disagreement((C * D).I, D.I * C.I) == (None, TRIES)
    assert disagreement(sp.Trace(A * B), sp.Trace(B * A)) == (None, TRIES)
    assert disagreement((A * B).T, A.T * B.T)[0]   # not even the same shape


def test_a_matrix_step_no_point_can_evaluate_rests_on_sympy_alone():
    """(abᵀ)⁻¹ for column vectors a, b has rank one: singular at every point."""
    a, b = sp.MatrixSymbol("a", size, 1), sp.MatrixSymbol("b", size, 1)
    found = evidence((a * b.T).I * a, (a * b.T).I * a)
    assert found.points == 0 and not found.checked
    assert "SymPy only" in found.describe()
    assert evidence(C * D, C * D).checked


def test_the_seed_chooses_the_points():
    assert list(points([x], seed=1)) != list(points([x], seed=2))
    assert list(points([x], seed=1)) == list(points([x], seed=1))
