"""Running one claim: its proof, randomized check and figures (``verify``), and the same
against its foils (``audit``). This is the engine that imports NumPy and SymPy; which claims
run, in what order, and what is served from the cache is :mod:`tmath.session`'s job.

The runner returns result objects and never prints; ``tmath.render`` shows them.
"""

from __future__ import annotations

import hashlib
import time
import traceback
import warnings
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from tmath.defaults import ALPHA_PER_CLAIM, DEFAULT_SEED
from tmath.engine.experiment import Experiment, PlanError
from tmath.engine.figures import compare
from tmath.engine.foils import near_misses
from tmath.engine.model import ClaimSpec, Statement
from tmath.engine.proof import Derivation, ProofDefinitionError, ProofFailure
from tmath.engine.results import (AuditResult, ClaimResult, EmpiricalResult, FoilOutcome,
                                  FormulaMeaning, ProofResult, verdict_of)



def claim_rng(seed: int, claim_id: str) -> np.random.Generator:
    """The claim's own random stream: adding a claim never changes another claim's numbers."""
    key = int.from_bytes(hashlib.sha256(claim_id.encode()).digest()[:8], "little")
    return np.random.default_rng(np.random.SeedSequence([seed, key]))


def run_proof(spec: ClaimSpec, value: Any,
              lemmas: Mapping[str, Statement] | None = None, typeset: bool = False,
              judged: list | None = None) -> ProofResult:
    """Run the claim's derivation against ``value`` (the statement's, or a foil's).

    ``lemmas`` are the statements of the claims it depends on (the registry's, when omitted),
    so a step citing one is checked to be an instance of it. ``judged``, if given, receives
    the steps the kernel judged (what recorded formulas may be bound to).
    """
    if spec.no_proof is not None:
        return ProofResult("none", reason=spec.no_proof)
    if lemmas is None:
        lemmas = dict(getattr(spec, "lemmas", ()) or ())
    derivation = Derivation(allowed_lemmas=spec.depends_on, statement=spec.statement, value=value,
                            premises=spec.premises, lemmas=lemmas, typeset=typeset)
    start = time.perf_counter()
    status, reason, details, rests_on = "proved", None, "", ()
    try:
        spec.implementation.prove(value, derivation)
        if not derivation.concluded:
            raise ProofDefinitionError("prove() never compared its result with the statement "
                                       "(call proof.conclude(value, chain))")
        derivation.finish()
        status, rests_on = derivation.level()
    except ProofFailure as failure:
        status, reason = "failed", str(failure)
    except ProofDefinitionError as exc:
        status, reason = "error", str(exc)
    except Exception as exc:
        status, reason, details = "error", _one_line(exc), traceback.format_exc()
    if judged is not None:
        judged.extend(derivation.judged)
    return ProofResult(status, tuple(derivation.steps), derivation.cases, reason,
                       time.perf_counter() - start, details, rests_on)


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    hint = " (a worker's memory is limited by --max-memory)" \
        if isinstance(exc, MemoryError) else ""
    return (text[0] if text else type(exc).__name__) + hint


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


def verify_one(spec: ClaimSpec, seed: int, typeset: bool = False) -> ClaimResult:
    """Proof, randomized check and figures of one claim, in this process. ``typeset`` also
    records each step in 2D Unicode, LaTeX and MathML (for explain and the report)."""
    start = time.perf_counter()
    judged: list = []
    proof = run_proof(spec, spec.statement.value, typeset=typeset, judged=judged)
    empirical = run_check(spec, spec.statement.value, seed)
    figures = tuple(compare(f) for f in spec.figures)
    formulas = recorded_meanings(spec, judged)
    verdict = verdict_of(proof, empirical)
    if verdict == "verified" and any(f.status == "error" for f in figures):
        verdict = "error"
    if any(f.meaning == "contradicts" for f in formulas):
        verdict = "failed"   # a formula it vouches for says something else than it proves
    return ClaimResult(spec.info, verdict, proof, empirical, figures, seed,
                       time.perf_counter() - start, formulas=formulas)


def recorded_meanings(spec: ClaimSpec, judged: Sequence = ()) -> tuple[FormulaMeaning, ...]:
    """What each formula ``spec`` records (and each other spelling of it) means, compared with
    its statement, definitions, premises and the proof steps ``judged``
    (:mod:`tmath.meaning.claims`)."""
    if not spec.formulas:
        return ()
    from tmath.meaning.claims import bind, meanings_of

    claim = meanings_of(spec, judged)
    spellings = dict(getattr(spec, "formula_spellings", ()))
    every = [s for f in spec.formulas for s in (f, *spellings.get(f, ()))]
    return tuple(bind(f, claim) for f in dict.fromkeys(every))


# -- audit ------------------------------------------------------------------------------------

def perturbations(spec: ClaimSpec) -> list[tuple[str, Any]]:
    """Automatic near-misses of the statement (:mod:`tmath.engine.foils`), or the claim's own
    ``perturbations(value)`` where its value cannot be mutated by type."""
    custom = getattr(spec.implementation, "perturbations", None)
    if callable(custom):
        return list(custom(spec.statement.value))
    return near_misses(spec.statement.value, spec.statement.lhs)


def audit_one(spec: ClaimSpec, seed: int = DEFAULT_SEED) -> AuditResult:
    """The statement (typeset, since explain and the report show it), then both checks
    against every declared foil and automatic near-miss."""
    statement = verify_one(spec, seed, typeset=True)
    candidates = [(f.text, f.value, "declared") for f in spec.foils]
    candidates += [(text, value, "automatic") for text, value in perturbations(spec)]
    outcomes = tuple(
        FoilOutcome(text, origin, run_proof(spec, value), run_check(spec, value, seed))
        for text, value, origin in candidates
    )
    return AuditResult(spec.info, statement, outcomes)
