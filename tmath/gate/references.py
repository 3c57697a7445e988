"""Reading a document's citations: reference-list entries and mentions in the text.

* A **reference entry** is a line that opens like a list item (``[4]``, ``4.``, ``-``, ``*``)
  with a name, and holds a quoted title (“…” or "…"), often a year and an arXiv id:
  ``[4] Tsai et al. (2019). “Transformer Dissection: …” EMNLP. arXiv:1908.11775``.
* A **mention** names authors in the text: ``Vaswani et al. (2017)``, ``(Hinton et al.,
  2015)``, ``Ma & Yarats (2024)``, ``Ba, Kiros & Hinton (2016)``, ``He et al. (CVPR 2016)``,
  or a name right before a quoted title (``Jay Alammar, “The Illustrated Transformer”``). A
  quoted text counts as the mention's title only when it follows the name (and its year)
  within a few characters: a quotation further on is a quotation, not a title.

Each citation keeps where it is (line, column, offsets), the surnames in the order written,
whether the list ends in "et al.", the year, the title and the arXiv id. Text inside display
formulas and code fences is not read. Every repetition in the patterns is bounded, so a
hostile document costs time in proportion to its size, and at most :data:`MAX_CITATIONS` are
read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate import arxiv as arxiv_ids
from tmath.gate.document import Document

MAX_CITATIONS = 5_000
"""Citations read per document at most (a document with more is checked in part, and says so)."""
MAX_TITLE = 300
"""Characters of a quoted title read at most."""
TITLE_GAP = 4
"""Non-space characters allowed between a mention (and its year) and its quoted title."""

_NAME = r"[A-ZÀ-Þ][\w'’\-]{0,40}(?<![-'’])"
"""A capitalised name of at most 41 characters (bounded, so no pattern can backtrack far)."""
_SURNAMES = re.compile(rf"(?<![\w-])((?:{_NAME}[ \t]{{1,3}})?{_NAME})"
                       rf"(?:[ \t]+et[ \t]+al\.|((?:,[ \t]{{0,3}}{_NAME}){{0,8}}[ \t]{{0,3}}"
                       rf"(?:&|\band\b)[ \t]{{0,3}}{_NAME}))")
_ET_AL = re.compile(r"[ \t]+et[ \t]+al\.$")
_SINGLE = re.compile(rf"(?<![\w-])((?:{_NAME}[ \t]{{1,3}})?{_NAME})(?=[ \t]*\([^()\n]{{0,40}}?\b(?:1[6-9]|20)\d\d"
                     rf"[a-z]?\)|,[ \t]*(?:1[6-9]|20)\d\d\b)")
_YEAR_AFTER = re.compile(r"[ \t]*(?:\(([^()\n]{0,40}?)\b((?:1[6-9]|20)\d\d)[a-z]?\)|,[ \t]*((?:1[6-9]|20)\d\d)\b)")
_QUOTE = re.compile(r"[“\"]([^“”\"\n]{2,%d})[”\"]" % MAX_TITLE)
_ENTRY = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}\.|[-*])\s+")
_NAME_BEFORE_QUOTE = re.compile(rf"((?:{_NAME}[ \t]{{1,3}})?{_NAME})[ \t,.:：，]{{0,4}}"
                                rf"(?:在|的|博客|blog)?[ \t,.:：，]{{0,4}}$")


@dataclass(frozen=True)
class Citation:
    """One citation of a document, as written."""

    kind: str  # "reference" or "mention"
    line: int
    column: int
    start: int
    end: int
    surnames: tuple[str, ...] = ()
    et_al: bool = False
    year: int | None = None
    title: str | None = None
    arxiv: str | None = None
    text: str = ""

    @property
    def authors_shown(self) -> str:
        if not self.surnames:
            return "(no authors)"
        if self.et_al:
            return f"{self.surnames[0]} et al."
        return " & ".join(self.surnames) if len(self.surnames) <= 2 else \
            ", ".join(self.surnames[:-1]) + " & " + self.surnames[-1]


def surname(name: str) -> str:
    """The last word of a name (``Jay Alammar`` → ``Alammar``)."""
    return name.split()[-1] if name.split() else name


def _split_names(head: str, rest: str | None) -> tuple[str, ...]:
    names = [head]
    if rest:
        names += [n for n in re.split(r"[ \t]*(?:,|&|\band\b)[ \t]*", rest) if n.strip()]
    return tuple(surname(n.strip()) for n in names)


def read_citations(document: Document, limit: int = MAX_CITATIONS) -> list[Citation]:
    """The reference entries and mentions of a document, in document order (the first
    ``limit`` of them: a longer list is cut, and the caller says so)."""
    found: list[Citation] = []
    text = document.masked
    for line in range(1, document.lines + 1):
        if len(found) > limit:
            break
        start = document.line_starts[line - 1]
        content = text[start:start + len(document.line_text(line))]
        if not content.strip() or document.in_display(start):
            continue
        if "$$" in content or _skipped(document, start):
            continue
        entry = _entry(document, line, start, content)
        if entry is not None:
            found.append(entry)
            continue
        found += _mentions(document, line, start, content)
    return found


def _skipped(document: Document, offset: int) -> bool:
    """A code fence line (the document masks nothing there, so ask the raw text)."""
    line = document.line_text(document.line_of(offset)).lstrip()
    return line.startswith("```") or line.startswith("~~~")


def _entry(document: Document, line: int, start: int, content: str) -> Citation | None:
    opening = _ENTRY.match(content)
    quote = _QUOTE.search(content)
    if not opening or not quote:
        return None
    arxiv = _first_arxiv(content)
    before = content[opening.end():quote.start()]
    year = re.search(r"\b((?:1[6-9]|20)\d\d)\b", before)
    if not re.match(_NAME, before.strip()):
        return None  # a list item that quotes something, not a reference
    names_part = re.split(r"\(|\.\s|\.$", before.strip(), maxsplit=1)[0]
    et_al = bool(re.search(r"\bet[ \t]+al\b", names_part))
    names_part = re.sub(r"\bet[ \t]+al\.?", "", names_part)
    names = tuple(surname(n.strip()) for n in re.split(r"[ \t]*(?:,|&|\band\b)[ \t]*",
                                                        names_part) if n.strip()
                  and re.match(_NAME, n.strip()))
    return Citation("reference", line, opening.end() + 1, start + opening.end(),
                    start + len(content), names, et_al, int(year.group(1)) if year else None,
                    quote.group(1).strip(), arxiv, content.strip())


def _first_arxiv(content: str) -> str | None:
    for match in arxiv_ids.IN_TEXT.finditer(content):
        ident = arxiv_ids.written(match.group(1), match.group(2))
        if ident:
            return arxiv_ids.key(ident)
    return None


@dataclass(frozen=True)
class ArxivId:
    """An arXiv id as written in a document (``ident`` may be malformed)."""

    line: int
    column: int
    start: int
    ident: str


def read_arxiv_ids(document: Document, limit: int = MAX_CITATIONS) -> list[ArxivId]:
    """Every arXiv id written in the document's text (not in display formulas or code
    fences), in document order, the first ``limit`` of them."""
    found: list[ArxivId] = []
    text = document.masked
    for line in range(1, document.lines + 1):
        start = document.line_starts[line - 1]
        content = text[start:start + len(document.line_text(line))]
        if "rxiv" not in content.lower() or document.in_display(start) \
                or _skipped(document, start):
            continue
        for match in arxiv_ids.IN_TEXT.finditer(content):
            ident = arxiv_ids.written(match.group(1), match.group(2))
            if ident:
                found.append(ArxivId(line, match.start(2) + 1, start + match.start(2), ident))
                if len(found) >= limit:
                    return found
    return found


def _mentions(document: Document, line: int, start: int, content: str) -> list[Citation]:
    found: list[Citation] = []
    taken: list[tuple[int, int]] = []
    listed = "&" in content or "and" in content or "et" in content  # else no list can match
    for match in _SURNAMES.finditer(content) if listed else ():
        head, rest = match.group(1), match.group(2)
        et_al = bool(_ET_AL.search(match.group(0)))
        names = _split_names(head, None if et_al else rest)
        at = match.end()
        year = None
        after = _YEAR_AFTER.match(content, at)
        if after:
            year = int(after.group(2) or after.group(3))
            at = after.end()
        title = _title_after(content, at)
        if year is None and title is None and not (et_al or "&" in match.group(0)):
            continue  # "LLaMA and Gemma": two names, not a citation
        found.append(Citation("mention", line, match.start() + 1, start + match.start(),
                              start + at, names, et_al, year, title, None,
                              content[match.start():at].strip()))
        taken.append((match.start(), at))
    for match in _SINGLE.finditer(content):  # one author and a year: "Menabrea (1842)"
        if any(a <= match.start() < b or match.end() <= a <= match.end() + 45
               for a, b in taken) or match.group(1).split()[0] in _NOT_NAMES:
            continue  # part of a list, a word before "(Dao et al., 2022)", or not a name
        after = _YEAR_AFTER.match(content, match.end())
        at = after.end() if after else match.end()
        year = int(after.group(2) or after.group(3)) if after else None
        found.append(Citation("mention", line, match.start() + 1, start + match.start(),
                              start + at, (surname(match.group(1)),), False, year,
                              _title_after(content, at), None,
                              content[match.start():at].strip()))
        taken.append((match.start(), at))
    for quote in _QUOTE.finditer(content):  # a single name right before a quoted title
        if any(a <= quote.start() <= b + TITLE_GAP + 2 for a, b in taken):
            continue
        name = _NAME_BEFORE_QUOTE.search(content, max(0, quote.start() - 60), quote.start())
        if name is None or name.group(1).split()[0] in _NOT_NAMES:
            continue
        found.append(Citation("mention", line, name.start() + 1, start + name.start(),
                              start + quote.end(), (surname(name.group(1)),), False, None,
                              quote.group(1).strip(), None,
                              content[name.start():quote.end()].strip()))
    return found


_NOT_NAMES = {"The", "A", "An", "In", "See", "Section", "Table", "Figure", "Note", "As", "This",
              "ICLR", "ICML", "CVPR", "ECCV", "EMNLP", "ACL", "NAACL", "NeurIPS", "NIPS",
              "AAAI", "JMLR", "Since", "From", "Until", "Before", "After", "By", "Of", "On"}


def _title_after(content: str, at: int) -> str | None:
    """The quoted title right after a mention (within :data:`TITLE_GAP` non-space
    characters), else None."""
    quote = _QUOTE.search(content, at, at + 40 + MAX_TITLE)
    if quote is None:
        return None
    gap = content[at:quote.start()]
    if len(re.sub(r"\s", "", gap)) > TITLE_GAP:
        return None
    return quote.group(1).strip()
