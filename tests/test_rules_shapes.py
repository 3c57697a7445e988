"""Shape rules: shapes are derived one operation at a time, with side conditions checked and
every step validated against NumPy; a mismatched product is refused."""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Statement
from tmath.engine.proof import Derivation
from tmath.engine.rules import SideConditionFailed
from tmath.engine.rules_shapes import SHAPE_STEP, cols, derive_shape, rows, shape
from tmath.reference.formulas import row_softmax

a, b, k, m = sp.symbols("a b k m", positive=True, integer=True)
Q, K, V = sp.MatrixSymbol("Q", a, k), sp.MatrixSymbol("K", b, k), sp.MatrixSymbol("V", b, m)


def test_attention_shapes_are_derived_step_by_step():
    weights = row_softmax(Q * K.T, 1 / sp.sqrt(k))
    value = (sp.Matrix([a, b]), sp.Matrix([a, m]))
    proof = Derivation(statement=Statement("s", value, (shape(weights), shape(weights * V))),
                       value=value)
    chains = [derive_shape(proof, part, str(n)) for n, part in enumerate(proof.statement.lhs)]
    proof.conclude(value, *chains)
    proof.finish()
    assert proof.level() == ("proved", ())
    assert all(len(c.kinds) > 3 and set(c.kinds) == {"rule"} for c in chains)


def test_a_product_with_mismatched_sizes_is_refused():
    """SymPy itself builds A·B for unrelated symbolic sizes; the rule does not accept it."""
    wrong = Q * V  # (a×k)(b×m)
    with pytest.raises(SideConditionFailed, match="needs cols = rows"):
        SHAPE_STEP.apply(rows(wrong))
    with pytest.raises(SideConditionFailed, match="square"):
        SHAPE_STEP.apply(rows(sp.Inverse(Q)))


def test_validation_compares_with_numpy_shapes():
    assert SHAPE_STEP.validate(shape(Q * K.T), sp.Matrix([rows(Q * K.T), cols(Q * K.T)])) is None
    assert SHAPE_STEP.validate(cols(Q * K.T), sp.Integer(1) * k) is not None  # cols(QKᵀ) = b
