"""Whole numbers printed with their binary representation, held to it.

Explanations of sinusoidal encodings often start from counting in binary: "position 252 is
11111100 in binary", or a table of rows ``5: 0 1 0 1`` whose bits are set one by one in
colour. Each such pair is arithmetic that needs no claim: the bits must spell the number.
Read are

* a sentence that speaks of a number in binary ("in binary", "binary representation") and
  prints exactly two whole numbers, one of them a run of at least three binary digits longer
  than the other (the other is the number);
* rows ``N: b b b …`` of a formula that holds at least two of them, at least three bits each,
  each bit possibly wrapped in ``\\texttt``, ``\\color{…}`` or spacing.

A pair whose bits are not the number is ``inaccurate`` (either may be the misprint; the
finding is on the bits), a pair that agrees ``accurate``; nothing else is a finding.

The same explanations say how often each bit of a count flips: "the lowest bit, the
second-lowest bit, and the third-lowest bit alternate on every number, every two numbers, and
every four numbers, respectively". Counting 0, 1, 2, …, the k-th lowest bit flips every
2^(k−1) numbers. A sentence about bits that names bits by their place from the lowest
(lowest, LSB, second-lowest, 3rd-lowest, …) and periods ("every number", "every four
tokens", "every other number" is every two) is read (:func:`periods_in`): with
"respectively", or when all the bits are named before all the periods, the two lists are
paired in order (if they are as long), else each bit with the first period after it (before
the next bit). A period that is
not 2^(k−1) is ``inaccurate``, one that is ``accurate``.

They also compare two bits: "a higher bit has a lower frequency than a lower bit". A higher
(more significant) bit flips less often, so a sentence that gives the higher of two bits the
higher frequency (or the lower one the lower frequency) is ``inaccurate``
(:func:`bit_orders_in`), the true comparison ``accurate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding

MIN_BITS = 3
"""Fewer binary digits than this are too easily a small decimal number."""
_ROW = re.compile(r"(?<![\w.\\])(\d+)\s*:")
_NOISE = re.compile(r"(?:\s|~|\\[ ,;:!]|\\q?quad\b|\\(?:texttt|mathtt|text|mathrm|"
                    r"mathbf|textbf)\b|\\(?:text)?color\s*\{[^{}]*\}|[{}])*")
_RUN = re.compile(r"[01]+")
_PROSE_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\w]|[.,]\d)")
_BINARY_WORD = re.compile(r"\bbinary\s+(?:representation|form|number|digits?|code|notation|"
                          r"string|expansion)s?\b|\bin\s+binary\b|\bbinary\s*\(", re.I)
"""A sentence that speaks of a number written in binary (not "binary cross-entropy")."""
MIN_ROWS = 2
"""A formula must hold at least this many rows ``N: bits`` (one alone may be a ratio, 1:100)."""


@dataclass(frozen=True)
class Pair:
    """A whole number and the bits printed for it, where the bits start."""

    number: int
    bits: str
    start: int


def pairs_in(document: Document) -> list[Pair]:
    """Every number-and-bits pair the document prints (see the module's doc)."""
    from tmath.gate.prose_relations import sentences

    found = []
    text = document.masked or document.text
    for start, end in sentences(text):
        if _BINARY_WORD.search(text, start, end):
            numbers = list(_PROSE_NUMBER.finditer(text, start, end))
            if len(numbers) == 2:
                a, b = sorted(numbers, key=lambda m: len(m.group()))
                if len(b.group()) > len(a.group()) >= 1 and len(b.group()) >= MIN_BITS and \
                        set(b.group()) <= {"0", "1"}:
                    found.append(Pair(int(a.group()), b.group(), b.start()))
    for math in [*document.formulas, *document.inline]:
        if math.inner < 0:
            continue
        rows = []
        for row in _ROW.finditer(math.latex):
            bits, first = _bits(math.latex, row.end())
            if len(bits) >= MIN_BITS:
                rows.append(Pair(int(row.group(1)), bits, math.inner + first))
        found += rows if len(rows) >= MIN_ROWS else []
    return found


def _bits(latex: str, at: int) -> tuple[str, int]:
    """The binary digits from ``at`` on (typography between them skipped) and where the first
    is; none when a digit that is not binary, or a decimal point, follows them."""
    bits, first = "", -1
    while True:
        at = _NOISE.match(latex, at).end()
        run = _RUN.match(latex, at)
        if run is None:
            return bits, first
        if latex[run.end():run.end() + 1].isdigit() or latex[run.end():run.end() + 2] in (
                ".0", ".1", ".2", ".3", ".4", ".5", ".6", ".7", ".8", ".9"):
            return "", -1   # 0.5, 012: a number, not bits
        if re.match(r"\s*:", latex[run.end():]):
            return bits, first   # the next row's label (10:), not bits of this one
        first = at if first < 0 else first
        bits, at = bits + run.group(), run.end()


def judged(document: Document, pair: Pair) -> Finding:
    """``accurate`` when the bits spell the number, else ``inaccurate``."""
    value = int(pair.bits, 2)
    section = document.section_at(pair.start)
    common = dict(kind="figure", label="binary", document=document.path,
                  section=section.number if section else None,
                  line=document.line_of(pair.start), column=document.column_of(pair.start),
                  printed=pair.bits, expected=(float(pair.number),))
    if value == pair.number:
        return Finding(status="accurate", detail=f"{pair.bits} is {pair.number} in binary",
                       **common)
    return Finding(status="inaccurate",
                   detail=f"{pair.number} in binary is {pair.number:b}; {pair.bits} is {value}",
                   **common)


_ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8}
_PLACE = re.compile(r"\b(?:(?P<k>" + "|".join(_ORDINALS) + r")[- ])?lowest\b|\bLSB\b|"
                    r"\bleast[- ]significant\s+bit\b", re.I)
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "sixteen": 16, "thirty-two": 32, "sixty-four": 64}
_PERIOD = re.compile(r"\bevery\s+(?:(?P<n>\d+|" + "|".join(_COUNTS) + r")\s+)?"
                     r"(?:subsequent\s+|(?P<other>other)\s+)?(?P<unit>numbers?|tokens?|positions?|steps?|"
                     r"integers?)\b", re.I)


@dataclass(frozen=True)
class Period:
    """A bit named by its place from the lowest, the period said for it, and where."""

    place: int
    every: int
    start: int
    printed: str


def periods_in(document: Document) -> list[Period]:
    """Every (bit, how often it flips) a sentence about a binary count states."""
    from tmath.gate.prose_relations import sentences

    text = document.masked or document.text
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        if not re.search(r"\bbits?\b|\bLSB\b", sentence) or "every" not in sentence:
            continue
        places = []
        for place in _PLACE.finditer(text, start, end):   # "least significant bit (LSB)": one
            if places and _place(places[-1]) == _place(place) and \
                    not _PERIOD.search(text, places[-1].end(), place.start()):
                continue
            places.append(place)
        periods = list(_PERIOD.finditer(text, start, end))
        if not places or not periods:
            continue
        if re.search(r"\brespectively\b", sentence, re.I) or \
                places[-1].end() <= periods[0].start():   # two lists: paired in order
            pairs = list(zip(places, periods)) if len(places) == len(periods) else []
        else:
            pairs = []
            for k, place in enumerate(places):
                limit = places[k + 1].start() if k + 1 < len(places) else end
                after = [p for p in periods if place.end() <= p.start() < limit]
                if after:
                    pairs.append((place, after[0]))
        for place, period in pairs:
            k = _place(place)
            word = (period.group("n") or ("two" if period.group("other") else "one")).lower()
            every = int(word) if word.isdigit() else _COUNTS[word]
            found.append(Period(k, every, period.start(), " ".join(period.group().split())))
    return found


def _place(match: re.Match) -> int:
    return _ORDINALS[match.group("k").lower()] if match.group("k") else 1


def period_judged(document: Document, said: Period) -> Finding:
    """``accurate`` when the k-th lowest bit is said to flip every 2^(k−1) numbers."""
    true = 2 ** (said.place - 1)
    section = document.section_at(said.start)
    common = dict(kind="figure", label="binary", document=document.path,
                  section=section.number if section else None,
                  line=document.line_of(said.start), column=document.column_of(said.start),
                  printed=said.printed, expected=(float(true),))
    if said.every == true:
        return Finding(status="accurate", detail=f"bit {said.place} from the lowest flips every "
                                                 f"{true}", **common)
    return Finding(status="inaccurate",
                   detail=f"counting 0, 1, 2, …, bit {said.place} from the lowest flips every "
                          f"2^{said.place - 1} = {true} numbers, not every {said.every}",
                   **common)


_RANK = r"(?P<{}>higher|lower|more\s+significant|less\s+significant|upper)"
_BIT_ORDER = re.compile(r"\b(?:a|the|each)\s+" + _RANK.format("first") + r"\s+bit\s+(?:has|flips\s+"
                        r"(?:at|with))\s+a\s+(?P<frequency>higher|lower|greater|smaller)\s+"
                        r"frequency\s+than\s+(?:a|the|any)\s+" + _RANK.format("second") + r"\s+bit\b",
                        re.I)


@dataclass(frozen=True)
class BitOrder:
    """Two bits compared by how often they flip, and whether the comparison is true."""

    true: bool
    start: int
    printed: str


def bit_orders_in(document: Document) -> list[BitOrder]:
    """Every "a higher bit has a lower frequency than a lower bit" of the document."""
    text = document.masked or document.text
    found = []
    for match in _BIT_ORDER.finditer(text):
        first, second = (match.group(g).lower().split()[0] in ("higher", "more", "upper")
                         for g in ("first", "second"))
        if first == second:
            continue   # two bits of the same rank: nothing compared
        more = match.group("frequency").lower() in ("higher", "greater")
        found.append(BitOrder(first != more, match.start("frequency"),
                              " ".join(match.group().split())))
    return found


def bit_order_judged(document: Document, said: BitOrder) -> Finding:
    """``accurate`` when the higher bit is said to flip less often, else ``inaccurate``."""
    section = document.section_at(said.start)
    common = dict(kind="figure", label="binary", document=document.path,
                  section=section.number if section else None,
                  line=document.line_of(said.start), column=document.column_of(said.start),
                  printed=said.printed)
    if said.true:
        return Finding(status="accurate", detail="a higher bit flips less often", **common)
    return Finding(status="inaccurate",
                   detail="counting 0, 1, 2, …, bit k from the lowest flips every 2^(k−1) "
                          "numbers: a higher bit has the lower frequency", **common)
