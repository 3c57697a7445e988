"""The ``tmath explain ID`` page: statement, premises, derivation, evidence, figures, foils."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tmath.render import STEP_MARK, VERDICT_STYLE
from tmath.render.tables import check_cell, proof_cell

if TYPE_CHECKING:
    from tmath.experiment import EmpiricalResult
    from tmath.proof import ProofResult
    from tmath.runner import AuditResult, ClaimResult


def explain_page(audit: AuditResult, dependants: Sequence[str]) -> RenderableType:
    info, result = audit.info, audit.statement
    parts: list[RenderableType] = []
    head = Text(f"{info.id}", style=f"bold {VERDICT_STYLE[result.verdict]}")
    head.append(f"  §{info.section}  {result.verdict}", style=VERDICT_STYLE[result.verdict])
    parts += [head, Text(info.title, style="bold")]
    if info.summary:
        parts.append(Text(info.summary))

    parts.append(Rule("statement", align="left"))
    parts.append(Text(info.statement))
    if info.statement_pretty:
        parts.append(Padding(Text(info.statement_pretty), (1, 0, 0, 2)))

    parts.append(Rule("premises", align="left"))
    parts += [Text(f"• {p}") for p in info.premises]

    parts.append(Rule("derivation", align="left"))
    parts.append(proof_cell(result.proof))
    if result.proof.status == "none":
        parts.append(Text(f"reason: {result.proof.reason}", style="yellow"))
    for number, step in enumerate(result.proof.steps, 1):
        mark, style = STEP_MARK[step.kind]
        line = Text(f"{number:>3}. ", style="dim")
        line.append(f"{mark} ", style=style)
        line.append(f"[{step.chain}] " if step.chain else "", style="dim")
        line.append(f"{step.before}  =  {step.after}")
        line.append(f"    {step.why}", style=style if step.kind != "checked" else "dim")
        if step.detail:
            line.append(f"  ({step.detail})", style="red" if step.kind == "failed" else "dim")
        parts.append(line)
    if result.proof.rules:
        parts.append(Text("rules taken as premises (○): " + "; ".join(result.proof.rules),
                          style="cyan"))

    parts.append(Rule("randomized check", align="left"))
    parts.append(check_cell(result.empirical))
    tests = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("", "test", "result", "resolution"):
        tests.add_column(column, overflow="fold")
    for t in result.empirical.tests:
        mark = Text("✓", style="green") if t.passed else Text("✗", style="red")
        detail = t.summary + (f", α={t.alpha:.2g}" if t.alpha else "")
        tests.add_row(mark, t.label, detail, t.resolution or "")
    parts.append(tests)

    if result.figures:
        parts.append(Rule("figures printed in the notes", align="left"))
        figures = Table(box=None, header_style="bold", pad_edge=False)
        for column in ("", "figure", "printed", "true value", "tolerance"):
            figures.add_column(column, overflow="fold")
        for f in result.figures:
            ok = f.status == "accurate"
            figures.add_row(Text("✓" if ok else "✗", style="green" if ok else "yellow"),
                            f.label, f.printed,
                            ", ".join(f"{v:.6g}" for v in f.true_value) or f.detail,
                            f.tolerance)
        parts.append(figures)

    parts.append(Rule("foils (each must be rejected by both checks)", align="left"))
    for foil in audit.foils:
        ok = foil.rejected
        line = Text("✓ " if ok else "✗ ", style="green" if ok else "red")
        line.append(foil.text + (" [automatic]" if foil.origin == "automatic" else ""),
                    style="bold")
        parts.append(line)
        if foil.proof_rejects is not None:
            parts.append(Text(f"    proof: {foil.proof.status} — {foil.proof.reason}",
                              style="dim"))
        parts.append(Text(f"    check: {foil.empirical.status} — {foil.empirical.headline}",
                          style="dim"))

    if info.sources or info.depends_on or dependants:
        parts.append(Rule("sources and related claims", align="left"))
    for source in info.sources:
        parts.append(Text(f"• {source.citation}" + (f"  {source.link}" if source.link else "")))
    if info.depends_on:
        parts.append(Text("builds on: " + ", ".join(info.depends_on)))
    if dependants:
        parts.append(Text("used by: " + ", ".join(dependants)))
    parts.append(Text(f"defined in {info.path}:{info.line}", style="dim"))
    parts.append(Text(f"reproduce: tmath verify {info.id} --seed {result.seed}", style="dim"))
    return Group(*parts)
