"""Options shared by several commands, declared once (``Annotated`` types for typer).

Values typer cannot check by type alone (a finite, positive ``--timeout``; ``--jobs`` ≥ 1;
``--max-memory``) are checked by :mod:`tmath.cli.common` (``parse_timeout``, ``jobs_or_cores``,
``parse_max_memory``), so a bad value is a one-line usage error.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

DEFAULT_MAX_MEMORY_MB = 4096
"""Megabytes a claim's worker may map beyond what it starts with. Measured over `verify all`
and `audit all`: the heaviest built-in claim (label-smoothing-loss-split) peaks at 188 MB
resident and maps 92 MB more than its worker started with (510 MB in all); 4096 leaves more
than an order of magnitude for NumPy's and SymPy's temporaries on larger inputs."""
MAX_TIMEOUT = 7 * 24 * 3600.0
"""The longest --timeout accepted: a week."""


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
    help="Also load the claims defined in the *.py files of DIR, next to the built-in claims "
         "(repeatable). A claims folder is code: loading it runs it.")]
NoBuiltinOption = Annotated[bool, typer.Option(
    "--no-builtin", help="Use only the --claims folders, not the built-in claims.")]
SeedOption = Annotated[str, typer.Option(
    "--seed", metavar="N|random",
    help="Seed of the randomized checks (each claim derives its own stream from it). "
         "'random' picks one and prints it.")]
FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "--output", "-o", metavar="FILE",
    help="Write the report to FILE as well (atomically; through a symlink to its target). "
         "An input, a read-only file, a folder, a device or a FIFO is refused (exit 2).")]
JobsOption = Annotated[Optional[int], typer.Option(
    "--jobs", "-j", metavar="N",
    help="Worker processes, at least 1 (default: the usable cores). Output is identical for "
         "any N.")]
TimeoutOption = Annotated[float, typer.Option(
    "--timeout", metavar="SECONDS",
    help="Stop a claim that runs longer than this (its proof, check and figures together), "
         "and every process it started. A finite number of seconds > 0.")]
MaxMemoryOption = Annotated[int, typer.Option(
    "--max-memory", metavar="MB",
    help="Memory a claim's worker may allocate beyond what it starts with; a claim that needs "
         "more is stopped with an error (Linux; 0: no limit).")]
NoCacheOption = Annotated[bool, typer.Option(
    "--no-cache", help="Run everything again instead of reusing unchanged cached results.")]
LangOption = Annotated[Optional[str], typer.Option(
    "--lang", metavar="en|zh",
    help="Language of titles, summaries, justifications and headers (default: $TMATH_LANG or en).")]
VerboseOption = Annotated[bool, typer.Option(
    "--verbose", "-v",
    help="Show the traceback of every claim that raised an error, and what claims printed.")]
IdsArgument = Annotated[Optional[list[str]], typer.Argument(
    metavar="all|ID...", help="Claim ids, or 'all' (the default).", show_default=False,
    autocompletion=complete_ids)]
