"""The documentation gate: hold a document to the claims that vouch for it.

For each figure a claim records, the gate finds the figure in the claim's section of the
document: the text printed near it (``near``; whitespace and ``$`` ignored), then the first
number printed after it in the same form as the claim's (one number, a ``[list]``, or a
fraction ``a/b``). Numbers that are exponents, subscripts, coefficients (2π) or parts of names
(GPT-2) are skipped, unless the anchor ends right before them. When the anchor text itself
holds the figure as a whole number (near="用 0.1"), that number is taken; such a figure can
only be reported missing, never inaccurate, when the document edits it, so anchors should end
before the figure. The number is read as the *document* prints it and compared with
the value the claim computed, at the precision printed (or the claim's rough tolerance):

* ``accurate`` / ``inaccurate`` (printed vs true, relative error, line), or
* ``missing``: the anchor is not in the section any more, so the claim needs review, or
* ``unverified``: the claim could not compute its true value.

Each display formula of the document is ``covered`` (a claim that verified records it, up to
whitespace and trivial spelling such as ``\\left``/``\\right`` and thin spaces), ``changed``
(a claim recorded a formula that is no longer there, and this one is its near match: both
are shown), or ``uncovered``. A recorded formula with no near match is ``missing``.

Coverage counts the document's display formulas and the claims' figures: covered formulas
and located figures over all of them, per section and overall.

This module reads text only; it never evaluates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from tmath.engine.model import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.anchoring import Index
from tmath.gate.coverage import section_coverage
from tmath.gate.document import MAX_LINE, Document, valid_claim_id
from tmath.gate.figures import figure_result, judge_figure
from tmath.gate.findings import Finding, Report
from tmath.gate.formulas import judge_formulas

if TYPE_CHECKING:
    from tmath.engine.results import ClaimResult


def check(documents: Sequence[Document], infos: Sequence[ClaimInfo],
          results: Mapping[str, "ClaimResult"], min_coverage: float = 0.0,
          known_ids: Iterable[str] = ()) -> Report:
    """Hold ``documents`` to the claims ``infos`` given their verification ``results``.

    ``known_ids`` are all claim ids that exist (to report anchors naming an unknown claim).
    """
    indexes = [Index(d) for d in documents]
    findings: list[Finding] = []
    # (document, top section) -> [covered, total]
    tally: dict[tuple[str, str | None], list[int]] = {}

    def count(document: Document, section: str | None, covered: bool) -> None:
        cell = tally.setdefault((document.path, section), [0, 0])
        cell[0] += covered
        cell[1] += 1

    known = set(known_ids) | {i.id for i in infos}
    findings += _anchor_findings(documents, known)
    for info in infos:
        result = results.get(info.id)
        for k, figure in enumerate(info.figures):
            finding = judge_figure(indexes, info, figure, figure_result(result, k, figure), result)
            findings.append(finding)
            document = _document(documents, finding.document)
            count(document, _top(finding.section or info.top_section), finding.status != "missing")
    formula_findings = judge_formulas(documents, infos, results)
    for finding in formula_findings:
        document = _document(documents, finding.document)
        count(document, _top(finding.section), finding.status == "covered")
    findings += formula_findings
    order = {d.path: k for k, d in enumerate(documents)}
    findings.sort(key=lambda f: (order[f.document], f.line is None, f.line or 0, f.column or 0,
                                 {"anchor": 0, "formula": 1, "figure": 2}[f.kind]))
    sections = section_coverage(documents, infos, tally)
    covered = sum(c for c, _ in tally.values())
    total = sum(t for _, t in tally.values())
    unverified = tuple((i.id, results[i.id].verdict, results[i.id].reason)
                       for i in infos if i.id in results
                       and results[i.id].verdict not in PASSING)
    notes = tuple(f"{d.path}:{n}: the line is longer than the {MAX_LINE} characters the gate "
                  "reads; the rest of it is ignored" for d in documents
                  for n in d.truncated_lines[:5])
    notes += tuple(f"{d.path}:{n}: '$$' is never closed; the text after it is not read as math"
                   for d in documents for n in d.unclosed_math[:5])
    return Report(tuple(d.path for d in documents), findings, sections, covered, total,
                  min_coverage, tuple(i.id for i in infos), unverified, notes=notes)


def _top(section: str | None) -> str | None:
    return section.split(".")[0] if section else None


def _document(documents: Sequence[Document], path: str) -> Document:
    return next(d for d in documents if d.path == path)


def _anchor_findings(documents: Sequence[Document], known: set[str]) -> list[Finding]:
    found = []
    for document in documents:
        for pin in document.pins:
            for claim_id in pin.claims:
                if claim_id in known:
                    continue
                section = document.section_at(pin.start)
                why = "is not a claim id" if not valid_claim_id(claim_id) else "names no claim"
                found.append(Finding("anchor", "unknown", document.path,
                                     section.number if section else None, pin.line, claim_id,
                                     detail=f"anchor '<!-- tmath: {claim_id} -->' {why}; "
                                            "`tmath list` shows the ids"))
    return found
