"""Where a formula differs from a claim's relation: the smallest part of it that is not the
claim's.

A formula that contradicts a claim is reported on one line; when it runs over several lines,
the line is the one that holds the part that differs. Both relations are read into SymPy
trees with the same names; walking them together from the top, a node whose arguments all
agree but one leads into that one, and a node where more than one argument differs (or whose
kind differs) is the differing part. Sums and products are matched argument by argument
whatever their order. What is returned is what a reader can find on a line: the names of that
part (in the document's spelling) and the function applied nearest above it (``sin``,
``min``), and the row of a matrix's entry it lies in; nothing when the two relations do not
differ by one part.
"""

from __future__ import annotations

from typing import Mapping

import sympy as sp


def differing_part(mine: tuple[sp.Basic, sp.Basic], theirs: tuple[sp.Basic, sp.Basic],
                   back: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The names of the part of ``mine`` (lhs, rhs) that differs from ``theirs``, renamed
    through ``back`` to the document's names, then the function applied above it (as
    ``"fn:sin"``); empty when the sides differ in more than one part."""
    differing = [(a, b) for a, b in zip(mine, theirs)
                 if isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and a != b]
    if len(differing) != 1:
        return ()
    back = back or {}
    swapped = _swapped_function(*differing[0])
    if swapped is not None:   # min for max, sin for cos: the function is what differs
        return (f"fn:{back.get(type(swapped).__name__, type(swapped).__name__)}",)
    path = _path(*differing[0])
    entry = _matrix_entry(*differing[0])
    part = next((node for node in reversed(path) if _names(node)), None)
    if part is None:
        return entry
    names = sorted(back.get(n.rstrip("_"), n.rstrip("_")) + n[len(n.rstrip("_")):]
                   for n in _names(part))
    above = next((node for node in reversed(path[:path.index(part) + 1])
                  if isinstance(node, (sp.Function, sp.Min, sp.Max))), None)
    function = [f"fn:{back.get(type(above).__name__, type(above).__name__)}"] if above else []
    return tuple(names + function) + entry


def _matrix_entry(a: sp.Basic, b: sp.Basic) -> tuple[str, ...]:
    """``("row:r/R",)`` when the part of ``a`` that differs from ``b`` lies in one entry of a
    matrix with R rows (its row r, from 0: a line of its own in a matrix printed one row per
    line)."""
    while True:
        if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a.shape == b.shape:
            differ = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
            rows = {k // a.cols for k in differ}
            return (f"row:{rows.pop()}/{a.rows}",) if len(rows) == 1 else ()
        pair = _one_differing(a, b)
        if pair is None:
            return ()
        a, b = pair


def _swapped_function(a: sp.Basic, b: sp.Basic) -> sp.Basic | None:
    """The node of ``a`` where it stops agreeing with ``b``, when there the two apply
    different functions (or extrema) to the same arguments; None otherwise."""
    while True:
        pair = _one_differing(a, b)
        if pair is None:
            break
        a, b = pair
    functions = (sp.Function, sp.Min, sp.Max)
    if isinstance(a, functions) and isinstance(b, functions) and a.func != b.func and \
            sorted(map(str, a.args)) == sorted(map(str, b.args)):
        return a
    return None


def _path(a: sp.Basic, b: sp.Basic) -> list[sp.Basic]:
    """The nodes of ``a`` from its top down to where it stops agreeing with ``b``."""
    path = [a]
    while True:
        pair = _one_differing(a, b)
        if pair is None:
            return path
        a, b = pair
        path.append(a)


def _one_differing(a: sp.Basic, b: sp.Basic) -> tuple[sp.Basic, sp.Basic] | None:
    """The one argument of ``a`` that differs from its counterpart in ``b``, if only one
    does."""
    if a.func != b.func or not a.args:
        return None
    if isinstance(a, (sp.Add, sp.Mul)):
        left = [x for x in a.args if x not in b.args]
        right = [y for y in b.args if y not in a.args]
        return (left[0], right[0]) if len(left) == 1 and len(right) == 1 else None
    if len(a.args) != len(b.args):
        return None
    pairs = [(x, y) for x, y in zip(a.args, b.args) if x != y]
    return pairs[0] if len(pairs) == 1 and isinstance(pairs[0][0], sp.Basic) else None


def _names(node: sp.Basic) -> set[str]:
    """Its symbols' names, and its families (an indexed name ``ω_i``, a function of indices
    ``e_{ij}``) as their base and ``_`` (``omega_``, ``e_``): as they are written."""
    return {s.name for s in node.free_symbols if isinstance(s, sp.Symbol)} | \
        {f"{e.base.label}_" for e in node.atoms(sp.Indexed)} | \
        {f"{type(f).__name__}_" for f in node.atoms(sp.core.function.AppliedUndef)}
