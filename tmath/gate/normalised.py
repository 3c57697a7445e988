"""Weights normalised by a sum of other terms than their own.

``a_{ij} = \\exp(s_{ij}) / \\sum_r \\exp(s_{ir})`` sums to 1 over j because the numerator is the
sum's term at r = j (claim ``softmax-boltzmann`` proves it for softmax). A formula whose
right side is a weight over a plain sum of exponentials, ``N_j / \\sum_r S_r``, with one
index j in the numerator that puts the sum's indexed terms in it (``e_{ij}`` for ``e_{ir}``),
is read; when N_j is not S_j (a mask ``m_z(i-j)`` kept above and dropped below, a temperature
on one side only), its weights do not sum to 1 and the formula is reported. A sum times a factor, a sum plus a term
(``1 + \\sum``), a sum without an exponential, or more than one free index are not read.
"""

from __future__ import annotations

from typing import Sequence

import sympy as sp

from tmath.latex.operators import SumOver


def unnormalised(relations: Sequence) -> tuple[tuple[int, str, str], ...]:
    """(index, numerator, the sum's term at the numerator's index) of each relation whose
    exponential weights are normalised by a sum of other terms."""
    found = []
    for index, relation in enumerate(relations):
        rhs = relation.rhs
        if relation.op != "=" or not isinstance(rhs, sp.Mul):
            continue
        sums = [a for a in rhs.args if isinstance(a, sp.Pow) and a.exp == -1
                and isinstance(a.base, (sp.Sum, SumOver))]
        if len(sums) != 1:
            continue
        total = sums[0].base
        numerator = sp.Mul(*[a for a in rhs.args if a is not sums[0]])
        if isinstance(total, sp.Sum):
            if len(total.limits) != 1:
                continue
            term, bound = total.function, total.limits[0][0]
        else:
            term, bound = total.args
        if bound not in term.free_symbols or not term.has(sp.exp):
            continue   # not a sum of exponentials
        # the numerator's own index: the one that puts the sum's terms (e(i, r)) in it
        own = [j for j in numerator.free_symbols - total.free_symbols
               if _applied(term.xreplace({bound: j})) <= _applied(numerator)
               and _applied(term.xreplace({bound: j}))]
        if len(own) != 1:
            continue
        at = term.xreplace({bound: own[0]})
        try:
            same = sp.simplify(numerator - at) == 0
        except (TypeError, ValueError, ArithmeticError, NotImplementedError, RecursionError):
            continue
        if not same:
            found.append((index, str(numerator), str(at)))
    return tuple(found)


def _applied(expr: sp.Basic) -> set:
    """The family members and function values in ``expr`` that hold an index (``e(i, j)``)."""
    return {a for a in expr.atoms(sp.Indexed, sp.core.function.AppliedUndef)
            if a.free_symbols and not a.has(sp.exp)}
