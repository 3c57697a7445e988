"""The variance of a dot product, held to the component variance the same passage states.

Documents explain the √d_k scale with a premise and a conclusion in consecutive sentences:
"assume the components of $q$ and $k$ have mean $0$ and variance $1$. Then their dot product
has mean $0$ and variance $d_k$." Claim ``dot-product-variance-scaled`` proves Var(qᵀk) =
d·σ_q²·σ_k² for components of variances σ_q², σ_k²: the conclusion depends on the premise,
and a passage whose premise and conclusion do not fit is wrong in one of them. Read are the
moments the prose states (:func:`tmath.gate.prose_relations.stated`):

* the variance of an inner product ``q^T k`` (the conclusion), and
* in the same sentence or the two before it, in the same paragraph, the variance of a single
  name (the premise). A sentence that names both vectors ("the components of $q$ and $k$")
  gives both that variance; otherwise each name its own, and a name given none is not judged.

The width d is the upper limit of the inner product's sum where the passage prints one
(``q \\cdot k = \\sum_{i=1}^{d_k} q_i k_i``), else the one name of the conclusion that the
premise does not use, else its only name. When the conclusion is not d·σ_q²·σ_k², both the
premise and the conclusion are reported (either may be the misprint).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding

CLAIM = "dot-product-variance-scaled"
BEFORE = 2
"""How many sentences before the conclusion its premise may be."""


@dataclass(frozen=True)
class Unfit:
    """A premise and a conclusion about a dot product's variance that do not fit."""

    premise_line: int
    premise_start: int
    conclusion_line: int
    conclusion_start: int
    premise: str
    conclusion: str
    expected: str


def unfit_passages(document: Document) -> list[Unfit]:
    """Every conclusion on the variance of ``q^T k`` that its passage's premise contradicts."""
    from tmath.gate.prose_relations import stated

    said = stated(document)
    sentences = list(dict.fromkeys((s.sentence, _paragraph(document, s.start)) for s in said))
    found = []
    for item in said:
        inner = _inner_variance(item.latex)
        if inner is None:
            continue
        k = sentences.index((item.sentence, _paragraph(document, item.start)))
        near = [s for s in sentences[max(0, k - BEFORE):k + 1] if s[1] == sentences[k][1]]
        premises = [p for p in said if (p.sentence, _paragraph(document, p.start)) in near
                    and _name_variance(p.latex) is not None and p.start < item.start]
        unfit = _judge(item, inner, premises)
        if unfit is not None:
            found.append(unfit)
    return found


def _paragraph(document: Document, at: int) -> int:
    text = document.masked or document.text
    return text.rfind("\n\n", 0, at)


def _inner_variance(latex: str):
    """(q, k, value) of ``\\text{Var}(q^T k) = value``; None otherwise."""
    match = re.fullmatch(r"\\text\{Var\}\((\w+)\^T (\w+)\) = (.+)", latex)
    return match.groups() if match else None


def _name_variance(latex: str):
    """(name, value) of ``\\text{Var}(x) = value`` for a single name x; None otherwise."""
    match = re.fullmatch(r"\\text\{Var\}\(([A-Za-z])\) = (.+)", latex)
    return match.groups() if match else None


def _judge(conclusion, inner, premises) -> Unfit | None:
    import sympy as sp

    from tmath.latex import read

    q, k, printed = inner
    variances: dict[str, str] = {}
    last = None
    for premise in premises:
        name, value = _name_variance(premise.latex)
        names = {n for n in (q, k) if re.search(rf"\${re.escape(n)}\$", premise.sentence)}
        for each in (names if {q, k} <= names else {name}):
            variances[each] = value
        last = premise
    if last is None or q not in variances or k not in variances:
        return None
    try:
        value, v_q, v_k = (_one(read(t)) for t in (printed, variances[q], variances[k]))
    except ValueError:
        return None
    if any(e.has(sp.zoo, sp.oo, sp.nan) for e in (value, v_q, v_k)):
        return None   # an infinite or undefined variance is not judged
    width = _width(conclusion.sentence, value, v_q, v_k)
    if width is None:
        return None
    expected = width * v_q * v_k
    if sp.simplify(expected - value) == 0:
        return None
    return Unfit(last.line, last.start, conclusion.line, conclusion.start, last.latex,
                 conclusion.latex, str(expected).replace("**", "^"))


def _one(reading):
    if not reading.parsed or reading.relations or len(reading.expressions) != 1:
        raise ValueError("not one expression")
    return reading.expressions[0]


def _width(sentence: str, value, v_q, v_k):
    """The width d: the sum's upper limit printed in the sentence, else the one name of the
    conclusion the premise does not use, else its only name."""
    from tmath.latex import read

    limit = re.search(r"\\sum_\{?[a-z]\s*=\s*1\}?\^\{?(\\?[A-Za-z](?:_\{?\w+\}?)?)", sentence)
    if limit:
        reading = read(limit.group(1))
        if reading.parsed and len(reading.expressions) == 1:
            return reading.expressions[0]
    own = value.free_symbols - v_q.free_symbols - v_k.free_symbols
    if len(own) == 1:
        return next(iter(own))
    return next(iter(value.free_symbols)) if len(value.free_symbols) == 1 else None


def judged(document: Document, unfit: Unfit) -> list[Finding]:
    """The premise and the conclusion, each on its line (one finding when they share it)."""
    places = [(unfit.premise_line, unfit.premise_start, unfit.premise),
              (unfit.conclusion_line, unfit.conclusion_start, unfit.conclusion)]
    if unfit.premise_line == unfit.conclusion_line:
        places = places[:1]
    found = []
    for line, start, latex in places:
        section = document.section_at(start)
        found.append(Finding(
            kind="formula", status="contradicts", meaning="contradicts", document=document.path,
            section=section.number if section else None, line=line,
            column=document.column_of(start), formula=latex, claim=CLAIM, claims=(CLAIM,),
            compared_with=(CLAIM,), recorded=f"Var(q^T k) = {unfit.expected}",
            detail=f"claim {CLAIM} proves Var(qᵀk) = d·σ_q²·σ_k²: with the component "
                   f"variance this passage states ({unfit.premise}), the dot product's is "
                   f"{unfit.expected}, not as it says ({unfit.conclusion}); either may be "
                   f"the misprint"))
    return found
