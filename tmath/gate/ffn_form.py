"""The position-wise feed-forward network's formula, held to what the claims record of it.

The FFN is two linear maps with an activation between them, ``FFN(x) = max(0, xW_1 + b_1)W_2 +
b_2`` (rows) or ``W_2 φ(W_1 x + b_1) + b_2`` (columns). Claim ``ffn-parameter-count``
counts its parameters as two weight matrices and two biases of their own (d·d_ff + d_ff and
d_ff·d + d); claim ``ffn-activation-relu-gelu`` records the paper's activation, ReLU, which is
max(0, z) (the reader reads ``max(0, E)`` of a matrix E as ReLU(E)). A relation whose left side is ``FFN(x)`` (any spelling of the name FFN) is read
when its right side is a product of an activation of ``x`` times weights plus a bias, times
other weights, plus a bias. Then

* the activation written ``min(0, z)``, or ``max(c, z)`` with c ≠ 0, is not ReLU: it
  contradicts ``ffn-activation-relu-gelu``;
* the same weight matrix (or bias) printed in both maps is one parameter, not two: it
  contradicts ``ffn-parameter-count`` (the two are d_model×d_ff and d_ff×d_model).

A formula that does not have this form is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

ACTIVATION = "ffn-activation-relu-gelu"
PARAMETERS = "ffn-parameter-count"


@dataclass(frozen=True)
class WrongFfn:
    """An FFN formula whose activation or parameters disagree with a claim."""

    math: Math
    index: int
    relations: int
    claim: str
    detail: str


def wrong_ffns(document: Document) -> list[WrongFfn]:
    """Every FFN formula (see the module's doc) that disagrees with one of the two claims."""
    from tmath.gate.formula_relations import relations_in

    return [WrongFfn(math, index, count, claim, detail)
            for math, index, count, relation in relations_in(document,
                                                             lambda t: "FFN" in t.upper())
            for claim, detail in _disagreements(relation)]


def _disagreements(relation) -> list[tuple[str, str]]:
    import sympy as sp
    from sympy.core.function import AppliedUndef

    from tmath.latex.operators import Maximum, Minimum

    lhs = relation.lhs
    if relation.op != "=" or not isinstance(lhs, AppliedUndef) or len(lhs.args) != 1 or \
            str(lhs.func).replace("_", "").upper() != "FFN" or not isinstance(lhs.args[0],
                                                                             sp.Symbol):
        return []
    x = lhs.args[0]
    parts = _form(relation.rhs, x, (Maximum, Minimum, sp.Max, sp.Min, AppliedUndef))
    if parts is None:
        return []
    activation, inner_weights, inner_bias, outer_weights, outer_bias = parts
    found = []
    if isinstance(activation, (Minimum, sp.Min)) or (
            isinstance(activation, (Maximum, sp.Max)) and not any(a == 0 for a in activation.args)):
        shown = "min" if isinstance(activation, (Minimum, sp.Min)) else "max"
        constant = next((a for a in activation.args if not a.has(x)), None)
        found.append((ACTIVATION, f"claim {ACTIVATION} records ReLU, max(0, z), between the "
                                  f"two maps; this formula applies {shown}({constant}, z)"))
    shared = (inner_weights & outer_weights) | (inner_bias & outer_bias)
    if shared:
        names = ", ".join(sorted(shared))
        found.append((PARAMETERS, f"claim {PARAMETERS} counts two weight matrices and two "
                                  f"biases of their own (d_model×d_ff with d_ff, then "
                                  f"d_ff×d_model with d_model); this formula uses {names} in "
                                  f"both maps"))
    return found


def _form(rhs, x, activations) -> tuple | None:
    """(activation, inner weights, inner bias, outer weights, outer bias) of
    ``act(x·A + b)·C + e`` (either order of the products); None for another form."""
    import sympy as sp

    terms = sp.Add.make_args(rhs)
    outer = [t for t in terms if t.has(x)]
    if len(outer) != 1 or not isinstance(outer[0], sp.Mul):
        return None
    applied = [f for f in outer[0].args if isinstance(f, activations)]
    if len(applied) != 1:
        return None
    activation = applied[0]
    arguments = [a for a in activation.args if a.has(x)]
    if len(arguments) != 1 or len(activation.args) > 2:
        return None
    inner_terms = sp.Add.make_args(arguments[0])
    carrying = [t for t in inner_terms if t.has(x)]
    if len(carrying) != 1 or carrying[0] == x:
        return None
    inner_weights = _names(carrying[0], x)
    outer_weights = _names(sp.Mul(*[f for f in outer[0].args if f is not activation]), x)
    if not inner_weights or not outer_weights:
        return None
    inner_bias = set().union(*[_names(t, x) for t in inner_terms if not t.has(x)])
    outer_bias = set().union(*[_names(t, x) for t in terms if not t.has(x)])
    return activation, inner_weights, inner_bias, outer_weights, outer_bias


def _names(expr, x) -> set[str]:
    """The names of the weights or biases in ``expr`` (a family member by its full name)."""
    import sympy as sp

    names = {str(a) for a in expr.atoms(sp.Indexed)}
    names |= {a.name for a in expr.free_symbols if isinstance(a, sp.Symbol) and a != x
              and not any(a in i.free_symbols for i in expr.atoms(sp.Indexed))}
    return names


def judged(document: Document, wrong: WrongFfn) -> Finding:
    from tmath.gate.recognition import line_of

    section = document.section_at(wrong.math.start)
    line = line_of(document, wrong.math, wrong.index, wrong.relations)
    return Finding(kind="formula", status="contradicts", meaning="contradicts",
                   document=document.path, section=section.number if section else None,
                   line=line, column=document.column_of(wrong.math.start),
                   formula=wrong.math.latex, claim=wrong.claim, claims=(wrong.claim,),
                   compared_with=(wrong.claim,), detail=wrong.detail)
