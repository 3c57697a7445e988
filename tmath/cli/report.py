"""``tmath report``: a companion page for the notes, every claim by section."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from tmath.cli.common import (collect, jobs_or_cores, load_catalog, parse_seed, result_cache,
                              translator, write_text)
from tmath.cli.console import err
from tmath.cli.options import (ClaimsOption, JobsOption, LangOption, NoCacheOption, SeedOption,
                               TimeoutOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.engine.results import PASSING
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


class ReportFormat(str, enum.Enum):
    html = "html"
    markdown = "markdown"


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
    tr = translator(lang)
    registry = load_catalog(claims)
    selected = list(registry)
    if not selected:
        raise UsageError("no claims to report (the registry is empty)")
    from tmath.engine.session import audit as run_audit
    from tmath.render.report import html_report, markdown_report

    audits, interrupted = collect(
        run_audit(registry, selected, run_seed, jobs_or_cores(jobs), timeout,
                  result_cache(no_cache)),
        len(selected), progress=True)
    if interrupted:
        err.print("[bold red]interrupted[/]: no report written")
        raise typer.Exit(ExitCode.INTERRUPTED)
    if format is ReportFormat.html:
        text = html_report(audits, run_seed, tr, _pictures(registry))
    else:
        text = markdown_report(audits, run_seed, tr)
    write_text(output, text)
    err.print(f"wrote {output} ({len(text.encode()) / 1024:.0f} KiB, {len(audits)} claims)")
    failed = registry.errors or any(a.statement.verdict not in PASSING for a in audits)
    raise typer.Exit(ExitCode.LOAD_ERROR if registry.errors else
                     ExitCode.FAILED if failed else ExitCode.OK)


def _pictures(registry) -> dict[str, bytes]:
    """PNG figures of the claims that have one, or nothing when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        err.print("figures are not embedded: pip install 'tmath[plot]' to add them", markup=False)
        return {}
    from tmath.render.plots import render_png

    pictures = {}
    for spec in registry.registry():
        if callable(getattr(spec.implementation, "plot", None)):
            try:
                pictures[spec.id] = render_png(spec.implementation.plot())
            except Exception as exc:  # a broken plot must not lose the report
                err.print(f"figure of {spec.id} failed: {type(exc).__name__}: {exc}", markup=False)
    return pictures
