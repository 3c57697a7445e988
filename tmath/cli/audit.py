"""``tmath audit``: show that every check can fail."""

from __future__ import annotations

import time

from tmath.cli.common import (collect, jobs_or_cores, load_catalog, parse_seed, report_and_exit,
                              result_cache)
from tmath.cli.options import (ClaimsOption, Format, FormatOption, IdsArgument, JobsOption,
                               NoCacheOption, OutputOption, SeedOption, TimeoutOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError


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
    registry = load_catalog(claims)
    selected = registry.select(ids or ["all"])
    if not selected:
        raise UsageError("no claims to audit (the registry is empty)")
    from tmath.engine.session import audit as run_audit
    from tmath.render.jsonout import audit_document, dumps
    from tmath.render.tables import audit_summary, audit_table

    start = time.perf_counter()
    audits, interrupted = collect(
        run_audit(registry, selected, run_seed, jobs_or_cores(jobs), timeout,
                  result_cache(no_cache)),
        len(selected), progress=format is Format.table)
    seconds = time.perf_counter() - start
    report_and_exit(format, output, interrupted, registry.errors, ok=all(a.strong for a in audits),
                    as_json=lambda: dumps(audit_document(audits, run_seed, registry.errors)),
                    as_table=lambda: [audit_table(audits), audit_summary(audits, seconds)])
