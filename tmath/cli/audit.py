"""``tmath audit``: show that every check can fail."""

from __future__ import annotations

import time

from tmath.cli.common import (check_output, collect, jobs_or_cores, load_catalog, parse_max_memory,
                              parse_seed, parse_timeout, print_details, report_and_exit,
                              result_cache)
from tmath.cli.console import out
from tmath.cli.options import (DEFAULT_MAX_MEMORY_MB, ClaimsOption, Format, FormatOption,
                               IdsArgument, JobsOption, MaxMemoryOption, NoBuiltinOption,
                               NoCacheOption, OutputOption, SeedOption, TimeoutOption,
                               VerboseOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError


def audit(
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
) -> None:
    """Show that every check can fail: run both checks against each foil.

    Besides the declared foils, automatic near-misses chosen by the value's type: ×1.05, ×2 and ×½, the sign flipped, one more and one less (a whole number), 1 instead of 0, the square root and the square, an exponent one higher or lower, an index shifted by one, two arguments swapped; for a matrix, transposed and two rows swapped; for a tuple, these on one part at a time (a claim's perturbations() replaces them). A proof or randomized check that accepts a false statement, or a test that rejects nothing (inert), is weak: exit 1.
    """
    run_seed = parse_seed(seed)
    timeout, workers, memory = parse_timeout(timeout), jobs_or_cores(jobs), \
        parse_max_memory(max_memory)
    registry = load_catalog(claims, no_builtin)
    inputs = registry.input_files()
    check_output(output, inputs)
    selected = registry.select(ids or ["all"])
    if not selected:
        raise UsageError("no claims to audit (the registry is empty)")
    from tmath.engine.session import audit as run_audit
    from tmath.render.jsonout import audit_document, dumps
    from tmath.render.tables import audit_summary, audit_table

    start = time.perf_counter()
    audits, interrupted = collect(
        run_audit(registry, selected, run_seed, workers, timeout, result_cache(no_cache), memory),
        len(selected), progress=format is Format.table, heartbeat=True)
    seconds = time.perf_counter() - start
    if verbose:
        print_details(audits, registry)
    report_and_exit(format, output, interrupted, registry.errors, ok=all(a.strong for a in audits),
                    as_json=lambda: dumps(audit_document(
                        audits, run_seed, registry.errors, not_run=len(selected) - len(audits),
                        interrupted=bool(interrupted))),
                    as_table=lambda: [audit_table(audits, None if output else out.width),
                                      audit_summary(audits, seconds)],
                    inputs=inputs)
