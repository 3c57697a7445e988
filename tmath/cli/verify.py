"""``tmath verify``: prove and check claims, and the claims they build on."""

from __future__ import annotations

import time

from tmath.cli.common import (collect, jobs_or_cores, load_catalog, parse_seed, print_tracebacks,
                              report_and_exit, result_cache, translator)
from tmath.cli.options import (ClaimsOption, Format, FormatOption, IdsArgument, JobsOption,
                               LangOption, NoCacheOption, OutputOption, SeedOption, TimeoutOption,
                               VerboseOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.engine.results import PASSING
from tmath.errors import UsageError


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
    tr = translator(lang)
    registry = load_catalog(claims)
    selected = registry.with_dependencies(registry.select(ids or ["all"]))
    if not selected:
        raise UsageError("no claims to verify (the registry is empty)")
    from tmath.engine.session import verify as run
    from tmath.render.jsonout import dumps, verify_document
    from tmath.render.tables import verify_summary, verify_table

    start = time.perf_counter()
    results, interrupted = collect(
        run(registry, selected, run_seed, jobs_or_cores(jobs), timeout, result_cache(no_cache)),
        len(selected), progress=format is Format.table)
    seconds = time.perf_counter() - start
    if verbose:
        print_tracebacks(results)
    report_and_exit(format, output, interrupted, registry.errors,
                    ok=all(r.verdict in PASSING for r in results),
                    as_json=lambda: dumps(verify_document(results, run_seed, seconds,
                                                          registry.errors)),
                    as_table=lambda: [verify_table(results, tr),
                                      verify_summary(results, run_seed, seconds,
                                                     len(registry.errors))])
