"""``tmath cache``: where the cache lives, and forgetting it."""

from __future__ import annotations

import sys

import typer

from tmath.cli.boundary import boundary
from tmath.cli.console import out

cache_app = typer.Typer(help="Manage the on-disk cache of results and claim metadata.",
                        no_args_is_help=True)


@cache_app.command("clear")
@boundary
def cache_clear() -> None:
    """Delete every cached result and the claim index."""
    from tmath.engine.cache import cache_dir, clear

    removed = clear()
    out.print(f"removed {removed} cached file(s) from {cache_dir()}")


@cache_app.command("path")
@boundary
def cache_path() -> None:
    """Print where the cache lives ($XDG_CACHE_HOME/tmath)."""
    from tmath.engine.cache import cache_dir

    sys.stdout.write(f"{cache_dir()}\n")
