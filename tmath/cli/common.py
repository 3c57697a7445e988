"""What the commands share: loading claims, seeds, caches, writing outputs, the report-and-exit
path. Only light modules are imported here; the engine comes in when a command runs."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional

import typer

from tmath.cli.console import err, out
from tmath.cli.options import Format
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


def load_catalog(claims: Optional[list[Path]]):
    """The claim catalog (metadata; the claims modules are imported only when needed)."""
    from rich.markup import escape

    from tmath.engine.registry import catalog

    for folder in claims or []:
        if not folder.exists():
            raise UsageError(f"claims folder not found: {folder}")
        if not folder.is_dir():
            raise UsageError(f"--claims needs a folder, and {folder} is a file")
        if not os.access(folder, os.R_OK | os.X_OK):
            raise UsageError(f"cannot read the claims folder {folder} (permission denied)")
    found = catalog(claims or [])
    for error in found.errors:
        err.print(f"[bold red]load error[/] {escape(str(error))}", highlight=False)
    return found


def result_cache(no_cache: bool):
    from tmath.engine.cache import ResultCache

    return ResultCache(enabled=not no_cache)


def jobs_or_cores(jobs: Optional[int]) -> int:
    from tmath.engine.parallel import usable_cores

    return jobs or usable_cores()


def write_text(path: Optional[Path], text: str) -> None:
    """Write a report to ``path`` (if given) atomically."""
    if path is not None:
        write_bytes(path, text.encode("utf-8"))


def write_bytes(path: Path, data: bytes) -> None:
    """A temporary file in the same folder, then a rename: readers never see half a file."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def plain_text(renderables) -> str:
    """What the renderables look like in a plain 120-column terminal (for --output)."""
    from rich.console import Console

    console = Console(width=120, color_system=None, record=True, file=open(os.devnull, "w"))
    for r in renderables:
        console.print(r)
    return console.export_text()


def collect(iterator, total: int, progress: bool):
    """Gather results; a progress bar on an interactive terminal; Ctrl-C keeps what we have."""
    results = []
    show = progress and err.is_terminal
    try:
        if show:
            from rich.progress import Progress

            with Progress(console=err, transient=True) as bar:
                task = bar.add_task("verifying", total=total)
                for result in iterator:
                    results.append(result)
                    bar.update(task, advance=1, description=result.info.id)
        else:
            results.extend(iterator)
    except KeyboardInterrupt:
        return results, True
    return results, False


def print_tracebacks(results) -> None:
    for r in results:
        for part, outcome in (("proof", r.proof), ("randomized check", r.empirical)):
            if outcome.details:
                err.print(f"[bold red]{r.info.id}[/] {part} raised:", highlight=False)
                err.print(outcome.details, highlight=False, markup=False)


def report_and_exit(format: Format, output: Optional[Path], interrupted: bool, load_errors: list,
                    ok: bool, as_json: Callable[[], str], as_table: Callable[[], list]) -> None:
    """Print (and write) a report, then exit with the code its outcome maps to."""
    if format is Format.json:
        text = as_json()
        sys.stdout.write(text + "\n")
    else:
        renderables = as_table()
        for renderable in renderables:
            out.print(renderable)
        text = plain_text(renderables) if output is not None else ""
    if interrupted:
        err.print("[bold red]interrupted[/]: results so far are shown above")
        raise typer.Exit(ExitCode.INTERRUPTED)
    write_text(output, text)
    if load_errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    raise typer.Exit(ExitCode.OK if ok else ExitCode.FAILED)
