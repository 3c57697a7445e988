"""The one place where errors become exit codes (typer itself exits 2 on bad options)."""

from __future__ import annotations

import functools
import os
from typing import Callable

import typer
from rich.markup import escape

from tmath.cli.console import err
from tmath.errors import TmathError, UsageError
from tmath.exitcodes import ExitCode


def boundary(command: Callable) -> Callable:
    """Wrap a command so that every error it raises ends as one line and its exit code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except typer.Exit:
            raise
        except UsageError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            raise typer.Exit(ExitCode.USAGE) from None
        except TmathError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            raise typer.Exit(ExitCode.LOAD_ERROR) from None
        except KeyboardInterrupt:
            err.print("[bold red]interrupted[/]")
            raise typer.Exit(ExitCode.INTERRUPTED) from None
        except Exception as exc:  # a bug in tmath: say so; the traceback on request
            err.print(f"[bold red]internal error:[/] {escape(f'{type(exc).__name__}: {exc}')}",
                      highlight=False)
            if os.environ.get("TMATH_DEBUG"):
                err.print_exception()
            else:
                err.print("set TMATH_DEBUG=1 to see the traceback, and please report it")
            raise typer.Exit(ExitCode.LOAD_ERROR) from None

    return wrapper
