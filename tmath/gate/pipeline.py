"""The documentation gate: hold documents to the claims that vouch for them.

Each document is its own unit: the stages run on one document at a time, as if it were the
only one given, and the reports are combined only at the end. The stages, each a module with
one job:

1. :mod:`~tmath.gate.document` has read each document: lines, sections, math, pins;
2. :mod:`~tmath.gate.binding` has decided which claims each document is held to (``held``);
3. :mod:`~tmath.gate.anchoring` locates every figure those claims record in the document, all
   at once, one number per figure (:func:`~tmath.gate.anchoring.locate_all`);
4. :mod:`~tmath.gate.figures` and :mod:`~tmath.gate.formulas` judge figures and formulas,
   :mod:`~tmath.gate.statements` locates the prose claims' passages and
   :mod:`~tmath.gate.citations` checks the citations against the claims' bibliography;
5. this module adds what concerns claims and documents as a whole (a pinned or held claim
   that did not verify, an anchor naming no claim, a document with too many formulas),
   :mod:`~tmath.gate.coverage` counts, and :func:`~tmath.gate.findings.combine` joins the
   documents' reports; the :class:`~tmath.gate.findings.Report` decides (every document
   must pass on its own).

Fail closed: every finding that is not plainly good (accurate, covered; uncovered is a
warning) fails the gate. This module reads text only; it never evaluates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.anchoring import build_quotes, locate_all
from tmath.gate.coverage import section_coverage
from tmath.gate.document import MAX_FORMULAS, MAX_LINE, Document, valid_claim_id
from tmath.gate.figures import figure_result, judge_figure, scopes, true_value
from tmath.gate.citations import judge_citations
from tmath.gate.references import MAX_CITATIONS
from tmath.gate.findings import GOOD, Finding, Report, combine
from tmath.gate.formulas import heading_line, judge_formulas
from tmath.gate.statements import judge_statements

if TYPE_CHECKING:
    from tmath.engine.results import ClaimResult


def check(documents: Sequence[Document], infos: Sequence[ClaimInfo],
          results: Mapping[str, "ClaimResult"], min_coverage: float = 0.0,
          known_ids: Iterable[str] = (), held: Mapping[str, set[str]] | None = None,
          unbound: Sequence[tuple[str, str]] = (),
          reproduce: Mapping[str, str] | None = None,
          recognising: Iterable[str] = (), library: Sequence = (),
          every: Sequence[ClaimInfo] = ()) -> Report:
    """Hold ``documents`` to the claims ``infos`` given their verification ``results``.

    ``held`` maps a claim id to the paths of the documents it is held to (default: all of
    them); ``unbound`` lists (path, why) of documents no claim set vouches for; ``known_ids``
    are all claim ids that exist (to report anchors naming an unknown claim); ``reproduce``
    gives the command that replays a claim; ``recognising`` are the paths of documents no
    claim set is bound to, checked instead against the relations ``library`` the built-in
    claims mean (:mod:`~tmath.gate.recognition`), and for the figures of ``every`` claim
    recognised there (:mod:`~tmath.gate.recognised_figures`).

    Each document is its own unit: it is checked alone, as if it were the only one given, and
    the reports are combined afterwards (:func:`~tmath.gate.findings.combine`), so one
    document never hides, lends or takes another's figures and findings.
    """
    everywhere = {d.path for d in documents}
    held = dict(held) if held is not None else {i.id: everywhere for i in infos}
    known = set(known_ids) | {i.id for i in infos}
    units = []
    recognising = set(recognising)
    for document in documents:
        if document.path in recognising:
            units.append(_recognise_one(document, library, min_coverage, every, results))
            continue
        mine = {c: {document.path} for c, paths in held.items() if document.path in paths}
        units.append(_check_one(document, [i for i in infos if i.id in mine], results,
                                min_coverage, known, mine,
                                [u for u in unbound if u[0] == document.path], reproduce))
    return combine(units, min_coverage)


def _check_one(document: Document, infos: Sequence[ClaimInfo],
               results: Mapping[str, "ClaimResult"], min_coverage: float, known: set[str],
               held: Mapping[str, set[str]], unbound: Sequence[tuple[str, str]],
               reproduce: Mapping[str, str] | None) -> Report:
    """The report of one document, held to the claims ``infos``."""
    documents = [document]
    by_path = {d.path: d for d in documents}
    findings: list[Finding] = []
    findings += _anchor_findings(documents, known)
    findings += _document_findings(documents, unbound)

    figures = []
    for info in infos:
        own = [by_path[p] for p in sorted(held.get(info.id, ())) if p in by_path]
        result = results.get(info.id)
        for k, figure in enumerate(info.figures):
            truth = true_value(figure_result(result, k, figure))
            figures.append(((info.id, k), figure, scopes(own, info), truth))
    anchors = locate_all(build_quotes(figures))
    for info in infos:
        own = [by_path[p] for p in sorted(held.get(info.id, ())) if p in by_path]
        if not own:
            continue
        result = results.get(info.id)
        for k, figure in enumerate(info.figures):
            findings.append(judge_figure(anchors[(info.id, k)], own, info, figure,
                                         figure_result(result, k, figure), result))
    unheld = {path for path, _ in unbound}
    judged = [d for d in documents if d.path not in unheld]  # an unbound document: one finding
    held_infos = [i for i in infos if held.get(i.id)]
    citations = None
    if judged:
        findings += judge_formulas(judged, held_infos, results, held)
        statements, anchored = judge_statements(judged, held_infos, results, held)
        findings += statements
        cited, citations = judge_citations(judged, held_infos, anchored)
        findings += cited
    findings += _claim_findings(documents, infos, results, held, findings)

    tally: dict[tuple[str, str | None], dict[str, list[int]]] = {}
    for finding in findings:
        if finding.kind in ("figure", "formula", "statement"):
            cells = tally.setdefault((finding.document, _top(finding.section)), {})
            cell = cells.setdefault(finding.kind, [0, 0])
            good = finding.status in GOOD or (
                finding.kind == "figure" and finding.status in ("inaccurate", "unreadable"))
            cell[0] += good
            cell[1] += 1
    order = {d.path: k for k, d in enumerate(documents)}
    kinds = {"document": 0, "anchor": 1, "claim": 2, "citation": 3, "statement": 4,
             "formula": 5, "figure": 6}
    findings.sort(key=lambda f: (order.get(f.document, 0), f.line is None, f.line or 0,
                                 f.column or 0, kinds[f.kind]))
    sections = section_coverage(judged, held_infos, tally, held)
    covered = sum(c for cells in tally.values() for c, _ in cells.values())
    total = sum(t for cells in tally.values() for _, t in cells.values())
    reproduce = reproduce or {}
    unverified = tuple((i.id, results[i.id].verdict, results[i.id].reason,
                        reproduce.get(i.id, results[i.id].reproduce))
                       for i in held_infos if i.id in results
                       and results[i.id].verdict not in PASSING)
    notes = tuple(f"{d.path}:{n}: the line is longer than the {MAX_LINE} characters the gate "
                  "reads; the rest of it is ignored" for d in documents
                  for n in d.truncated_lines[:5])
    notes += tuple(f"{d.path}:{n}: '$$' is never closed; the text after it is not read as math"
                   for d in documents for n in d.unclosed_math[:5])
    if citations and citations.pop("cut", 0):
        notes += (f"only the first {MAX_CITATIONS} citations of a document were checked; "
                  "check a document with more in parts",)
    if citations and citations.get("unlisted"):
        notes += (f"{citations.pop('unlisted')} more citation findings are not listed",)
    return Report(tuple(d.path for d in documents), findings, sections, covered, total,
                  min_coverage, tuple(i.id for i in held_infos), unverified, notes=notes,
                  citations=citations)


def _recognise_one(document: Document, known: Sequence, min_coverage: float,
                   every: Sequence[ClaimInfo] = (),
                   results: Mapping[str, "ClaimResult"] | None = None) -> Report:
    """The report of a document no claim set is bound to: what it says that the claims mean
    (:func:`~tmath.gate.recognition.recognise`) and the figures those claims compute where it
    prints them (:func:`~tmath.gate.recognised_figures.figures_in`). Coverage does not apply
    (0 of 0)."""
    from tmath.gate.findings import Recognised
    from tmath.gate.recognised_figures import figures_in, ranges_in
    from tmath.gate.recognition import recognise
    from tmath.gate import (binary, block_diagonals, complexity, ffn_form, frequencies,
                            head_widths, inverses, orderings, patterns, premised,
                            products_in_words, projections, said_in_words)
    from tmath.gate.settings import settings_in, table_settings

    verified = {i for i, r in (results or {}).items() if getattr(r, "verdict", None) in PASSING}
    found = recognise(document, known, verified)
    in_play: dict[str, list[int]] = {}
    for claim, at in found.places:
        in_play.setdefault(claim, []).append(at)
    figures = figures_in(document, in_play, every, results or {}, dict(found.mapping))
    figures += ranges_in(document, in_play, every, results or {})
    figures += settings_in(document) + table_settings(document)
    if orderings.CLAIM in in_play:
        figures += [f for said in orderings.comparisons_said(document)
                    for f in [orderings.judged(document, said)] if f is not None]
        figures += [orderings.trend_judged(document, said)
                    for said in orderings.trends_said(document)]
        if orderings.RANGE_CLAIM in verified:
            figures += [orderings.progression_judged(document, said)
                        for said in orderings.progressions_said(document)]
    figures += [binary.judged(document, pair) for pair in binary.pairs_in(document)]
    figures += [binary.period_judged(document, said) for said in binary.periods_in(document)]
    figures += [binary.bit_order_judged(document, said) for said in binary.bit_orders_in(document)]
    if head_widths.CLAIM in verified:
        figures += head_widths.widths_judged(document)
    figures += [said_in_words.judged(document, said)
                for said in said_in_words.said_in(document, verified)]
    figures += [products_in_words.judged(document, wrong)
                for wrong in products_in_words.products_said(document)
                + products_in_words.costs_told(document)]
    figures += [patterns.judged(document, b) for b in patterns.broken_blocks(document)]
    figures += [block_diagonals.judged(document, u)
                for u in block_diagonals.uneven_products(document)]
    figures += [projections.judged(document, odd)
                for odd in projections.odd_projections(document)]
    figures += [f for failed in inverses.failed_inverses(document)
                for f in inverses.judged(document, failed)]
    figures += [f for said in complexity.layer_costs_said(document)
                + complexity.layer_costs_in_tables(document) for f in [complexity.layer_judged(document, said)] if f is not None]
    figures += [f for said in complexity.orders_said(document)
                for f in [complexity.order_judged(document, said)] if f is not None]
    figures += [f for said in complexity.reductions_said(document)
                for f in [complexity.reduction_judged(document, said)] if f is not None]
    figures += [f for said in complexity.comparisons_said(document)
                for f in [complexity.comparison_judged(document, said)] if f is not None]
    figures += [f for said in complexity.path_changes_said(document)
                for f in [complexity.path_change_judged(document, said)] if f is not None]
    figures += [f for said in complexity.crossover_said(document)
                for f in [complexity.crossover_judged(document, said)] if f is not None]
    figures += [ffn_form.judged(document, wrong) for wrong in ffn_form.wrong_ffns(document)
                if wrong.claim in verified]
    if premised.CLAIM in verified:
        figures += [f for unfit in premised.unfit_passages(document)
                    for f in premised.judged(document, unfit)]
    if frequencies.CLAIM in verified:
        said = {f.line for f in found.findings if f.status == "contradicts"}
        figures += [f for f in map(lambda w: frequencies.judged(document, w),
                                   frequencies.wrong_frequencies(document))
                    if f.line not in said]   # a formula the claim's own form already contradicts
    findings = sorted([*found.findings, *figures], key=lambda f: (f.line or 0, f.column or 0))
    wrong = sum(1 for f in findings if f.status == "contradicts")
    good = sum(1 for f in findings if f.status == "recognised")
    notes = ()
    if not findings:
        notes = (f"{document.path}: nothing in it was recognised as what a built-in claim "
                 f"proves ({found.formulas} formulas read); pass the claims written for it "
                 "with --claims DIR to check it against them",)
    summary = Recognised(document.path, found.mapping, found.claims, found.formulas, good, wrong)
    return Report((document.path,), findings, [], 0, 0, min_coverage, found.claims,
                  notes=notes, recognition=(summary,))


def _top(section: str | None) -> str | None:
    return section.split(".")[0] if section else None


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


def _document_findings(documents: Sequence[Document], unbound: Sequence[tuple[str, str]]
                       ) -> list[Finding]:
    found = [Finding("document", "unbound", path, None, 1, detail=why) for path, why in unbound]
    for d in documents:
        if d.skipped_formulas:
            found.append(Finding(
                "document", "too-large", d.path, None, d.formulas[-1].line, detail=(
                    f"{d.skipped_formulas} display formulas after the first {MAX_FORMULAS} were "
                    "not checked; check the document in parts")))
    return found


def _claim_findings(documents: Sequence[Document], infos: Sequence[ClaimInfo],
                    results: Mapping[str, "ClaimResult"], held: Mapping[str, set[str]],
                    so_far: list[Finding]) -> list[Finding]:
    """A claim held to a document that did not verify, and shows in no finding of its own
    (a pinned claim without figures or formulas, say), still fails the gate."""
    shown = {c for f in so_far if f.status == "unverified" for c in (f.claims or (f.claim,))}
    by_path = {d.path: d for d in documents}
    found = []
    for info in infos:
        paths = held.get(info.id)
        result = results.get(info.id)
        if not paths or info.id in shown or getattr(result, "verdict", None) in PASSING:
            continue
        document = by_path[sorted(paths)[0]]
        pin = next((p for p in document.pins if info.id in p.claims), None)
        line = pin.line if pin else heading_line(document, info)
        reason = f"{result.verdict}: {result.reason}" if result is not None else "not run"
        found.append(Finding("claim", "unverified", document.path, info.section, line, info.id,
                             detail=f"claim {info.id} did not verify ({reason})"))
    return found
