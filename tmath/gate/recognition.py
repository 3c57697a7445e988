"""The gate on a document no claim set is bound to: recognise what the built-in claims prove.

Every formula the document prints (display and inline) is read and compared with the
relations the claims were shown to mean when they verified (:func:`library`), under the
document's own names (:func:`tmath.meaning.recognise.infer_mapping`, reported):

* ``recognised`` (good): it means what a claim proves or defines;
* ``contradicts`` (an error): the near form of a claim's formula with another meaning,
  shown with the claim's form in the document's names;
* a relation between numbers only (``\\sqrt{64} = 8``, ``512/8 = 64``) is checked as
  arithmetic, to the precision it is printed with: ``inaccurate`` when it is false;
* anything else is not a finding: a document may say much the claims do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding
from tmath.gate.meaning import claim_relations

NOT_KNOWN = frozenset({"arithmetic"})
"""Bound relations that are arithmetic identities: true of anything, they recognise nothing."""
_DECIMAL = re.compile(r"(?<![\w.])\d+\.(\d+)")


@dataclass(frozen=True)
class Recognition:
    """What the gate recognised in one document."""

    findings: tuple[Finding, ...]
    mapping: tuple[tuple[str, str], ...]
    claims: tuple[str, ...]
    formulas: int


def library(infos: Sequence[ClaimInfo], results: Mapping[str, Any]) -> list:
    """The relations the claims that verified were shown to mean, with their names."""
    from tmath.meaning.recognise import Known, relations_of

    good = [i for i in infos if getattr(results.get(i.id), "verdict", None) in PASSING]
    known = []
    for relation in claim_relations(good, results):
        if relation.compared_with in NOT_KNOWN:
            continue
        read = relations_of(relation.formula or relation.recorded)
        if relation.index >= len(read):
            continue
        mine = read[relation.index]
        known.append(Known(relation.claim, relation.recorded, relation.compared_with,
                           relation.form, mine.names, mine.functions, mine.lhs, mine.rhs))
    return known


def formulas_of(document: Document) -> list[Math]:
    """The display and inline formulas, in the order they appear."""
    return sorted([*document.formulas, *document.inline], key=lambda m: m.start)


def recognise(document: Document, known: Sequence) -> Recognition:
    """Findings for every formula of ``document`` that means, or nearly means, a claim's."""
    from tmath.meaning.recognise import infer_mapping, judge, relations_of

    formulas = formulas_of(document)
    reads = [(math, relations_of(math.latex)) for math in formulas]
    mapping = infer_mapping([r for _, rs in reads for r in rs], known)
    findings, claims = [], []
    for math, relations in reads:
        verdicts = [v for v in (judge(r, known, mapping) for r in relations) if v is not None]
        wrong = next((v for v in verdicts if v.status == "contradicts"), None)
        section = document.section_at(math.start)
        common = dict(kind="formula", document=document.path,
                      section=section.number if section else None, line=math.line,
                      column=document.column_of(math.start), formula=math.latex)
        if wrong is not None:
            findings.append(Finding(
                status="contradicts", claim=wrong.known.claim, claims=(wrong.known.claim,),
                recorded=wrong.known.recorded, meaning="contradicts",
                compared_with=(wrong.known.source,),
                detail=(f"it says something else of what claim {wrong.known.claim} proves: "
                        f"{in_names(wrong.known.recorded, mapping)} (read as {wrong.shown}; "
                        f"{wrong.detail})"), **common))
            claims.append(wrong.known.claim)
            continue
        if verdicts:
            ids = tuple(dict.fromkeys(v.known.claim for v in verdicts))
            findings.append(Finding(status="recognised", claim=ids[0], claims=ids,
                                    meaning="equivalent",
                                    compared_with=tuple(v.known.source for v in verdicts),
                                    **common))
            claims += ids
            continue
        findings += _arithmetic(document, math, relations, common)
    return Recognition(tuple(findings), tuple(sorted(mapping.items())),
                       tuple(dict.fromkeys(claims)), len(formulas))


def in_names(recorded: str, mapping: Mapping[str, str]) -> str:
    """A claim's formula in the document's names (``d_k`` → ``d`` where the document
    writes d)."""
    text = recorded
    for mine, theirs in sorted(mapping.items(), key=lambda kv: -len(kv[1])):
        for spelling in _spellings(theirs):
            text = re.sub(rf"(?<![A-Za-z\\]){re.escape(spelling)}(?![A-Za-z_])", mine, text)
    return text


def _spellings(name: str) -> list[str]:
    """How a name is written in LaTeX: ``d_k``, ``d_{k}``, ``\\text{Attention}``…"""
    if "_" in name:
        base, sub = name.split("_", 1)
        return [f"{base}_{{{sub}}}", f"{base}_{{\\text{{{sub}}}}}", name]
    return [f"\\text{{{name}}}", f"\\mathrm{{{name}}}", f"\\operatorname{{{name}}}", name]


def _arithmetic(document: Document, math: Math, relations: Sequence, common: dict
                ) -> list[Finding]:
    """A relation between numbers only (``=`` or ``≈``), checked to the precision it is
    printed with: half a unit of the last decimal printed, or of the last non-zero digit
    of a whole number after ``≈``; exactly otherwise."""
    import sympy as sp

    found = []
    for relation in relations:
        if relation.op not in ("=", "approx") or relation.names or relation.functions:
            continue
        try:
            left, right = complex(sp.N(relation.lhs, 30)), complex(sp.N(relation.rhs, 30))
        except (TypeError, ValueError):
            continue
        tolerance = _printed_precision(math.latex, relation.rhs, relation.op)
        if abs(left - right) > tolerance + 1e-12 * max(1.0, abs(left)):
            found.append(Finding(
                status="inaccurate", label="arithmetic", printed=_number(right),
                expected=(left.real,), tolerance=f"±{tolerance:g}" if tolerance else "exact",
                detail=f"{math.latex.strip()} is false: the left side is "
                       f"{_number(left)}", **{**common, "kind": "figure"}))
    return found


def _printed_precision(latex: str, rhs, op: str) -> float:
    places = [len(d) for d in _DECIMAL.findall(latex)]
    if places:
        return 0.5 * 10 ** -min(places)
    if op == "approx" and getattr(rhs, "is_Integer", False) and rhs != 0:
        digits = str(abs(int(rhs)))
        return 0.5 * 10 ** (len(digits) - len(digits.rstrip("0")))
    return 0.0


def _number(z: complex) -> str:
    return f"{z.real:.6g}" if abs(z.imag) < 1e-12 else f"{z:.6g}"
