"""The ``tmath explain ID`` page: statement, premises, derivation, evidence, figures, foils."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tmath.engine.figures import show_values
from tmath.i18n import Translator
from tmath.render import STEP_MARK, VERDICT_STYLE, command_line, kind_label
from tmath.render.tables import check_cell, proof_cell

if TYPE_CHECKING:
    from tmath.engine.results import AuditResult


def explain_page(audit: AuditResult, dependants: Sequence[str], tr: Translator | None = None,
                 latex: bool = False, sketch: Sequence[str] = ()) -> RenderableType:
    tr = tr or Translator()
    info, result = audit.info, audit.statement
    parts: list[RenderableType] = []

    def section(name: str) -> None:
        parts.append(Rule(tr.ui(name), align="left"))

    head = Text(f"{info.id}", style=f"bold {VERDICT_STYLE[result.verdict]}")
    head.append(f"  §{info.section}  {tr.ui(result.verdict)}", style=VERDICT_STYLE[result.verdict])
    head.append(f"  ({tr.ui('kind')}: {tr.ui(kind_label(info))})", style="dim")
    parts += [head, Text(tr.title(info), style="bold")]
    if tr.summary(info):
        parts.append(Text(tr.summary(info)))
    kind = getattr(info, "kind", "theorem")

    section("statement")
    parts.append(Text(tr.text(info.statement, info)))
    if latex and info.statement_latex:
        parts.append(Padding(Text(info.statement_latex), (0, 0, 0, 2)))
    elif getattr(info, "statement_linear", None) or info.statement_pretty:
        parts.append(Formula(getattr(info, "statement_linear", None) or "", info.statement_pretty))

    if kind != "theorem":
        parts += _kind_section(info, tr)
    if info.premises:
        section("premises")
        parts += [Text(f"• {tr.text(p, info)}") for p in info.premises]
    if kind != "theorem" and not info.has_check:
        parts += _closing(info, result, dependants, tr)
        return Group(*parts)

    section("derivation")
    parts.append(proof_cell(result.proof, tr, info.kind))
    if result.proof.status == "none":
        parts.append(Text(f"{tr.ui('reason')}: {tr.text(result.proof.reason or '', info)}",
                          style="yellow"))
    if result.proof.rests_on:
        parts.append(Text(f"{tr.ui('rests on')}: "
                          + "; ".join(tr.text(r, info) for r in result.proof.rests_on),
                          style="yellow"))
    for number, step in enumerate(result.proof.steps, 1):
        parts.append(MathStep(number, step, tr.text(step.chain, info), tr.text(step.why, info),
                              latex))
    if result.proof.rules:
        parts.append(Text(tr.ui("rules taken as premises (○)") + ": "
                          + "; ".join(tr.text(r, info) for r in result.proof.rules), style="cyan"))

    section("randomized check")
    parts.append(check_cell(result.empirical, tr))
    tests = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("", "test", "at", "result", "resolution"):
        tests.add_column(tr.ui(column), overflow="fold")
    for t in result.empirical.tests:
        mark = Text("✓", style="green") if t.passed else Text("✗", style="red")
        detail = t.summary + (f", α={t.alpha:.2g}" if t.alpha else "")
        resolution = tr.text(t.resolution or "") + (f" ({t.resolution_reason})"
                                                    if t.resolution_reason else "")
        tests.add_row(mark, Text(tr.text(t.label, info)), Text(t.at), Text(detail),
                      Text(resolution))
    parts.append(tests)
    if sketch:
        section("plot")
        parts += [Text(line) for line in sketch]

    if result.figures:
        section("figures printed in the notes")
        figures = Table(box=None, header_style="bold", pad_edge=False)
        for column in ("", "figure", "printed", "true value", "tolerance"):
            figures.add_column(tr.ui(column), overflow="fold")
        for f in result.figures:
            ok = f.status == "accurate"
            figures.add_row(Text("✓" if ok else "✗", style="green" if ok else "yellow"),
                            Text(tr.text(f.label, info)), Text(f.printed),
                            Text(show_values(f.true_value) or f.detail),
                            Text(tr.text(f.tolerance)))
        parts.append(figures)

    section("foils (each must be rejected by both checks)")
    for foil in audit.foils:
        ok = foil.rejected
        line = Text("✓ " if ok else "✗ ", style="green" if ok else "red")
        line.append(tr.text(foil.text, info)
                    + (f" [{tr.ui('automatic')}]" if foil.origin == "automatic" else ""),
                    style="bold")
        parts.append(line)
        if foil.proof_rejects is not None:
            parts.append(Text(f"    {tr.ui('proof')}: {tr.ui(foil.proof.status)} — "
                              f"{foil.proof.reason}", style="dim"))
        parts.append(Text(f"    {tr.ui('randomized check')}: {tr.ui(foil.empirical.status)} — "
                          f"{foil.empirical.headline}", style="dim"))

    parts += _closing(info, result, dependants, tr)
    return Group(*parts)


class Formula:
    """A formula on one line of Unicode math where it fits, else SymPy's 2D layout."""

    def __init__(self, line: str, block: str | None) -> None:
        self.line, self.block = line, block

    def __rich_console__(self, console, options):
        if self.line and (len(self.line) + 2 <= options.max_width or not self.block):
            yield Padding(Text(self.line), (0, 0, 0, 2))
        elif self.block:
            yield Padding(Text(self.block, no_wrap=True, overflow="ellipsis"), (0, 0, 0, 2))


class MathStep:
    """One derivation step: ``before R after`` on one line of Unicode math where it fits the
    terminal, else SymPy's 2D layout below the step's heading; LaTeX with ``--latex``."""

    def __init__(self, number: int, step, chain: str, why: str, latex: bool) -> None:
        self.number, self.step, self.chain, self.why, self.latex = number, step, chain, why, latex

    def __rich_console__(self, console, options):
        step = self.step
        mark, style = STEP_MARK[step.kind]
        head = Text(f"{self.number:>3}. ", style="dim")
        head.append(f"{mark} ", style=style)
        if self.chain:
            head.append(f"[{self.chain}] ", style="dim")
        relation = {"<=": "≤", ">=": "≥"}.get(step.relation, step.relation)
        math = step.latex if self.latex and step.latex else (
            f"{step.before}  {relation}  {step.after}" if step.before or step.after else "")
        tail = Text(f"  {self.why}", style=style if step.kind != "checked" else "dim")
        if step.detail:
            tail.append(f"  ({step.detail})", style="red" if step.kind == "failed" else "dim")
        one_line = head.copy()
        one_line.append(math)
        if one_line.cell_len + tail.cell_len <= options.max_width or self.latex or not step.block:
            one_line.append_text(tail)
            yield one_line
            return
        head.append_text(tail)
        yield head
        yield Padding(Text(step.block, no_wrap=True, overflow="ellipsis"), (0, 0, 0, 7))


def _kind_section(info, tr: Translator) -> list[RenderableType]:
    """What a heuristic or cited claim rests on: its reason, its sources with their locators,
    the measurement it reports, the passages that anchor it, the works it is not from."""
    kind = info.kind
    parts: list[RenderableType] = [Rule(tr.ui("why this is not verified" if kind == "heuristic"
                                              else "what it is cited from"), align="left")]
    if info.reason:
        parts.append(Text(f"{tr.ui('reason')}: {tr.text(info.reason, info)}", style="yellow"))
    for source in info.sources:
        parts.append(Text(f"• {source.shown}" + (f"  {source.link}" if source.link else "")))
        if source.unverified:
            parts.append(Text(f"    {tr.ui('not verified')}: {source.unverified}", style="yellow"))
    if info.reported:
        parts.append(Text(f"{tr.ui('reported')}: {tr.text(info.reported, info)}"))
    for source, why in info.not_in:
        parts.append(Text(f"{tr.ui('not from')} {source.shown}: {tr.text(why, info)}",
                          style="magenta"))
    for passage in info.passages:
        terms = " · ".join(" | ".join(t) for t in passage.terms)
        parts.append(Text(f"{tr.ui('anchored by')} §{passage.section or info.section}: {terms}",
                          style="dim"))
    return parts


def _closing(info, result, dependants, tr: Translator) -> list[RenderableType]:
    parts: list[RenderableType] = []
    cited = getattr(info, "kind", "theorem") != "theorem"  # its sources are shown above
    if (info.sources and not cited) or info.depends_on or dependants:
        parts.append(Rule(tr.ui("sources and related claims"), align="left"))
    for source in () if cited else info.sources:
        parts.append(Text(f"• {source.shown}" + (f"  {source.link}" if source.link else "")))
    if info.depends_on:
        parts.append(Text(f"{tr.ui('builds on')}: " + ", ".join(info.depends_on)))
    if dependants:
        parts.append(Text(f"{tr.ui('used by')}: " + ", ".join(dependants)))
    parts.append(Text(f"{tr.ui('defined in')} {info.path}:{info.line}", style="dim"))
    parts.append(command_line(f"{tr.ui('reproduce')}: {result.reproduce}"))
    return parts
