"""Judging a claim's figures in a document, once anchoring has located them.

A located figure is read as the document prints it and compared with the value the claim
computed, at the precision printed (or the claim's rough tolerance): ``accurate`` or
``inaccurate``. It is ``unreadable`` when the number there cannot be read (the claim still
verifies), ``unverified`` when the claim did not verify or could not compute the value, and
``missing`` when anchoring found no number for it: then it is reported on the line of the
best candidate, with what was expected and what is printed there.
"""

from __future__ import annotations

from typing import Any, Sequence

from tmath.engine.figures import FigureSyntaxError, judge, parse_printed, show_values
from tmath.engine.info import ClaimInfo, FigureInfo
from tmath.engine.model import Figure
from tmath.engine.results import PASSING
from tmath.gate.anchoring import PIN_BONUS, SUBSECTION_BONUS, Anchor, Scope
from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.formulas import heading_line
from tmath.gate.numbers import form_of, readable


def figure_result(result: Any, k: int, figure: FigureInfo) -> Any:
    """The claim's computed figure ``k`` (None when the claim was not run)."""
    if result is None:
        return None
    if k < len(result.figures) and result.figures[k].label == figure.label:
        return result.figures[k]
    return next((f for f in result.figures if f.label == figure.label), None)


def true_value(computed: Any) -> tuple[float, ...] | None:
    if computed is None or not computed.true_value:
        return None
    return tuple(computed.true_value)


def scopes(documents: Sequence[Document], info: ClaimInfo) -> list[Scope]:
    """Where a claim's figures may be: its pinned paragraphs, its sub-section, its section."""
    found = []
    for document in documents:
        found += [Scope(document, p.start, p.end, f"the paragraph pinned at line {p.line}",
                        PIN_BONUS, 0) for p in document.pins if info.id in p.claims]
        if info.section != info.top_section and document.section(info.section):
            sub = document.section(info.section)
            found.append(Scope(document, sub.start, sub.end, f"§{info.section}",
                               SUBSECTION_BONUS, 1))
        top = document.section(info.top_section)
        if top is not None:
            found.append(Scope(document, top.start, top.end, f"§{info.top_section}", 0.0, 2))
    return found


def judge_figure(anchor: Anchor, documents: Sequence[Document], info: ClaimInfo,
                 figure: FigureInfo, computed: Any, result: Any) -> Finding:
    true = true_value(computed)
    verified = getattr(result, "verdict", None) in PASSING
    located = anchor.located
    if located is None:
        return _missing(anchor, documents, info, figure, true, result, verified)
    document, token = located.document, located.token
    printed = document.text[token.start:token.end]
    section = document.section_at(token.start)
    line = document.line_of(token.start)
    common = dict(kind="figure", document=document.path,
                  section=section.number if section else None, line=line,
                  column=document.column_of(token.start), claim=info.id, label=figure.label,
                  printed=printed.strip(), claim_printed=figure.printed, located=located.how,
                  span=(token.start, token.end))
    if not verified:
        return Finding(status="unverified", expected=true, detail=_not_verified(result), **common)
    if not true:
        reason = getattr(computed, "detail", "") or "the claim computed no value for it"
        return Finding(status="unverified", detail=reason, **common)
    try:
        values = parse_printed(readable(printed))
    except FigureSyntaxError as exc:
        return Finding(status="unreadable", expected=true, detail=str(exc), **common)
    outcome = judge(Figure(figure.label, printed, lambda: true, figure.near, figure.rough,
                           figure.rel_tol), values, true)
    detail = ""
    if outcome.status == "inaccurate":
        detail = outcome.detail or f"printed {printed.strip()}, true {show_values(true, printed)}"
    return Finding(status=outcome.status, expected=true, relative_error=outcome.relative_error,
                   tolerance=outcome.tolerance, detail=detail, **common)


def _not_verified(result: Any) -> str:
    if result is None:
        return "the claim was not run"
    return f"claim {result.verdict}: {result.reason}"


def _missing(anchor: Anchor, documents: Sequence[Document], info: ClaimInfo,
             figure: FigureInfo, true: tuple[float, ...] | None, result: Any,
             verified: bool) -> Finding:
    home = _home(documents, info)
    where = f"§{info.section}" if home.section(info.top_section) else \
        f"§{info.top_section} (not in the document)"
    expected = f"{figure.printed}" + (f" (true {show_values(true)})" if true else "")
    anchor_text = f"after {figure.near!r}" if figure.near else f"a {form_of(figure.printed)} figure"
    best = anchor.best
    status = "missing" if verified else "unverified"
    suffix = "" if verified else f"; {_not_verified(result)}"
    if best is None:
        return Finding("figure", status, home.path, info.section, heading_line(home, info),
                       info.id, label=figure.label, claim_printed=figure.printed, expected=true,
                       detail=f"expected {expected} {anchor_text}, but {where} prints no number "
                              f"of that form: the document changed, review claim {info.id}"
                              + suffix)
    document, token = best.document, best.token
    section = document.section_at(token.start)
    found = best.text.strip()
    return Finding("figure", status, document.path, section.number if section else None,
                   document.line_of(token.start), info.id, column=document.column_of(token.start),
                   label=figure.label, claim_printed=figure.printed, expected=true, found=found,
                   detail=f"expected {expected} {anchor_text} in {where}; the closest number is "
                          f"{found!r} here (context {best.context:.0%}), too far from the "
                          f"anchor to be taken for it: review claim {info.id} or the document"
                          + suffix)


def _home(documents: Sequence[Document], info: ClaimInfo) -> Document:
    """The document a claim belongs to: the first with its section (or pinned), else the first."""
    for d in documents:
        if any(info.id in p.claims for p in d.pins) or d.section(info.top_section):
            return d
    return documents[0]
