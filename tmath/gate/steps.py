"""The steps of a derivation a document prints, checked as identities.

A chain ``a = b = c = d`` says that each link holds for every value of its names. Where a
link is made of elementary functions only (sums, products, powers, sin, cos, tan, exp, log,
matrices of those, and norms ``\\|x\\|`` and inner products ``x^\\top y`` of vectors), it can
be checked without any claim: its two sides are evaluated at
random points (positive values, a seed made from the link itself, so a run is replayed
exactly) and a link whose sides differ is a false step, reported on its row. A sign flipped
inside ``\\sin((i + \\delta)\\omega_j)`` is found even when the chain's ends are right.

What is not checked, so that only a step that is false for every reading is reported:

* a link whose left side is a bare name (``y = …`` defines y);
* a link with anything but elementary functions: an operator (E, Var, softmax, a norm), a
  function of the document's own, a sum, a limit, a constant such as π (identities that
  hold only at integers, ``\\cos(2\\pi k) = 1``, are not identities of real numbers);
* a link whose two sides do not use the same names: ``d_{model}/h = 64`` states values, not
  an identity, and a family member on one side only (``p_{i+\\delta, 2j}``) is defined
  elsewhere (one on both sides, ``\\omega_j``, is a value like any name); vectors and
  matrices (names that do not commute) need only the same families on both sides
  (``\\mathbf{q}_i {\\mathbf{k}_j}^\\top = (\\mathbf{x}_i + \\mathbf{p}_i)\\mathbf{W}^q …`` is not
  checked: q and k are defined elsewhere). Such a step is evaluated with each lowercase
  one a random row vector and each other one a random square matrix, in the printed order.
* ``≈`` and every relation other than ``=``, and formulas with a single relation (an equation
  may be a condition to solve).
"""

from __future__ import annotations

import hashlib
import random
from typing import Sequence

import sympy as sp

from tmath.latex.operators import Inner, Norm, Transpose

ELEMENTARY = (sp.Add, sp.Mul, sp.Pow, sp.sin, sp.cos, sp.tan, sp.exp, sp.log)
"""The functions a checked step may use."""
POINTS = 4
"""How many random points a step is evaluated at; it is false if its sides differ at one."""
RELATIVE = 1e-9
"""How far apart (relative to the sides' size) two values may be and still agree: far above
the 30-digit evaluation's error, far below any real difference."""
LOW, HIGH = 0.2, 1.9
"""The range random values are drawn from (positive, so logs and roots are real)."""


def false_steps(relations: Sequence) -> tuple[tuple[int, str, float, float], ...]:
    """(index, shown, left, right) of each link of a chain among ``relations`` (read
    relations, :func:`tmath.meaning.recognise.relations_of`) that is an elementary identity
    and is false: its sides at the first point where they differ."""
    from tmath.meaning.recognise import chains_of

    found = []
    for chain in chains_of(relations):
        for index in range(chain.first, chain.last + 1):
            relation = relations[index]
            point = _differs(relation.lhs, relation.rhs) if _checkable(relation) else None
            if point is not None:
                found.append((index, relation.text, *point))
    return tuple(found)


def holds(relation) -> bool:
    """Whether a link is an elementary identity of numbers (or of matrices of numbers) seen
    to hold: its sides evaluated and equal at every random point. False where it differs,
    or could not be evaluated everywhere (then nothing is known of it)."""
    if not _checkable(relation):
        return False
    lhs, rhs = relation.lhs, relation.rhs
    if any(side.has(*_VECTOR, Transpose) or not side.is_commutative
           for side in (lhs, rhs) if not isinstance(side, sp.MatrixBase)):
        return False
    if isinstance(lhs, sp.MatrixBase) != isinstance(rhs, sp.MatrixBase) or (
            isinstance(lhs, sp.MatrixBase) and lhs.shape != rhs.shape):
        return False
    pairs = list(zip(lhs, rhs)) if isinstance(lhs, sp.MatrixBase) else [(lhs, rhs)]
    names = sorted(names_in(lhs) | names_in(rhs), key=sp.default_sort_key)
    rng = random.Random(int(hashlib.sha256(f"{lhs} = {rhs}".encode()).hexdigest()[:12], 16))
    for _ in range(POINTS):
        values = {n: sp.Float(rng.uniform(LOW, HIGH), 30) for n in names}
        for a, b in pairs:
            left, right = value_at(a, values), value_at(b, values)
            if left is None or right is None or \
                    abs(left - right) > RELATIVE * (1 + abs(left) + abs(right)):
                return False
    return True


def _checkable(relation) -> bool:
    lhs, rhs = relation.lhs, relation.rhs
    if relation.op != "=" or not all(isinstance(s, sp.Basic) for s in (lhs, rhs)):
        return False
    if isinstance(lhs, (sp.Symbol, sp.Indexed)):
        return False   # a definition of that name
    if not (elementary(lhs) and elementary(rhs)):
        return False
    atoms = [names_in(side) for side in (lhs, rhs)]
    vectors = [{n for n in side if not n.is_commutative} for side in atoms]
    indices = {i for side in vectors for n in side if isinstance(n, sp.Indexed)
               for i in n.free_symbols if i.is_commutative}   # x_i, x_j: indices, not values
    names = [{n for n in side if n.is_commutative and n not in indices} for side in atoms]
    families = [{str(n.base) if isinstance(n, sp.Indexed) else str(n) for n in side}
                for side in vectors]
    # numbers must match; vectors and matrices by family (x_i and x_j are both x's: an
    # expansion may move an index, a name on one side only is defined elsewhere)
    return names[0] == names[1] and families[0] == families[1]


def names_in(expr: sp.Basic) -> set:
    """The names an expression's value depends on: symbols and family members (``ω_i``,
    whose index is part of the name, not a name of its own)."""
    atoms = expr.free_symbols | expr.atoms(sp.Indexed)
    return {a for a in atoms if not isinstance(a, sp.Idx)
            and not any(a in i.indices for i in atoms if isinstance(i, sp.Indexed))}


def elementary(expr: sp.Basic) -> bool:
    """Made of numbers, names and the :data:`ELEMENTARY` functions (and matrices of them)."""
    if isinstance(expr, sp.MatrixBase):
        return all(elementary(e) for e in expr)
    if isinstance(expr, (sp.Symbol, sp.Indexed)):
        return True
    if isinstance(expr, sp.Number):
        return bool(expr.is_finite)
    if isinstance(expr, sp.NumberSymbol) or not isinstance(expr, (*ELEMENTARY, *_VECTOR,
                                                                   Transpose)):
        return False
    return all(elementary(a) for a in expr.args)


_VECTOR = (Norm, Inner)
"""‖x‖ and xᵀy: a step that uses them is evaluated with the names inside them as vectors."""
DIMENSION = 3
"""The length of the random vectors a step with norms and inner products is evaluated at."""


def _differs(lhs: sp.Basic, rhs: sp.Basic) -> tuple[float, float] | None:
    """The two sides' values at the first random point where they differ; None if they
    agree at every point (matrices: entry by entry, the first entry that differs)."""
    if any(side.has(*_VECTOR) for side in (lhs, rhs)):
        return _differs_as_vectors(lhs, rhs)
    if not any(isinstance(side, sp.MatrixBase) for side in (lhs, rhs)) and any(
            not n.is_commutative for side in (lhs, rhs) for n in side.free_symbols) or \
            any(side.has(Transpose) for side in (lhs, rhs)):
        return _differs_as_matrices(lhs, rhs)
    if isinstance(lhs, sp.MatrixBase) != isinstance(rhs, sp.MatrixBase):
        return None
    pairs = list(zip(lhs, rhs)) if isinstance(lhs, sp.MatrixBase) else [(lhs, rhs)]
    if isinstance(lhs, sp.MatrixBase) and lhs.shape != rhs.shape:
        return None
    names = sorted(names_in(lhs) | names_in(rhs), key=sp.default_sort_key)
    seed = int(hashlib.sha256(f"{lhs} = {rhs}".encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    for _ in range(POINTS):
        values = {n: sp.Float(rng.uniform(LOW, HIGH), 30) for n in names}
        for a, b in pairs:
            left, right = value_at(a, values), value_at(b, values)
            if left is None or right is None:
                continue
            if abs(left - right) > RELATIVE * (1 + abs(left) + abs(right)):
                return float(left), float(right)
    return None


def value_at(expr: sp.Basic, values: dict) -> float | None:
    """``expr`` at ``values`` (30 digits), as a float; None where it is not a real number."""
    try:
        value = complex(sp.N(expr.xreplace(values), 30))
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):
        return None
    if value != value or abs(value) == float("inf") or abs(value.imag) > 1e-12 * abs(value):
        return None
    return value.real


def _differs_as_vectors(lhs: sp.Basic, rhs: sp.Basic) -> tuple[float, float] | None:
    """As :func:`_differs`, with each name inside a norm or an inner product a random vector
    (the others numbers); None where a side is not a number then (a vector times a vector)."""
    import numpy as np

    atoms = {a for side in (lhs, rhs) for a in side.free_symbols | side.atoms(sp.Indexed)}
    inside = {a for side in (lhs, rhs) for op in side.atoms(*_VECTOR) for arg in op.args
              for a in arg.free_symbols | arg.atoms(sp.Indexed)}
    indices = {i for a in atoms if isinstance(a, sp.Indexed) for i in a.indices}
    seed = int(hashlib.sha256(f"{lhs} = {rhs}".encode()).hexdigest()[:12], 16)
    rng = np.random.default_rng(seed)
    for _ in range(POINTS):
        values = {a: rng.uniform(-HIGH, HIGH, DIMENSION) if a in inside else rng.uniform(LOW, HIGH)
                  for a in sorted(atoms - indices, key=sp.default_sort_key)}   # replayable
        left, right = _numeric(lhs, values), _numeric(rhs, values)
        if left is None or right is None or np.ndim(left) or np.ndim(right):
            return None
        if abs(left - right) > RELATIVE * (1 + abs(left) + abs(right)):
            return float(left), float(right)
    return None


def _differs_as_matrices(lhs: sp.Basic, rhs: sp.Basic) -> tuple[float, float] | None:
    """As :func:`_differs`, for a step of products of vectors and matrices: each lowercase
    non-commuting name a random row vector, each other one (``W``, ``W^q``) a random square
    matrix, in the order printed; the first entry where the sides differ. None when a side
    does not evaluate (a product that does not fit, a function of a matrix)."""
    import numpy as np

    seed = int(hashlib.sha256(f"{lhs} = {rhs}".encode()).hexdigest()[:12], 16)
    rng = np.random.default_rng(seed)
    for _ in range(POINTS):
        values: dict = {}
        left, right = (_as_array(side, values, rng) for side in (lhs, rhs))
        if left is None or right is None or np.shape(left) != np.shape(right):
            return None
        gap = np.abs(np.asarray(left) - np.asarray(right))
        scale = 1 + np.abs(left) + np.abs(right)
        if np.any(gap > RELATIVE * scale):
            k = int(np.argmax(gap > RELATIVE * scale))
            return float(np.ravel(left)[k]), float(np.ravel(right)[k])
    return None


def _as_array(expr: sp.Basic, values: dict, rng):
    """``expr`` in NumPy, drawing each matrix name's value the first time it is met."""
    import numpy as np

    if isinstance(expr, sp.Number):
        return float(expr)
    if (isinstance(expr, (sp.Symbol, sp.Indexed)) or (isinstance(expr, sp.Pow) and not
                                                       expr.is_commutative)):
        if expr not in values:
            if expr.is_commutative:
                values[expr] = rng.uniform(LOW, HIGH)
            else:
                name = str(expr.base if isinstance(expr, (sp.Indexed, sp.Pow)) else expr)
                row = name[:1].islower()
                values[expr] = rng.uniform(-HIGH, HIGH, (1, DIMENSION) if row else
                                           (DIMENSION, DIMENSION))
        return values[expr]
    parts = [_as_array(a, values, rng) for a in expr.args]
    if any(p is None for p in parts):
        return None
    try:
        if isinstance(expr, Transpose):
            return np.transpose(parts[0])
        if isinstance(expr, sp.Add):
            total = parts[0]
            for part in parts[1:]:
                if np.shape(part) != np.shape(total):
                    return None
                total = total + part
            return total
        if isinstance(expr, sp.Mul):
            numbers, arrays = [p for p in parts if not np.ndim(p)], [p for p in parts if np.ndim(p)]
            product = np.prod(numbers) if numbers else 1.0
            for array in arrays:   # SymPy keeps non-commuting factors in their printed order
                product = product @ array if np.ndim(product) else product * array
            return product
        if isinstance(expr, sp.Pow) and not np.ndim(parts[0]) and not np.ndim(parts[1]):
            return float(parts[0]) ** float(parts[1])
    except (ValueError, TypeError, ArithmeticError):
        return None
    return None


def _numeric(expr: sp.Basic, values: dict):
    """``expr`` evaluated with NumPy (vectors where ``values`` has them); None where it is not
    defined that way (a product of two vectors, a function of a vector)."""
    import numpy as np

    if expr in values:
        return values[expr]
    if isinstance(expr, sp.Number):
        return float(expr)
    parts = [_numeric(a, values) for a in expr.args]
    if any(p is None for p in parts):
        return None
    vectors = [p for p in parts if np.ndim(p)]
    if isinstance(expr, Norm):
        return float(np.linalg.norm(parts[0])) if np.ndim(parts[0]) == 1 else None
    if isinstance(expr, Inner):
        return float(np.dot(*parts)) if len(vectors) == 2 else None
    if isinstance(expr, sp.Add):
        if len(vectors) not in (0, len(parts)):
            return None   # a number plus a vector
        total = 0.0
        for part in parts:
            total = total + part
        return total
    if isinstance(expr, sp.Mul):
        if len(vectors) > 1:
            return None
        product = 1.0
        for part in parts:
            product = product * part
        return product
    if vectors:
        return None
    functions = {sp.Pow: np.power, sp.sin: np.sin, sp.cos: np.cos, sp.tan: np.tan,
                 sp.exp: np.exp, sp.log: np.log}
    for kind, function in functions.items():
        if isinstance(expr, kind):
            with np.errstate(all="ignore"):
                value = function(*parts)
            return float(value) if np.isfinite(value) else None
    return None
