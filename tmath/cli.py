"""The ``tmath`` command line: thin commands over the engine; errors mapped to exit codes here."""

from __future__ import annotations

import enum
import functools
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer
from rich.console import Console
from rich.markup import escape

from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import TmathError, UsageError
from tmath.exitcodes import ExitCode
from tmath.results import PASSING

HELP = """Verify the mathematics of technical documents, claim by claim.

Each claim carries a SymPy proof whose every step is checked, a randomized check that simulates the premises and tests the statement statistically, and foils (nearest false statements) that both checks must reject.

[bold]Examples[/bold]

  tmath list --section 1            claims of section 1
  tmath verify all                  prove and check every claim
  tmath verify dot-product-variance --seed 7
  tmath explain softmax-temperature the derivation, evidence and foils of one claim
  tmath audit all                   show that every check can fail

Exit codes: 0 all verified · 1 a claim failed or a check is weak · 2 usage error · 3 a claims module failed to load · 130 interrupted.
"""

app = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode="rich",
                  context_settings={"help_option_names": ["-h", "--help"]})
out = Console()
err = Console(stderr=True, soft_wrap=True)  # paths and messages never broken mid-line


class Format(str, enum.Enum):
    table = "table"
    json = "json"


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


def complete_ids(incomplete: str) -> list[str]:
    """Shell completion of claim ids (reads the metadata index; no heavy imports)."""
    from tmath.registry import catalog

    try:
        ids = list(catalog().claims)
    except Exception:
        return []
    return [i for i in ["all", *ids] if i.startswith(incomplete)]


IdsArgument = Annotated[Optional[list[str]], typer.Argument(
    metavar="all|ID...", help="Claim ids, or 'all' (the default).", show_default=False,
    autocompletion=complete_ids)]


def boundary(command: Callable) -> Callable:
    """The one place where errors become exit codes (typer itself exits 2 on bad options)."""

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


def _translator(lang: Optional[str]):
    from tmath.i18n import LANGUAGES, Translator, language

    if lang is not None and lang.lower() not in LANGUAGES:
        raise UsageError(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return Translator(language(lang))


def _load(claims: Optional[list[Path]]):
    """The claim catalog (metadata; the claims modules are imported only when needed)."""
    from tmath.registry import catalog

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


def _cache(no_cache: bool):
    from tmath.cache import ResultCache

    return ResultCache(enabled=not no_cache)


def _jobs(jobs: Optional[int]) -> int:
    from tmath.parallel import usable_cores

    return jobs or usable_cores()


def _write(path: Optional[Path], text: str) -> None:
    """Write a report to ``path`` (if given) atomically."""
    if path is not None:
        _write_bytes(path, text.encode("utf-8"))


def _write_bytes(path: Path, data: bytes) -> None:
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


def _plain(renderables) -> str:
    console = Console(width=120, color_system=None, record=True, file=open(os.devnull, "w"))
    for r in renderables:
        console.print(r)
    return console.export_text()


@app.command("list")
@boundary
def list_claims(
    section: Annotated[Optional[str], typer.Option(
        "--section", "-s", help="Only this section ('3' includes 3.1, 3.2, ...).")] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", "-t", help="Only claims with this tag.")] = None,
    format: FormatOption = Format.table,
    claims: ClaimsOption = None,
    lang: LangOption = None,
) -> None:
    """List the registered claims: id, section, title, tags, kind of proof."""
    from tmath.render.jsonout import claim_listing, dumps
    from tmath.render.tables import claims_table

    tr = _translator(lang)
    registry = _load(claims)
    specs = [s for s in registry
             if (section is None or s.section == section or s.top_section == section)
             and (tag is None or tag in s.tags)]
    if format is Format.json:
        sys.stdout.write(dumps(claim_listing(specs)) + "\n")
    elif not specs:
        err.print("no claims match" + (f" section {section}" if section else "")
                  + (f" tag {tag}" if tag else "") + "; `tmath list` shows them all")
    else:
        out.print(claims_table(specs, tr))
    raise typer.Exit(ExitCode.LOAD_ERROR if registry.errors else ExitCode.OK)


@app.command()
@boundary
def verify(
    ids: IdsArgument = None,
    claims: ClaimsOption = None,
    seed: SeedOption = str(DEFAULT_SEED),
    format: FormatOption = Format.table,
    output: OutputOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
    verbose: VerboseOption = False,
    lang: LangOption = None,
) -> None:
    """Prove and randomly check claims, and the claims they build on.

    A failure prints the command that reproduces it. Printed figures that the notes get wrong are listed; they do not fail verification (use `tmath check` to gate a document).
    """
    run_seed = parse_seed(seed)
    tr = _translator(lang)
    registry = _load(claims)
    selected = registry.with_dependencies(registry.select(ids or ["all"]))
    if not selected:
        raise UsageError("no claims to verify (the registry is empty)")
    from tmath.render.jsonout import dumps, verify_document
    from tmath.render.tables import verify_summary, verify_table
    from tmath.session import verify as run

    start = time.perf_counter()
    results, interrupted = _collect(
        run(registry, selected, run_seed, _jobs(jobs), timeout, _cache(no_cache)),
        len(selected), progress=format is Format.table)
    seconds = time.perf_counter() - start
    if verbose:
        _tracebacks(results)
    _report(format, output, interrupted, registry.errors,
            ok=all(r.verdict in PASSING for r in results),
            as_json=lambda: dumps(verify_document(results, run_seed, seconds, registry.errors)),
            as_table=lambda: [verify_table(results, tr),
                              verify_summary(results, run_seed, seconds, len(registry.errors))])


def _report(format: Format, output: Optional[Path], interrupted: bool, load_errors: list,
            ok: bool, as_json: Callable[[], str], as_table: Callable[[], list]) -> None:
    """Print (and write) a report, then exit with the code its outcome maps to."""
    if format is Format.json:
        text = as_json()
        sys.stdout.write(text + "\n")
    else:
        renderables = as_table()
        for renderable in renderables:
            out.print(renderable)
        text = _plain(renderables) if output is not None else ""
    if interrupted:
        err.print("[bold red]interrupted[/]: results so far are shown above")
        raise typer.Exit(ExitCode.INTERRUPTED)
    _write(output, text)
    if load_errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    raise typer.Exit(ExitCode.OK if ok else ExitCode.FAILED)


def _tracebacks(results) -> None:
    for r in results:
        for part, outcome in (("proof", r.proof), ("randomized check", r.empirical)):
            if outcome.details:
                err.print(f"[bold red]{r.info.id}[/] {part} raised:", highlight=False)
                err.print(outcome.details, highlight=False, markup=False)


def _collect(iterator, total: int, progress: bool):
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


@app.command()
@boundary
def explain(
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="The claim to explain.",
                                            autocompletion=complete_ids)],
    claims: ClaimsOption = None,
    seed: SeedOption = str(DEFAULT_SEED),
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
    lang: LangOption = None,
    latex: Annotated[bool, typer.Option("--latex", help="Print the statement as LaTeX.")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png",
        help="Write the claim's figure as a PNG (needs: pip install 'tmath[plot]').")] = None,
) -> None:
    """Explain one claim: statement, premises, derivation steps, evidence, figures, foils.

    Runs the claim's proof and randomized check, then both checks against every foil, and shows each step with its check mark, the notes' printed figures against the true values, and why each foil is rejected.
    """
    run_seed = parse_seed(seed)
    tr = _translator(lang)
    registry = _load(claims)
    info = registry.get(claim_id)
    if plot is not None and not info.has_plot:
        with_plots = [i.id for i in registry if i.has_plot]
        raise UsageError(f"claim {info.id} has no figure to plot"
                         + (f"; claims with one: {', '.join(with_plots)}" if with_plots else ""))
    from tmath.render.explain import explain_page
    from tmath.session import audit as run_audit

    [audit] = run_audit(registry, [info], run_seed, 1, timeout, _cache(no_cache))
    sketch = []
    if info.has_plot:
        from tmath.plots import render_png, sketch_lines
        from tmath.registry import load_spec

        cache = _cache(no_cache)
        key = cache.key("plot", info.id, registry.files_of(info.id), 0)
        picture = cache.get(key)
        if picture is None:
            picture = load_spec(info).implementation.plot()
            cache.put(key, picture)
        sketch = sketch_lines(picture)
        if plot is not None:
            _write_bytes(plot, render_png(picture))
            err.print(f"wrote {plot}")
    out.print(explain_page(audit, registry.dependants(info.id), tr, latex, sketch))
    raise typer.Exit(ExitCode.OK if audit.statement.verdict in PASSING
                     else ExitCode.FAILED)


@app.command()
@boundary
def audit(
    ids: IdsArgument = None,
    claims: ClaimsOption = None,
    seed: SeedOption = str(DEFAULT_SEED),
    format: FormatOption = Format.table,
    output: OutputOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
) -> None:
    """Show that every check can fail: run both checks against each foil.

    Besides the declared foils, each non-zero part of a statement's value is perturbed by ×1.05. A proof or randomized check that accepts a false statement is weak: exit 1.
    """
    run_seed = parse_seed(seed)
    registry = _load(claims)
    selected = registry.select(ids or ["all"])
    if not selected:
        raise UsageError("no claims to audit (the registry is empty)")
    from tmath.render.jsonout import audit_document, dumps
    from tmath.render.tables import audit_summary, audit_table
    from tmath.session import audit as run_audit

    start = time.perf_counter()
    audits, interrupted = _collect(
        run_audit(registry, selected, run_seed, _jobs(jobs), timeout, _cache(no_cache)),
        len(selected), progress=format is Format.table)
    seconds = time.perf_counter() - start
    _report(format, output, interrupted, registry.errors, ok=all(a.strong for a in audits),
            as_json=lambda: dumps(audit_document(audits, run_seed, registry.errors)),
            as_table=lambda: [audit_table(audits), audit_summary(audits, seconds)])


class ReportFormat(str, enum.Enum):
    html = "html"
    markdown = "markdown"


@app.command()
@boundary
def report(
    output: Annotated[Path, typer.Option("--output", "-o", metavar="PATH",
                                         help="Where to write the report.")],
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="html or markdown.")]
    = ReportFormat.html,
    claims: ClaimsOption = None,
    seed: SeedOption = str(DEFAULT_SEED),
    lang: LangOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
) -> None:
    """Write a companion report: every claim by section with its status, statement, derivation, evidence, figures and foils.

    The HTML is one self-contained file (no network needed to view it); with matplotlib installed (pip install 'tmath[plot]') the claims' figures are embedded as images.
    """
    run_seed = parse_seed(seed)
    tr = _translator(lang)
    registry = _load(claims)
    selected = list(registry)
    if not selected:
        raise UsageError("no claims to report (the registry is empty)")
    from tmath.render.report import html_report, markdown_report
    from tmath.session import audit as run_audit

    audits, interrupted = _collect(
        run_audit(registry, selected, run_seed, _jobs(jobs), timeout, _cache(no_cache)),
        len(selected), progress=True)
    if interrupted:
        err.print("[bold red]interrupted[/]: no report written")
        raise typer.Exit(ExitCode.INTERRUPTED)
    if format is ReportFormat.html:
        text = html_report(audits, run_seed, tr, _pictures(registry))
    else:
        text = markdown_report(audits, run_seed, tr)
    _write(output, text)
    err.print(f"wrote {output} ({len(text.encode()) / 1024:.0f} KiB, {len(audits)} claims)")
    failed = registry.errors or any(a.statement.verdict not in PASSING
                                    for a in audits)
    raise typer.Exit(ExitCode.LOAD_ERROR if registry.errors else
                     ExitCode.FAILED if failed else ExitCode.OK)


def _pictures(registry) -> dict[str, bytes]:
    """PNG figures of the claims that have one, or nothing when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        err.print("figures are not embedded: pip install 'tmath[plot]' to add them", markup=False)
        return {}
    from tmath.plots import render_png

    pictures = {}
    for spec in registry.registry():
        if callable(getattr(spec.implementation, "plot", None)):
            try:
                pictures[spec.id] = render_png(spec.implementation.plot())
            except Exception as exc:  # a broken plot must not lose the report
                err.print(f"figure of {spec.id} failed: {type(exc).__name__}: {exc}", markup=False)
    return pictures


from tmath.cli_check import check  # noqa: E402  (light: imports nothing heavy at load)

app.command("check")(boundary(check))

cache_app = typer.Typer(help="Manage the on-disk cache of results and claim metadata.",
                        no_args_is_help=True)
app.add_typer(cache_app, name="cache")


@cache_app.command("clear")
@boundary
def cache_clear() -> None:
    """Delete every cached result and the claim index."""
    from tmath.cache import cache_dir, clear

    removed = clear()
    out.print(f"removed {removed} cached file(s) from {cache_dir()}")


@cache_app.command("path")
@boundary
def cache_path() -> None:
    """Print where the cache lives ($XDG_CACHE_HOME/tmath)."""
    from tmath.cache import cache_dir

    sys.stdout.write(f"{cache_dir()}\n")


def main() -> None:
    """Console-script entry point."""
    app(prog_name="tmath")


if __name__ == "__main__":
    main()
