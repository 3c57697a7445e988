"""The gate's report model: findings (one per figure, formula or anchor), coverage per
section, and the report that decides whether a document passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from tmath.gate.readers.regions import cell_at


Kind = Literal["figure", "formula", "statement", "citation", "anchor", "claim", "document"]
FAILING = {"inaccurate", "missing", "unverified", "unreadable", "changed", "contradicts",
           "unknown", "unbound",
           "too-large", "authors", "year", "title", "misattributed", "arxiv"}
"""Statuses that fail the gate. ``unverified``: a claim that vouches for the figure, formula,
statement or pinned text did not verify; ``unreadable``: the number printed where the figure
is cannot be read; ``unbound``: no claim set vouches for the document; ``authors``, ``year``,
``title``, ``misattributed``: a citation that does not match the work the claims record;
``arxiv``: a malformed arXiv id, or one that is not the id of the work its entry names;
``contradicts``: a formula that changes what a claim's formula means (the same quantity, said
to be something else)."""
WARNING = {"uncovered", "shortened"}
"""Statuses reported as warnings: a formula no claim vouches for, a shortened title."""
GOOD = {"accurate", "covered", "anchored", "recognised"}


@dataclass(frozen=True)
class Finding:
    """One figure, formula or anchor of the document and what the gate found."""

    kind: Kind
    status: str
    document: str
    section: str | None
    line: int | None
    claim: str | None = None
    claims: tuple[str, ...] = ()
    column: int | None = None
    label: str = ""
    printed: str | None = None
    claim_printed: str | None = None
    expected: tuple[float, ...] | None = None
    relative_error: float | None = None
    tolerance: str = ""
    located: str = ""
    formula: str | None = None
    recorded: str | None = None
    similarity: float | None = None
    detail: str = ""
    found: str | None = None
    """For a missing figure: the closest number the document prints (on ``line``)."""
    span: tuple[int, int] | None = None
    """Where the printed figure is in the document's text (for ``--fix``)."""
    meaning: str | None = None
    """For a formula: ``equivalent``, ``contradicts``, ``unparsed`` or ``not-compared``."""
    compared_with: tuple[str, ...] = ()
    """For a formula: what each relation was found to mean (statement, definition, …)."""

    @property
    def failing(self) -> bool:
        return self.status in FAILING

    @property
    def warning(self) -> bool:
        return self.status in WARNING

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "status": self.status, "document": self.document,
                             "section": self.section, "line": self.line, "column": self.column,
                             "claim": self.claim,
                             "claims": list(self.claims or ((self.claim,) if self.claim else ()))}
        if self.kind == "figure":
            expected = list(self.expected) if self.expected is not None else None
            error = self.relative_error
            d.update(label=self.label, printed=self.printed, claim_printed=self.claim_printed,
                     expected=expected[0] if expected and len(expected) == 1 else expected,
                     relative_error=error if error is None or error == error
                     and abs(error) != float("inf") else None,
                     tolerance=self.tolerance, located=self.located, found=self.found)
        elif self.kind == "formula":
            d.update(formula=self.formula, recorded=self.recorded, similarity=self.similarity,
                     meaning=self.meaning or "not-compared",
                     compared_with=list(self.compared_with))
        elif self.kind == "statement":
            d.update(label=self.label, located=self.located)
        elif self.kind == "citation":
            d.update(label=self.label, printed=self.printed, recorded=self.recorded)
        d["detail"] = self.detail
        return d


@dataclass(frozen=True)
class SectionCoverage:
    """How much of one top-level section the claims check."""

    document: str
    number: str
    title: str
    line: int
    covered: int
    total: int
    claims: tuple[str, ...]
    by_kind: tuple[tuple[str, int, int], ...] = ()
    """(kind, covered, total) for formulas, figures and statements."""

    @property
    def percent(self) -> float | None:
        return 100.0 * self.covered / self.total if self.total else None

    def to_dict(self) -> dict[str, Any]:
        return {"document": self.document, "section": self.number, "title": self.title,
                "line": self.line, "covered": self.covered, "total": self.total,
                "percent": _round(self.percent), "claims": list(self.claims),
                "by_kind": {k: {"covered": c, "total": t} for k, c, t in self.by_kind}}


@dataclass
class Report:
    """Everything the gate found in a set of documents."""

    documents: tuple[str, ...]
    findings: list[Finding]
    sections: list[SectionCoverage]
    covered: int
    total: int
    min_coverage: float = 0.0
    claims: tuple[str, ...] = ()
    unverified_claims: tuple[tuple[str, str, str, str], ...] = ()
    """(claim id, verdict, reason, command that reproduces it) of each claim held to the
    documents that did not verify."""
    notes: tuple[str, ...] = ()
    citations: dict[str, int] | None = None
    """How many citations were checked against the claims' bibliography (``checked``,
    ``right``) and how many name a work no claim records (``unknown``)."""
    per_document: tuple[tuple[str, int, int], ...] = ()
    """(path, covered, total) of each document: ``--min-coverage`` holds for each."""
    recognition: tuple["Recognised", ...] = ()
    """For each document no claim set is bound to: what was recognised in it."""
    cells: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    """For each notebook: (first line, cell number) of its Markdown cells (see
    :meth:`cell_of`)."""
    file_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """For each notebook: the ``.ipynb`` file's line of each line of its Markdown text."""

    def cell_of(self, finding: Finding) -> tuple[int, int] | None:
        """(cell, line in the cell) of a finding in a notebook; None elsewhere."""
        cells = self.cells.get(finding.document)
        return cell_at(cells, finding.line) if cells and finding.line else None

    def where(self, finding: Finding) -> str:
        """The finding's line as the table shows it: "12", or "cell 4, line 2"."""
        cell = self.cell_of(finding)
        if cell:
            return f"cell {cell[0]}, line {cell[1]}"
        return str(finding.line) if finding.line else "—"

    def finding_dict(self, finding: Finding) -> dict[str, Any]:
        """A finding's JSON; in a notebook ``line`` is the line in its ``cell``, and
        ``file_line`` the line in the ``.ipynb`` file (where the file holds it)."""
        d = finding.to_dict()
        cell = self.cell_of(finding)
        if cell:
            lines = self.file_lines.get(finding.document, ())
            at = lines[finding.line - 1] if 0 < finding.line <= len(lines) else 0
            d["cell"], d["line"] = cell
            if at:
                d["file_line"] = at
        return d

    @property
    def coverage(self) -> float | None:
        return 100.0 * self.covered / self.total if self.total else None

    @property
    def coverage_ok(self) -> bool:
        return _meets(self.covered, self.total, self.min_coverage) and not self.below_minimum()

    def below_minimum(self) -> list[tuple[str, int, int]]:
        """The documents whose own coverage is below ``min_coverage``."""
        return [(p, c, t) for p, c, t in self.per_document
                if not _meets(c, t, self.min_coverage)]

    @property
    def failures(self) -> list[Finding]:
        return [f for f in self.findings if f.failing]

    @property
    def passed(self) -> bool:
        return not self.failures and self.coverage_ok

    def count(self, kind: str, status: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind and f.status == status)

    def sections_without_claims(self) -> list[SectionCoverage]:
        return [s for s in self.sections if not s.claims]

    def summary(self) -> dict[str, Any]:
        return {
            "figures": {s: self.count("figure", s)
                        for s in ("accurate", "inaccurate", "missing", "unverified",
                                  "unreadable")},
            "formulas": {s: self.count("formula", s)
                         for s in ("covered", "changed", "uncovered", "missing", "unverified",
                                   "contradicts", "recognised")},
            "statements": {s: self.count("statement", s)
                           for s in ("anchored", "missing", "unverified")},
            "citations": {**(self.citations or {"checked": 0, "right": 0, "unknown": 0}),
                          **{s: self.count("citation", s)
                             for s in ("authors", "year", "title", "misattributed", "arxiv",
                                       "shortened")}},
            "anchors": {"unknown": self.count("anchor", "unknown")},
            "claims_unverified": self.count("claim", "unverified"),
            "documents_unbound": self.count("document", "unbound"),
            "claims": len(self.claims),
            "unverified_claims": [{"claim": c, "verdict": v, "reason": r, "reproduce": x}
                                  for c, v, r, x in self.unverified_claims],
            "coverage": _round(self.coverage),
            "min_coverage": self.min_coverage,
            "passed": self.passed,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.documents[0] if len(self.documents) == 1 else list(self.documents),
            "findings": [self.finding_dict(f) for f in self.findings],
            "coverage": {
                "percent": _round(self.coverage), "covered": self.covered, "total": self.total,
                "min_coverage": self.min_coverage,
                "sections": [s.to_dict() for s in self.sections],
                "sections_without_claims": [
                    {"document": s.document, "section": s.number, "title": s.title}
                    for s in self.sections_without_claims()],
                "uncovered_formulas": self.count("formula", "uncovered"),
                "statements": {"anchored": self.count("statement", "anchored"),
                               "total": sum(1 for f in self.findings
                                            if f.kind == "statement")},
            },
            "summary": self.summary(),
            "recognition": [r.to_dict() for r in self.recognition],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Recognised:
    """What the gate recognised in a document no claim set is bound to: the document's names
    for the claims' (``mapping``), the claims it recognised, how many formulas it read."""

    document: str
    mapping: tuple[tuple[str, str], ...]
    claims: tuple[str, ...]
    formulas: int
    recognised: int
    contradicts: int

    def to_dict(self) -> dict[str, Any]:
        return {"document": self.document, "mapping": dict(self.mapping),
                "claims": list(self.claims), "formulas_read": self.formulas,
                "recognised": self.recognised, "contradicts": self.contradicts}


def _meets(covered: int, total: int, minimum: float) -> bool:
    if not total:
        return minimum <= 0
    return 100.0 * covered / total + 1e-9 >= minimum


def combine(units: Sequence[Report], min_coverage: float = 0.0) -> Report:
    """One report of documents each checked alone: findings, sections and notes side by side,
    counts added; the gate passes only when every document passes on its own."""
    claims = tuple(dict.fromkeys(c for u in units for c in u.claims))
    unverified = tuple(dict.fromkeys(x for u in units for x in u.unverified_claims))
    citations: dict[str, int] | None = None
    for unit in units:
        if unit.citations is not None:
            citations = citations or {}
            for key, n in unit.citations.items():
                citations[key] = citations.get(key, 0) + n
    per_document = tuple((p, c, t) for u in units for p, c, t in
                         (u.per_document or ((u.documents[0], u.covered, u.total),)))
    notes = tuple(n for u in units for n in u.notes)
    combined = Report(tuple(p for u in units for p in u.documents),
                      [f for u in units for f in u.findings],
                      [s for u in units for s in u.sections],
                      sum(u.covered for u in units), sum(u.total for u in units), min_coverage,
                      claims, unverified, notes=notes, citations=citations,
                      per_document=per_document if len(units) > 1 else (),
                      recognition=tuple(r for u in units for r in u.recognition),
                      cells={p: c for u in units for p, c in u.cells.items()},
                      file_lines={p: c for u in units for p, c in u.file_lines.items()})
    below = combined.below_minimum()
    combined.notes += tuple(f"{p}: coverage {100.0 * c / t if t else 0:.1f}% ({c}/{t}) is "
                            f"below the minimum {min_coverage:g}%" for p, c, t in below)
    return combined


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)
