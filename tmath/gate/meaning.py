"""Formulas by meaning: what each display formula of a document says, against the formulas
the claims were shown (when they were verified) to mean.

A claim's recorded formula is usable here relation by relation, only where ``verify`` bound
that relation to the claim's statement, a definition, a premise or a step of its proof
(:class:`~tmath.engine.results.FormulaMeaning`). A document formula is read
(:mod:`tmath.latex`) and each of its relations compared (:mod:`tmath.meaning.compare`):

* ``equivalent``: every relation means what some bound relation means (sides swapped,
  powers, ``𝔼`` for ``E``, ``^\\top`` for ``^T``, terms regrouped…);
* ``contradicts``: a relation equivalent to none, but sharing a side with a bound relation
  (the same ``Var(qᵀk)``, ``Attention(Q, K, V)``…): the document changed it;
* ``unparsed``: the reader could not read it faithfully (the reason is given);
* ``not-compared``: read, but not every relation is something a claim means.

The module never evaluates document text: the reader builds SymPy objects from tokens.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.meaning.stored import ReadingStore


NAMING = frozenset({"statement", "definition"})
"""Relations that state or define a named quantity (``x_L = …``, ``m_t = …``)."""


@dataclass(frozen=True)
class ClaimRelation:
    """A relation of a claim's recorded formula that verify bound by meaning."""

    claim: str
    recorded: str
    index: int
    compared_with: str
    form: Any
    shown: str
    formula: str = ""
    """The spelling of the recorded formula that was read (``recorded`` or another)."""


@dataclass(frozen=True)
class FormulaReading:
    """What one document formula was found to mean."""

    meaning: str                     # equivalent, contradicts, unparsed, not-compared
    claims: tuple[str, ...] = ()     # the claims whose relations it means (or contradicts)
    compared_with: tuple[str, ...] = ()
    recorded: str | None = None      # the claim's formula it contradicts
    detail: str = ""
    hits: tuple[tuple[str, str], ...] = ()   # (claim, recorded formula) it was bound to


STORED = ReadingStore()
"""Readings kept on disk (``tmath check --no-cache`` turns it off: :func:`use_cache`)."""


@functools.lru_cache(maxsize=1)
def gate_code() -> str:
    """The digest of the gate's code, its subpackages included, for the keys of what it keeps
    on disk (the engine's hash covers ``latex/`` and ``meaning/``): a changed judgement here,
    or in a module it calls, never reads an old entry."""
    from tmath.engine.cache import code_digest

    return code_digest(Path(__file__).parent)


def use_cache(enabled: bool) -> None:
    global STORED
    STORED = ReadingStore(enabled)
    forms_of.cache_clear()


@functools.lru_cache(maxsize=8192)
def forms_of(latex: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """``("parsed", ((relation text, form or None), ...))`` or ``("unparsed", reason)``;
    from the disk when this formula was read before by the same code."""
    found = STORED.load(latex)
    if found is None:
        found = _read(latex)
        STORED.save(latex, found)
    return found


def _read(latex: str) -> tuple[str, Any]:
    from tmath.latex import read
    from tmath.meaning.forms import form

    reading = read(latex)
    if not reading.parsed:
        return "unparsed", reading.reason
    return "parsed", tuple((str(r), form(r.lhs, r.op, r.rhs)) for r in reading.relations)


def claim_relations(infos: Sequence[ClaimInfo], results: Mapping[str, Any]) -> list[ClaimRelation]:
    """Every relation of the claims' recorded formulas that verify bound by meaning."""
    found = []
    for info in infos:
        recorded_as = {s: f for f in info.formulas for s in info.spellings(f)}
        for meaning in getattr(results.get(info.id), "formulas", ()) or ():
            if not any(meaning.bound):
                continue
            status, relations = forms_of(meaning.formula)
            if status != "parsed" or len(relations) != len(meaning.bound):
                continue   # read differently than at verify time: not used
            recorded = recorded_as.get(meaning.formula, meaning.formula)
            for k, ((shown, form), source) in enumerate(zip(relations, meaning.bound)):
                if source and form is not None:
                    found.append(ClaimRelation(info.id, recorded, k, source, form, shown,
                                               meaning.formula))
    return found


def read_formula(latex: str, relations: Sequence[ClaimRelation]) -> FormulaReading:
    """Compare the relations of ``latex`` with the claims' bound ``relations``."""
    from tmath.meaning.compare import compare, differing_point

    status, found = forms_of(latex)
    if status != "parsed":
        return FormulaReading("unparsed", detail=str(found))
    if not found:
        return FormulaReading("not-compared", detail="no relation in it (an expression)")
    claims, sources, hits, unbound = [], [], [], []
    for shown, mine in found:
        if mine is None:
            unbound.append(f"{shown}: a relation not compared")
            continue
        equivalent = [r for r in relations if compare(mine, r.form) == "equivalent"]
        if equivalent:
            claims += [r.claim for r in equivalent]
            sources.append(equivalent[0].compared_with)
            hits += [(r.claim, r.recorded) for r in equivalent]
            continue
        near = next((r for r in relations if compare(
            mine, r.form, named=r.compared_with in NAMING) == "contradicts"), None)
        if near is not None:
            return FormulaReading(
                "contradicts", (near.claim,), (near.compared_with,), near.recorded,
                f"it says something else of what claim {near.claim}'s formula "
                f"{near.recorded} states (read as {shown}; {differing_point(mine, near.form)})")
        unbound.append(f"{shown}: no claim means it")
    claims = tuple(dict.fromkeys(claims))
    if unbound:
        return FormulaReading("not-compared", claims, tuple(sources), detail="; ".join(unbound),
                              hits=tuple(dict.fromkeys(hits)))
    return FormulaReading("equivalent", claims, tuple(sources), hits=tuple(dict.fromkeys(hits)))

