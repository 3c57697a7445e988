"""Whole numbers printed with their binary representation, held to it.

Explanations of sinusoidal encodings often start from counting in binary: "position 252 is
11111100 in binary", or a table of rows ``5: 0 1 0 1`` whose bits are set one by one in
colour. Each such pair is arithmetic that needs no claim: the bits must spell the number.
Read are

* a sentence that says "binary" and prints exactly two whole numbers, one of them a run of at
  least three binary digits longer than the other (the other is the number);
* rows ``N: b b b …`` of a formula, at least three bits, each bit possibly wrapped in
  ``\\texttt``, ``\\color{…}`` or spacing.

A pair whose bits are not the number is ``inaccurate`` (either may be the misprint; the
finding is on the bits), a pair that agrees ``accurate``; nothing else is a finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding

MIN_BITS = 3
"""Fewer binary digits than this are too easily a small decimal number."""
_ROW = re.compile(r"(?<![\w.\\])(\d+)\s*:")
_NOISE = re.compile(r"(?:\s|~|&(?!&)|\\[ ,;:!]|\\q?quad\b|\\(?:texttt|mathtt|text|mathrm|"
                    r"mathbf|textbf)\b|\\(?:text)?color\s*\{[^{}]*\}|[{}])*")
_RUN = re.compile(r"[01]+")
_PROSE_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\w]|[.,]\d)")
_BINARY_WORD = re.compile(r"\bbinary\b", re.I)


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
        for row in _ROW.finditer(math.latex):
            bits, first = _bits(math.latex, row.end())
            if len(bits) >= MIN_BITS:
                found.append(Pair(int(row.group(1)), bits, math.inner + first))
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
