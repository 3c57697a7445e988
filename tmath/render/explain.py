"""The ``tmath explain ID`` page: statement, premises, derivation (:mod:`.derivation`),
evidence, figures, foils (:mod:`.foil_table`), sources and where the claim is defined."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tmath.engine.figures import show_values
from tmath.i18n import Translator
from tmath.render import CHECK_MARK, VERDICT_STYLE, command_line, kind_label, sci
from tmath.render.derivation import MAX_BLOCK_LINES, derivation_parts
from tmath.render.foil_table import foil_parts
from tmath.render.minus import minus_signs_in_text
from tmath.render.messages import point_text, summary_text
from tmath.render.location import source_location
from tmath.render.tables import check_cell, proof_cell

if TYPE_CHECKING:
    from tmath.engine.results import AuditResult


def explain_page(audit: AuditResult, dependants: Sequence[str], tr: Translator | None = None,
                 latex: bool = False, sketch: Sequence[str] = ()) -> RenderableType:
    """One claim's page, in ``tr``'s language: what it says, what it assumes, how it is proved
    and checked, the figures of the notes, its foils, and where it comes from."""
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
        parts.append(Text(f"{tr.ui('reason')}: "
                          + minus_signs_in_text(tr.text(result.proof.reason or '', info)),
                          style="yellow"))
    parts += derivation_parts(result.proof, tr, info, latex)

    section("randomized check")
    empirical = result.empirical
    if empirical.tests and not empirical.reason:
        mark, style = CHECK_MARK[empirical.status]
        passed = sum(t.passed for t in empirical.tests)
        levels = {t.alpha for t in empirical.tests if t.alpha}
        line = Text(f"{mark} {passed}/{len(empirical.tests)} {tr.ui('tests passed')}",
                    style=style)
        if len(levels) == 1:
            line.append(f" · {tr.ui('significance level per test')}: α={sci(levels.pop())}",
                        style="dim")
        parts.append(line)
    else:
        cell = check_cell(empirical, tr)
        parts.append(Text(minus_signs_in_text(cell.plain), style=cell.style))
    parts += test_lines(result.empirical.tests, tr, info)
    if sketch:
        section("plot")
        parts += [Text(minus_signs_in_text(line)) for line in sketch]

    if result.figures:
        section("figures printed in the notes")
        figures = Table(box=None, header_style="bold", pad_edge=False)
        for column in ("", "figure", "printed", "true value", "tolerance"):
            figures.add_column(tr.ui(column), overflow="fold")
        for f in result.figures:
            ok = f.status == "accurate"
            figures.add_row(Text("✓" if ok else "✗", style="green" if ok else "yellow"),
                            Text(tr.text(f.label, info)), Text(f.printed),
                            Text(minus_signs_in_text(show_values(f.true_value) or f.detail)),
                            Text(tr.text(f.tolerance)))
        parts.append(figures)

    if audit.foils:
        section("foils (each must be rejected by both checks)")
        parts += foil_parts(audit.foils, tr, info, statement_sides(info))

    parts += _closing(info, result, dependants, tr)
    return Group(*parts)


class Formula:
    """A statement's mathematics: each part (``a = b; c = d``) on one line of Unicode math
    where it fits; else SymPy's 2D layout when that fits (see :func:`math_lines`); else the
    parts wrapped."""

    def __init__(self, line: str, block: str | None) -> None:
        self.line, self.block = line, block

    def __rich_console__(self, console, options):
        width = options.max_width - 2
        parts = self.line.split("; ") if self.line else []
        block = (self.block or "").splitlines()
        numbered = len(parts) > 1  # near-misses name a part by its number
        if block and (not parts or any(Text(p).cell_len > width for p in parts)) and \
                len(block) <= MAX_BLOCK_LINES and max(Text(b).cell_len for b in block) <= width:
            for number, piece in enumerate(self.block.split("\n\n"), 1):
                if numbered:
                    yield Padding(Text(f"({number})"), (0, 0, 0, 2))
                yield Padding(Text(piece, no_wrap=True), (0, 0, 0, 2))
            return
        for number, part in enumerate(parts, 1):
            yield Padding(Text((f"({number}) " if numbered else "") + part), (0, 0, 0, 2))


def statement_sides(info) -> list[str]:
    """The left-hand sides of the statement's parts, as its one-line form writes them."""
    line = getattr(info, "statement_linear", None) or ""
    return [re.split(r" [=≤≥<>] ", part, maxsplit=1)[0] for part in line.split("; ") if part]


def test_lines(tests, tr: Translator, info=None) -> list[RenderableType]:
    """Each test of the randomized check: where it ran, then what it found and how fine it is;
    the significance level once when all tests share one."""
    levels = {t.alpha for t in tests if t.alpha}
    several = len(levels) > 1  # one level is said with the count of tests passed
    resolutions = {_resolution(t, tr, info) for t in tests}
    parts: list[RenderableType] = []
    if len(resolutions) == 1 and "" not in resolutions:  # said once, above the tests
        parts.append(Text(f"{tr.ui('resolution')}: {resolutions.pop()}", style="dim"))
        resolutions = set()
    for t in tests:
        line = Text("✓ ", style="green") if t.passed else Text("✗ ", style="red")
        line.append(tr.text(t.label, info), style="bold")
        point = point_text(t, tr, info)
        if point:
            line.append(f"  {point}")
        parts.append(line)
        detail = summary_text(t, tr, info) + (f", α={sci(t.alpha)}" if t.alpha and several
                                              else "")
        if resolutions and t.resolution:
            detail += f"; {tr.ui('resolution')}: {_resolution(t, tr, info)}"
        parts.append(Padding(Text(detail, style="dim"), (0, 0, 0, 4)))
    return parts


def _resolution(test, tr: Translator, info=None) -> str:
    """How small a deviation the test resolves, and why it is coarse when it is."""
    if not test.resolution:
        return ""
    return tr.text(test.resolution) + (f" ({tr.text(test.resolution_reason, info)})"
                                        if test.resolution_reason else "")


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
    parts.append(Text(f"{tr.ui('defined in')} {source_location(info, tr)}", style="dim"))
    parts.append(command_line(f"{tr.ui('reproduce')}: {result.reproduce}"))
    return parts
