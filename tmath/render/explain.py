"""The ``tmath explain ID`` page: statement, premises, derivation, evidence, figures, foils."""

from __future__ import annotations

from typing import Any, Sequence

import sympy as sp
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tmath.render import STEP_MARK, VERDICT_STYLE
from tmath.render.tables import check_cell, proof_cell
from tmath.runner import AuditResult


def pretty_statement(lhs: Any, value: Any) -> str | None:
    """``lhs = value`` in Unicode math, or None when the statement has no symbolic form."""
    if lhs is None or value is None:
        return None
    pairs = zip(lhs, value) if isinstance(lhs, tuple) else [(lhs, value)]
    try:
        return "\n\n".join(sp.pretty(sp.Eq(sp.sympify(a), sp.sympify(b), evaluate=False),
                                     use_unicode=True) for a, b in pairs)
    except (sp.SympifyError, TypeError):
        return None


def explain_page(audit: AuditResult, dependants: Sequence[str]) -> RenderableType:
    spec, result = audit.spec, audit.statement
    parts: list[RenderableType] = []
    head = Text(f"{spec.id}", style=f"bold {VERDICT_STYLE[result.verdict]}")
    head.append(f"  §{spec.section}  {result.verdict}", style=VERDICT_STYLE[result.verdict])
    parts += [head, Text(spec.title, style="bold")]
    if spec.summary:
        parts.append(Text(spec.summary))

    parts.append(Rule("statement", align="left"))
    parts.append(Text(spec.statement.text))
    pretty = pretty_statement(spec.statement.lhs, spec.statement.value)
    if pretty:
        parts.append(Padding(Text(pretty), (1, 0, 0, 2)))

    parts.append(Rule("premises", align="left"))
    parts += [Text(f"• {p}") for p in spec.premises]

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

    if spec.sources or spec.depends_on or dependants:
        parts.append(Rule("sources and related claims", align="left"))
    for source in spec.sources:
        parts.append(Text(f"• {source.citation}" + (f"  {source.link}" if source.link else "")))
    if spec.depends_on:
        parts.append(Text("builds on: " + ", ".join(spec.depends_on)))
    if dependants:
        parts.append(Text("used by: " + ", ".join(dependants)))
    parts.append(Text(f"defined in {spec.path}:{spec.line}", style="dim"))
    parts.append(Text(f"reproduce: tmath verify {spec.id} --seed {result.seed}", style="dim"))
    return Group(*parts)
