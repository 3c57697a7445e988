"""Projections labelled after their inputs, held to their own pattern.

Attention's three arguments are often each an input times its own projection, labelled with
the input's letter: ``\\mathrm{Attention}(QW^Q_i, KW^K_i, VW^V_i)``,
``(\\mathbf{Q}\\mathbf{W}^q_i, \\mathbf{K}\\mathbf{W}^k_i, …)``. Where a function of three or
more arguments pairs every input with a projection whose label is the input's letter (in
either case) except one argument, whose label is another argument's, that argument is a
misprint: its input's own projection is declared by the pattern and unused, another is used
twice (``KW^Q_i``). Inputs that share one name (``XW_Q, XW_K, XW_V``) or labels that follow
no input say nothing, and are not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding


@dataclass(frozen=True)
class OddProjection:
    """The one argument whose projection is labelled after another argument's input."""

    math: Math
    index: int
    relations: int
    function: str
    argument: str
    label: str
    expected: str


def odd_projections(document: Document) -> list[OddProjection]:
    """Every function application that breaks the labelling its other arguments follow."""
    from tmath.gate.formula_relations import relations_in

    return [OddProjection(math, index, count, *odd)
            for math, index, count, relation in relations_in(
                document, lambda t: t.count(",") >= 2 and "W" in t.upper())
            for side in (relation.lhs, relation.rhs) for odd in _odd_in(side)]


def _odd_in(side) -> list[tuple[str, str, str, str]]:
    import sympy as sp

    if not isinstance(side, sp.Basic):
        return []
    found = []
    for node in sp.preorder_traversal(side):
        if not isinstance(node, sp.Function) or len(node.args) < 3:
            continue
        pairs = [_input_and_label(a) for a in node.args]
        if any(p is None for p in pairs) or len({p[0] for p in pairs}) != len(pairs):
            continue
        following = [p for p in pairs if p[1].lower() == p[0].lower()]
        odd = [(a, p) for a, p in zip(node.args, pairs) if p[1].lower() != p[0].lower()]
        if len(odd) == 1 and len(following) == len(pairs) - 1 and \
                odd[0][1][1].lower() in {p[1].lower() for p in following}:
            argument, (name, label) = odd[0]
            found.append((str(node.func), _spelt(argument), label, name))
    return found


def _input_and_label(argument) -> tuple[str, str] | None:
    """(the input's letter, the projection's label) of ``Q·W^Q_i`` or ``Q·W_Q``."""
    import sympy as sp

    if not isinstance(argument, sp.Mul):
        return None
    _, factors = argument.args_cnc()
    if len(factors) != 2 or not isinstance(factors[0], sp.Symbol) or \
            len(factors[0].name) != 1:
        return None
    projection = factors[1]
    if isinstance(projection, sp.Pow) and isinstance(projection.exp, sp.Symbol) and \
            len(projection.exp.name) == 1:
        return factors[0].name, projection.exp.name
    if isinstance(projection, sp.Symbol):
        parts = projection.name.split("_")
        if len(parts) == 2 and len(parts[1]) == 1 and parts[1].isalpha():
            return factors[0].name, parts[1]
    return None


def _spelt(argument) -> str:
    """``K·W^Q_i`` as printed: the input, then the projection with its label and index."""
    import sympy as sp

    _, (given, projection) = argument.args_cnc()
    if isinstance(projection, sp.Pow):
        base = projection.base
        index = f"_{','.join(map(str, base.indices))}" if isinstance(base, sp.Indexed) else ""
        name = base.base if isinstance(base, sp.Indexed) else base
        return f"{given}·{name}^{projection.exp}{index}"
    return f"{given}·{projection}"


def judged(document: Document, odd: OddProjection) -> Finding:
    from tmath.gate.recognition import line_of

    section = document.section_at(odd.math.start)
    line = line_of(document, odd.math, odd.index, odd.relations)
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=line,
        column=document.column_of(odd.math.start), formula=odd.math.latex,
        compared_with=("pattern",),
        detail=f"in {odd.function}(…) every other input is multiplied by the projection "
               f"labelled with its own letter; {odd.argument} uses the one labelled "
               f"{odd.label}, not {odd.expected}")
