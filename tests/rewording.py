"""Rewording a document's prose around its figures, keeping every number and formula.

Used by the anchoring tests to show that the gate survives editing: the words near each
figure (ASCII words and CJK characters outside math) are replaced by other words, and a few
are added or dropped, while digits, math (``$…$``, ``$$…$$``), brackets and punctuation are
left exactly as they were, and so are headings (they are the document's structure, not the
prose around a figure). The replacement is deterministic (a seeded generator).
"""

from __future__ import annotations

import random
import re
from typing import Iterable

FILLER_CJK = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"
FILLER_WORDS = ("quite", "rather", "namely", "hence", "overall", "roughly", "thereby",
                "indeed", "plainly", "so")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
_HEADING = re.compile(r"^(?:#+ .*|[一二三四五六七八九十]+、.*|\d+\.\d+ .*)$", re.M)


def math_spans(text: str) -> list[tuple[int, int]]:
    """Spans of $…$ and $$…$$ (their contents are never reworded)."""
    spans, i = [], 0
    while True:
        j = text.find("$", i)
        if j < 0:
            return spans
        closer = "$$" if text.startswith("$$", j) else "$"
        k = text.find(closer, j + len(closer))
        if k < 0:
            return spans
        spans.append((j, k + len(closer)))
        i = k + len(closer)


def reword(text: str, figures: Iterable[tuple[int, int]], before: int = 40, after: int = 20,
           seed: int = 7) -> tuple[str, int]:
    """``text`` with the prose within ``before``/``after`` characters of each figure span
    replaced; returns the new text and how many words were replaced."""
    rng = random.Random(seed)
    protected = math_spans(text)
    comments = [(m.start(), m.end()) for m in re.finditer(r"<!--.*?-->", text)]
    headings = [(m.start(), m.end()) for m in _HEADING.finditer(text)]  # keep the sections
    protected += headings

    def free(i: int) -> bool:
        return not any(a <= i < b for a, b in protected + comments)

    windows = sorted((max(0, a - before), b + after) for a, b in figures)
    edits: list[tuple[int, int, str]] = []
    for match in _WORD.finditer(text):
        at = match.start()
        if not free(at) or not any(a <= at < b for a, b in windows):
            continue
        word = match.group()
        if word in "万亿" and re.search(r"\d[ \t]*$", text[max(0, at - 3):at]):
            continue  # a unit of the number before it: part of the figure
        if "\u4e00" <= word[0] <= "\u9fff":
            new = rng.choice(FILLER_CJK) * (2 if rng.random() < 0.25 else 1)
        else:
            new = rng.choice(FILLER_WORDS)
            if rng.random() < 0.2:
                new += " " + rng.choice(FILLER_WORDS)  # a longer phrasing
        edits.append((match.start(), match.end(), new))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text, len(edits)


def figure_spans(text: str, findings: list[dict]) -> list[tuple[int, int]]:
    """Character spans of the located figures of a JSON report of ``text``."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    spans = []
    for f in findings:
        if f["kind"] == "figure" and f.get("printed") and f.get("column"):
            at = starts[f["line"] - 1] + f["column"] - 1
            spans.append((at, at + len(f["printed"])))
    return spans
