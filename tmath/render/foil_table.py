"""Foils on an explain page: the claim's own foils in full, the automatic near-misses in one
compact table (what changed, the changed statement, which check rejected it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tmath.i18n.markers import N_
from tmath.render.messages import check_headline, proof_message

if TYPE_CHECKING:
    from tmath.engine.results import FoilOutcome
    from tmath.i18n import Translator

COLUMNS = ("", N_("near-miss"), N_("changed statement"), N_("rejected by"))
"""The table's columns ("check" there is the randomized check)."""


def foil_parts(foils: Sequence[FoilOutcome], tr: Translator, info=None,
               sides: Sequence[str] = ()) -> list[RenderableType]:
    """Each declared foil with both checks' verdicts, then the table of automatic ones
    (``sides``: the left-hand sides of the statement's parts, see :func:`changed_value`)."""
    parts: list[RenderableType] = []
    for foil in foils:
        if foil.origin != "automatic":
            parts += _declared(foil, tr, info)
    automatic = [f for f in foils if f.origin == "automatic"]
    if automatic:
        parts.append(Text(tr.ui("automatic near-misses") + f" ({len(automatic)})", style="bold"))
        parts.append(near_miss_table(automatic, tr, info, sides))
    return parts


def _mark(ok: bool) -> Text:
    return Text("✓" if ok else "✗", style="green" if ok else "red")


def _declared(foil: FoilOutcome, tr: Translator, info) -> list[RenderableType]:
    """The foil, then why each check rejected it (its status only when it did not fail)."""
    line = _mark(foil.rejected)
    line.append(" " + tr.text(foil.text, info), style="bold")
    parts: list[RenderableType] = [line]
    if foil.proof_rejects is not None:
        status = "" if foil.proof_rejects else f"{tr.ui(foil.proof.status)} — "
        parts.append(Text(f"    {tr.ui('proof')}: {status}"
                          f"{proof_message(foil.proof.reason or '', tr, info)}",
                          style="dim" if foil.proof_rejects else "red"))
    status = "" if foil.check_rejects else f"{tr.ui(foil.empirical.status)} — "
    parts.append(Text(f"    {tr.ui('randomized check')}: {status}"
                      f"{check_headline(foil.empirical, tr, info)}",
                      style="dim" if foil.check_rejects else "red"))
    return parts


def rejected_by(foil: FoilOutcome, tr: Translator) -> Text:
    """Which checks rejected the foil, and in red which accepted it."""
    shown = Text()
    if foil.proof_rejects is not None:
        shown.append(tr.ui("proof") if foil.proof_rejects else tr.ui("accepted by the proof"),
                     style="" if foil.proof_rejects else "red")
        shown.append(" · ")
    shown.append(tr.ui("check") if foil.check_rejects
                 else tr.ui("accepted by the check"),
                 style="" if foil.check_rejects else "red")
    return shown


def changed_value(statement: str, sides: Sequence[str]) -> str:
    """A near-miss's statement as the page shows it: ``= value`` when the statement has one
    part with that left-hand side, ``(k) = value`` for part k of several (the statement above
    numbers them), else in full."""
    side, equals, value = statement.partition(" = ")
    if not equals or side not in sides:
        return statement
    return f"= {value}" if len(sides) == 1 else f"({sides.index(side) + 1}) = {value}"


def near_miss_table(foils: Sequence[FoilOutcome], tr: Translator, info=None,
                    sides: Sequence[str] = ()) -> Table:
    """One row per automatic near-miss: ✓/✗, its kind, the changed statement, rejected by."""
    from tmath.engine.foil_kinds import statement_and_kind

    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in COLUMNS:
        table.add_column(tr.ui(column), overflow="fold")
    for foil in foils:
        statement, kind = statement_and_kind(foil.text)
        table.add_row(_mark(foil.rejected), Text(tr.ui(kind)),
                      Text(changed_value(statement, sides)), rejected_by(foil, tr))
    return table
