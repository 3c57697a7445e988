"""Rich tables for ``list``, ``verify`` and ``audit``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tmath.i18n import Translator
from tmath.i18n.markers import N_
from tmath.render import (CHECK_MARK, LEVELS, PROOF_MARK, VERDICT_STYLE, command_line,
                          kind_label, sci)
from tmath.defaults import ALPHA_PER_CLAIM

if TYPE_CHECKING:
    from tmath.engine.info import ClaimInfo
    from tmath.engine.results import AuditResult, ClaimResult, EmpiricalResult, ProofResult


WIDE = 120
"""From this terminal width on, tables add the detail columns (tags, the first test's result);
below it every row fits in two lines and the details are left to ``tmath explain``."""


def claims_table(infos: Sequence[ClaimInfo], tr: Translator | None = None,
                 width: int | None = None) -> Table:
    tr = tr or Translator()
    wide = width is None or width >= WIDE
    table = Table(box=None, header_style="bold", pad_edge=False)
    # an id is never broken; one wider than the whole terminal is folded, not cut short
    table.add_column(tr.ui("claim"), no_wrap=True, overflow="fold")
    table.add_column("§", no_wrap=True)
    table.add_column(tr.ui("title"), ratio=3)
    if wide:
        table.add_column(tr.ui("tags"), ratio=2)
    table.add_column(tr.ui("kind"), no_wrap=True)
    for info in infos:
        kind = tr.ui(kind_label(info))
        if getattr(info, "kind", "theorem") == "theorem" and info.no_proof:
            kind = tr.ui("none (heuristic)")
        cells = [info.id, info.section, Text(tr.title(info))]
        if wide:
            cells.append(Text(", ".join(info.tags)))
        table.add_row(*cells, kind)
    return table


LEVEL_NAMES = (N_("proved"), N_("proved-assuming"), N_("failed"), N_("error"))
"""Proof levels shown by their own name (marked so that the catalogs translate them)."""


def proof_cell(proof: ProofResult, tr: Translator | None = None, kind: str = "theorem") -> Text:
    tr = tr or Translator()
    mark, style = PROOF_MARK[proof.status]
    if proof.status == "proved-for-cases":
        label = f"{tr.ui('proved for')} {proof.cases}"
    elif proof.status == "none":
        label = tr.ui("none (cited)" if kind in ("fact", "empirical") else "none (heuristic)")
    else:
        label = tr.ui(proof.status)
    return Text(f"{mark} {label}", style=style)


def rests_on_text(proof: ProofResult, tr: Translator | None = None) -> str:
    """What a proved-assuming (or for-cases) proof rests on, in one line."""
    tr = tr or Translator()
    return "; ".join(tr.text(r) for r in proof.rests_on)


def check_cell(empirical: EmpiricalResult, tr: Translator | None = None) -> Text:
    mark, style = CHECK_MARK[empirical.status]
    passed = sum(t.passed for t in empirical.tests)
    if empirical.reason:
        reason = tr.ui(empirical.reason) if tr and empirical.status == "none" \
            else empirical.reason
        return Text(f"{mark} {reason}", style=style)
    failed = [t for t in empirical.tests if not t.passed]
    if not empirical.tests:
        return Text(f"{mark} {tr.ui('no tests recorded') if tr else 'no tests recorded'}",
                    style=style)
    shown = failed[0] if failed else empirical.tests[0]
    return Text(f"{mark} {passed}/{len(empirical.tests)} · {shown.summary}", style=style)


def figures_cell(result: ClaimResult) -> Text:
    if not result.figures:
        return Text("")
    good = sum(f.status == "accurate" for f in result.figures)
    style = "green" if good == len(result.figures) else "yellow"
    return Text(f"{good}/{len(result.figures)}", style=style)


SHORT_LEVEL = {"proved-assuming": "assuming", "proved-for-cases": "for cases"}


def verify_table(results: Sequence[ClaimResult], tr: Translator | None = None,
                 width: int | None = None) -> Table:
    """One row per claim. Narrower than :data:`WIDE`, the cells are short (a mark, the proof's
    level, the count of passing tests) so a row takes at most two lines at 80 columns."""
    tr = tr or Translator()
    wide = width is None or width >= WIDE
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column(tr.ui("claim"), no_wrap=True, overflow="fold")  # as list's
    table.add_column("§", no_wrap=True)
    table.add_column(tr.ui("proof"), overflow="fold" if wide else "ellipsis",
                     no_wrap=not wide)
    table.add_column(tr.ui("randomized check") if wide else tr.ui("check"),
                     overflow="fold" if wide else "ellipsis", no_wrap=not wide)
    table.add_column(tr.ui("figures"), justify="right", no_wrap=True)
    table.add_column(tr.ui("time"), justify="right", no_wrap=True)
    for r in results:
        claim_text = Text(r.info.id, style=VERDICT_STYLE[r.verdict])
        if r.verdict == "blocked":
            claim_text.append(f"\n ({tr.ui('blocked')}: {', '.join(r.blocked_by)})", style="red")
        unread = unread_formulas(r)
        if unread:
            claim_text.append(f"\n ({tr.ui('formulas unread')}: {len(unread)})", style="yellow")
        proof = proof_cell(r.proof, tr, r.info.kind) if wide else _short_proof(r, tr)
        check = check_cell(r.empirical, tr) if wide else _short_check(r, tr)
        table.add_row(claim_text, r.info.section, proof, check, figures_cell(r),
                      tr.ui("cached") if r.cached else f"{r.seconds:.1f}s")
    return table


UNREAD = ("unparsed", "not-compared")
"""What a recorded formula may be found to mean that leaves ``tmath check`` only its spelling."""


def unread_formulas(result: ClaimResult) -> list:
    """The claim's recorded formulas (one per formula) that were not read by meaning."""
    return list({f.formula: f for f in getattr(result, "formulas", ())
                 if f.meaning in UNREAD}.values())


def unread_formula_lines(results: Sequence[ClaimResult]) -> list[Text]:
    """Below the table, when a claim is marked "formulas unread": what that means and the
    command whose JSON says why, formula by formula (ids stay in the table only)."""
    if not any(unread_formulas(r) for r in results):
        return []
    return [Text("formulas unread (marked above): recorded formulas not read by meaning, which "
                 "tmath check matches by spelling only; tmath verify ID -f json gives each "
                 "formula's meaning and why", style="yellow")]


def _short_proof(result: ClaimResult, tr: Translator) -> Text:
    proof = result.proof
    mark, style = PROOF_MARK[proof.status]
    if getattr(result.info, "kind", "theorem") in ("empirical", "fact"):
        return Text(f"{mark} {tr.ui('cited')}", style="cyan")
    label = SHORT_LEVEL.get(proof.status, "heuristic" if proof.status == "none" else proof.status)
    return Text(f"{mark} {tr.ui(label)}", style=style)


def _short_check(result: ClaimResult, tr: Translator) -> Text:
    empirical = result.empirical
    mark, style = CHECK_MARK[empirical.status]
    if empirical.reason or not empirical.tests:
        return Text(f"{mark} {tr.ui(empirical.status)}", style=style)
    passed = sum(t.passed for t in empirical.tests)
    return Text(f"{mark} {passed}/{len(empirical.tests)}", style=style)


def verify_summary(results: Sequence[ClaimResult], seed: int, seconds: float,
                   load_errors: int = 0) -> Group:
    from tmath.engine.figures import show_values
    from tmath.engine.results import PASSING

    counts = {v: sum(r.verdict == v for r in results)
              for v in ("verified", "heuristic", "cited", "failed", "error", "blocked",
                        "timeout")}
    parts = [f"{counts['verified']} verified"]
    parts += [f"{n} {v}" for v, n in counts.items() if v != "verified" and n]
    if not counts["failed"] and not counts["error"]:
        parts.insert(1, "0 failed")
    bound = ALPHA_PER_CLAIM * sum(1 for r in results if r.empirical.alpha > 0)
    parts += [f"seed {seed}", f"suite false-alarm bound {sci(bound)}", f"{seconds:.1f} s"]
    style = "green" if sum(counts[v] for v in PASSING) == len(results) else "red"
    lines: list[Text] = [Text(" · ".join(parts), style=f"bold {style}")]
    levels = {level: sum(r.proof.status == level for r in results) for level in LEVELS}
    lines.append(Text("proofs: " + " · ".join(f"{n} {level}" for level, n in levels.items() if n),
                      style="dim"))
    for r in results:
        if r.proof.status in ("proved-assuming", "proved-for-cases") and r.proof.rests_on:
            lines.append(Text(f"  {r.info.id} rests on: {rests_on_text(r.proof)}", style="cyan"))
    by_kind = {k: sum(getattr(r.info, "kind", "theorem") == k for r in results)
               for k in ("theorem", "heuristic", "empirical", "fact")}
    if any(by_kind[k] for k in ("heuristic", "empirical", "fact")):
        lines.append(Text("kinds: " + " · ".join(f"{n} {k}" for k, n in by_kind.items() if n)
                          + " (only a theorem can be verified; empirical results and facts "
                            "are cited)", style="dim"))
    lines += unread_formula_lines(results)
    wrong = [(r.info.id, f) for r in results for f in r.wrong_figures]
    total = sum(len(r.figures) for r in results)
    if total:
        figure_line = f"printed figures: {total - len(wrong)}/{total} accurate"
        if wrong:
            figure_line += f"; the notes print {len(wrong)} wrong (true values below)"
        lines.append(Text(figure_line, style="yellow" if wrong else "green"))
        for claim_id, f in wrong:
            true = show_values(f.true_value, f.printed)
            lines.append(Text(f"  {claim_id}: {f.label}: printed {f.printed}, true {true}"
                              + (f" ({f.detail})" if f.detail else ""), style="yellow"))
    for r in results:
        if r.verdict not in PASSING:
            lines.append(Text(f"  {r.info.id} {r.verdict}: {r.reason}", style="red"))
            lines.append(command_line(f"    reproduce: {r.reproduce}"))
    if load_errors:
        lines.append(Text(f"{load_errors} claims module(s) could not be loaded (see above)",
                          style="bold red"))
    return Group(*lines)


def audit_table(audits: Sequence[AuditResult], width: int | None = None) -> Group:
    """Per claim: each foil and which part of each channel rejected it, then each test of the
    randomized check and the foils it killed (inert tests are flagged).

    From :data:`WIDE` columns on (or for a file, ``width`` None) one table with a claim column
    as wide as the longest id; narrower, each claim's id is a line of its own above its rows,
    so an id is never broken and the foils keep the width."""
    from tmath.engine.results import PASSING

    narrow = width is not None and width < WIDE

    def new_table(*columns: str, ratios: Sequence[int] = ()) -> Table:
        table = Table(box=None, header_style="bold", pad_edge=False, title_justify="left",
                      expand=narrow)
        if not narrow:
            table.add_column(columns[0], no_wrap=True, overflow="fold")  # the claim id
        for k, column in enumerate(columns[1:]):
            table.add_column(column, overflow="fold",
                             ratio=ratios[k] if narrow and ratios else None)
        return table

    def foil_rows(audit: AuditResult) -> list[list]:
        rows: list[list] = []
        if not getattr(audit.info, "has_check", True):
            return [[Text(f"(nothing to audit: {kind_label(audit.info)})", style="dim"),
                     proof_cell(audit.statement.proof, kind=audit.info.kind),
                     check_cell(audit.statement.empirical)]]
        if audit.statement.verdict not in PASSING:
            rows.append(["(the statement itself)", proof_cell(audit.statement.proof),
                         check_cell(audit.statement.empirical)])
        for i, foil in enumerate(audit.foils):
            label = Text(f"{i + 1}. {foil.text}" + (" (automatic)" if foil.origin == "automatic"
                                                    else ""))
            if foil.proof_rejects is None:
                proof = Text("– no proof to run", style="yellow")
            elif foil.proof_rejects:
                proof = Text(f"✓ {foil.proof_rejected_by or _why(foil.proof.reason)}",
                             style="green")
            else:
                proof = Text(f"✗ {foil.proof.status}: {foil.proof.reason or 'accepted'}",
                             style="red")
            if foil.check_rejects:
                killers = [t.title for t in foil.empirical.tests if not t.passed]
                more = f" (+{len(killers) - 1})" if len(killers) > 1 else ""
                check = Text(f"✓ {killers[0]}{more}", style="green")
            else:
                check = Text(f"✗ {foil.empirical.status}: {foil.empirical.headline}", style="red")
            rows.append([label, proof, check])
        return rows

    def kill_rows(audit: AuditResult) -> list[list]:
        rows = []
        for test in audit.tests:
            kills = audit.kills(test)
            if kills:
                cell = Text(", ".join(str(i + 1) for i in kills), style="green")
            elif test.sanity:
                cell = Text(f"none (sanity: {test.sanity})", style="dim")
            else:
                cell = Text("none: inert, it rejects no foil", style="red")
            rows.append([Text(test.title), cell])
        return rows

    def name(audit: AuditResult) -> Text:
        if not getattr(audit.info, "has_check", True):
            return Text(audit.info.id, style="green" if audit.strong else "red")
        if audit.statement.verdict not in PASSING:
            return Text(audit.info.id, style="red")
        return Text(audit.info.id, style="green" if audit.strong else "red")

    foils_header = ("claim", "foil", "proof", "randomized check")
    matrix_header = ("claim", "test", "kills foils")
    title = Text("which test rejects which foil", style="bold")
    if not narrow:
        table, matrix = new_table(*foils_header), new_table(*matrix_header)
        for audit in audits:
            for k, row in enumerate(foil_rows(audit)):
                table.add_row(name(audit) if k == 0 else "", *row)
            for k, row in enumerate(kill_rows(audit)):
                matrix.add_row(audit.info.id if k == 0 else "", *row)
        return Group(table, Text(""), title, matrix)
    parts: list = []
    for k, audit in enumerate(audits):
        table = new_table(*foils_header, ratios=(5, 3, 5))
        table.show_header = k == 0
        for row in foil_rows(audit):
            table.add_row(*row)
        parts += [name(audit), table]
    parts += [Text(""), title]
    shown = [a for a in audits if a.tests]
    for k, audit in enumerate(shown):
        matrix = new_table(*matrix_header, ratios=(3, 1))
        matrix.show_header = k == 0
        for row in kill_rows(audit):
            matrix.add_row(*row)
        parts += [Text(audit.info.id), matrix]
    return Group(*parts)


def _why(reason: str | None) -> str:
    if not reason:
        return "failed"
    return reason.split("; ", 1)[1] if "; " in reason else reason


def audit_summary(audits: Sequence[AuditResult], seconds: float) -> Text:
    foils = sum(len(a.foils) for a in audits)
    weak = [a.info.id for a in audits if not a.strong]
    inert = sum(len(a.inert_tests) for a in audits)
    tests = sum(len(a.tests) for a in audits)
    unchecked = sum(1 for a in audits if not getattr(a.info, "has_check", True))
    text = f"{len(audits)} claims · {foils} foils · {tests} tests, {inert} inert · " + (
        f"{unchecked} with no check to audit · " if unchecked else "")
    if weak:
        return Text(text + f"{len(weak)} weak: {', '.join(weak)} · {seconds:.1f} s", style="bold red")
    return Text(text + f"every foil rejected by both checks · {seconds:.1f} s", style="bold green")
