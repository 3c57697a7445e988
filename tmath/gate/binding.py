"""Which claim sets vouch for which documents.

A claim set (the built-in claims, or the claims of one ``--claims`` folder) is bound to a
document by a *signature* made of the facts the set records, never of prose:

* its recorded formulas (normalised as the formula judge does, so a row, a link of a chain or
  a respelling counts, and so does a near match: an edited formula still binds), and
* its technical terms: the named operators and multi-letter subscripted symbols of those
  formulas (``softmax``, ``MultiHead``, ``d_{model}``, ``warmup\\_steps``).

A document is bound to a set when at least :data:`MIN_FORMULA_SHARE` of the set's formulas are
in it, or at least :data:`MIN_TERM_SHARE` of its terms (for a set with several terms). A set
that records neither is bound to every document it is given with (``--claims``); a claim a
document pins (``<!-- tmath: id -->``) is always held to that document.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from tmath.engine.info import ClaimInfo
from tmath.gate.document import Document
from tmath.gate.formulas import CHANGED_SIMILARITY, normalise, parts, similarity

MIN_FORMULA_SHARE = 0.5
"""Share of a set's recorded formulas a document must contain to be bound to the set: the
document the set was written for holds most of them. A public text that explains some of the
same mathematics (9 of the built-in 41, say) is not bound, and is recognised instead."""
MIN_TERM_SHARE = 0.8
"""Share of a set's technical terms (when it has at least :data:`MIN_TERMS`) that binds."""
MIN_TERMS = 5
MAX_NEAR_CHECKS = 20_000
"""Recorded × document formula comparisons spent on near matches (bounds the time)."""
MAX_MEANING_READS = 2_000
"""Document formulas read to find recorded ones by meaning (bounds the time)."""

_NAMED = re.compile(r"\\(?:text|mathrm|operatorname)\{([A-Za-z][A-Za-z-]{2,})\}")
_SUBSCRIPTED = re.compile(r"([A-Za-z]+)(?:\\?_)\{?([A-Za-z]{2,})\}?")


@dataclass(frozen=True)
class ClaimSet:
    """Claims loaded from one folder."""

    name: str
    infos: tuple[ClaimInfo, ...]
    explicit: bool = False


@dataclass(frozen=True)
class Signature:
    formulas: tuple[tuple[str, ...], ...]
    """Each recorded formula, normalised, in each of its spellings."""
    terms: tuple[str, ...]
    raw: tuple[str, ...] = ()
    """Each recorded formula as written (aligned with ``formulas``), to compare by meaning."""

    @property
    def empty(self) -> bool:
        return not self.formulas and not self.terms


@dataclass(frozen=True)
class Binding:
    """How a document matches a claim set's signature."""

    document: str
    claim_set: str
    formulas_found: int
    formulas: int
    terms_found: int
    terms: int
    bound: bool

    @property
    def evidence(self) -> str:
        return (f"{self.claim_set}: {self.formulas_found} of {self.formulas} recorded formulas, "
                f"{self.terms_found} of {self.terms} terms")


def signature(infos: Sequence[ClaimInfo]) -> Signature:
    written = {tuple(normalise(s) for s in _spellings(i, f)): f for i in infos for f in i.formulas}
    formulas = tuple(written)
    terms: dict[str, None] = {}
    for info in infos:
        for formula in (s for f in info.formulas for s in _spellings(info, f)):
            for name in _NAMED.findall(formula):
                terms[name] = None
            for base, sub in _SUBSCRIPTED.findall(formula.replace("\\_", "_")):
                terms[f"{base}_{sub}"] = None
    return Signature(formulas, tuple(terms), tuple(written[f] for f in formulas))


def _spellings(info: ClaimInfo, formula: str) -> tuple[str, ...]:
    spellings = getattr(info, "spellings", None)
    return spellings(formula) if spellings else (formula,)


def _term_spellings(term: str) -> tuple[str, ...]:
    if "_" in term:
        base, sub = term.split("_", 1)
        return (term, f"{base}_{{{sub}}}", f"{base}\\_{sub}")
    return (term,)


def bind(document: Document, claim_set: ClaimSet) -> Binding:
    sig = signature(claim_set.infos)
    found_parts = {p.norm for m in document.formulas for p in parts(m.latex)}
    missing = [f for f in sig.formulas if not any(s in found_parts for s in f)]
    found = len(sig.formulas) - len(missing)
    need = max(1, math.ceil(MIN_FORMULA_SHARE * len(sig.formulas)))
    if sig.formulas and found < need:
        found += _near_matches(missing, document, need - found)
    if sig.formulas and found < need:
        raw = dict(zip(sig.formulas, sig.raw))
        found += _same_meaning([raw[f] for f in missing if f in raw], document, need - found)
    text = document.text
    terms = sum(1 for t in sig.terms if any(s in text for s in _term_spellings(t)))
    bound = bool(sig.formulas) and found >= need or (
        len(sig.terms) >= MIN_TERMS and terms >= MIN_TERM_SHARE * len(sig.terms)) or (
        sig.empty and claim_set.explicit)
    return Binding(document.path, claim_set.name, found, len(sig.formulas), terms,
                   len(sig.terms), bound)


def _same_meaning(recorded: list[str], document: Document, wanted: int) -> int:
    """Recorded formulas one of whose relations a document formula states however spelt, or
    changes (its near form with another meaning: the document is about it, edited); at most
    ``wanted``. What each document formula matches is kept on disk (:class:`_Matches`)."""
    from tmath.gate.meaning import forms_of

    theirs = tuple(tuple(mine for _, mine in relations if mine is not None)
                   if status == "parsed" else () for status, relations in map(forms_of, recorded))
    store = _Matches(recorded)
    found: set[int] = set()
    for latex in dict.fromkeys(m.latex for m in document.formulas[:MAX_MEANING_READS]):
        found.update(store.matches(latex, theirs))
        if len(found) >= wanted:
            break
    return min(len(found), wanted)


@dataclass(frozen=True)
class Matched:
    """The recorded formulas (by place in the list asked about) one document formula states
    or changes, as stored."""

    recorded: tuple[int, ...]


class _Matches:
    """What each document formula matches among ``recorded``: compared once, then read from
    the disk, addressed by the formula, the recorded formulas and the gate's code (the
    engine's hash in every key covers the reader and :mod:`tmath.meaning.compare`)."""

    def __init__(self, recorded: Sequence[str]) -> None:
        from tmath.engine.cache import Store, digest
        from tmath.gate import meaning

        self.store = Store("binding", meaning.STORED.enabled)
        self.parts = (FORMAT, meaning.gate_code(), digest(*recorded))

    def matches(self, latex: str, theirs: Sequence[tuple]) -> tuple[int, ...]:
        from tmath.engine.cache import make_key

        key = make_key("binding", "", (), None, *self.parts, latex)
        stored = self.store.get(key, Matched)
        if stored is not None and all(0 <= k < len(theirs) for k in stored.recorded):
            return stored.recorded
        found = _matching(latex, theirs)
        self.store.put(key, Matched(found), Matched)
        return found


def _matching(latex: str, theirs: Sequence[tuple]) -> tuple[int, ...]:
    """The places in ``theirs`` (each a recorded formula's relations) of the formulas one of
    whose relations ``latex`` means or contradicts (:func:`tmath.meaning.compare.compare`)."""
    from tmath.gate.meaning import forms_of
    from tmath.meaning.compare import compare

    status, relations = forms_of(latex)
    shown = [f for _, f in relations if f is not None] if status == "parsed" else []
    return tuple(k for k, forms in enumerate(theirs)
                 if any(compare(other, mine) is not None for mine in forms for other in shown))


FORMAT = 1
"""The version of :class:`Matched` as stored."""


def _near_matches(recorded: list[tuple[str, ...]], document: Document, wanted: int) -> int:
    shown = [p.norm for m in document.formulas for p in parts(m.latex)
             if p.kind != "chain"] + [p.norm for m in document.formulas
                                      for p in parts(m.latex) if p.kind == "chain"]
    found, budget = 0, MAX_NEAR_CHECKS
    for spellings in recorded:
        for other in shown:
            budget -= len(spellings)
            if budget < 0:
                return found
            if any(similarity(norm, other) >= CHANGED_SIMILARITY for norm in spellings):
                found += 1
                break
        if found >= wanted:
            break
    return found


def held_to(documents: Sequence[Document], sets: Sequence[ClaimSet]
            ) -> tuple[dict[str, set[str]], list[Binding]]:
    """Which documents each claim is held to (by id), and every document–set binding."""
    held: dict[str, set[str]] = {}
    bindings = []
    for document in documents:
        for claim_set in sets:
            binding = bind(document, claim_set)
            bindings.append(binding)
            if binding.bound:
                for info in claim_set.infos:
                    held.setdefault(info.id, set()).add(document.path)
        for pin in document.pins:
            for claim_id in pin.claims:
                held.setdefault(claim_id, set()).add(document.path)
    return held, bindings
