"""Locating prose claims like annotations: the terms a sentence uses, within its section.

A claim's :class:`~tmath.engine.model.Passage` is a selector made of facts, never of a
document's sentences: the technical terms, names, numbers and formulas the sentence uses
(``("Pre-Norm", "GPT-2", "LLaMA")``), each term a string or a tuple of alternatives, and a
position hint (its section). The gate:

1. **scopes** the search: the paragraphs pinned to the claim (``<!-- tmath: id -->``), then the
   passage's sub-section, then its top-level section;
2. **reads units**: paragraphs (runs of non-blank lines; headings are not read), alone or with
   the next one, so a statement that spills into a list of bullets is still one candidate;
3. **scores** each candidate by the share of the terms it contains (case and hyphens aside;
   a term with digits counts double: numbers are seldom reworded), preferring the narrower
   scope and the shorter window;
4. **locates** the passage when its best candidate holds at least :data:`MIN_SHARE` of the
   terms (and two of them, when it has two or more); otherwise the statement is ``missing``,
   reported on the line of the best candidate with the terms found and not found there.

The reported line is the candidate's line that holds most terms. A term also matches its
renderings in the glossaries (:mod:`tmath.gate.glossary`), so an English passage finds a
statement written in Chinese. The gate reads text only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from tmath.engine.info import ClaimInfo, Passage
from tmath.engine.results import PASSING
from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate import glossary
from tmath.gate.formulas import heading_line

MIN_SHARE = 0.6
"""Share of a passage's term weight its paragraph must contain for the passage to be located."""
WINDOW_BLOCKS = 2
"""Consecutive paragraphs read as one candidate, at most."""
MAX_BLOCKS = 2_000
"""Paragraphs of one scope read at most (a hostile scope is cut, and the rest not read)."""
MAX_WINDOW_CHARS = 20_000
"""Characters of a candidate read at most (a paragraph longer than this is read in part)."""
SCOPE_BONUS = {0: 0.1, 1: 0.05, 2: 0.0}
"""Added to a candidate's share by scope: a pinned paragraph, the sub-section, the section."""


@dataclass(frozen=True)
class Block:
    start: int
    end: int
    line: int
    end_line: int


@dataclass(frozen=True)
class Candidate:
    """A window of paragraphs and the terms of a passage it holds."""

    document: Document
    start: int
    end: int
    found: tuple[int, ...]
    """Indices of the passage's terms found in the window."""
    share: float
    score: float
    line: int
    where: str


def _pattern(term: str) -> re.Pattern:
    """A term, case-insensitive, with hyphens and spaces between its parts optional. An
    ASCII word must not be part of a longer word (``BN`` is not in ``BNX``), but may take a
    plural ``s``; a final ``*`` makes it a prefix (``extrapolat*``)."""
    prefix = term.endswith("*")
    term = term.rstrip("*").strip()
    parts = [re.escape(p) for p in re.split(r"[-\s]+", term) if p]
    body = r"[-\s]?".join(parts)
    if term.isascii() and re.match(r"\w", term):
        body = rf"(?<![A-Za-z0-9]){body}"
        if not prefix and re.search(r"[A-Za-z]$", term):
            body += r"(?:e?s)?(?![A-Za-z])"
        elif not prefix and re.search(r"\w$", term):
            body += r"(?![A-Za-z0-9])"
    return re.compile(body, re.IGNORECASE)


def _weight(alternatives: tuple[str, ...]) -> float:
    return 2.0 if any(any(c.isdigit() for c in a) for a in alternatives) else 1.0


def _blocks(document: Document, start: int, end: int) -> list[Block]:
    """The paragraphs (runs of non-blank lines) between two offsets."""
    blocks: list[Block] = []
    first, last = document.line_of(start), document.line_of(max(start, end - 1))
    headings = {s.line for s in document.sections}
    opening = None
    for line in range(first, last + 1):
        blank = not document.line_text(line).strip() or line in headings  # a title asserts nothing
        if not blank and opening is None:
            opening = line
        if (blank or line == last) and opening is not None:
            close = line if not blank else line - 1
            a = max(start, document.line_starts[opening - 1])
            b = min(end, document.line_starts[close] if close < document.lines else
                    len(document.text))
            blocks.append(Block(a, b, opening, close))
            opening = None
            if len(blocks) >= MAX_BLOCKS:
                break
    return blocks


def _scopes(document: Document, info: ClaimInfo, passage: Passage) -> list[tuple[int, int, int, str]]:
    """(start, end, depth, where) of each scope, the narrowest first."""
    found = [(p.start, p.end, 0, f"the paragraph pinned at line {p.line}")
             for p in document.pins if info.id in p.claims]
    number = passage.section or info.section
    top = number.split(".")[0]
    if number != top and document.section(number):
        sub = document.section(number)
        found.append((sub.start, sub.end, 1, f"§{number}"))
    section = document.section(top)
    if section is not None:
        found.append((section.start, section.end, 2, f"§{top}"))
    return found


_BLOCKS: dict[tuple[int, int, int], list[Block]] = {}


def _blocks_once(document: Document, start: int, end: int) -> list[Block]:
    """The paragraphs of a scope, read once per document however many passages search it."""
    key = (id(document), start, end)
    if key not in _BLOCKS:
        if len(_BLOCKS) > 256:
            _BLOCKS.clear()
        _BLOCKS[key] = _blocks(document, start, end)
    return _BLOCKS[key]


def locate(document: Document, info: ClaimInfo, passage: Passage) -> Candidate | None:
    """The best candidate for a passage in one document (None: its scopes print nothing)."""
    folder = Path(info.path).parent if info.path and Path(info.path).is_file() else None
    patterns = [[_pattern(a) for a in glossary.expand(alternatives, folder)]
                for alternatives in passage.terms]
    weights = [_weight(a) for a in passage.terms]
    total = sum(weights)
    best: Candidate | None = None
    headings = sorted(s.line for s in document.sections)
    for start, end, depth, where in _scopes(document, info, passage):
        blocks = _blocks_once(document, start, end)
        for k in range(len(blocks)):
            for width in range(1, WINDOW_BLOCKS + 1):
                if k + width > len(blocks):
                    break
                last = blocks[k + width - 1]
                if any(blocks[k].end_line < h < last.line for h in headings):
                    break  # a window never spans a heading
                a, b = blocks[k].start, min(last.end, blocks[k].start + MAX_WINDOW_CHARS)
                text = document.masked[a:b]
                found = tuple(i for i, alts in enumerate(patterns)
                              if any(p.search(text) for p in alts))
                share = sum(weights[i] for i in found) / total
                score = share + SCOPE_BONUS[depth] - 0.01 * (width - 1)
                if best is None or score > best.score + 1e-12:
                    best = Candidate(document, a, b, found, share, score,
                                     _densest_line(document, a, b, patterns), where)
    return best


def _densest_line(document: Document, start: int, end: int, patterns) -> int:
    """The line of the window that holds most terms (the first of equals)."""
    best_line, best_hits = document.line_of(start), -1
    for line in range(document.line_of(start), document.line_of(max(start, end - 1)) + 1):
        text = document.line_text(line)
        hits = sum(1 for alts in patterns if any(p.search(text) for p in alts))
        if hits > best_hits:
            best_line, best_hits = line, hits
    return best_line


def located(candidate: Candidate | None, passage: Passage) -> bool:
    if candidate is None:
        return False
    needed = 2 if len(passage.terms) >= 2 else 1
    return candidate.share + 1e-9 >= MIN_SHARE and len(candidate.found) >= needed


def judge_statements(documents: Sequence[Document], infos: Sequence[ClaimInfo],
                     results: Mapping[str, Any], held: Mapping[str, set[str]]
                     ) -> tuple[list[Finding], dict[tuple[str, str], Candidate]]:
    """A finding per passage of each held claim (``anchored``, ``unverified`` or ``missing``),
    and where each located passage is, by (claim id, document path)."""
    findings: list[Finding] = []
    anchors: dict[tuple[str, str], Candidate] = {}
    _BLOCKS.clear()
    for info in infos:
        own = [d for d in documents if d.path in held.get(info.id, ())]
        result = results.get(info.id)
        verified = getattr(result, "verdict", None) in PASSING
        for passage in getattr(info, "passages", ()):
            candidates = [c for c in (locate(d, info, passage) for d in own) if c is not None]
            best = max(candidates, key=lambda c: c.score) if candidates else None
            label = passage.label or info.title
            terms = [" | ".join(t) for t in passage.terms]
            if located(best, passage):
                anchors[(info.id, best.document.path)] = best
                section = best.document.section_at(best.start)
                status = "anchored" if verified else "unverified"
                detail = "" if verified else (
                    f"claim {info.id} did not verify "
                    f"({getattr(result, 'verdict', 'not run')})")
                findings.append(Finding(
                    "statement", status, best.document.path,
                    section.number if section else None, best.line, info.id, label=label,
                    located=f"{len(best.found)} of {len(terms)} terms in {best.where}",
                    detail=detail, span=(best.start, best.end)))
                continue
            home = own[0] if own else documents[0]
            if best is not None and best.found:
                missing = [terms[i] for i in range(len(terms)) if i not in best.found]
                section = best.document.section_at(best.start)
                findings.append(Finding(
                    "statement", "missing", best.document.path,
                    section.number if section else None, best.line, info.id, label=label,
                    detail=f"claim {info.id} anchors a statement in §{passage.section or info.section}"
                           f" using {', '.join(terms)}; the closest paragraph (here, in "
                           f"{best.where}) lacks {', '.join(missing)}: review the claim or "
                           "the document"))
            else:
                findings.append(Finding(
                    "statement", "missing", home.path, passage.section or info.section,
                    heading_line(home, info), info.id, label=label,
                    detail=f"claim {info.id} anchors a statement in §{passage.section or info.section}"
                           f" using {', '.join(terms)}, but no paragraph there uses them"))
    _BLOCKS.clear()
    return findings, anchors
