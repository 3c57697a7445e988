"""Claim kinds: what each one declares, and the best verdict it can reach.

======================  ==========================================  ======  =========  ==========
kind                    declares                                    proof   check      at best
======================  ==========================================  ======  =========  ==========
``theorem``             ``prove``, ``check``, foils                 run     run        verified
``heuristic``           ``reason`` (why it cannot be verified);     none    optional   heuristic
                        optionally a toy ``check`` with foils
``empirical``           ``sources`` with a locator (§, Table,       none    optional   cited
                        Figure) and ``reported`` (the number)
``fact``                ``sources`` with a locator (the paper's     none    optional   cited
                        section or the released config file)
======================  ==========================================  ======  =========  ==========

A cited claim (empirical or fact) is never *verified*: its verdict is ``cited``, which passes
like ``heuristic`` does and is counted on its own. A claim with no check has nothing the
runner could have run: its check is reported as ``none`` with the reason, never as a pass.
This module stays light (no NumPy, no SymPy): results import it.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from tmath.i18n.markers import N_

KINDS = ("theorem", "empirical", "fact", "heuristic")
"""What a claim is: a ``theorem`` is proved and checked; an ``empirical`` claim is a published
measurement and a ``fact`` a published configuration, both *cited* (never verified); a
``heuristic`` says why it cannot be verified. (This module imports no other part of the
engine: the model and the results both use it.)"""
_SECTION = re.compile(r"^\d+(\.\d+)?$")
CITED = ("empirical", "fact")
BEST = {"theorem": "verified", "heuristic": "heuristic", "empirical": "cited", "fact": "cited"}
"""The best verdict each kind can reach."""
PASSING_VERDICTS = ("verified", "heuristic", "cited")
NO_CHECK = {"heuristic": N_("no check: a heuristic (see its reason)"),
            "empirical": N_("no check: a published measurement, cited from its source"),
            "fact": N_("no check: a published fact, cited from its source")}
NO_PROOF = {"empirical": N_("a published measurement: cited from its source, not proved"),
            "fact": N_("a published fact: cited from its source, not proved")}


def declared(kind: str | None, no_proof: str | None) -> str:
    """The kind a claim declares; without one, ``heuristic`` if it gives ``no_proof``."""
    if kind is None:
        return "heuristic" if no_proof is not None else "theorem"
    return kind


def no_proof_text(kind: str, no_proof: str | None, reason: str | None) -> str | None:
    """What the runner reports for the proof of a claim of this kind (None: run prove)."""
    if kind == "heuristic":
        return reason or no_proof
    if kind in CITED:
        return no_proof or NO_PROOF[kind]
    return no_proof


def problems(kind: str, cls: type, sources: Sequence[Any], reason: str | None, reported: str,
             passages: Sequence[Any], not_in: Sequence[Any]) -> list[str]:
    """What a declaration of this kind is missing, each with its remedy."""
    found: list[str] = []
    if kind not in KINDS:
        return [f"kind must be one of {', '.join(KINDS)} (got {kind!r})"]
    if any(not _is_source(s) for s in sources):
        found.append("sources must be Source objects")
        sources = [s for s in sources if _is_source(s)]
    if kind != "theorem" and callable(getattr(cls, "prove", None)):
        found.append(f"a {kind} claim has no proof: remove prove(), or make it a theorem "
                     "(kind='theorem')")
    if kind == "heuristic" and not (reason and reason.strip()):
        found.append("a heuristic needs reason='why it cannot be verified'")
    if kind in CITED:
        if not sources:
            found.append(f"a {kind} claim needs sources=(Source(..., locator='§…'),)")
        if any(not s.locator for s in sources):
            found.append("give each source a locator: the section, table, figure or config "
                         "file the claim rests on (Source(...).at('Table 3'))")
        if any(not (s.arxiv or s.url or s.doi or s.venue) for s in sources):
            found.append("a source must say where to find it (arxiv=, url=, doi= or venue=)")
    if kind == "empirical" and not reported.strip():
        found.append("an empirical claim needs reported='the number, as the source reports it'")
    for passage in passages:
        if not hasattr(passage, "terms") or not hasattr(passage, "section"):
            found.append("passages must be Passage objects")
        elif not passage.terms or any(not t or not all(a.strip() for a in t)
                                       for t in passage.terms):
            found.append("a Passage needs terms: the technical terms, names, numbers and "
                         "formulas the document's sentence uses")
        elif passage.section is not None and not _SECTION.match(passage.section):
            found.append("a Passage's section must look like '1' or '1.1'")
    for item in not_in:
        if not (isinstance(item, tuple) and len(item) == 2 and _is_source(item[0])
                and isinstance(item[1], str) and item[1].strip()):
            found.append("not_in takes (Source, 'why the statement is not from it') pairs")
    return found


def _is_source(item: Any) -> bool:
    """A :class:`~tmath.engine.model.Source` (by its fields: the model imports this module)."""
    return all(hasattr(item, f) for f in ("citation", "locator", "arxiv", "url", "authors"))


def honest(info: Any, verdict: str, proof: Any, empirical: Any,
           figures: Sequence[Any] = ()) -> tuple[str, str | None]:
    """The verdict a result may carry given its claim's kind, and the reason to report its
    check as ``none`` (None: the check's result stands).

    A claim with no check (heuristic or cited) has its missing check reported as ``none``
    (instead of the error the runner records when it finds no ``check``); its verdict is the
    best its kind allows, unless a figure could not be computed. A passing verdict never
    exceeds :data:`BEST` of the kind. Anything else (a failure, an error, a timeout) stands.
    """
    kind = getattr(info, "kind", "theorem")
    if kind not in BEST or kind == "theorem":
        return verdict, None
    if not getattr(info, "has_check", True) and proof.status == "none" \
            and empirical.status == "error" and not empirical.tests:
        failing_figure = any(getattr(f, "status", "") == "error" for f in figures)
        return ("error" if failing_figure else BEST[kind]), NO_CHECK[kind]
    if verdict in PASSING_VERDICTS:
        verdict = BEST[kind]
    return verdict, None
