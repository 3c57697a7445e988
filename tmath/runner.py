"""Running claims: proof, randomized check and figures for ``verify``; foils for ``audit``.

The runner returns result objects and never prints; ``tmath.render`` shows them.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import time
import traceback
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal, Sequence

import numpy as np
import sympy as sp

from tmath.experiment import EmpiricalResult, Experiment, PlanError
from tmath.figures import FigureResult, compare
from tmath.cache import ResultCache
from tmath.model import ClaimInfo, ClaimSpec
from tmath.parallel import Outcome, run_isolated
from tmath.proof import Derivation, ProofFailure, ProofResult
from tmath.registry import Catalog, Claims
from tmath.defaults import ALPHA_PER_CLAIM, DEFAULT_SEED, DEFAULT_TIMEOUT

Verdict = Literal["verified", "heuristic", "failed", "error", "blocked", "timeout"]
PASSING = ("verified", "heuristic")


def claim_rng(seed: int, claim_id: str) -> np.random.Generator:
    """The claim's own random stream: adding a claim never changes another claim's numbers."""
    key = int.from_bytes(hashlib.sha256(claim_id.encode()).digest()[:8], "little")
    return np.random.default_rng(np.random.SeedSequence([seed, key]))


def run_proof(spec: ClaimSpec, value: Any) -> ProofResult:
    """Run the claim's derivation against ``value`` (the statement's, or a foil's)."""
    if spec.no_proof is not None:
        return ProofResult("none", reason=spec.no_proof)
    derivation = Derivation(allowed_lemmas=spec.depends_on)
    start = time.perf_counter()
    status, reason, details = "proved", None, ""
    try:
        spec.implementation.prove(value, derivation)
        if not derivation.concluded:
            status, reason = "error", "prove() never compared its result with the statement " \
                                      "(call proof.conclude(value, chain))"
    except ProofFailure as failure:
        status, reason = "failed", str(failure)
    except Exception as exc:
        status, reason, details = "error", _one_line(exc), traceback.format_exc()
    if status == "proved" and derivation.cases:
        status = "proved-for-cases"
    return ProofResult(status, tuple(derivation.steps), derivation.cases, reason,
                       time.perf_counter() - start, details)


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return text[0] if text else type(exc).__name__


def run_check(spec: ClaimSpec, value: Any, seed: int) -> EmpiricalResult:
    """Run the claim's randomized check against ``value`` with the claim's stream of ``seed``."""
    tests = spec.statistical_tests
    alpha_each = ALPHA_PER_CLAIM / tests if tests else 0.0
    experiment = Experiment(claim_rng(seed, spec.id), alpha_each, tests)
    start = time.perf_counter()
    reason, details = None, ""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            spec.implementation.check(value, experiment)
    except PlanError as exc:
        reason = str(exc)
    except Exception as exc:
        reason, details = _one_line(exc), traceback.format_exc()
    seconds = time.perf_counter() - start
    results = tuple(experiment.results)
    spent = alpha_each * sum(1 for r in results if r.kind == "statistical")
    if reason is None and not results:
        reason = "check() recorded no tests"
    if reason is not None:
        return EmpiricalResult("error", results, spent, reason, seconds, details)
    status = "passed" if all(r.passed for r in results) else "failed"
    return EmpiricalResult(status, results, spent, None, seconds)


@dataclass(frozen=True)
class ClaimResult:
    """Everything ``verify`` learned about one claim."""

    info: ClaimInfo
    verdict: Verdict
    proof: ProofResult
    empirical: EmpiricalResult
    figures: tuple[FigureResult, ...]
    seed: int
    seconds: float
    blocked_by: tuple[str, ...] = ()
    cached: bool = False

    @property
    def reproduce(self) -> str:
        return f"tmath verify {self.info.id} --seed {self.seed}"

    @property
    def reason(self) -> str:
        """Why a claim did not verify, in one line."""
        if self.verdict == "blocked":
            return "blocked by " + ", ".join(self.blocked_by)
        if self.proof.status in ("failed", "error"):
            return f"proof {self.proof.status}: {self.proof.reason}"
        if self.empirical.status != "passed":
            return f"randomized check {self.empirical.status}: {self.empirical.headline}"
        errors = [f for f in self.figures if f.status == "error"]
        return f"figure {errors[0].label}: {errors[0].detail}" if errors else ""

    @property
    def wrong_figures(self) -> tuple[FigureResult, ...]:
        return tuple(f for f in self.figures if f.status != "accurate")

    def to_dict(self) -> dict[str, Any]:
        s = self.info
        return {
            "id": s.id, "section": s.section, "title": s.title, "statement": s.statement,
            "verdict": self.verdict, "blocked_by": list(self.blocked_by),
            "proof": self.proof.to_dict(), "empirical": self.empirical.to_dict(),
            "figures": [f.to_dict() for f in self.figures],
            "seconds": round(self.seconds, 4), "cached": self.cached,
            "reproduce": self.reproduce if self.verdict not in PASSING else None,
        }


def verdict_of(proof: ProofResult, empirical: EmpiricalResult) -> Verdict:
    if "error" in (proof.status, empirical.status):
        return "error"
    if proof.status == "failed" or empirical.status == "failed":
        return "failed"
    if proof.status == "none":
        return "heuristic"
    return "verified"


def verify_one(spec: ClaimSpec, seed: int) -> ClaimResult:
    """Proof, randomized check and figures of one claim, in this process."""
    start = time.perf_counter()
    proof = run_proof(spec, spec.statement.value)
    empirical = run_check(spec, spec.statement.value, seed)
    figures = tuple(compare(f) for f in spec.figures)
    verdict = verdict_of(proof, empirical)
    if verdict == "verified" and any(f.status == "error" for f in figures):
        verdict = "error"
    return ClaimResult(spec.info, verdict, proof, empirical, figures, seed,
                       time.perf_counter() - start)


def unfinished(info: ClaimInfo, outcome: Outcome, seed: int) -> ClaimResult:
    """The result of a claim whose worker timed out, crashed or raised."""
    verdict: Verdict = "timeout" if outcome.kind == "timeout" else "error"
    reason = outcome.message + (" (proof, check and figures together; see --timeout)"
                                if outcome.kind == "timeout" else "")
    return ClaimResult(info, verdict, ProofResult("error", reason=reason, details=outcome.details),
                       EmpiricalResult("error", reason=reason, details=outcome.details), (), seed,
                       outcome.seconds)


def _run_cached(catalog: Claims, selected: Sequence[ClaimInfo], kind: str, seed: int,
                work: Callable[[ClaimSpec], Any], jobs: int, timeout: float | None,
                cache: ResultCache | None) -> Iterator[tuple[ClaimInfo, Any, Outcome | None]]:
    """Yield (info, cached value or None, outcome or None) in order; run the misses in workers."""
    keys = {i.id: cache.key(kind, i.id, catalog.files_of(i.id), seed) for i in selected} \
        if cache else {}
    hits = {i.id: cache.get(keys[i.id]) for i in selected} if cache else {}
    misses = [i for i in selected if hits.get(i.id) is None]
    outcomes: Iterator[Outcome] = iter(())
    if misses:
        registry = catalog.registry() if isinstance(catalog, Catalog) else catalog
        tasks = [functools.partial(work, registry.get(i.id)) for i in misses]
        outcomes = run_isolated(tasks, jobs, timeout)
    for info in selected:
        if hits.get(info.id) is not None:
            yield info, hits[info.id], None
            continue
        outcome = next(outcomes)
        if outcome.kind == "ok" and cache:
            cache.put(keys[info.id], outcome.value)
        yield info, None, outcome


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


def verify(catalog: Claims, selected: Sequence[ClaimInfo], seed: int = DEFAULT_SEED,
           jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
           cache: ResultCache | None = None) -> Iterator[ClaimResult]:
    """Verify claims in worker processes, in order; a claim whose dependency did not hold is
    marked blocked. Cached results are served when nothing they depend on changed."""
    verdicts: dict[str, Verdict] = {}
    work = functools.partial(verify_one, seed=seed)
    ordered = dependencies_first(selected)
    for info, cached, outcome in _run_cached(catalog, ordered, "verify", seed, work, jobs,
                                             timeout, cache):
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
        yield result



# -- audit ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoilOutcome:
    """How the two checks treated one false statement."""

    text: str
    origin: Literal["declared", "automatic"]
    proof: ProofResult
    empirical: EmpiricalResult

    @property
    def proof_rejects(self) -> bool | None:
        """None when the claim has no proof to run."""
        if self.proof.status == "none":
            return None
        return self.proof.status == "failed"

    @property
    def check_rejects(self) -> bool:
        return self.empirical.status == "failed"

    @property
    def rejected(self) -> bool:
        return self.check_rejects and self.proof_rejects is not False

    def to_dict(self) -> dict[str, Any]:
        return {"foil": self.text, "origin": self.origin,
                "proof": {"status": self.proof.status, "rejects": self.proof_rejects,
                          "reason": self.proof.reason},
                "empirical": {"status": self.empirical.status, "rejects": self.check_rejects,
                              "headline": self.empirical.headline},
                "rejected": self.rejected}


@dataclass(frozen=True)
class AuditResult:
    """Whether a claim's checks can fail: they accept the statement and reject every foil."""

    info: ClaimInfo
    statement: ClaimResult
    foils: tuple[FoilOutcome, ...]
    cached: bool = False

    @property
    def strong(self) -> bool:
        return self.statement.verdict in PASSING and bool(self.foils) \
            and all(f.rejected for f in self.foils)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.info.id, "section": self.info.section, "cached": self.cached,
                "statement_verdict": self.statement.verdict, "strong": self.strong,
                "foils": [f.to_dict() for f in self.foils]}


def perturbations(spec: ClaimSpec) -> list[tuple[str, Any]]:
    """Automatic near-misses of the statement: each non-zero part of its value × 1.05."""
    custom = getattr(spec.implementation, "perturbations", None)
    if callable(custom):
        return list(custom(spec.statement.value))
    value = spec.statement.value
    factor = sp.Rational(21, 20)
    if isinstance(value, tuple):
        out = []
        for i, part in enumerate(value):
            if _scalable(part):
                changed = list(value)
                changed[i] = part * factor
                out.append((f"part {i + 1} of the value × 1.05", tuple(changed)))
        return out
    if _scalable(value):
        return [("value × 1.05", value * factor)]
    return []


def _scalable(value: Any) -> bool:
    if isinstance(value, sp.MatrixBase):
        return not value.is_zero_matrix
    if isinstance(value, (sp.Basic, int, float)):
        return sp.sympify(value) != 0
    return False


def audit_one(spec: ClaimSpec, seed: int = DEFAULT_SEED) -> AuditResult:
    statement = verify_one(spec, seed)
    candidates = [(f.text, f.value, "declared") for f in spec.foils]
    candidates += [(text, value, "automatic") for text, value in perturbations(spec)]
    outcomes = tuple(
        FoilOutcome(text, origin, run_proof(spec, value), run_check(spec, value, seed))
        for text, value, origin in candidates
    )
    return AuditResult(spec.info, statement, outcomes)


def audit(catalog: Claims, selected: Sequence[ClaimInfo], seed: int = DEFAULT_SEED,
          jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
          cache: ResultCache | None = None) -> Iterator[AuditResult]:
    """Audit claims in worker processes, in order, serving unchanged ones from the cache."""
    work = functools.partial(audit_one, seed=seed)
    for info, cached, outcome in _run_cached(catalog, selected, "audit", seed, work, jobs,
                                             timeout, cache):
        if cached is not None:
            yield dataclasses.replace(cached, cached=True)
        elif outcome.kind == "ok":
            yield outcome.value
        else:
            yield AuditResult(info, unfinished(info, outcome, seed), ())
