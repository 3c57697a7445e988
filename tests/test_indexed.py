"""The evaluator of indexed formulas: sums, deltas by their arguments, 1-based entries,
batch axes, and NaN (never an exception) for a formula that leaves its arrays."""

from __future__ import annotations

import numpy as np
import sympy as sp

from tmath.reference import edits, indexed

i, j, c = sp.symbols("i j c", integer=True)
n = sp.Symbol("n", positive=True, integer=True)
A, x = sp.IndexedBase("A"), sp.IndexedBase("x")


def test_a_matrix_vector_product_over_every_row():
    rng = np.random.default_rng(0)
    a, v = rng.normal(size=(4, 3)), rng.normal(size=3)
    got = indexed.evaluate(sp.Sum(A[i, c] * x[c], (c, 1, n)), arrays={A: a, x: v},
                           values={n: 3}, over=[(i, 1, 4)])
    assert np.allclose(got, a @ v)


def test_deltas_are_decided_by_their_arguments():
    eye = indexed.evaluate(sp.KroneckerDelta(i, j), over=[(i, 1, 3), (j, 1, 3)])
    shifted = indexed.evaluate(sp.KroneckerDelta(i, j + 1), over=[(i, 1, 3), (j, 1, 3)])
    assert np.array_equal(eye, np.eye(3)) and np.array_equal(shifted, np.eye(3, k=-1))


def test_batch_axes_and_out_of_range_entries():
    s = np.arange(6.0).reshape(3, 2)  # three scores for each of two rows
    total = indexed.evaluate(sp.Sum(x[j], (j, 1, 3)), arrays={x: s}, batch=(2,))
    assert np.array_equal(total, s.sum(axis=0))
    assert np.isnan(indexed.values(x[i + 1], arrays={x: s[:, 0]}, over=[(i, 1, 3)]))


def test_edits_move_one_row_at_a_time():
    x0 = np.zeros((3, 2))
    moved = edits.changes(lambda rows: rows * 2, x0, np.ones((3, 2)))
    assert moved.shape == (3, 3, 2) and np.array_equal(moved[1], 2 * np.eye(3)[:, [1]] * np.ones(2))
