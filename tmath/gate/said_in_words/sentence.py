"""A sentence of a document's prose, the passage around it, and what a reader found in it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from tmath.gate.document import Document
from tmath.gate.prose_relations import paragraph, sentences


@dataclass(frozen=True)
class Said:
    """A claim's fact said in words: which claim, what was said, whether it is the claim's,
    what the claim has instead, and where the words that differ begin."""

    claim: str
    words: str
    right: bool
    should: str
    start: int


@dataclass(frozen=True)
class Sentence:
    """One sentence of a document's prose (code and formulas masked) and where its passage
    begins: the earlier of the two sentences before it, but not before its paragraph."""

    document: Document
    text: str
    start: int
    end: int
    passage_start: int

    def has(self, pattern: re.Pattern) -> bool:
        """Whether ``pattern`` occurs in the sentence."""
        return pattern.search(self.text, self.start, self.end) is not None

    def matches(self, pattern: re.Pattern) -> Iterator[re.Match]:
        return pattern.finditer(self.text, self.start, self.end)

    def in_passage(self, pattern: re.Pattern) -> bool:
        """Whether ``pattern`` occurs in the passage, up to the sentence's end."""
        return pattern.search(self.text, self.passage_start, self.end) is not None

    def before(self, pattern: re.Pattern) -> bool:
        """Whether ``pattern`` occurs in the passage's sentences before this one."""
        return pattern.search(self.text, self.passage_start, self.start) is not None

    def in_paragraph(self, pattern: re.Pattern) -> bool:
        """Whether ``pattern`` occurs in the paragraph (between blank lines) around it."""
        return pattern.search(paragraph(self.text, self.start, self.end)) is not None

    def in_section_title(self, pattern: re.Pattern) -> bool:
        """Whether ``pattern`` occurs in the title of the section around the sentence."""
        section = self.document.section_at(self.start)
        return section is not None and pattern.search(section.title or "") is not None

    @property
    def words(self) -> str:
        return self.text[self.start:self.end]


Reader = Callable[[Sentence], "list[Said]"]
"""Reads one sentence for what a claim proves."""


def each_sentence(document: Document) -> Iterator[Sentence]:
    """The document's sentences in order, each with its passage."""
    text = document.masked or document.text
    earlier, last = 0, 0
    for start, end in sentences(text):
        yield Sentence(document, text, start, end, max(earlier, text.rfind("\n\n", 0, start) + 1))
        earlier, last = last, start


def said(claim: str, match: re.Match, right: bool, should: str, group: str | int = 0) -> Said:
    """What ``match`` said (its words, spaces joined), held at the start of ``group``."""
    return Said(claim, " ".join(match.group().split()), right, should, match.start(group))
