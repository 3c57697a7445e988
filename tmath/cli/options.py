"""Options shared by several commands, declared once (``Annotated`` types for typer)."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer


class Format(str, enum.Enum):
    table = "table"
    json = "json"


def complete_ids(incomplete: str) -> list[str]:
    """Shell completion of claim ids (reads the metadata index; no heavy imports)."""
    from tmath.engine.registry import catalog

    try:
        ids = list(catalog().claims)
    except Exception:
        return []
    return [i for i in ["all", *ids] if i.startswith(incomplete)]


ClaimsOption = Annotated[Optional[list[Path]], typer.Option(
    "--claims", metavar="DIR",
    help="Also load the claims defined in the *.py files of DIR (repeatable).")]
SeedOption = Annotated[str, typer.Option(
    "--seed", metavar="N|random",
    help="Seed of the randomized checks (each claim derives its own stream from it). "
         "'random' picks one and prints it.")]
FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "--output", "-o", metavar="FILE", help="Write the report to FILE (atomically) as well.")]
JobsOption = Annotated[Optional[int], typer.Option(
    "--jobs", "-j", min=1, metavar="N",
    help="Worker processes (default: the usable cores). Output is identical for any N.")]
TimeoutOption = Annotated[float, typer.Option(
    "--timeout", min=0.001, metavar="SECONDS",
    help="Stop a claim that runs longer than this (its proof, check and figures together).")]
NoCacheOption = Annotated[bool, typer.Option(
    "--no-cache", help="Run everything again instead of reusing unchanged cached results.")]
LangOption = Annotated[Optional[str], typer.Option(
    "--lang", metavar="en|zh",
    help="Language of titles, summaries, justifications and headers (default: $TMATH_LANG or en).")]
VerboseOption = Annotated[bool, typer.Option(
    "--verbose", "-v", help="Show the traceback of every claim that raised an error.")]
IdsArgument = Annotated[Optional[list[str]], typer.Argument(
    metavar="all|ID...", help="Claim ids, or 'all' (the default).", show_default=False,
    autocompletion=complete_ids)]
