"""``tmath cache``: where the cache lives, and forgetting it."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from tmath.cli.boundary import boundary
from tmath.cli.console import err, out
from tmath.exitcodes import ExitCode

cache_app = typer.Typer(help="Manage the on-disk cache of results and claim metadata.",
                        no_args_is_help=True)


@cache_app.command("clear")
@boundary
def cache_clear() -> None:
    """Delete every cached result and the claim index (a symlinked cache folder is followed: only tmath's own entries are removed there, the link is kept)."""
    from tmath.engine.cache import cache_dir, clear

    removed, failed = clear()
    out.print(f"removed {removed} cached file(s) from {cache_dir()}", highlight=False)
    if failed:
        for problem in failed[:5]:
            err.print(f"[bold red]error:[/] cannot remove {escape(problem)}", highlight=False)
        if len(failed) > 5:
            err.print(f"… and {len(failed) - 5} more", highlight=False)
        raise typer.Exit(ExitCode.ENVIRONMENT)


@cache_app.command("path")
@boundary
def cache_path() -> None:
    """Print where the cache lives ($XDG_CACHE_HOME/tmath)."""
    from tmath.engine.cache import cache_dir

    sys.stdout.write(f"{cache_dir()}\n")
