"""What a claim's statement proves, as a relation in the reader's terms.

Recognition compares a document's formulas with the formulas the claims record. A claim that
records none (the notes print no formula for it) still proves its statement ``lhs = value``,
a SymPy relation checked by the kernel. This module writes such a statement as the reader
would have read it, so recognition can compare with it too:

* every object the claim (or a claim it depends on) says how to print (``notation``, e.g.
  ``q^T k`` for the sum ``Σ q_i k_i``) is put back as the reader reads that print;
* every name loses its assumptions (the reader's ``d_k`` is a plain name);
* a statement is used only when what is left is made of what the reader builds (names,
  numbers, indexed names, sums, powers, elementary functions, the reader's operators and the
  functions the claim's own notation prints) and its left side is an operator applied
  (``Var(…)``, ``E[…]``) or a print the notation declares that applies a function
  (``PE(pos) \\cdot PE(pos+k)`` for the sum it stands for): a bare name proves nothing about
  another document's names.

A claim's notation may also name a matrix its statement builds (``M_{k,i}`` for the rotation
of a PE pair): :func:`named_matrices` gives the definition ``name = matrix`` in the reader's
terms, so a document's definition of that matrix under its own names is compared with it.

Anything else is left out: a statement that cannot be written this way is simply not
recognised in documents (fail closed).
"""

from __future__ import annotations

from typing import Any, Iterable

import sympy as sp

ALLOWED = (sp.Symbol, sp.Number, sp.Indexed, sp.IndexedBase, sp.Idx, sp.Add, sp.Mul, sp.Pow,
           sp.Sum, sp.Tuple, sp.core.numbers.NumberSymbol, sp.core.numbers.ImaginaryUnit,
           sp.ImmutableDenseMatrix)
ELEMENTARY = (sp.sin, sp.cos, sp.tan, sp.exp, sp.log, sp.sinh, sp.cosh, sp.tanh)


def statement_relations(specs: Iterable[Any], by_id: dict[str, Any]
                        ) -> list[tuple[str, str, Any, Any]]:
    """(claim id, statement text, lhs, rhs) in the reader's terms, of each claim in ``specs``
    that records no formula; ``by_id`` gives the claims it depends on (for their notation)."""
    found = []
    for spec in specs:
        if getattr(spec, "formulas", ()) or spec.statement.lhs is None:
            continue
        swaps = _notation(spec, by_id)
        printed = {r for r in swaps.values() if r.atoms(sp.core.function.AppliedUndef)}
        declared = {f.func for r in printed for f in r.atoms(sp.core.function.AppliedUndef)}
        for lhs, relation, value in _parts(spec.statement):
            if relation != "=":
                continue
            read = [_in_reader_terms(side, swaps, declared) for side in (lhs, value)]
            if any(side is None for side in read) or \
                    not (_operator_applied(read[0]) or read[0] in printed):
                continue
            found.append((spec.id, spec.statement.text, read[0], read[1]))
    return found


def named_matrices(specs: Iterable[Any], by_id: dict[str, Any]
                   ) -> list[tuple[str, str, Any, Any]]:
    """(claim id, definition text, name, matrix) for each matrix a claim's notation names,
    the name read as a name or a family member (``M_{k,i}``) and the matrix in the reader's
    terms (the claim's other notation put back)."""
    from tmath.latex import read

    found = []
    for spec in specs:
        swaps = _notation(spec, by_id)
        for printed, obj in getattr(spec, "notation", ()) or ():
            if not isinstance(obj, sp.MatrixBase):
                continue
            reading = read(printed)
            if not (reading.parsed and len(reading.expressions) == 1 and
                    isinstance(reading.expressions[0], (sp.Symbol, sp.Indexed))):
                continue
            matrix = sp.ImmutableMatrix(obj)
            rhs = _in_reader_terms(matrix, {k: v for k, v in swaps.items() if k != matrix})
            if rhs is not None:
                name = _in_reader_terms(reading.expressions[0], {})
                shown = sp.latex(rhs, mat_str="bmatrix", mat_delim="")
                found.append((spec.id, f"{printed} = {shown}", name, rhs))
    return found


def _parts(statement: Any) -> list[tuple[Any, str, Any]]:
    lhs = statement.lhs if isinstance(statement.lhs, tuple) else (statement.lhs,)
    value = statement.value if isinstance(statement.lhs, tuple) else (statement.value,)
    relation = statement.relation if isinstance(statement.relation, tuple) \
        else (statement.relation,) * len(lhs)
    return list(zip(lhs, relation, value))


def _notation(spec: Any, by_id: dict[str, Any]) -> dict[sp.Basic, sp.Basic]:
    """Each object the claim and the claims it depends on print, → the reader's reading of
    that print."""
    from tmath.latex import read

    swaps: dict[sp.Basic, sp.Basic] = {}
    for owner in (spec, *(by_id[d] for d in getattr(spec, "depends_on", ()) if d in by_id)):
        for printed, obj in getattr(owner, "notation", ()) or ():
            reading = read(printed)
            if reading.parsed and len(reading.expressions) == 1:
                try:
                    swaps.setdefault(sp.sympify(obj, strict=True), reading.expressions[0])
                except (sp.SympifyError, TypeError):
                    continue
    return swaps


def _in_reader_terms(side: Any, swaps: dict[sp.Basic, sp.Basic], declared: set = frozenset()
                     ) -> sp.Basic | None:
    try:
        expr = sp.sympify(side, strict=True).xreplace(swaps)
    except (sp.SympifyError, TypeError):
        return None
    plain = {s: sp.Symbol(s.name) for s in expr.atoms(sp.Symbol)}
    plain.update({b: sp.IndexedBase(str(b.label)) for b in expr.atoms(sp.IndexedBase)})
    expr = expr.xreplace(plain)
    return expr if all(_readable(node, declared) for node in sp.preorder_traversal(expr)) \
        else None


def _readable(node: sp.Basic, declared: set) -> bool:
    """Built by the reader, or a function the claim's notation prints (``PE``)."""
    if isinstance(node, ALLOWED + ELEMENTARY) or getattr(node, "func", None) in declared:
        return True
    return isinstance(node, sp.Function) and _ours(node) \
        and not isinstance(node, sp.core.function.AppliedUndef)


def _operator_applied(lhs: sp.Basic) -> bool:
    return isinstance(lhs, sp.Function) and _ours(lhs)


def _ours(node: sp.Basic) -> bool:
    """One of the reader's operators (E, Var, softmax…), defined in tmath."""
    return (type(node).__module__ or "").startswith("tmath.")
