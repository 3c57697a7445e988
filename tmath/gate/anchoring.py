"""Locating a claim's figure in a document: its anchor text (``near``), then the number
printed after it in the figure's form, in the claim's pinned paragraphs, sub-section or
section.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Iterable

from tmath.engine.model import ClaimInfo
from tmath.gate.document import Document
from tmath.gate.numbers import Form, Numbers, Token, _strip_approx, form_of


MAX_OCCURRENCES = 10_000
"""Occurrences of one anchor tried per section at most (bounds the time on hostile input)."""


@dataclass(frozen=True)
class Located:
    document: Document
    start: int
    end: int
    how: str


class Index:
    """Per-document caches: printed numbers and squeezed text."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.numbers = Numbers(document.masked)
        self.squeezed, self.offsets = document.squeezed()

    def squeezed_range(self, start: int, end: int) -> tuple[int, int]:
        return (bisect.bisect_left(self.offsets, start), bisect.bisect_left(self.offsets, end))


def squeeze(text: str) -> str:
    return re.sub(r"[\s$]+", "", text)


def _digit_boundary(text: str, start: int, end: int) -> bool:
    """The span [start, end) does not cut a number in two."""
    first, last = text[start], text[end - 1]
    if first.isdigit() and start > 0 and (text[start - 1].isdigit() or text[start - 1] == "."
                                          and start > 1 and text[start - 2].isdigit()):
        return False
    if last.isdigit() and end < len(text) and (text[end].isdigit() or text[end] in ".,"
                                               and end + 1 < len(text) and text[end + 1].isdigit()):
        return False
    return True


def locate(index: Index, scopes: Iterable[tuple[int, int, str]], near: str, printed: str
           ) -> Located | None:
    """Where a figure is printed: in the first scope whose text contains its anchor."""
    form = form_of(printed)
    needle = squeeze(near)
    core = squeeze(_strip_approx(printed))
    text = index.document.masked
    for start, end, where in scopes:
        if not needle:
            token = index.numbers.first(form, start, end)
            if token:
                return Located(index.document, token.start, token.end, f"first in {where}")
            continue
        s_start, s_end = index.squeezed_range(start, end)
        at = index.squeezed.find(needle, s_start, s_end)
        for _ in range(MAX_OCCURRENCES):
            if at < 0:
                break
            a_start = index.offsets[at]
            a_end = index.offsets[at + len(needle) - 1] + 1
            if _digit_boundary(text, a_start, a_end):
                inside = _inside(index, at, needle, core, text)
                if inside:
                    return Located(index.document, *inside, f"inside the anchor in {where}")
                token = _right_after(index, form, a_end, end) or index.numbers.first(form, a_end, end)
                if token:
                    return Located(index.document, token.start, token.end,
                                   f"after the anchor in {where}")
            at = index.squeezed.find(needle, at + 1, s_end)
    return None


def _inside(index: Index, at: int, needle: str, core: str, text: str) -> tuple[int, int] | None:
    """The figure, when the anchor text itself contains it as a whole number (near="用 0.1")."""
    if not core:
        return None
    k = needle.find(core)
    while k >= 0:
        start = index.offsets[at + k]
        end = index.offsets[at + k + len(core) - 1] + 1
        if _whole_number(text, start, end):
            return start, end
        k = needle.find(core, k + 1)
    return None


def _whole_number(text: str, start: int, end: int) -> bool:
    """[start, end) is a whole printed number, not a piece of a longer number or fraction."""
    before = text[start - 1] if start else " "
    before2 = text[start - 2] if start >= 2 else " "
    if before.isdigit() or before in "./^_" or (before == "," and before2.isdigit()):
        return False
    after = text[end] if end < len(text) else " "
    after2 = text[end + 1] if end + 1 < len(text) else " "
    return not (after.isdigit() or after in "/^" or (after in ".," and after2.isdigit()))


def _right_after(index: Index, form: Form, at: int, end: int) -> Token | None:
    """A number of ``form`` printed right after the anchor (only spaces or ``$`` between),
    taken whatever its context: the anchor points at it."""
    text = index.document.masked
    limit = min(end, at + 200)
    while at < limit and (text[at].isspace() or text[at] == "$"):
        at += 1
    return index.numbers.first(form, at, at + 1, raw=True) if at < limit else None


def scopes(document: Document, info: ClaimInfo) -> list[tuple[int, int, str]]:
    """Where a claim's figures may be: its pinned paragraphs, its sub-section, its section."""
    scopes = [(p.start, p.end, f"the paragraph pinned at line {p.line}")
              for p in document.pins if info.id in p.claims]
    for number in dict.fromkeys((info.section, info.top_section)):
        section = document.section(number)
        if section is not None:
            scopes.append((section.start, section.end, f"§{number}"))
    return scopes
