"""Moments stated in words: "the dot product has zero mean and a variance of $d$".

Documents often state a mean or a variance in a sentence rather than in a formula. This module
reads such a sentence into the relations it states, written in LaTeX (``E[q^T k] = 0``,
``\\text{Var}(q^T k) = d``), so recognition judges them like any formula of the document.

A sentence states a moment when it has a *quantity word* (mean, expectation, expected value,
variance, standard deviation) with a *value*: an inline formula, a number, or a number word
(zero, one, unit), in one of these shapes:

* ``<value> <quantity>``: "zero mean", "unit variance";
* ``<quantity> [is|equals|of|=] <value>``: "mean $0$", "a variance of $d$";
* ``<quantity> of <subject> is <value>``: "the variance of $q^T k$ is $d_k$".

Its *subject* is then the formula named after "of", or else the last inline formula before the
quantity word in the sentence (its left side, when it is a relation: "$q \\cdot k = \\sum_i
q_i k_i$, has mean $0$"), or else a term the sentence uses for a quantity the claims write in
formulas (:data:`TERMS`). A sentence whose subject cannot be found states nothing here. Where
the sentence calls its subject a dot or inner product, ``a \\cdot b`` of two names is read as the
inner product ``a^T b`` (the words say what the dot means).

The same goes for two ways of saying arithmetic in words: a number and the square root it is,
"divide by 8 (the square root of the key width, 64)" (:func:`roots_said`); and a number
something is divided by, "the scores are divided by 8" or "scaled by 1/8"
(:func:`divisors_said`, judged in :mod:`tmath.gate.divisors`).

Nothing else in prose is read: this is a reader of common ways to state moments and roots, not
of language.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterator

from tmath.gate.document import Document, Math

QUANTITIES = {
    "mean": "E[{}]",
    "expectation": "E[{}]",
    "expected value": "E[{}]",
    "variance": r"\text{{Var}}({})",
    "standard deviation": r"\text{{Var}}({})",
}
"""Each quantity word and the LaTeX of that moment of a subject (a standard deviation σ is
stated as the variance σ², so it is compared with the claims' variances)."""
SQUARED = frozenset({"standard deviation"})
NUMBER_WORDS = {"zero": "0", "one": "1", "unit": "1"}
TERMS = {"dot product": "q^T k", "inner product": "q^T k"}
"""Terms for quantities the claims write in formulas: the term stands for the formula when a
sentence names no formula for it."""
_PRODUCT_WORDS = ("dot product", "inner product", "scalar product")
SENTENCE_END = re.compile(r"(?<!\bi\.e)(?<!\be\.g)(?<!\bcf)(?<!\bvs)(?<!\bviz)[.!?](?=\s|$)|[。！？]|"
                          r"\n[ \t]*\n")
"""A sentence ends at a stop before a space (not the stop of "i.e.", "e.g.", "cf.", "vs.",
"viz."), or at a blank line."""
_QUANTITY = "|".join(sorted(map(re.escape, QUANTITIES), key=len, reverse=True))
_NUMBER = r"[-−]?\d+(?:\.\d+)?"
_WORDS = "|".join(NUMBER_WORDS)
_VALUE = rf"(?:⟨(?P<{{g}}>\d+)⟩|(?P<{{g}}w>{_WORDS})\b|(?P<{{g}}n>{_NUMBER})\b)"
_BEFORE = re.compile(_VALUE.format(g="v") + rf"\s+(?P<q>{_QUANTITY})\b", re.I)
_OF_SUBJECT = re.compile(rf"\b(?P<q>{_QUANTITY})\s+of\s+⟨(?P<s>\d+)⟩\s*(?:is|equals|=)\s+"
                         + _VALUE.format(g="v"), re.I)
_AFTER = re.compile(rf"\b(?P<q>{_QUANTITY})\s+(?:(?:is|equals|of|=)\s+)?"
                    + _VALUE.format(g="v"), re.I)
_DOT = re.compile(r"^\s*([A-Za-z])\s*\\cdot\s*([A-Za-z])\s*$")


@dataclass(frozen=True)
class Stated:
    """A relation a sentence states, as LaTeX, and where its value is printed."""

    latex: str
    start: int
    line: int
    sentence: str


def stated(document: Document) -> list[Stated]:
    """The moments the document's sentences state, in reading order."""
    found: list[Stated] = []
    for text, start, end, maths in sentences_with_math(document):
        found += _in_sentence(document, text, start, end, maths)
    return found


def sentences_with_math(document: Document) -> Iterator[tuple[str, int, int, list[Math]]]:
    """Each sentence of the document's prose, ``(text, start, end, maths)``: the text read
    (code masked), where the sentence is in it, and the inline formulas inside it."""
    from bisect import bisect_left

    text = document.masked or document.text
    inline = sorted(document.inline, key=lambda m: m.start)
    starts = [m.start for m in inline]
    for start, end in sentences(text):
        first, last = bisect_left(starts, start), bisect_left(starts, end)
        yield text, start, end, [m for m in inline[first:last] if m.end <= end]


def paragraph(text: str, start: int, end: int) -> str:
    """The paragraph (between blank lines) around a sentence."""
    before = text.rfind("\n\n", 0, start)
    after = text.find("\n\n", end)
    return text[before + 1 if before >= 0 else 0:after if after >= 0 else len(text)]


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (a stop before a space, or a blank
    line)."""
    return iter(_sentence_spans(text))


@functools.lru_cache(maxsize=8)
def _sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of :func:`sentences`, found once per text: a document's prose is split by
    many readers."""
    spans, start = [], 0
    for match in SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return tuple(spans)


def _in_sentence(document: Document, text: str, start: int, end: int, maths: list[Math]
                 ) -> list[Stated]:
    """The moments one sentence states; none when it has no quantity word."""
    plain = text[start:end]
    if not re.search(_QUANTITY, plain, re.I):
        return []
    spelt, places = with_placeholders(text, start, end, maths)
    words = spelt.lower()
    product = any(w in words for w in _PRODUCT_WORDS)
    matches, used = [], set()
    for pattern in (_OF_SUBJECT, _BEFORE, _AFTER):
        for match in pattern.finditer(spelt):
            if not any(match.start() < b and a < match.end() for a, b in used):
                used.add((match.start(), match.end()))   # a longer shape read these words
                matches.append(match)
    values = {int(m.group("v")) for m in matches if m.group("v")}
    found = []
    for match in sorted(matches, key=lambda m: m.start()):
        value = _value(match, maths)
        subject = maths[int(match.group("s"))].latex if match.groupdict().get("s") else \
            _subject(spelt, match.start(), maths, words, values)
        if value is None or subject is None:
            continue
        if product:
            subject = _as_inner(subject)
        moment = QUANTITIES[match.group("q").lower()].format(subject)
        group = next(g for g in ("v", "vw", "vn") if match.group(g))
        at = places[match.start(group)]
        if match.group("q").lower() in SQUARED:
            value = f"({value})^2"
        found.append(Stated(f"{moment} = {value}", at, document.line_of(at), plain.strip()))
    return found


def with_placeholders(text: str, start: int, end: int, maths: list[Math]
                       ) -> tuple[str, list[int]]:
    """The sentence with each inline formula as ``⟨k⟩``, and the document offset of each of
    its characters."""
    pieces, places, cursor = [], [], start
    for k, math in enumerate(maths):
        pieces.append(text[cursor:math.start])
        places += range(cursor, math.start)
        mark = f"⟨{k}⟩"
        pieces.append(mark)
        places += [math.inner] * len(mark)
        cursor = math.end
    pieces.append(text[cursor:end])
    places += range(cursor, end)
    places.append(end)
    return "".join(pieces), places


def _value(match: re.Match, maths: list[Math]) -> str | None:
    if match.group("v"):
        return maths[int(match.group("v"))].latex
    if match.group("vw"):
        return NUMBER_WORDS[match.group("vw").lower()]
    if match.group("vn"):
        return match.group("vn").replace("−", "-")
    return None


def _subject(spelt: str, at: int, maths: list[Math], words: str, values: set[int]
             ) -> str | None:
    """The last inline formula before ``at`` that is no moment's value (its left side if it
    is a relation), else a term of :data:`TERMS` the sentence uses."""
    marks = [int(m.group(1)) for m in re.finditer(r"⟨(\d+)⟩", spelt[:at])
             if int(m.group(1)) not in values]
    if marks:
        latex = maths[marks[-1]].latex
        left = re.split(r"(?<![<>!\\])=|\\in\b|\\approx|\\sim", latex, maxsplit=1)[0]
        return left.strip() or None
    terms = [t for t in TERMS if t in words[:at]]
    return TERMS[terms[-1]] if terms else None


def _as_inner(subject: str) -> str:
    """``q \\cdot k`` of two names as the inner product ``q^T k``."""
    match = _DOT.match(subject)
    return f"{match.group(1)}^T {match.group(2)}" if match else subject


# -- arithmetic said in words --------------------------------------------------------------------

_PRINTED = r"\d+(?:\.\d+)?"
_ROOT_APPOSITIVE = re.compile(
    rf"(?P<a>{_PRINTED})\s*[(,]\s*(?:which is\s+|i\.e\.,?\s*)?the square root of\b"
    rf"(?P<between>[^\d()\n]{{0,80}}?)(?P<b>{_PRINTED})(?![\d.]\d)", re.I)


@dataclass(frozen=True)
class Root:
    """``A (the square root of … B)``: the document says √B is A."""

    root: str
    of: str
    start: int
    line: int


def roots_said(document: Document) -> list[Root]:
    """Every ``A (the square root of … B)`` (or ``A, the square root of … B``) in the prose."""
    text = document.masked or document.text
    return [Root(m.group("a"), m.group("b"), m.start("a"), document.line_of(m.start("a")))
            for m in _ROOT_APPOSITIVE.finditer(text)]


_DIVIDED = re.compile(
    rf"\b(?P<verb>divid(?:e|es|ed|ing)|scal(?:e|es|ed|ing)(?:\s+down)?)\b"
    rf"(?P<between>[^.;:!?\d\n]{{0,60}}?)\bby\s+(?P<one>1\s*/\s*)?(?P<n>{_PRINTED})"
    rf"(?![\d.]*\d|\s*[/×*^])", re.I)


@dataclass(frozen=True)
class Divisor:
    """"divided by N" (or "scaled by 1/N"): the document divides something by N."""

    divisor: str
    start: int
    line: int
    sentence: tuple[int, int]
    """Where the sentence that says it starts and ends."""


def divisors_said(document: Document) -> list[Divisor]:
    """Every "divide(d) … by N" and "scale(d) … by 1/N" in the prose (a scale by N itself
    multiplies, and is not read)."""
    text = document.masked or document.text
    found = []
    for start, end in sentences(text):
        for match in _DIVIDED.finditer(text, start, end):
            if match.group("verb").lower().startswith("scal") != bool(match.group("one")):
                continue
            found.append(Divisor(match.group("n"), match.start("n"),
                                 document.line_of(match.start("n")), (start, end)))
    return found


_APPROXIMATELY = re.compile(
    r"(?:~|≈|\b(?:about|around|roughly|approximately|circa)\s+)\s*"
    r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d,.]*\d)(?!\s*[%^/×*])", re.I)
APPROXIMATION_REACH = 160
"""How far after an exact expression (in characters of prose) its approximation is looked for."""


@dataclass(frozen=True)
class Approximation:
    """An exact expression of numbers and, later in its sentence, "~N" or "about N" for it."""

    latex: str
    printed: str
    start: int
    line: int
    expression_line: int = 0
    """Where the exact expression is (either it or the number may be the misprint)."""


_WORD_AFTER = re.compile(r"\s*([A-Za-z]\w*)")


def _first_word(text: str, at: int) -> str:
    match = _WORD_AFTER.match(text, at)
    return match.group(1) if match else ""


def approximations_said(document: Document) -> list[Approximation]:
    """``$2\\pi \\cdot 10000$ positions, … at ~63,000``: each inline formula that is an
    expression of numbers alone (not a bare number), followed in its sentence by an
    approximate number, with no other number or formula between them, and not followed by
    a word other than the one after the expression (``… about 3 hours`` counts hours)."""
    from tmath.latex import read

    found = []
    for text, start, end, maths in sentences_with_math(document):
        for k, math in enumerate(maths):
            stop = min(end, math.end + APPROXIMATION_REACH,
                       maths[k + 1].start if k + 1 < len(maths) else end)
            match = _APPROXIMATELY.search(text, math.end, stop)
            if match is None or re.search(r"\d", text[math.end:match.start()]):
                continue
            unit = _WORD_AFTER.match(text, match.end())
            if unit and unit.group(1).lower() != _first_word(text, math.end).lower():
                continue   # "$2^{10}$ tokens take about 3 hours": a number of something else
            reading = read(math.latex)
            if not reading.parsed or reading.relations or len(reading.expressions) != 1:
                continue
            value = reading.expressions[0]
            if getattr(value, "free_symbols", True) or not getattr(value, "is_number", False) \
                    or value.is_Number:
                continue
            found.append(Approximation(math.latex, match.group("n"), match.start("n"),
                                       document.line_of(match.start("n")), math.line))
    return found
