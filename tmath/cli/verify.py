"""``tmath verify``: prove and check claims, and the claims they build on."""

from __future__ import annotations

import time

from tmath.cli.common import (check_output, collect, jobs_or_cores, load_catalog, parse_max_memory,
                              parse_seed, parse_timeout, print_details, report_and_exit,
                              result_cache, translator)
from tmath.cli.console import out
from tmath.cli.options import (DEFAULT_MAX_MEMORY_MB, ClaimsOption, Format, FormatOption,
                               IdsArgument, JobsOption, LangOption, MaxMemoryOption,
                               NoBuiltinOption, NoCacheOption, OutputOption, SeedOption,
                               TimeoutOption, VerboseOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError


def verify(
    ids: IdsArgument = None,
    claims: ClaimsOption = None,
    no_builtin: NoBuiltinOption = False,
    seed: SeedOption = str(DEFAULT_SEED),
    format: FormatOption = Format.table,
    output: OutputOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    max_memory: MaxMemoryOption = DEFAULT_MAX_MEMORY_MB,
    no_cache: NoCacheOption = False,
    verbose: VerboseOption = False,
    lang: LangOption = None,
) -> None:
    """Prove and randomly check claims, and the claims they build on.

    A failure prints the command that reproduces it. Printed figures that the notes get wrong are listed; they do not fail verification (use `tmath check` to gate a document). What claims print is kept out of the report (-v shows it).
    """
    run_seed = parse_seed(seed)
    timeout, workers, memory = parse_timeout(timeout), jobs_or_cores(jobs), \
        parse_max_memory(max_memory)
    tr = translator(lang)
    registry = load_catalog(claims, no_builtin)
    inputs = registry.input_files()
    check_output(output, inputs)
    selected = registry.with_dependencies(registry.select(ids or ["all"]))
    if not selected:
        raise UsageError("no claims to verify (the registry is empty)")
    from tmath.engine.session import verify as run
    from tmath.render.jsonout import dumps, verify_document
    from tmath.render.tables import verify_summary, verify_table
    from tmath.engine.results import PASSING

    start = time.perf_counter()
    results, interrupted = collect(
        run(registry, selected, run_seed, workers, timeout, result_cache(no_cache), memory),
        len(selected), progress=format is Format.table)
    seconds = time.perf_counter() - start
    if verbose:
        print_details(results, registry)
    report_and_exit(format, output, interrupted, registry.errors,
                    ok=all(r.verdict in PASSING for r in results),
                    as_json=lambda: dumps(verify_document(
                        results, run_seed, seconds, registry.errors,
                        not_run=len(selected) - len(results), interrupted=bool(interrupted))),
                    as_table=lambda: [verify_table(results, tr, None if output else out.width),
                                      verify_summary(results, run_seed, seconds,
                                                     len(registry.errors))],
                    inputs=inputs)
