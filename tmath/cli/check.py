"""``tmath check``: the documentation gate as a command.

Only light modules are imported here; the engine (NumPy, SymPy, the runner) is imported when
the command runs, so ``tmath --help`` stays fast.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.cli.common import (collect, jobs_or_cores, load_catalog, parse_seed, plain_text,
                              write_text)
from tmath.cli.console import err, out
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


class CheckFormat(str, enum.Enum):
    table = "table"
    json = "json"
    junit = "junit"
    github = "github"


PathsArgument = Annotated[list[Path], typer.Argument(
    metavar="DOCUMENT", show_default=False,
    help="UTF-8 plain-text or Markdown documents (at most 5 MB each), checked together.")]
ClaimsOption = Annotated[Optional[list[Path]], typer.Option(
    "--claims", metavar="DIR",
    help="Hold the documents to the claims in the *.py files of DIR (repeatable) instead of "
         "the built-in claims (add --builtin to use both).")]
BuiltinOption = Annotated[bool, typer.Option(
    "--builtin", help="With --claims: hold the documents to the built-in claims as well.")]
FormatOption = Annotated[CheckFormat, typer.Option(
    "--format", "-f", help="table (grouped by section), json, junit (XML for CI test "
                           "reporters) or github (annotations on the document's lines).")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "--output", "-o", metavar="FILE", help="Write the report to FILE (atomically) as well.")]
MinCoverageOption = Annotated[float, typer.Option(
    "--min-coverage", min=0.0, max=100.0, metavar="PCT",
    help="Fail when less than PCT % of the display formulas and figures are covered.")]
SeedOption = Annotated[str, typer.Option(
    "--seed", metavar="N|random", help="Seed of the claims' randomized checks.")]
JobsOption = Annotated[Optional[int], typer.Option(
    "--jobs", "-j", min=1, metavar="N", help="Worker processes (default: the usable cores).")]
TimeoutOption = Annotated[float, typer.Option(
    "--timeout", min=0.001, metavar="SECONDS", help="Stop a claim that runs longer than this.")]
NoCacheOption = Annotated[bool, typer.Option(
    "--no-cache", help="Verify every claim again instead of reusing unchanged cached results.")]


def check(
    paths: PathsArgument,
    claims: ClaimsOption = None,
    format: FormatOption = CheckFormat.table,
    output: OutputOption = None,
    min_coverage: MinCoverageOption = 0.0,
    seed: SeedOption = str(DEFAULT_SEED),
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
    builtin: BuiltinOption = False,
) -> None:
    """Check a document against the claims that vouch for it: wrong figures, changed or unverified formulas, line by line.

    [bold]Figures.[/bold] Each figure a claim records is found in the claim's section of the document: first the text printed near it (whitespace and $ ignored), then the first number after it printed in the same form (8, ≈ 22.6, 61,400, 26万, 1/100, [0.49, 0.30, 0.22]). It is read as the document prints it and compared with the true value at the precision printed (half a unit in the last digit, or the claim's stated rough tolerance): accurate, inaccurate (printed vs true, line) or missing (its text left the section).

    [bold]Formulas.[/bold] Each $$…$$ display formula is covered (a claim that verified records it, up to spaces, \\left/\\right and thin spaces), changed (a claim recorded a formula that is no longer there and this is its near match; both are shown) or uncovered. Sections come from headings 一、… 十五、 and 3.2, or Markdown # headings; [bold]<!-- tmath: claim-id -->[/bold] pins the text after it to a claim.

    [bold]Examples[/bold]

    tmath check notes.txt                              the built-in claims

    tmath check notes.md --claims my_claims/ --min-coverage 80

    tmath check notes.md -f github                     annotations for a pull request

    Exit codes: 0 every figure accurate, nothing changed or missing, coverage ≥ --min-coverage · 1 otherwise · 2 usage error (missing file, folder, not UTF-8 text, over 5 MB) · 3 a claims module failed to load.
    """
    from tmath.gate.document import read_document

    documents = [read_document(p) for p in paths]
    if output is not None and not (output.parent if str(output.parent) else Path(".")).is_dir():
        raise UsageError(f"cannot write {output}: folder {output.parent} does not exist")
    run_seed = parse_seed(seed)
    catalog = load_catalog(claims)
    relevant = _relevant(catalog, claims or [], builtin, documents)

    from tmath import gate
    from tmath.engine.cache import ResultCache
    from tmath.engine.session import verify

    selected = catalog.with_dependencies(relevant)
    results, interrupted = collect(
        verify(catalog, selected, run_seed, jobs_or_cores(jobs), timeout,
               ResultCache(enabled=not no_cache)),
        len(selected), progress=format is CheckFormat.table)
    if interrupted:
        err.print("[bold red]interrupted[/] before every claim was verified")
        raise typer.Exit(ExitCode.INTERRUPTED)
    report = gate.check(documents, relevant, {r.info.id: r for r in results}, min_coverage,
                        known_ids=catalog.claims)
    text = _render(report, format, run_seed, catalog.errors, out)
    write_text(output, text)
    if catalog.errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    raise typer.Exit(ExitCode.OK if report.passed else ExitCode.FAILED)


def _relevant(catalog, folders: list[Path], builtin: bool, documents) -> list:
    """The claims a document is held to: those of the --claims folders (or the built-in ones
    without --claims, or both with --builtin), and every claim a document pins."""
    from tmath.engine.registry import builtin_claims_dir

    roots = [f.resolve() for f in folders]
    if builtin or not folders:
        roots.append(builtin_claims_dir().resolve())
    pinned = {c for d in documents for p in d.pins for c in p.claims}

    def inside(info) -> bool:
        where = Path(info.path).resolve()
        return any(root == where.parent or root in where.parents for root in roots)

    return [info for info in catalog if inside(info) or info.id in pinned]


def _render(report, format: CheckFormat, seed: int, load_errors, console) -> str:
    from tmath.render.gate import (report_github, report_json, report_junit,
                                   report_renderables)
    from tmath.render.jsonout import dumps

    if format is CheckFormat.table:
        renderables = report_renderables(report)
        for r in renderables:
            console.print(r)
        return plain_text(renderables)
    if format is CheckFormat.json:
        text = dumps(report_json(report, seed, load_errors)) + "\n"
    elif format is CheckFormat.junit:
        text = report_junit(report)
    else:
        text = report_github(report)
    sys.stdout.write(text)
    return text
