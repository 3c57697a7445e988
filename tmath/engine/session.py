"""Running a selection of claims: cached results first, the rest in worker processes.

This module stays light (no NumPy or SymPy): when every result is cached, nothing heavy is
imported. The engine (:mod:`tmath.runner`) is imported only to run what is not cached.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Mapping, Any, Callable, Iterator, Sequence

from tmath.engine import worker_claims
from tmath.engine.cache import ResultCache
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.engine.model import ClaimInfo, ClaimSpec
from tmath.engine.parallel import Outcome, run_isolated
from tmath.engine.registry import Catalog, Claims
from tmath.engine.results import (PASSING, PROVED, AuditResult, ClaimResult, EmpiricalResult, ProofResult,
                           Verdict)


def unfinished(info: ClaimInfo, outcome: Outcome, seed: int) -> ClaimResult:
    """The result of a claim whose worker timed out, crashed or raised."""
    verdict: Verdict = "timeout" if outcome.kind == "timeout" else "error"
    reason = outcome.message + (" (proof, check and figures together; see --timeout)"
                                if outcome.kind == "timeout" else "")
    return ClaimResult(info, verdict, ProofResult("error", reason=reason, details=outcome.details),
                       EmpiricalResult("error", reason=reason, details=outcome.details), (), seed,
                       outcome.seconds, output=outcome.output)


def _run_cached(catalog: Claims, selected: Sequence[ClaimInfo], kind: str, seed: int,
                function: str, jobs: int, timeout: float | None,
                cache: ResultCache | None, max_memory: int | None = None
                ) -> Iterator[tuple[ClaimInfo, Any, Outcome | None]]:
    """Yield (info, cached value or None, outcome or None) in order; run the misses in
    workers, each through the runner's ``function`` (``verify_one`` or ``audit_one``)."""
    keys = {i.id: cache.key(kind, i.id, catalog.files_of(i.id), seed) for i in selected} \
        if cache else {}
    hits = {i.id: cache.get(keys[i.id]) for i in selected} if cache else {}
    misses = [i for i in selected if hits.get(i.id) is None]
    outcomes: Iterator[Outcome] = iter(())
    if misses:
        outcomes = run_isolated(_tasks(catalog, misses, function, seed), jobs, timeout,
                                max_memory, groups=[i.path for i in misses])
    for info in selected:
        if hits.get(info.id) is not None:
            yield info, hits[info.id], None
            continue
        outcome = next(outcomes)
        if outcome.kind == "ok" and cache:
            cache.put(keys[info.id], outcome.value)
        yield info, None, outcome


def _tasks(catalog: Claims, misses: Sequence[ClaimInfo], function: str,
           seed: int) -> list[Callable[[], Any]]:
    """One task per claim. From a fresh index nothing is imported here: each worker imports
    the claims modules its tasks need (:mod:`tmath.engine.worker_claims`)."""
    if isinstance(catalog, Catalog) and catalog.nothing_imported:
        return [functools.partial(_run_planned, function, seed, worker_claims.plan(catalog, i))
                for i in misses]
    registry = catalog.registry() if isinstance(catalog, Catalog) else catalog
    run = getattr(_engine(), function)
    return [functools.partial(run, registry.get(i.id), seed=seed) for i in misses]


def _run_planned(function: str, seed: int, planned: worker_claims.Plan) -> Any:
    """In a worker: import the planned claim (once per module) and run it."""
    return getattr(_engine(), function)(worker_claims.claim_for(planned), seed=seed)


def dependencies_first(selected: Sequence[ClaimInfo]) -> list[ClaimInfo]:
    """Section order, except that a claim always comes after the claims it builds on."""
    placed: dict[str, ClaimInfo] = {}
    pending = list(selected)
    known = {i.id for i in selected}
    while pending:
        for index, info in enumerate(pending):
            if all(d in placed or d not in known for d in info.depends_on):
                placed[info.id] = pending.pop(index)
                break
        else:  # a cycle: the loader reports it; keep the rest in order
            placed.update((i.id, i) for i in pending)
            break
    return list(placed.values())


def inherit_level(result: ClaimResult, levels: Mapping[str, str]) -> ClaimResult:
    """A claim is fully proved only when every claim it builds on is: a ``proved`` claim whose
    dependency is proved for cases, proved assuming something, or has no proof becomes
    ``proved-assuming``, and says which claim it rests on (Lean blueprints' rule)."""
    proof = result.proof
    if proof.status not in PROVED:
        return result
    weak = tuple(f"claim {d} ({levels[d]})" for d in result.info.depends_on
                 if levels.get(d, "proved") != "proved")
    if not weak:
        return result
    status = "proved-assuming" if proof.status == "proved" else proof.status
    return dataclasses.replace(result, proof=dataclasses.replace(
        proof, status=status, rests_on=tuple(dict.fromkeys(proof.rests_on + weak))))


def verify(catalog: Claims, selected: Sequence[ClaimInfo], seed: int = DEFAULT_SEED,
           jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
           cache: ResultCache | None = None,
           max_memory: int | None = None) -> Iterator[ClaimResult]:
    """Verify claims in worker processes, in order; a claim whose dependency did not hold is
    marked blocked. Cached results are served when nothing they depend on changed.
    ``max_memory`` (MB) bounds what each worker may allocate."""
    load_arguments = getattr(catalog, "load_arguments", ())
    verdicts: dict[str, Verdict] = {}
    levels: dict[str, str] = {}
    ordered = dependencies_first(selected)
    for info, cached, outcome in _run_cached(catalog, ordered, "verify", seed, "verify_one", jobs,
                                             timeout, cache, max_memory):
        if cached is not None:
            result = dataclasses.replace(cached, cached=True)
        elif outcome.kind == "ok":
            result = outcome.value
        else:
            result = unfinished(info, outcome, seed)
        blockers = tuple(d for d in info.depends_on if verdicts.get(d, "verified") not in PASSING)
        if blockers and result.verdict in PASSING:
            result = dataclasses.replace(result, verdict="blocked", blocked_by=blockers)
        verdicts[info.id] = result.verdict
        result = inherit_level(result, levels)
        levels[info.id] = result.proof.status
        yield dataclasses.replace(result, reproduce_with=load_arguments)



def audit(catalog: Claims, selected: Sequence[ClaimInfo], seed: int = DEFAULT_SEED,
          jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
          cache: ResultCache | None = None,
          max_memory: int | None = None) -> Iterator[AuditResult]:
    """Audit claims in worker processes, dependencies first, serving unchanged ones from the
    cache. A statement's proof level takes in its dependencies' (verified first when they are
    not audited here, from the cache when nothing changed)."""
    load_arguments = getattr(catalog, "load_arguments", ())
    chosen = {i.id for i in selected}
    outside = [i for i in catalog.with_dependencies(selected) if i.id not in chosen]
    levels: dict[str, str] = {r.info.id: r.proof.status for r in
                              verify(catalog, outside, seed, jobs, timeout, cache, max_memory)} \
        if outside else {}
    for info, cached, outcome in _run_cached(catalog, dependencies_first(selected), "audit", seed,
                                             "audit_one", jobs, timeout, cache, max_memory):
        if cached is not None:
            result = dataclasses.replace(cached, cached=True)
        elif outcome.kind == "ok":
            result = outcome.value
        else:
            result = AuditResult(info, unfinished(info, outcome, seed), (), output=outcome.output)
        statement = inherit_level(result.statement, levels)
        levels[info.id] = statement.proof.status
        yield dataclasses.replace(result, statement=dataclasses.replace(
            statement, reproduce_with=load_arguments))


def _engine():
    """The runner, imported only when something has to run (it brings NumPy and SymPy)."""
    from tmath.engine import runner

    return runner
