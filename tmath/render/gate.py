"""The gate's report as a rich table grouped by section, JSON, JUnit XML or GitHub annotations."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tmath import __version__
from tmath.engine.figures import show_values
from tmath.gate import Finding, Report

MARK = {
    "accurate": ("✓", "green"), "covered": ("✓", "green"),
    "inaccurate": ("✗", "red"), "missing": ("✗", "red"), "unverified": ("!", "red"),
    "changed": ("≠", "red"), "unknown": ("?", "red"), "uncovered": ("–", "yellow"),
}
SHORT = 90


def _short(text: str | None, width: int = SHORT) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _number(values: Sequence[float] | None) -> str:
    if not values:
        return "?"
    return show_values(values)


def describe(finding: Finding) -> str:
    """One line saying what was found (used by every format)."""
    f = finding
    if f.kind == "anchor":
        return f.detail
    if f.kind == "figure":
        if f.status == "missing":
            return f"{f.label}: {f.detail}"
        if f.status == "unverified":
            return f"{f.label}: printed {f.printed}, no true value ({f.detail})"
        if f.status == "inaccurate":
            error = f", relative error {f.relative_error:.2%}" if f.relative_error is not None \
                and f.relative_error == f.relative_error and f.relative_error != float("inf") else ""
            extra = f" ({f.detail})" if f.detail and not f.detail.startswith("printed") else ""
            return f"{f.label}: printed {f.printed}, true {_number(f.expected)}{error}{extra}"
        return f"{f.label}: printed {f.printed}, true {_number(f.expected)}"
    if f.status == "changed":
        return (f"document: {_short(f.formula, 70)}  ≠  claim {f.claim} records: "
                f"{_short(f.recorded, 70)} (similarity {f.similarity:.0%})")
    if f.status == "missing":
        return f"{f.detail}: {_short(f.recorded, 70)}"
    if f.status == "uncovered":
        why = f" ({f.detail})" if f.detail else " (no claim vouches for it)"
        return _short(f.formula, 70) + why
    return _short(f.formula)


# -- table -------------------------------------------------------------------------------------

def report_renderables(report: Report) -> list[Any]:
    """A table per section (findings in document order), then the summary."""
    parts: list[Any] = []
    titles = {(s.document, s.number): s for s in report.sections}
    groups: dict[tuple[str, str | None], list[Finding]] = {}
    for finding in report.findings:
        top = finding.section.split(".")[0] if finding.section else None
        groups.setdefault((finding.document, top), []).append(finding)
    for section in report.sections:  # sections without findings still show their coverage
        groups.setdefault((section.document, section.number), [])
    order = {path: k for k, path in enumerate(report.documents)}
    several = len(report.documents) > 1
    for (document, number), findings in sorted(
            groups.items(), key=lambda kv: (order.get(kv[0][0], 0),
                                           -1 if kv[0][1] is None else int(kv[0][1]))):
        section = titles.get((document, number))
        header = Text()
        if several:
            header.append(f"{document} ", style="dim")
        if number is None:
            header.append("outside the numbered sections", style="bold")
        else:
            header.append(f"§{number} {section.title if section else ''}", style="bold")
            if section is not None:
                percent = section.percent
                cover = "no formulas or figures" if percent is None else \
                    f"coverage {percent:.0f}% ({section.covered}/{section.total})"
                claims = f"{len(section.claims)} claim(s)" if section.claims else "no claims"
                header.append(f"  · {cover} · {claims}",
                              style="yellow" if not section.claims else "dim")
        table = Table(title=header, title_justify="left", box=None, header_style="bold",
                      pad_edge=False, show_header=bool(findings))
        table.add_column("line", justify="right", no_wrap=True)
        table.add_column("status", no_wrap=True)
        table.add_column("kind", no_wrap=True)
        table.add_column("claim", overflow="fold")
        table.add_column("what", overflow="fold")
        for f in findings:
            mark, style = MARK.get(f.status, ("·", ""))
            table.add_row(str(f.line) if f.line else "—", Text(f"{mark} {f.status}", style=style),
                          f.kind, Text(", ".join(f.claims) if f.claims else (f.claim or "—")),
                          Text(describe(f)))  # Text: LaTeX brackets are not rich markup
        parts.append(table)
        parts.append(Text(""))
    parts.append(summary_text(report))
    return parts


def summary_text(report: Report) -> Group:
    s = report.summary()
    fig, form = s["figures"], s["formulas"]
    lines = [
        Text(f"figures: {fig['accurate']} accurate · {fig['inaccurate']} inaccurate · "
             f"{fig['missing']} missing · {fig['unverified']} unverified    formulas: "
             f"{form['covered']} covered · {form['changed']} changed · {form['uncovered']} "
             f"uncovered · {form['missing']} missing"),
    ]
    coverage = "n/a (nothing to check)" if report.coverage is None else \
        f"{report.coverage:.1f}% ({report.covered}/{report.total})"
    below = not report.coverage_ok
    lines.append(Text(f"coverage {coverage}, minimum {report.min_coverage:g}%",
                      style="red" if below else ""))
    empty = report.sections_without_claims()
    if empty:
        lines.append(Text("sections without claims: " + ", ".join(
            f"§{e.number} {_short(e.title, 30)}" for e in empty), style="yellow"))
    for claim_id, verdict, reason in report.unverified_claims:
        lines.append(Text(f"claim {claim_id} did not verify ({verdict}): {_short(reason, 100)}",
                          style="red"))
    for note in report.notes:
        lines.append(Text(note, style="yellow"))
    failures = report.failures
    if report.passed:
        lines.append(Text("PASSED: every figure accurate, no formula changed or missing, "
                          "coverage met", style="bold green"))
    else:
        reasons = [f"{n} {status} {kind}(s)" for (kind, status), n in _tally(failures).items()]
        if below:
            reasons.append("coverage below the minimum")
        lines.append(Text("FAILED: " + ", ".join(reasons), style="bold red"))
    return Group(*lines)


def _tally(findings: Sequence[Finding]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for f in findings:
        counts[(f.kind, f.status)] = counts.get((f.kind, f.status), 0) + 1
    return counts


# -- JSON --------------------------------------------------------------------------------------

def report_json(report: Report, seed: int | None = None,
                load_errors: Sequence[Any] = ()) -> dict[str, Any]:
    document = report.to_dict()
    document["tmath"] = __version__
    document["seed"] = seed
    document["load_errors"] = [{"path": e.path, "line": e.line, "message": e.message}
                               for e in load_errors]
    return document


# -- JUnit XML ---------------------------------------------------------------------------------

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(text: Any) -> str:
    return _XML_INVALID.sub("\ufffd", str(text))


def report_junit(report: Report) -> str:
    """JUnit XML: a test suite per section, a test case per figure and formula."""
    root = ET.Element("testsuites", name="tmath check")
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in report.findings:
        groups.setdefault((f.document, f.section.split(".")[0] if f.section else "-"), []).append(f)
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for (document, number), findings in groups.items():
        suite = ET.SubElement(root, "testsuite", name=_x(f"{document} §{number}"))
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for f in findings:
            what = f.label if f.kind == "figure" else _short(f.formula or f.recorded, 60)
            case = ET.SubElement(suite, "testcase", classname=_x(f"{document}.§{number}"),
                                 name=_x(f"{f.kind} line {f.line or '?'}: {what}"
                                         + (f" [{f.claim}]" if f.claim else "")),
                                 file=_x(document))
            if f.line:
                case.set("line", str(f.line))
            counts["tests"] += 1
            if f.failing:
                counts["failures"] += 1
                failure = ET.SubElement(case, "failure", type=f.status,
                                        message=_x(_short(describe(f), 200)))
                failure.text = _x(describe(f))
            elif f.warning:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=_x(describe(f)))
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    suite = ET.SubElement(root, "testsuite", name="coverage")
    coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
    case = ET.SubElement(suite, "testcase", classname="coverage",
                         name=f"coverage {coverage} ≥ {report.min_coverage:g}%")
    suite.set("tests", "1")
    totals["tests"] += 1
    if not report.coverage_ok:
        ET.SubElement(case, "failure", type="coverage",
                      message=f"coverage {coverage} is below the minimum {report.min_coverage:g}%")
        suite.set("failures", "1")
        totals["failures"] += 1
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# -- GitHub annotations ------------------------------------------------------------------------

def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def report_github(report: Report) -> str:
    """``::error``/``::warning`` workflow commands: each shows on its line of the document."""
    out = []
    for f in report.findings:
        if not (f.failing or f.warning):
            continue
        level = "error" if f.failing else "warning"
        where = f"file={_prop(f.document)}"
        if f.line:
            where += f",line={f.line}"
            if f.column:
                where += f",col={f.column}"
        title = f"tmath: {f.status} {f.kind}"
        claim = f" (claim {f.claim})" if f.claim and f.kind != "anchor" else ""
        out.append(f"::{level} {where},title={_prop(title)}::{_data(describe(f) + claim)}")
    if not report.coverage_ok:
        coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
        out.append(f"::error title=tmath%3A coverage::{_data(f'coverage {coverage} is below the minimum {report.min_coverage:g}%')}")
    s = report.summary()
    counts = ", ".join(f"{n} {status} {kind}" for kind in ("figures", "formulas")
                       for status, n in s[kind].items() if n)
    coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
    out.append(f"tmath check: {'passed' if report.passed else 'failed'} ({counts or 'nothing found'}; "
               f"coverage {coverage})")
    return "\n".join(out) + "\n"
