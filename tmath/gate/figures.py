"""Judging a claim's figures in a document: located and read as printed, then accurate or
inaccurate at the precision printed, missing, or unverified.
"""

from __future__ import annotations

from typing import Any, Sequence

from tmath.engine.figures import compare, show_values
from tmath.engine.model import ClaimInfo, Figure, FigureInfo
from tmath.gate.anchoring import Index, locate, scopes
from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.numbers import form_of, readable


def figure_result(result: Any, k: int, figure: FigureInfo) -> Any:
    if result is None:
        return None
    if k < len(result.figures) and result.figures[k].label == figure.label:
        return result.figures[k]
    return next((f for f in result.figures if f.label == figure.label), None)


def judge_figure(indexes: list[Index], info: ClaimInfo, figure: FigureInfo, computed: Any,
            result: Any) -> Finding:
    found = None
    pinned_first = sorted(indexes, key=lambda i: not any(info.id in p.claims
                                                         for p in i.document.pins))
    for index in pinned_first:
        found = locate(index, scopes(index.document, info), figure.near, figure.printed)
        if found:
            break
    if found is None:
        home = _home(indexes, info)
        where = f"§{info.section}" if home.section(info.top_section) else \
            f"§{info.top_section} (not in the document)"
        anchor = f"text {figure.near!r}" if figure.near else f"a {form_of(figure.printed)} figure"
        return Finding("figure", "missing", home.path, info.section, heading_line(home, info),
                       info.id, label=figure.label, claim_printed=figure.printed,
                       expected=_true(computed),
                       detail=f"{anchor} not found in {where}: the document changed, "
                              f"review claim {info.id}")
    document = found.document
    printed = document.text[found.start:found.end]
    section = document.section_at(found.start)
    line = document.line_of(found.start)
    common = dict(kind="figure", document=document.path,
                  section=section.number if section else None, line=line,
                  column=found.start - document.line_starts[line - 1] + 1,
                  claim=info.id, label=figure.label, printed=printed.strip(),
                  claim_printed=figure.printed, located=found.how)
    true = _true(computed)
    if not true:
        reason = getattr(computed, "detail", "") or (
            f"claim {result.verdict}: {result.reason}" if result is not None
            else "the claim was not run")
        return Finding(status="unverified", detail=reason, **common)
    outcome = compare(Figure(figure.label, readable(printed), lambda: true, figure.near,
                             figure.rough, figure.rel_tol))
    if outcome.status == "error":
        return Finding(status="inaccurate", expected=true, detail=outcome.detail, **common)
    detail = ""
    if outcome.status == "inaccurate":
        detail = f"printed {printed.strip()}, true {_show(true)}"
    return Finding(status=outcome.status, expected=true, relative_error=outcome.relative_error,
                   tolerance=outcome.tolerance, detail=detail, **common)


def _true(computed: Any) -> tuple[float, ...] | None:
    if computed is None or not computed.true_value:
        return None
    return tuple(computed.true_value)


def _show(values: Sequence[float]) -> str:
    return show_values(values)


def _home(indexes: list[Index], info: ClaimInfo) -> Document:
    """The document a claim belongs to: the first with its section (or pinned), else the first."""
    for index in indexes:
        d = index.document
        if any(info.id in p.claims for p in d.pins) or d.section(info.top_section):
            return d
    return indexes[0].document


def heading_line(document: Document, info: ClaimInfo) -> int | None:
    section = document.section(info.section) or document.section(info.top_section)
    return section.line if section else None
