"""JSON documents for ``list``, ``verify`` and ``audit`` (the shapes the README documents)."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Sequence

from tmath import __version__
from tmath.errors import LoadError
from tmath.engine.info import ClaimInfo
from tmath.defaults import ALPHA_PER_CLAIM

if TYPE_CHECKING:
    from tmath.engine.results import AuditResult, ClaimResult


def dumps(document: Any) -> str:
    return json.dumps(_finite(document), ensure_ascii=False, indent=2, default=_plain_scalar)


def _plain_scalar(x: Any) -> Any:
    """NumPy scalars (a numpy.bool_ from a comparison, say) as the Python values they hold."""
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"cannot write {type(x).__name__} as JSON")


def _finite(x: Any) -> Any:
    """JSON has no inf/nan: write them as strings."""
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def claim_listing(specs: Sequence[ClaimInfo]) -> list[dict[str, Any]]:
    return [{"id": s.id, "section": s.section, "title": s.title, "tags": list(s.tags),
             "statement": s.statement, "depends_on": list(s.depends_on),
             "proof": "none" if s.no_proof else "symbolic", "path": s.path, **kind_fields(s)}
            for s in specs]


def source_json(source: Any) -> dict[str, Any]:
    """A claim's source with its bibliographic facts and locator."""
    return {"citation": source.citation, "locator": source.locator or None,
            "authors": list(source.authors), "title": source.title or None,
            "year": source.year, "venue": source.venue or None, "arxiv": source.arxiv,
            "doi": source.doi, "url": source.link, "verified": not source.unverified,
            "unverified": source.unverified or None}


def kind_fields(info: ClaimInfo) -> dict[str, Any]:
    """What a claim's kind adds to its JSON: the kind, its reason or reported number, its
    sources, the passages that anchor it and the works it is not from."""
    return {"kind": getattr(info, "kind", "theorem"), "reason": getattr(info, "reason", None),
            "reported": getattr(info, "reported", "") or None,
            "sources": [source_json(x) for x in info.sources],
            "passages": [{"section": p.section or info.section,
                          "terms": [list(t) for t in p.terms]}
                         for p in getattr(info, "passages", ())],
            "not_in": [{"source": source_json(x), "why": why}
                       for x, why in getattr(info, "not_in", ())]}


def load_errors(errors: Sequence[LoadError]) -> list[dict[str, Any]]:
    return [{"path": e.path, "line": e.line, "message": e.message} for e in errors]


def verify_document(results: Sequence[ClaimResult], seed: int, seconds: float,
                    errors: Sequence[LoadError], not_run: int = 0,
                    interrupted: bool = False) -> dict[str, Any]:
    """The report of ``verify -f json``; an interrupted run (Ctrl-C, SIGTERM) says so and
    counts the selected claims that did not run (``not_run``)."""
    verdicts = [r.verdict for r in results]
    statistical = sum(1 for r in results if r.empirical.alpha > 0)
    return {
        "tmath": __version__,
        "seed": seed,
        "alpha_per_claim": ALPHA_PER_CLAIM,
        "suite_false_alarm_bound": ALPHA_PER_CLAIM * statistical,
        "interrupted": interrupted,
        "not_run": not_run,
        "claims": [{**r.to_dict(), **kind_fields(r.info)} for r in results],
        "load_errors": load_errors(errors),
        "summary": {
            "total": len(results),
            **{v: verdicts.count(v) for v in ("verified", "heuristic", "cited", "failed",
                                              "error", "blocked", "timeout")},
            "kinds": {k: sum(getattr(r.info, "kind", "theorem") == k for r in results)
                      for k in ("theorem", "heuristic", "empirical", "fact")},
            "proofs": {level: sum(r.proof.status == level for r in results)
                       for level in ("proved", "proved-assuming", "proved-for-cases", "none",
                                     "failed", "error")},
            "figures": sum(len(r.figures) for r in results),
            "figures_wrong_in_document": sum(len(r.wrong_figures) for r in results),
            "seconds": round(seconds, 3),
        },
    }


def audit_document(audits: Sequence[AuditResult], seed: int, errors: Sequence[LoadError],
                   not_run: int = 0, interrupted: bool = False) -> dict[str, Any]:
    """The report of ``audit -f json`` (interrupted and not_run as in :func:`verify_document`)."""
    return {
        "tmath": __version__,
        "seed": seed,
        "interrupted": interrupted,
        "not_run": not_run,
        "claims": [a.to_dict() for a in audits],
        "load_errors": load_errors(errors),
        "summary": {"claims": len(audits), "foils": sum(len(a.foils) for a in audits),
                    "tests": sum(len(a.tests) for a in audits),
                    "inert_tests": sum(len(a.inert_tests) for a in audits),
                    "weak": [a.info.id for a in audits if not a.strong]},
    }
