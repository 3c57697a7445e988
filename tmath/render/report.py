"""A companion report to the document: every claim by section, as one HTML file or Markdown.

The HTML is self-contained (inline CSS, figures embedded as PNG data URIs, no scripts, fonts
or other network resources), so it opens from a file or a CI artifact anywhere.
"""

from __future__ import annotations

import base64
import html
from collections import defaultdict
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from tmath import __version__
from tmath.engine.figures import show_values
from tmath.render import STEP_MARK as TERMINAL_MARKS
from tmath.render import kind_label
from tmath.i18n import Translator
from tmath.i18n.markers import N_
from tmath.render.sections import Section, group

if TYPE_CHECKING:
    from tmath.engine.results import AuditResult

STATUS_CLASS = {"verified": "ok", "heuristic": "warn", "cited": "warn", "failed": "bad",
                "error": "bad", "blocked": "bad", "timeout": "bad"}
STEP_MARK = {kind: mark for kind, (mark, _) in TERMINAL_MARKS.items()}

CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;
 max-width:980px;margin:2em auto;padding:0 1em;color:#1d1f21;background:#fff}
h1{font-size:1.6em;margin-bottom:.2em} h2{border-bottom:2px solid #ddd;padding-bottom:.2em;
 margin-top:2em} h3{margin:.2em 0} .meta{color:#666;font-size:.9em}
.claim{border:1px solid #ddd;border-radius:8px;padding:1em 1.2em;margin:1.2em 0;overflow-x:auto}
.badge{display:inline-block;padding:.05em .6em;border-radius:1em;font-size:.85em;
 font-weight:600;margin-right:.4em} .ok{background:#e3f6e8;color:#17612c}
.warn{background:#fff4d6;color:#7a5600} .bad{background:#fde2e1;color:#8f1d17}
pre{background:#f6f8fa;padding:.6em .8em;border-radius:6px;overflow-x:auto;font-size:.85em;
 line-height:1.25} table{border-collapse:collapse;width:100%;font-size:.88em;margin:.4em 0}
td,th{border-bottom:1px solid #eee;padding:.25em .4em;text-align:left;vertical-align:top}
ol.steps{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.82em;padding-left:2.2em}
ol.steps li{margin:.15em 0;overflow-wrap:anywhere} .why{color:#555} .premise{color:#0a6a8a} .failed{color:#b3261e}
img{max-width:100%;border:1px solid #eee;border-radius:6px}
summary{cursor:pointer;font-weight:600;margin:.4em 0} .summary-line{font-size:1.05em}
.level{display:inline-block;padding:.05em .6em;border-radius:1em;font-size:.85em;font-weight:600}
.level-proved{background:#1f883d;color:#fff} .level-proved-assuming{background:#9be9a8;color:#0a3069}
.level-proved-for-cases{background:#ddf4ff;color:#0a3069} .level-none{background:#fff4d6;color:#7a5600}
.level-failed,.level-error{background:#fde2e1;color:#8f1d17} .level-cited{background:#eaeef2;color:#424a53}
nav.toc ol{columns:2;column-gap:3em;font-size:.92em} nav.toc li{margin:.1em 0}
math{font-size:1.05em} div.math{overflow-x:auto;overflow-y:hidden;margin:.3em 0;padding:.15em 0} ol.steps li .math{display:inline;margin:0 .2em}
ol.steps li math[display="block"]{display:inline math}
"""
LEVEL_TEXT = {"proved": N_("proved"), "proved-assuming": N_("proved assuming"),
              "proved-for-cases": N_("proved for cases"), "none": N_("no proof"),
              "failed": N_("failed"), "error": N_("error")}
"""Proof levels, coloured like a Lean blueprint's: fully proved dark green, proved assuming
something light green, for cases blue, no proof yellow, failed red."""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def by_section(audits: Sequence[AuditResult]) -> list[Section]:
    """The report's sections: each claims folder's own, in order (see
    :mod:`tmath.render.sections`)."""
    return group(audits)


def _counts(audits: Sequence[AuditResult]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for a in audits:
        counts[a.statement.verdict] += 1
    return counts


def html_report(audits: Sequence[AuditResult], seed: int, tr: Translator,
                pictures: Mapping[str, bytes], wrong_in_document: Sequence[Any] = (),
                document: str | None = None, audited: bool = True) -> str:
    """The report as one HTML page. ``audited``: the results come from ``tmath audit`` (each
    foil run through both checks, steps typeset in MathML); otherwise from ``tmath verify``
    (steps in linear Unicode; the named foils listed, not run)."""
    counts = _counts(audits)
    foils = sum(len(a.foils) for a in audits)
    rejected = sum(f.rejected for a in audits for f in a.foils)
    audit_line = f" · {rejected}/{foils} {_e(tr.ui('foils rejected by both checks'))}" \
        if audited else f" · {_e(tr.ui(NOT_AUDITED))}"
    out = [f"<!DOCTYPE html><html lang=\"{tr.lang}\"><head><meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">",
           f"<title>tmath report</title><style>{CSS}</style></head><body>",
           "<h1>tmath — verified companion</h1>",
           f"<p class=\"meta\">tmath {__version__} · seed {seed} · "
           f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC</p>",
           "<p class=\"summary-line\">"
           + " ".join(f"<span class=\"badge {STATUS_CLASS[v]}\">{n} {_e(tr.ui(v))}</span>"
                      for v, n in sorted(counts.items()))
           + audit_line + "</p>"]
    if wrong_in_document:
        out.append(f"<h2>{_e(document or 'document')}: {len(wrong_in_document)} "
                   "inaccurate figure(s)</h2><table><tr><th>line</th><th>§</th><th>claim</th>"
                   "<th>printed</th><th>true</th></tr>")
        for f in wrong_in_document:
            out.append(f"<tr><td>{_e(f['line'])}</td><td>{_e(f['section'])}</td>"
                       f"<td>{_e(f['claim'])}</td><td>{_e(f['printed'])}</td>"
                       f"<td>{_e(f['expected'])}</td></tr>")
        out.append("</table>")
    sections = by_section(audits)
    out.append(f"<nav class=\"toc\"><h2>{_e(tr.ui('Contents'))}</h2><ol>")
    for section in sections:
        label = section.heading(tr).removeprefix(f"{section.number}. ")
        out.append(f"<li value=\"{_e(section.number)}\"><a href=\"#{_e(section.anchor)}\">"
                   f"{_e(label)}</a> "
                   f"<span class=\"meta\">{_e(_section_summary(section.results, tr))}</span>"
                   "</li>")
    out.append("</ol></nav>")
    for section in sections:
        out.append(f"<h2 id=\"{_e(section.anchor)}\">{_e(section.heading(tr))}</h2>")
        out.append(f"<p class=\"meta\">{_e(_section_summary(section.results, tr))}</p>")
        for audit in section.results:
            out.append(_html_claim(audit, tr, pictures.get(audit.info.id), audited))
    out.append("</body></html>")
    return "\n".join(out)


NOT_AUDITED = N_("foils not run in this report (tmath report --audit runs both checks "
                 "against each)")


def section_titles(audits: Sequence[AuditResult], tr: Translator) -> dict[str, str]:
    """Section titles by number, from the first claims folder that names each (its
    ``sections.json``, translated with the catalogs' context "section")."""
    titles: dict[str, str] = {}
    for section in by_section(audits):
        if section.title:
            titles.setdefault(section.number, tr.section_title(section.title, section.folder))
    return titles


def _section_summary(group: Sequence[AuditResult], tr: Translator) -> str:
    """"5 claims: 4 proved, 1 proved assuming" (levels computed by the engine)."""
    levels: dict[str, int] = defaultdict(int)
    for audit in group:
        levels[_level(audit)] += 1
    shown = ", ".join(f"{n} {tr.ui(LEVEL_TEXT.get(k, k) if k != 'cited' else 'cited')}"
                      for k, n in levels.items())
    return f"{len(group)} {tr.ui('claims') if len(group) != 1 else tr.ui('claim')}: {shown}"


def _level(audit: AuditResult) -> str:
    if getattr(audit.info, "kind", "theorem") in ("empirical", "fact"):
        return "cited"
    return audit.statement.proof.status


def _html_claim(audit: AuditResult, tr: Translator, picture: bytes | None,
                audited: bool = True) -> str:
    info, result = audit.info, audit.statement
    status = STATUS_CLASS[result.verdict]
    parts = [f"<div class=\"claim\" id=\"{_e(info.id)}\">",
             f"<h3>{_e(tr.title(info))}</h3>",
             f"<p class=\"meta\"><span class=\"badge {status}\">{_e(tr.ui(result.verdict))}"
             f"</span><code>{_e(info.id)}</code> · §{_e(info.section)}"
             + (f" · {_e(', '.join(info.tags))}" if info.tags else "") + "</p>"]
    if tr.summary(info):
        parts.append(f"<p>{_e(tr.summary(info))}</p>")
    parts.append(f"<p><b>{_e(tr.ui('statement'))}:</b> {_e(tr.text(info.statement, info))}</p>")
    if getattr(info, "statement_mathml", None):
        parts.append(f"<div class=\"math\">{info.statement_mathml}</div>")
    if info.premises:
        parts.append(f"<p><b>{_e(tr.ui('premises'))}:</b></p><ul>"
                     + "".join(f"<li>{_e(tr.text(p, info))}</li>" for p in info.premises)
                     + "</ul>")
    proof = result.proof
    label = tr.ui(LEVEL_TEXT.get(proof.status, proof.status)) + (
        f": {proof.cases}" if proof.status == "proved-for-cases" and proof.cases else "")
    parts.append(f"<details open><summary>{_e(tr.ui('derivation'))}: <span class=\"level "
                 f"level-{_e(proof.status)}\">{_e(label)}</span></summary>")
    if proof.status == "none":
        parts.append(f"<p>{_e(tr.ui('reason'))}: {_e(tr.text(proof.reason or '', info))}</p>")
    if proof.rests_on:
        parts.append(f"<p>{_e(tr.ui('rests on'))}: "
                     f"{_e('; '.join(tr.text(r, info) for r in proof.rests_on))}</p>")
    if proof.steps:
        parts.append("<ol class=\"steps\">")
    for step in proof.steps:
        css = {"rule": "premise", "premise": "premise", "failed": "failed"}.get(step.kind, "")
        chain = f"[{_e(tr.text(step.chain, info))}] " if step.chain else ""
        relation = {"<=": "≤", ">=": "≥"}.get(step.relation, step.relation)
        math = step.mathml if step.mathml else \
            f"<code>{_e(step.before)} {_e(relation)} {_e(step.after)}</code>"
        parts.append(f"<li class=\"{css}\">{STEP_MARK[step.kind]} {chain}<span class=\"math\">"
                     f"{math}</span> <span class=\"why\">— {_e(tr.text(step.why, info))}</span>"
                     + (f" ({_e(step.detail)})" if step.detail else "") + "</li>")
    parts.append(("</ol>" if proof.steps else "") + "</details>")
    parts.append(f"<details open><summary>{_e(tr.ui('randomized check'))}: "
                 f"{_e(tr.ui(result.empirical.status))}</summary>")
    if result.empirical.tests:
        parts.append(f"<table><tr><th></th><th>{_e(tr.ui('test'))}</th>"
                     f"<th>{_e(tr.ui('result'))}</th><th>{_e(tr.ui('resolution'))}</th></tr>")
        for t in result.empirical.tests:
            parts.append(f"<tr><td>{'✓' if t.passed else '✗'}</td>"
                         f"<td>{_e(tr.text(t.label, info))}</td><td>{_e(t.summary)}</td>"
                         f"<td>{_e(t.resolution or '')}</td></tr>")
        parts.append("</table>")
    parts.append("</details>")
    if picture:
        data = base64.b64encode(picture).decode("ascii")
        parts.append(f"<p><img alt=\"{_e(info.id)}\" src=\"data:image/png;base64,{data}\"></p>")
    if result.figures:
        parts.append(f"<p><b>{_e(tr.ui('figures printed in the notes'))}</b></p><table>"
                     f"<tr><th></th><th>{_e(tr.ui('figures'))}</th><th>{_e(tr.ui('printed'))}</th>"
                     f"<th>{_e(tr.ui('true value'))}</th></tr>")
        for f in result.figures:
            true = show_values(f.true_value, f.printed)
            parts.append(f"<tr><td>{'✓' if f.status == 'accurate' else '✗'}</td>"
                         f"<td>{_e(tr.text(f.label, info))}</td><td>{_e(f.printed)}</td>"
                         f"<td>{_e(true)}</td></tr>")
        parts.append("</table>")
    if not audited and info.foils:
        parts.append(f"<details><summary>{_e(tr.ui('foils'))} — "
                     f"{_e(tr.ui(NOT_AUDITED))}</summary><ul>")
        for foil in info.foils:
            parts.append(f"<li>{_e(tr.text(foil.text, info))}"
                         + (f"<br><span class=\"why\">{_e(tr.text(foil.why, info))}</span>"
                            if foil.why else "") + "</li>")
        parts.append("</ul></details>")
    if audit.foils:
        parts.append(f"<details><summary>"
                     f"{_e(tr.ui('foils (each must be rejected by both checks)'))} — "
                     f"{sum(f.rejected for f in audit.foils)}/{len(audit.foils)}</summary><ul>")
        for foil in audit.foils:
            parts.append(f"<li>{'✓' if foil.rejected else '✗'} {_e(tr.text(foil.text, info))}"
                         f"<br><span class=\"why\">{_e(tr.ui('proof'))}: "
                         f"{_e(foil.proof.reason or foil.proof.status)}"
                         f"<br>{_e(tr.ui('randomized check'))}: {_e(foil.empirical.headline)}"
                         f"</span></li>")
        parts.append("</ul></details>")
    if info.sources:
        parts.append("<p class=\"meta\">" + "<br>".join(
            _e(s.shown) + (f" — <a href=\"{_e(s.link)}\">{_e(s.link)}</a>" if s.link else "")
            for s in info.sources) + "</p>")
    parts.append("</div>")
    return "\n".join(parts)


def markdown_report(audits: Sequence[AuditResult], seed: int, tr: Translator,
                    wrong_in_document: Sequence[Any] = (), document: str | None = None,
                    audited: bool = True) -> str:
    """The report as Markdown (``audited``: as for :func:`html_report`). A part a claim has
    nothing for (no premises, no derivation, no test: a cited claim) is left out, never an
    empty heading."""
    counts = _counts(audits)
    lines = ["# tmath — verified companion", "",
             f"tmath {__version__} · seed {seed} · "
             + ", ".join(f"{n} {tr.ui(v)}" for v, n in sorted(counts.items()))
             + ("" if audited else f" · {tr.ui(NOT_AUDITED)}"), ""]
    if wrong_in_document:
        lines += [f"## {document or 'document'}: inaccurate figures", "",
                  "| line | § | claim | printed | true |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {f['line']} | {f['section']} | {f['claim']} | {f['printed']} | "
                  f"{f['expected']} |" for f in wrong_in_document]
        lines.append("")
    for section in by_section(audits):
        lines += [f"## {section.heading(tr)}", "", _section_summary(section.results, tr), ""]
        for audit in section.results:
            lines += _markdown_claim(audit, tr, audited)
    return "\n".join(lines) + "\n"


def _markdown_claim(audit: AuditResult, tr: Translator, audited: bool) -> list[str]:
    info, result = audit.info, audit.statement
    proof = result.proof
    kind = getattr(info, "kind", "theorem")
    cited = kind in ("empirical", "fact")
    if cited:
        label = tr.ui("none (cited)")
    elif proof.status == "proved-for-cases":
        label = f"{tr.ui('proved for')} {proof.cases}"
    else:
        label = tr.ui(proof.status)
    lines = [f"### {tr.title(info)} (`{info.id}`, §{info.section})", "",
             f"**{tr.ui(result.verdict)}** · {tr.ui('kind')}: {tr.ui(kind_label(info))} · "
             f"{tr.ui('proof')}: {label} · "
             f"{tr.ui('randomized check')}: {tr.ui(result.empirical.status)}", ""]
    if tr.summary(info):
        lines += [tr.summary(info), ""]
    lines += [f"**{tr.ui('statement')}:** {tr.text(info.statement, info)}", ""]
    if getattr(info, "statement_latex", None):
        lines += [f"$$ {info.statement_latex} $$", ""]
    if kind != "theorem":
        heading = "why this is not verified" if kind == "heuristic" else "what it is cited from"
        lines += [f"**{tr.ui(heading)}:**", ""]
        if getattr(info, "reason", None):
            lines += [f"{tr.ui('reason')}: {tr.text(info.reason, info)}", ""]
        if getattr(info, "reported", ""):
            lines += [f"{tr.ui('reported')}: {tr.text(info.reported, info)}", ""]
        lines += _markdown_sources(info) + [f"- {tr.ui('not from')} {source.shown}: "
                                            f"{tr.text(why, info)}"
                                            for source, why in getattr(info, "not_in", ())]
        lines.append("")
    if info.premises:
        lines += [f"**{tr.ui('premises')}:**", ""]
        lines += [f"- {tr.text(p, info)}" for p in info.premises] + [""]
    if proof.status == "none" and proof.reason and kind == "theorem":
        lines += [f"**{tr.ui('derivation')}:** {tr.ui('none')} — "
                  f"{tr.ui('reason')}: {tr.text(proof.reason, info)}", ""]
    if proof.rests_on:
        lines += [f"{tr.ui('rests on')}: "
                  + "; ".join(tr.text(r, info) for r in proof.rests_on), ""]
    if proof.steps:
        lines += [f"**{tr.ui('derivation')}:**", ""]
        lines += [f"{i}. {STEP_MARK[s.kind]} `{s.before}` {_relation(s.relation)} `{s.after}` — "
                  f"{tr.text(s.why, info)}" for i, s in enumerate(proof.steps, 1)] + [""]
    if result.empirical.tests:
        lines += [f"**{tr.ui('randomized check')}:**", ""]
        lines += [f"- {'✓' if t.passed else '✗'} {tr.text(t.label, info)}: {t.summary}"
                  for t in result.empirical.tests] + [""]
    if result.figures:
        lines += [f"| {tr.ui('figures')} | {tr.ui('printed')} | {tr.ui('true value')} |",
                  "| --- | --- | --- |"]
        lines += [f"| {tr.text(f.label, info)} | {f.printed} | "
                  f"{show_values(f.true_value, f.printed)} |" for f in result.figures] + [""]
    if audit.foils:
        lines += [f"{tr.ui('foil')}: " + "; ".join(
            ("✓ " if f.rejected else "✗ ") + tr.text(f.text, info) for f in audit.foils), ""]
    elif not audited and info.foils:
        lines += [f"{tr.ui('foil')}: " + "; ".join(tr.text(f.text, info) for f in info.foils)
                  + f" ({tr.ui(NOT_AUDITED)})", ""]
    if info.sources and kind == "theorem":
        lines += [f"**{tr.ui('sources and related claims')}:**", ""]
        lines += _markdown_sources(info) + [""]
    return lines


def _markdown_sources(info) -> list[str]:
    return [f"- {source.shown}" + (f" — <{source.link}>" if source.link else "")
            for source in info.sources]


def _relation(relation: str) -> str:
    return {"<=": "≤", ">=": "≥"}.get(relation, relation)
