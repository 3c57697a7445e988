"""``tmath report``: a companion page for the notes, every claim by section."""

from __future__ import annotations

import enum
import functools
from pathlib import Path
from typing import Annotated

import typer

from tmath.cli.common import (check_output, collect, jobs_or_cores, load_catalog,
                              parse_max_memory, parse_seed, parse_timeout, result_cache,
                              translator, write_text)
from tmath.cli.console import err
from tmath.cli.options import (DEFAULT_MAX_MEMORY_MB, ClaimsOption, JobsOption, LangOption,
                               MaxMemoryOption, NoBuiltinOption, NoCacheOption, SeedOption,
                               TimeoutOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


class ReportFormat(str, enum.Enum):
    html = "html"
    markdown = "markdown"


AuditOption = Annotated[bool, typer.Option(
    "--audit", help="Also run both checks against every foil, as tmath audit does, and show "
                    "which check rejects each (the first time this takes minutes: about a "
                    "second a claim; cached after), with each derivation step typeset in "
                    "MathML. Without it the report is written from tmath verify's results "
                    "(cached ones are reused), the steps in linear Unicode and the named "
                    "foils listed, not run.")]


def report(
    output: Annotated[Path, typer.Option(
        "--output", "-o", metavar="PATH",
        help="Where to write the report (atomically; an input, a read-only file, a folder, a "
             "device or a FIFO is refused).")],
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="html or markdown.")]
    = ReportFormat.html,
    audit: AuditOption = False,
    claims: ClaimsOption = None,
    no_builtin: NoBuiltinOption = False,
    seed: SeedOption = str(DEFAULT_SEED),
    lang: LangOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    max_memory: MaxMemoryOption = DEFAULT_MAX_MEMORY_MB,
    no_cache: NoCacheOption = False,
) -> None:
    """Write a companion report: every claim by section with its status, statement, derivation, evidence, figures and foils.

    The HTML is one self-contained file (no network needed to view it); with matplotlib installed (pip install 'tmath\\[plot]') the claims' figures are embedded as images. Progress goes to stderr from the start. Sections are titled by each claims folder's sections.json, {"sections": {"1": "title of section 1"}}; a folder's sections are never merged with another folder's.

    [bold]Examples[/bold]

    tmath report -o report.html                        from verify's results (cached ones reused)

    tmath report -o report.html --audit                and every foil through both checks

    tmath report -f markdown -o report.md --claims my_claims --no-builtin

    Exit codes: 0 every claim verified (or cited, or a heuristic) · 1 a claim failed, errored, timed out or was blocked · 2 usage error · 3 a claims module failed to load · 4 the report could not be written · 130/143 interrupted (nothing written).
    """
    run_seed = parse_seed(seed)
    timeout, workers, memory = parse_timeout(timeout), jobs_or_cores(jobs), \
        parse_max_memory(max_memory)
    tr = translator(lang)
    registry = load_catalog(claims, no_builtin)
    inputs = registry.input_files()
    check_output(output, inputs)
    selected = list(registry)
    if not selected:
        raise UsageError("no claims to report (the registry is empty)")
    from tmath.engine.results import PASSING, AuditResult
    from tmath.render.report import html_report, markdown_report
    from tmath.render.sections import problems

    if audit:
        from tmath.engine.session import audit as run

        err.print(f"report: auditing {len(selected)} claims: both checks against every foil "
                  "(unchanged results come from the cache) …", markup=False, highlight=False)
    else:
        from tmath.engine.session import verify as run

        err.print(f"report: verifying {len(selected)} claims (unchanged results come from the "
                  "cache; --audit also runs every foil) …", markup=False, highlight=False)
    results, interrupted = collect(
        run(registry, selected, run_seed, workers, timeout, result_cache(no_cache), memory),
        len(selected), progress=True, heartbeat=True)
    if interrupted:
        err.print(f"[bold red]{interrupted.what}[/]: no report written")
        raise typer.Exit(interrupted.exit_code)
    audits = results if audit else [AuditResult(r.info, r, ()) for r in results]
    for line in problems(audits):
        err.print(f"note: {line}", markup=False, highlight=False)
    if format is ReportFormat.html:
        text = html_report(audits, run_seed, tr,
                           _pictures(registry, workers, timeout, memory, no_cache),
                           audited=audit)
    else:
        text = markdown_report(audits, run_seed, tr, audited=audit)
    write_text(output, text, inputs=inputs)
    err.print(f"wrote {output} ({len(text.encode()) / 1024:.0f} KiB, {len(audits)} claims)")
    failed = registry.errors or any(a.statement.verdict not in PASSING for a in audits)
    raise typer.Exit(ExitCode.LOAD_ERROR if registry.errors else
                     ExitCode.FAILED if failed else ExitCode.OK)


def _pictures(registry, jobs: int, timeout: float, memory, no_cache: bool = False
              ) -> dict[str, bytes]:
    """PNG figures of the claims that have one, or nothing when matplotlib is missing. A
    picture comes from the cache when neither the claim's files, the drawing code nor
    matplotlib changed; otherwise it is drawn in a worker, isolated like a claim's run
    (timeout, memory, captured output)."""
    import base64
    import importlib.util

    from tmath.engine.cache import installed_version

    if importlib.util.find_spec("matplotlib") is None:
        err.print("figures are not embedded: pip install 'tmath[plot]' to add them", markup=False)
        return {}
    matplotlib_version = installed_version("matplotlib")
    from tmath.render import plots as drawing

    cache = result_cache(no_cache)
    plotted = [info for info in registry if info.has_plot]
    keys = {i.id: cache.key("picture", i.id, [*registry.files_of(i.id), drawing.__file__], 0,
                            matplotlib_version) for i in plotted}
    pictures = {}
    for info in plotted:
        hit = cache.get(keys[info.id])
        if hit is not None:
            pictures[info.id] = base64.b64decode(hit.png_base64)
    missing = [i for i in plotted if i.id not in pictures]
    if not missing:
        return pictures
    from tmath.engine import worker_claims
    from tmath.engine.parallel import run_isolated
    from tmath.engine.plots import Picture

    err.print(f"report: drawing {len(missing)} figure(s) …", markup=False, highlight=False)
    drawing._pyplot()  # imported once here, inherited by the workers
    if getattr(registry, "nothing_imported", False):  # each worker imports only its modules
        tasks = [functools.partial(_draw_planned, worker_claims.plan(registry, info))
                 for info in missing]
    else:
        specs = [registry.registry().get(i.id) for i in missing]
        tasks = [functools.partial(_draw, spec) for spec in specs]
    for info, outcome in zip(missing, run_isolated(tasks, jobs, timeout, memory,
                                                   groups=[i.path for i in missing])):
        if outcome.kind == "ok" and isinstance(outcome.value, bytes):
            pictures[info.id] = outcome.value
            cache.put(keys[info.id], Picture(info.id, base64.b64encode(outcome.value)
                                             .decode("ascii")))
        else:  # a broken plot must not lose the report
            err.print(f"figure of {info.id} failed: {outcome.message or 'not a picture'}",
                      markup=False)
    return pictures


def _draw(spec) -> bytes:
    from tmath.render.plots import render_png

    return render_png(spec.implementation.plot())


def _draw_planned(planned) -> bytes:
    """In a worker: import the claim's module (once per worker) and draw its figure."""
    from tmath.engine.worker_claims import claim_for

    return _draw(claim_for(planned))
