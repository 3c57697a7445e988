"""The gate's report as a rich table grouped by section, JSON, JUnit XML or GitHub annotations."""

from __future__ import annotations

import re
import socket
import time
import xml.etree.ElementTree as ET
from typing import Any, Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tmath import __version__
from tmath.engine.figures import show_values
from tmath.gate import Finding, Report
from tmath.i18n import Translator
from tmath.i18n.markers import N_
from tmath.render import command_line

MARK = {
    "accurate": ("✓", "green"), "covered": ("✓", "green"),
    "inaccurate": ("✗", "red"), "missing": ("✗", "red"), "unverified": ("!", "red"),
    "changed": ("≠", "red"), "unknown": ("?", "red"), "uncovered": ("–", "yellow"),
    "unreadable": ("?", "red"), "unbound": ("✗", "red"), "too-large": ("✗", "red"),
    "anchored": ("✓", "green"), "authors": ("✗", "red"), "year": ("✗", "red"),
    "title": ("✗", "red"), "misattributed": ("✗", "red"), "arxiv": ("✗", "red"),
    "shortened": ("–", "yellow"), "contradicts": ("✗", "red"),
}
SHORT = 90


def _short(text: str | None, width: int = SHORT) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _number(values: Sequence[float] | None, printed: str | None = None) -> str:
    if not values:
        return "?"
    return show_values(values, printed)


STATUS_NAMES = (N_("accurate"), N_("inaccurate"), N_("missing"), N_("unverified"),
                N_("unreadable"), N_("changed"), N_("contradicts"), N_("unknown"), N_("unbound"),
                N_("too-large"), N_("authors"), N_("year"), N_("title"), N_("misattributed"),
                N_("arxiv"), N_("uncovered"), N_("shortened"), N_("covered"), N_("anchored"))
KIND_NAMES = (N_("figure"), N_("formula"), N_("statement"), N_("citation"), N_("anchor"),
              N_("claim"), N_("document"))
PLURALS = {"figure": N_("figures"), "formula": N_("formulas"), "statement": N_("statements"),
           "citation": N_("citations")}
"""Words of the table that ``--lang`` translates (marked for the catalogs' extractor)."""


def describe(finding: Finding, tr: Translator | None = None, label: str | None = None) -> str:
    """One line saying what was found (used by every format). ``tr`` translates the words
    tmath writes and ``label`` is the figure's or statement's label as the reader's language
    has it; what the readers of the document found (``detail``) stays as they wrote it."""
    f = finding
    ui = tr.ui if tr is not None else (lambda text: text)
    label = f.label if label is None else label
    if f.kind in ("anchor", "claim", "document"):
        return f.detail
    if f.kind == "statement":
        if f.status == "anchored":
            return f"{label} ({_located(f.located, tr)})"
        return f"{label}: {f.detail}"
    if f.kind == "citation":
        return f"{_short(f.printed, 70)}: {f.detail}"
    printed, true = ui("printed"), ui("true")
    if f.kind == "figure":
        if f.status == "missing" or f.printed is None:
            return f"{label}: {f.detail}"
        if f.status == "unverified":
            return f"{label}: {printed} {f.printed}, {ui('not verified')} ({f.detail})"
        if f.status == "unreadable":
            return f"{label}: {ui('cannot read')} {f.printed!r} ({f.detail})"
        if f.status == "inaccurate":
            error = f", {ui('relative error')} {f.relative_error:.2%}" \
                if f.relative_error is not None and f.relative_error == f.relative_error \
                and f.relative_error != float("inf") else ""
            extra = f" ({f.detail})" if f.detail and not f.detail.startswith("printed") else ""
            return (f"{label}: {printed} {f.printed}, {true} "
                    f"{_number(f.expected, f.printed)}{error}{extra}")
        return f"{label}: {printed} {f.printed}, {true} {_number(f.expected, f.printed)}"
    if f.status == "changed":
        return (f"document: {_short(f.formula, 70)}  ≠  claim {f.claim} records: "
                f"{_short(f.recorded, 70)} (similarity {f.similarity:.0%})")
    if f.status == "missing":
        return f"{f.detail}: {_short(f.recorded, 70)}"
    if f.status == "uncovered":
        why = f" ({f.detail})" if f.detail else f" ({ui('no claim vouches for it')})"
        return _short(f.formula, 70) + why
    if f.status == "unverified":
        return f"{_short(f.formula, 70)} ({f.detail})"
    return _short(f.formula) + (f" ({f.detail})" if f.detail else "")


_LOCATED = re.compile(r"(?P<found>\d+) of (?P<total>\d+) terms in (?P<where>§\S+)")


def _located(located: str, tr: Translator | None) -> str:
    """Where a statement was anchored ("4 of 4 terms in §1.2"), in the reader's language."""
    match = _LOCATED.fullmatch(located or "")
    if tr is None or tr.lang == "en" or match is None:
        return located
    return tr.ui("{found} of {total} terms in {where}").format(**match.groupdict())


# -- table -------------------------------------------------------------------------------------

NARROW = 120
"""Below this width the claim column is left out and each finding's "what" starts with its
claim ids, where an id is never broken (it wraps as one word); from it on, the claim column
is as wide as its longest id."""


def shown(finding: Finding, only_problems: bool) -> bool:
    """Whether the table shows a finding: every one, or with ``only_problems`` every failing
    finding and every warning (what the gate counts is never filtered: see the summary)."""
    return not only_problems or finding.failing or finding.warning


def report_renderables(report: Report, tr: Translator | None = None, width: int | None = None,
                       only_problems: bool = False,
                       infos: Mapping[str, Any] | None = None) -> list[Any]:
    """A table per section (findings in document order), then the summary.

    ``tr`` translates tmath's words (``--lang``) and, with ``infos`` (claim id → ClaimInfo),
    the claims' labels; ``width`` is the terminal's (None: a file, laid out wide);
    ``only_problems`` leaves out the passing findings (and the sections left without any),
    and says how many it left out. The summary is always the whole report's."""
    tr = tr or Translator()
    infos = infos or {}
    narrow = width is not None and width < NARROW
    parts: list[Any] = []
    titles = {(s.document, s.number): s for s in report.sections}
    groups: dict[tuple[str, str | None], list[Finding]] = {}
    hidden = 0
    for finding in report.findings:
        if not shown(finding, only_problems):
            hidden += 1
            continue
        top = finding.section.split(".")[0] if finding.section else None
        groups.setdefault((finding.document, top), []).append(finding)
    if not only_problems:
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
            header.append(tr.ui("outside the numbered sections"), style="bold")
        else:
            header.append(f"§{number} {section.title if section else ''}", style="bold")
            if section is not None:
                percent = section.percent
                parts_shown = ", ".join(f"{c}/{t} {tr.ui(PLURALS.get(k, k + 's'))}"
                                        for k, c, t in section.by_kind if t)
                cover = tr.ui("no formulas, figures or statements") if percent is None else \
                    f"{tr.ui('coverage')} {percent:.0f}% ({section.covered}/{section.total}: " \
                    f"{parts_shown})"
                claims = f"{len(section.claims)} {tr.ui('claim(s)')}" if section.claims \
                    else tr.ui("no claims")
                header.append(f"  · {cover} · {claims}",
                              style="yellow" if not section.claims else "dim")
        table = Table(title=header, title_justify="left", box=None, header_style="bold",
                      pad_edge=False, show_header=bool(findings))
        table.add_column(tr.ui("line"), justify="right", no_wrap=True)
        table.add_column(tr.ui("status"), no_wrap=True)
        table.add_column(tr.ui("kind"), no_wrap=True)
        if not narrow:  # an id is never broken: the column is as wide as the longest
            table.add_column(tr.ui("claim"), no_wrap=True, overflow="fold")
        table.add_column(tr.ui("what"), overflow="fold")
        for f in findings:
            mark, style = MARK.get(f.status, ("·", ""))
            ids = f.claims if f.claims else ((f.claim,) if f.claim else ())
            info = infos.get(f.claim or (ids[0] if ids else ""))
            label = tr.text(f.label, info) if f.label and info is not None else None
            what = Text(describe(f, tr, label))  # Text: LaTeX brackets are not rich markup
            cells: list[Any] = [report.where(f),
                                Text(f"{mark} {tr.ui(f.status)}", style=style), tr.ui(f.kind)]
            if narrow:  # the ids open the cell, each one word: wrapped whole, never broken
                if ids:
                    what = Text.assemble((", ".join(ids), "cyan"), ": ", what)
            else:
                cells.append(Text("\n".join(ids) if ids else "—"))
            table.add_row(*cells, what)
        parts.append(table)
        parts.append(Text(""))
    if only_problems:
        parts.append(Text(tr.ui("passing findings not shown (--only-problems)") + f": {hidden}"
                          if hidden else tr.ui("every finding is a problem; all are shown"),
                          style="dim"))
    parts.append(summary_text(report, tr))
    return parts


def summary_text(report: Report, tr: Translator | None = None) -> Group:
    tr = tr or Translator()
    ui = tr.ui
    s = report.summary()
    fig, form = s["figures"], s["formulas"]
    stmt, cit = s["statements"], s["citations"]

    def counts(values: dict, names: Sequence[str]) -> str:
        return " · ".join(f"{values[n]} {ui(n)}" for n in names)

    unreadable = f" · {fig['unreadable']} {ui('unreadable')}" if fig["unreadable"] else ""
    unverified_formulas = f" · {form['unverified']} {ui('unverified')}" \
        if form["unverified"] else ""
    lines = [
        Text(f"{ui('figures')}: "
             + counts(fig, ("accurate", "inaccurate", "missing", "unverified")) + unreadable
             + f"    {ui('formulas')}: "
             + counts(form, ("covered", "contradicts", "changed", "uncovered", "missing"))
             + unverified_formulas),
    ]
    if sum(stmt.values()):
        lines.append(Text(f"{ui('statements')}: "
                          + counts(stmt, ("anchored", "missing", "unverified"))))
    if cit["checked"] or cit["unknown"]:
        wrong = sum(cit[k] for k in ("authors", "year", "title", "misattributed", "arxiv"))
        lines.append(Text(f"{ui('citations')}: {cit['checked']} {ui('checked')} · "
                          f"{cit['right']} {ui('right')} · {wrong} {ui('finding(s)')} · "
                          f"{cit['shortened']} {ui('shortened title(s)')} · "
                          f"{cit['unknown']} {ui('naming a work no claim records')}",
                          style="red" if wrong else ""))
    coverage = ui("n/a (nothing to check)") if report.coverage is None else \
        f"{report.coverage:.1f}% ({report.covered}/{report.total})"
    below = not report.coverage_ok
    lines.append(Text(f"{ui('coverage')} {coverage}, {ui('minimum')} {report.min_coverage:g}%",
                      style="red" if below else ""))
    empty = report.sections_without_claims()
    if empty:
        lines.append(Text(f"{ui('sections without claims')}: " + ", ".join(
            f"§{e.number} {_short(e.title, 30)}" for e in empty[:20])
            + (" … " + ui("and {n} more").format(n=len(empty) - 20) if len(empty) > 20
               else ""),
            style="yellow"))
    for claim_id, verdict, reason, reproduce in report.unverified_claims:
        lines.append(Text(f"{ui('claim')} {claim_id} {ui('did not verify')} ({ui(verdict)}): "
                          f"{_short(reason, 100)}", style="red"))
        lines.append(command_line(f"  {ui('reproduce')}: {reproduce}", style="red"))
    for found in report.recognition:
        lines.append(Text(recognition_line(found, ui)))
    for note in report.notes:
        lines.append(Text(note, style="yellow"))
    failures = report.failures
    if report.passed:
        lines.append(Text(ui("PASSED: every figure accurate, no formula changed or missing, "
                             "every statement anchored, no citation wrong, every claim verified, "
                             "coverage met"), style="bold green"))
    else:
        reasons = [f"{n} {ui(status)} {ui(kind)}(s)" if tr.lang == "en" else
                   f"{n} {ui(status)} {ui(kind)}" for (kind, status), n in _tally(failures).items()]
        if below:
            reasons.append(ui("coverage below the minimum"))
        not_verified = [c for c, _, _, _ in report.unverified_claims]
        if not_verified:
            reasons.append(f"{ui('not verified')}: " + ", ".join(not_verified[:10])
                           + (" " + ui("and {n} more").format(n=len(not_verified) - 10)
                              if len(not_verified) > 10 else ""))
        lines.append(Text(f"{ui('FAILED')}: " + ", ".join(reasons), style="bold red"))
    return Group(*lines)


def recognition_line(found, ui) -> str:
    """``doc.md: recognised 4 of 7 formulas (claims …), 1 contradicts; names d → d_k``."""
    claims = ", ".join(found.claims[:6]) + (" …" if len(found.claims) > 6 else "")
    names = ", ".join(f"{mine} → {theirs}" for mine, theirs in found.mapping)
    return (f"{found.document}: {ui('recognised')} {found.recognised} {ui('of')} "
            f"{found.formulas} {ui('formulas')}" + (f" ({claims})" if claims else "")
            + (f", {found.contradicts} {ui('contradicts')}" if found.contradicts else "")
            + (f"; {ui('names')} {names}" if names else ""))


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


def interrupted_json(documents: Sequence[str], seed: int | None, verified: int,
                     not_run: int) -> dict[str, Any]:
    """What ``check -f json`` prints when it was interrupted before the gate ran: no
    findings were computed, so nothing passed."""
    return {"document": documents[0] if len(documents) == 1 else list(documents),
            "tmath": __version__, "seed": seed, "interrupted": True, "findings": [],
            "claims_run": verified, "not_run": not_run, "summary": {"passed": False}}


# -- JUnit XML ---------------------------------------------------------------------------------

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(text: Any) -> str:
    return _XML_INVALID.sub("\ufffd", str(text)) or "-"


def report_junit(report: Report) -> str:
    """JUnit XML: a test suite per section, a test case per finding.

    Valid against both common schemas, Jenkins' junit-10.xsd and the Apache Ant schema:
    every suite carries tests/failures/errors/skipped/time/timestamp/hostname, its document
    as a property, and empty system-out/system-err; a case's line is in its name, since
    neither schema has a place for it."""
    root = ET.Element("testsuites")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    host = _x(socket.gethostname() or "localhost")
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in report.findings:
        groups.setdefault((f.document, f.section.split(".")[0] if f.section else "-"), []).append(f)
    suites = [(f"{document} §{number}", document, f"{document}.§{number}", findings)
              for (document, number), findings in groups.items()]
    suites.append(("coverage", ", ".join(report.documents), "coverage", None))
    for index, (name, document, classname, findings) in enumerate(suites):
        suite = ET.SubElement(root, "testsuite", name=_x(name), package="tmath.check",
                              id=str(index), timestamp=stamp, hostname=host)
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="document", value=_x(document))
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        if findings is None:
            _coverage_case(suite, report, counts)
        for f in findings or ():
            if f.kind in ("figure", "statement", "citation"):
                what = _short(f.label, 60)
            elif f.kind == "formula":
                what = _short(f.formula or f.recorded, 60)
            else:
                what = f.kind
            case = ET.SubElement(suite, "testcase", classname=_x(classname), time="0",
                                 name=_x(f"{f.kind} {_junit_where(report, f)}: {what}"
                                         + (f" [{f.claim}]" if f.claim else "")))
            counts["tests"] += 1
            where = f"{f.document}:{f.line}: " if f.line else f"{f.document}: "
            if report.cell_of(f):
                where = f"{f.document} ({report.where(f)}): "
            if f.failing:
                counts["failures"] += 1
                failure = ET.SubElement(case, "failure", type=f.status,
                                        message=_x(_short(where + describe(f), 200)))
                failure.text = _x(where + describe(f))
            elif f.warning:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=_x(where + describe(f)))
        ET.SubElement(suite, "system-out")
        ET.SubElement(suite, "system-err")
        for key in ("tests", "failures", "errors", "skipped"):
            suite.set(key, str(counts[key]))
        suite.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _coverage_case(suite: ET.Element, report: Report, counts: dict[str, int]) -> None:
    coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
    case = ET.SubElement(suite, "testcase", classname="coverage", time="0",
                         name=f"coverage {coverage} ≥ {report.min_coverage:g}%")
    counts["tests"] += 1
    if not report.coverage_ok:
        failure = ET.SubElement(case, "failure", type="coverage",
                                message=f"coverage {coverage} is below the minimum "
                                        f"{report.min_coverage:g}%")
        failure.text = failure.get("message")
        counts["failures"] += 1


# -- GitHub annotations ------------------------------------------------------------------------

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _data(text: str) -> str:
    """A workflow command's message: %, CR and LF escaped as GitHub reads them, and every
    other control character (and the Unicode line separators) percent-escaped too, so no
    text of the document can end the command or start another."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _CONTROL.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8")), text)


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _junit_where(report: Report, f: Finding) -> str:
    """"line 12", "cell 4, line 2" or "line ?"."""
    return report.where(f) if report.cell_of(f) else f"line {f.line or '?'}"


def report_github(report: Report) -> str:
    """``::error``/``::warning`` workflow commands: each shows on its line of the document."""
    out = []
    for f in report.findings:
        if not (f.failing or f.warning):
            continue
        level = "error" if f.failing else "warning"
        where = f"file={_prop(f.document)}"
        if f.line and not report.cell_of(f):  # a notebook's lines are not the file's
            where += f",line={f.line}"
            if f.column:
                where += f",col={f.column}"
        title = f"tmath: {f.status} {f.kind}"
        claim = f" (claim {f.claim})" if f.claim and f.kind != "anchor" else ""
        cell = f" ({report.where(f)})" if report.cell_of(f) else ""
        out.append(f"::{level} {where},title={_prop(title)}::"
                   f"{_data(describe(f) + claim + cell)}")
    if not report.coverage_ok:
        coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
        out.append(f"::error title=tmath%3A coverage::{_data(f'coverage {coverage} is below the minimum {report.min_coverage:g}%')}")
    s = report.summary()
    counts = ", ".join(f"{n} {status} {kind}" for kind in ("figures", "formulas", "statements")
                       for status, n in s[kind].items() if n)
    wrong = sum(s["citations"][k] for k in ("authors", "year", "title", "misattributed", "arxiv"))
    if wrong:
        counts += f", {wrong} wrong citation(s)"
    coverage = "n/a" if report.coverage is None else f"{report.coverage:.1f}%"
    out.append(f"tmath check: {'passed' if report.passed else 'failed'} ({counts or 'nothing found'}; "
               f"coverage {coverage})")
    return "\n".join(out) + "\n"
