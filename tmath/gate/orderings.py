"""Which columns of a sinusoidal encoding change faster, said in words.

Claim ``sinusoidal-frequency-period`` proves ω_i = 1/10000^{2i/d}: the frequency of the
encoding's columns falls as their index grows (a sine and a cosine column share one), and
their wavelength grows. Documents say so by comparing columns: "the 6th and 7th columns have
a higher frequency than the 8th and 9th". Where that claim is in play in a document, a
sentence is read when it

* speaks of columns or dimensions and compares a frequency or a wavelength (period) with one
  comparative (higher, lower, greater, smaller, larger, faster, slower, longer, shorter) and
  ``than``;
* numbers columns on both sides: ordinals (``6th``, ``$6^{\\textrm{th}}$``) or ``column 6``.

A comparison that no indexing makes true (columns before those they are compared with said
to have a lower frequency, or a longer wavelength) contradicts the claim; one true whether
columns are counted from 0 or from 1 is recognised; anything else is not a finding.

The same trend is said without numbers: "the encoding decreases frequencies along the
encoding dimension", "wavelengths grow across the dimensions" (:func:`trends_said`). A
sentence is read when it has one frequency or wavelength (period) word, one verb of direction
(increase, decrease, grow, fall, rise, drop, shrink), "along", "across", "over" or "with"
the dimension(s), columns or their index, and no negation, comparison ("than") or second varying quantity
(position, time, length). A rising frequency or a falling wavelength contradicts the claim.
So does "sinusoids (sinusoidal functions, sines and cosines, ``\\sin`` and ``\\cos``) of (with)
(slowly) increasing frequencies": the encoding's sinusoids, listed in its order, have
falling frequencies and growing wavelengths.

Claim ``pe-period-range`` proves that each pair's wavelength is the last one's times one
factor: the wavelengths (and frequencies) form a geometric progression. A sentence with one
wavelength, period or frequency word and "geometric", "arithmetic" or "linear" before
"progression" or "sequence" (and no negation) says which (:func:`progressions_said`); an
arithmetic one contradicts the claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.prose_relations import sentences_with_math, with_placeholders

CLAIM = "sinusoidal-frequency-period"
_COLUMNS = re.compile(r"\b(?:columns?|dimensions?)\b", re.I)
_COMPARED = re.compile(
    r"\b(?:(?P<more>higher|greater|larger|faster|longer)|(?P<less>lower|smaller|slower|shorter))\b",
    re.I)
_QUANTITY = re.compile(r"\b(?P<f>frequenc(?:y|ies))\b|\b(?P<w>wavelengths?|periods?)\b", re.I)
_ORDINAL = re.compile(r"\b(\d+)\s*(?:st|nd|rd|th)\b|\bcolumns?\s+(\d+)\b", re.I)
_MATH_ORDINAL = re.compile(r"^\s*(\d+)\s*\^\s*\{?\s*(?:\\(?:textrm|text|mathrm)\s*\{)?"
                           r"\s*(?:st|nd|rd|th)\b")


@dataclass(frozen=True)
class Comparison:
    """Columns ``before`` said to have a higher (``more``) or lower frequency than ``after``."""

    before: tuple[int, ...]
    after: tuple[int, ...]
    higher: bool
    start: int
    line: int


def comparisons_said(document: Document) -> list[Comparison]:
    """Every sentence that compares the frequency (or wavelength) of numbered columns."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        if not _COLUMNS.search(text, start, end) or " than " not in " ".join(
                text[start:end].split()):
            continue
        spelt, places = with_placeholders(text, start, end, maths)
        compared = list(_COMPARED.finditer(spelt))
        than = [m.start() for m in re.finditer(r"\bthan\b", spelt)]
        if len(compared) != 1 or len(than) != 1 or than[0] < compared[0].end():
            continue
        quantity = _QUANTITY.search(spelt, compared[0].end(), than[0])
        if quantity is None:
            continue
        before = _ordinals(spelt[:compared[0].start()], maths)
        after = _ordinals(spelt[than[0]:], maths)
        if not before or not after:
            continue
        higher = bool(compared[0].group("more")) == bool(quantity.group("f"))
        at = places[compared[0].start()]
        found.append(Comparison(before, after, higher, at, document.line_of(at)))
    return found


def _ordinals(spelt: str, maths: list) -> tuple[int, ...]:
    numbers = [int(a or b) for a, b in _ORDINAL.findall(spelt)]
    for mark in re.findall(r"⟨(\d+)⟩", spelt):
        match = _MATH_ORDINAL.match(maths[int(mark)].latex)
        if match:
            numbers.append(int(match.group(1)))
    return tuple(numbers)


def judged(document: Document, said: Comparison) -> Finding | None:
    """``contradicts`` when no indexing makes the comparison true, ``recognised`` when
    either does, else None."""
    def pair(column: int, first: int) -> int:   # ω_i is shared by columns 2i and 2i + 1
        return (column - first) // 2

    holds = []
    for first in (0, 1):
        a = [pair(c, first) for c in said.before]
        b = [pair(c, first) for c in said.after]
        holds.append(max(a) < min(b) if said.higher else min(a) > max(b))
    if all(holds):
        status = "recognised"
    elif max(said.before) < min(said.after) and not said.higher or \
            min(said.before) > max(said.after) and said.higher:
        status = "contradicts"
    else:
        return None
    section = document.section_at(said.start)
    columns = ", ".join(map(str, said.before))
    others = ", ".join(map(str, said.after))
    said_as = f"columns {columns}: {'higher' if said.higher else 'lower'} frequency than {others}"
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=said.line,
                  column=document.column_of(said.start), claim=CLAIM, claims=(CLAIM,),
                  compared_with=("statement",), formula=said_as)
    if status == "recognised":
        return Finding(status="recognised", meaning="equivalent", **common)
    return Finding(status="contradicts", meaning="contradicts",
                   recorded="\\omega_i = 1 / 10000^{2i/d}",
                   detail=f"claim {CLAIM} proves ω_i = 1/10000^(2i/d), which falls as the "
                          f"column grows: columns {columns} change at least as fast as "
                          f"columns {others}" if not said.higher else
                          f"claim {CLAIM} proves ω_i = 1/10000^(2i/d), which falls as the "
                          f"column grows: columns {columns} change at most as fast as "
                          f"columns {others}", **common)


_DIRECTION = re.compile(r"\b(?:(?P<up>increas\w*|grow\w*|rises?|rising)|"
                        r"(?P<down>decreas\w*|fall\w*|drops?|dropping|shrink\w*))\b", re.I)
_ALONG = re.compile(r"\b(?:along|across|over|with)\s+(?:the\s+)?(?:(?:encoding|embedding|hidden|"
                    r"feature)\s+)?(?:dimensions?|columns?)(?:\s+index)?\b|\bwith\s+(?:the\s+)?"
                    r"(?:component|column|dimension)\s+index\b", re.I)
_NOT_A_TREND = re.compile(r"\b(?:not|n't|never|than|positions?|time|length|steps?)\b", re.I)
_SINUSOIDS_OF = re.compile(r"(?:\bsinusoid(?:s|al\s+(?:functions?|waves?|signals?))?|\bsines?\s+and\s+"
                           r"cosines?|(?P<pair>⟨\d+⟩\s+and\s+⟨\d+⟩))\s+(?:of|with)\s+"
                           r"(?:(?:slowly|steadily|gradually)\s+)?(?:(?P<up>increasing|growing|rising)|"
                           r"(?P<down>decreasing|falling|shrinking))\s+(?:(?P<f>frequencies)|"
                           r"wavelengths|periods)\b", re.I)
"""The sinusoids listed in the encoding's order, said to have rising or falling frequencies."""


@dataclass(frozen=True)
class Trend:
    """A sentence saying the frequency (``rising``) rises or falls along the dimension."""

    rising: bool
    start: int
    line: int


def trends_said(document: Document) -> list[Trend]:
    """Every sentence that says which way the frequency (or wavelength) goes along the
    encoding's dimension (see the module's doc)."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        spelt, places = with_placeholders(text, start, end, maths)
        if not re.search(r"\b(?:not|never)\b|n't\b", spelt):
            found += [Trend(bool(m.group("up")) == bool(m.group("f")), places[m.start()],
                            document.line_of(places[m.start()]))
                      for m in _SINUSOIDS_OF.finditer(spelt)
                      if not m.group("pair") or _sine_and_cosine(m.group("pair"), maths)]
        quantities = list(_QUANTITY.finditer(spelt))
        directions = list(_DIRECTION.finditer(spelt))
        if len(quantities) != 1 or len(directions) != 1 or not _ALONG.search(spelt) or \
                _NOT_A_TREND.search(spelt):
            continue
        rising = bool(directions[0].group("up")) == bool(quantities[0].group("f"))
        at = places[directions[0].start()]
        found.append(Trend(rising, at, document.line_of(at)))
    return found


def _sine_and_cosine(pair: str, maths: list) -> bool:
    """The two formulas of ``⟨a⟩ and ⟨b⟩`` are a sine and a cosine (``\\sin``, ``\\cos``)."""
    first, second = (maths[int(k)].latex.strip() for k in re.findall(r"\d+", pair))
    return {first, second} == {"\\sin", "\\cos"}


def trend_judged(document: Document, said: Trend) -> Finding:
    """``contradicts`` for a frequency said to rise along the dimension, else ``recognised``."""
    section = document.section_at(said.start)
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=said.line,
                  column=document.column_of(said.start), claim=CLAIM, claims=(CLAIM,),
                  compared_with=("statement",),
                  formula=f"the frequency {'rises' if said.rising else 'falls'} along the "
                          f"dimension")
    if not said.rising:
        return Finding(status="recognised", meaning="equivalent", **common)
    return Finding(status="contradicts", meaning="contradicts",
                   recorded="\\omega_i = 1 / 10000^{2i/d}",
                   detail=f"claim {CLAIM} proves ω_i = 1/10000^(2i/d): the frequency falls (the "
                          f"wavelength grows) as the dimension's index grows", **common)


RANGE_CLAIM = "pe-period-range"
_PROGRESSION = re.compile(r"\b(?:(?P<geometric>geometric(?:al)?(?:ly)?)|(?P<arithmetic>arithmetic"
                          r"(?:al)?(?:ly)?|linear(?:ly)?))\s+(?:progression|sequence)\b", re.I)
_NEGATED = re.compile(r"\b(?:not|n't|never|rather\s+than|instead\s+of)\b", re.I)


@dataclass(frozen=True)
class Progression:
    """A sentence saying the wavelengths form a geometric (or another) progression."""

    geometric: bool
    start: int
    line: int


def progressions_said(document: Document) -> list[Progression]:
    """Every sentence that names the kind of progression the encoding's wavelengths or
    frequencies form (see the module's doc)."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        spelt, places = with_placeholders(text, start, end, maths)
        kinds = list(_PROGRESSION.finditer(spelt))
        if len(kinds) != 1 or len(list(_QUANTITY.finditer(spelt))) != 1 or \
                _NEGATED.search(spelt):
            continue
        at = places[kinds[0].start()]
        found.append(Progression(bool(kinds[0].group("geometric")), at, document.line_of(at)))
    return found


def progression_judged(document: Document, said: Progression) -> Finding:
    """``recognised`` for a geometric progression, else ``contradicts``."""
    section = document.section_at(said.start)
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=said.line,
                  column=document.column_of(said.start), claim=RANGE_CLAIM,
                  claims=(RANGE_CLAIM,), compared_with=("statement",),
                  formula=f"the wavelengths form {'a geometric' if said.geometric else 'an arithmetic'}"
                          f" progression")
    if said.geometric:
        return Finding(status="recognised", meaning="equivalent", **common)
    return Finding(status="contradicts", meaning="contradicts",
                   recorded="\\omega_{i+1} / \\omega_i = 10000^{-2/d}",
                   detail=f"claim {RANGE_CLAIM} proves ω_(i+1)/ω_i = 10000^(−2/d) for every i: "
                          f"the frequencies, and so the wavelengths, form a geometric "
                          f"progression, not an arithmetic one",
                   **common)
