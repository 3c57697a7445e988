"""What the commands share: loading claims, seeds, option values, caches, writing outputs, the
report-and-exit path. Only light modules are imported here; the engine comes in when a
command runs.

``write_text(path, text, inputs=...)`` and ``write_bytes`` (from :mod:`tmath.cli.outputs`)
are the one way a command writes a file: never over one of ``inputs``, never half a file.
"""

from __future__ import annotations

import math
import os
import secrets
import sys
from pathlib import Path
from typing import Callable, Optional

import typer

from tmath.cli.console import err, out
from tmath.cli.options import Format
from tmath.cli.outputs import OutputError, output_target, write_bytes, write_text  # noqa: F401
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


def parse_seed(text: str) -> int:
    if text == "random":
        seed = secrets.randbelow(2**32)
        err.print(f"seed {seed} (replay with --seed {seed})")
        return seed
    try:
        seed = int(text)
    except ValueError:
        raise UsageError(f"--seed must be a non-negative integer or 'random', not {text!r}") from None
    if seed < 0:
        raise UsageError(f"--seed must be a non-negative integer or 'random', not {seed}")
    return seed


def translator(lang: Optional[str]):
    from tmath.i18n import LANGUAGES, Translator, language

    if lang is not None and lang.lower() not in LANGUAGES:
        raise UsageError(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return Translator(language(lang))


def load_catalog(claims: Optional[list[Path]], no_builtin: bool = False):
    """The claim catalog (metadata; the claims modules are imported only when needed).

    ``claims`` folders are added to the built-in claims; ``no_builtin`` uses only them. The
    same in every command. Load errors are printed on stderr (the command exits 3)."""
    from tmath.engine.registry import catalog

    _check_folders(claims, no_builtin)
    found = catalog(claims or [], builtin=not no_builtin)
    _print_load_errors(found.errors)
    return found


def load_listing(claims: Optional[list[Path]], no_builtin: bool = False):
    """The rows of ``tmath list`` for the same folders as :func:`load_catalog` (stored apart
    from the index, see :mod:`tmath.engine.listing`); load errors printed the same way."""
    from tmath.engine.listing import listing

    _check_folders(claims, no_builtin)
    found = listing(claims or [], builtin=not no_builtin)
    _print_load_errors(found.load_errors)
    return found


def _check_folders(claims: Optional[list[Path]], no_builtin: bool) -> None:
    if no_builtin and not claims:
        raise UsageError("--no-builtin needs at least one --claims DIR (there would be no "
                         "claims at all)")
    for folder in claims or []:
        if not folder.exists():
            raise UsageError(f"claims folder not found: {folder}")
        if not folder.is_dir():
            raise UsageError(f"--claims needs a folder, and {folder} is a file")
        if not os.access(folder, os.R_OK | os.X_OK):
            raise UsageError(f"cannot read the claims folder {folder} (permission denied)")


def _print_load_errors(errors) -> None:
    from rich.markup import escape

    for error in errors:
        err.print(f"[bold red]load error[/] {escape(str(error))}", highlight=False)


def result_cache(no_cache: bool):
    from tmath.engine.cache import ResultCache

    return ResultCache(enabled=not no_cache)


def jobs_or_cores(jobs: Optional[int]) -> int:
    """``--jobs`` checked (a whole number ≥ 1), or the usable cores."""
    from tmath.engine.parallel import usable_cores

    if jobs is None:
        return usable_cores()
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return jobs


def parse_timeout(seconds: float) -> float:
    """``--timeout`` checked: a finite number of seconds, > 0 and at most a week."""
    from tmath.cli.options import MAX_TIMEOUT

    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT:
        raise UsageError(f"--timeout must be a finite number of seconds between 0 and "
                         f"{MAX_TIMEOUT:.0f} (a week), not {seconds:g}")
    return seconds


def parse_max_memory(megabytes: int) -> Optional[int]:
    """``--max-memory`` checked: MB ≥ 64, or 0 for no limit (None)."""
    if megabytes == 0:
        return None
    if megabytes < 64:
        raise UsageError(f"--max-memory must be at least 64 (MB), or 0 for no limit, "
                         f"not {megabytes}")
    return megabytes


def check_output(path: Optional[Path], inputs=()) -> None:
    """Refuse an output path before any work is done (it is checked again when written)."""
    if path is not None:
        output_target(path, inputs)


def plain_text(renderables) -> str:
    """What the renderables look like in a plain 120-column terminal (for --output)."""
    from rich.console import Console

    console = Console(width=120, color_system=None, record=True, file=open(os.devnull, "w"))
    for r in renderables:
        console.print(r, crop=False)
    return console.export_text()


class Interrupted:
    """A run cut short by Ctrl-C or SIGTERM (truthy); ``exit_code`` is 130 or 143."""

    def __init__(self, exit_code: int) -> None:
        self.exit_code = exit_code

    def __bool__(self) -> bool:
        return True

    @property
    def what(self) -> str:
        return "terminated" if self.exit_code == ExitCode.TERMINATED else "interrupted"


HEARTBEAT = 10.0
"""Seconds between progress lines on stderr when it is not a terminal (a CI log)."""


def collect(iterator, total: int, progress: bool, heartbeat: bool = False):
    """Gather results; a progress bar on an interactive terminal, or with ``heartbeat`` a line
    on stderr every :data:`HEARTBEAT` seconds when stderr is not one (a long ``report`` in CI);
    Ctrl-C or SIGTERM keeps what we have. Returns (results, None or an :class:`Interrupted`)."""
    import time

    from tmath.engine import interrupts

    results = []
    show = progress and err.is_terminal
    try:
        if heartbeat and not show:
            last = time.monotonic()
            for result in iterator:
                results.append(result)
                if time.monotonic() - last >= HEARTBEAT:
                    last = time.monotonic()
                    err.print(f"{len(results)}/{total} claims done ({result.info.id})",
                              markup=False, highlight=False)
            return results, None
        if show:
            from rich.progress import Progress

            # No refresh thread: claims modules imported meanwhile have stderr captured.
            with Progress(console=err, transient=True, auto_refresh=False) as bar:
                task = bar.add_task("verifying", total=total)
                bar.refresh()
                for result in iterator:
                    results.append(result)
                    bar.update(task, advance=1, description=result.info.id, refresh=True)
        else:
            results.extend(iterator)
    except KeyboardInterrupt:
        return results, Interrupted(interrupts.exit_code() or ExitCode.INTERRUPTED)
    return results, None


def print_tracebacks(results) -> None:
    """Under --verbose: the traceback of every claim that raised."""
    for r in results:
        statement = getattr(r, "statement", r)
        for part, outcome in (("proof", statement.proof), ("randomized check",
                                                            statement.empirical)):
            if outcome.details:
                err.print(f"[bold red]{r.info.id}[/] {part} raised:", highlight=False)
                err.print(outcome.details, highlight=False, markup=False)


def print_captured(results, catalog=None) -> None:
    """Under --verbose: what claims modules printed at import and claims printed while they
    ran (on stderr, so stdout stays the report)."""
    from rich.markup import escape

    for path, text in (getattr(catalog, "outputs", None) or {}).items():
        err.print(f"[bold]{escape(path)}[/] printed while it was imported:", highlight=False)
        err.print(text.rstrip("\n"), highlight=False, markup=False)
    for r in results:
        if getattr(r, "output", ""):
            err.print(f"[bold]{r.info.id}[/] printed:", highlight=False)
            err.print(r.output.rstrip("\n"), highlight=False, markup=False)


def print_details(results, catalog=None) -> None:
    """Everything --verbose adds: tracebacks and captured output."""
    print_tracebacks(results)
    print_captured(results, catalog)


def report_and_exit(format: Format, output: Optional[Path], interrupted, load_errors: list,
                    ok: bool, as_json: Callable[[], str], as_table: Callable[[], list],
                    inputs=()) -> None:
    """Print a report — or, with ``output``, write it there and print its one-line summary —
    then exit with the code its outcome maps to. An interrupted run prints what finished and
    writes no file."""
    if format is Format.json:
        text = as_json() + "\n"
        if output is None or interrupted:
            sys.stdout.write(text)
    else:
        renderables = as_table()
        if output is None or interrupted:
            for renderable in renderables:
                out.print(renderable, crop=False)
        text = plain_text(renderables) if output is not None else ""
    if output is not None and not interrupted:
        summary = plain_text(as_table()[-1:]).strip().splitlines() if format is not Format.json \
            else []
        out.print(f"wrote {output}" + (f": {summary[0]}" if summary else ""), markup=False,
                  highlight=False, soft_wrap=True)
    if interrupted:
        what = getattr(interrupted, "what", "interrupted")
        err.print(f"[bold red]{what}[/]: results so far are shown above"
                  + (f"; {output} was not written" if output is not None else ""))
        raise typer.Exit(getattr(interrupted, "exit_code", ExitCode.INTERRUPTED))
    write_text(output, text, inputs=inputs)
    if load_errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    raise typer.Exit(ExitCode.OK if ok else ExitCode.FAILED)
