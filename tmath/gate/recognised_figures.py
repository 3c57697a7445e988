"""Figures a recognised claim computes, checked where a document no claim set is bound to
prints them.

A claim the gate recognised in a document (or found contradicted there) is in play in the
part of the document where its formulas are: the numbers it computes (the standard deviation
√64 = 8, a smoothed label) are looked for there with the notes' anchoring
(:mod:`tmath.gate.anchoring`), held to a stricter standard, because the document was not
written to match the claim's anchor text. A number is taken only when

* its context is strong (:data:`~tmath.gate.anchoring.STRONG_CONTEXT`) and the figure's
  whole prefix (``near``, in the document's names) is printed before it in its sentence, token
  for token, with no other number between (``for d_k = 512 it is about 22.6``);
* the sentence it is in names what the figure is: a word of the figure's label
  (``standard deviation of qᵀk at d_k = 512`` → standard, deviation);

and nothing is reported where no number is taken: a document need not print a claim's figures.
A taken number is judged like any figure (``accurate`` or ``inaccurate`` at its printed
precision).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from tmath.engine.info import ClaimInfo, FigureInfo
from tmath.engine.results import PASSING
from tmath.gate.anchoring import STRONG_CONTEXT, Anchor, Scope, build_quotes, locate_all, words
from tmath.gate.document import Document
from tmath.gate.figures import figure_result, judge_figure, true_value
from tmath.gate.findings import Finding

REPORTED = frozenset({"accurate", "inaccurate"})
"""What a figure found in a recognised document can be; anything else is not reported."""
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)|\n[ \t]*\n")
_LABEL_WORD = re.compile(r"[A-Za-z]{4,}")
_NOT_NAMING = frozenset({"with", "from", "that", "this", "under", "when", "where", "which",
                         "than", "published", "original", "model", "fact", "about", "limit",
                         "example", "value", "values"})
"""Label words that say nothing of what a figure is."""


def figures_in(document: Document, in_play: Mapping[str, Sequence[int]],
               infos: Sequence[ClaimInfo], results: Mapping[str, Any],
               mapping: Mapping[str, str]) -> list[Finding]:
    """Findings for the figures of the claims ``in_play`` (claim id → offsets of the formulas
    it was recognised or contradicted at) that ``document`` prints."""
    by_id = {info.id: info for info in infos}
    figures = []
    for claim_id, offsets in in_play.items():
        info = by_id.get(claim_id)
        result = results.get(claim_id)
        if info is None or getattr(result, "verdict", None) not in PASSING:
            continue
        where = _scopes(document, offsets)
        for k, figure in enumerate(info.figures):
            if not _naming_words(figure.label):
                continue   # a label that says nothing of what it is: never taken
            mine = _in_names(figure, mapping)
            truth = true_value(figure_result(result, k, figure))
            figures.append(((claim_id, k), mine, where, truth))
    if not figures:
        return []
    anchors = locate_all(build_quotes(figures))
    found = []
    for (claim_id, k), figure, _, _ in figures:
        anchor = anchors[(claim_id, k)]
        if not _taken(anchor, document, figure):
            continue
        info, result = by_id[claim_id], results.get(claim_id)
        finding = judge_figure(anchor, [document], info, figure,
                               figure_result(result, k, info.figures[k]), result)
        if finding.status in REPORTED:
            found.append(finding)
    return found


def _scopes(document: Document, offsets: Sequence[int]) -> list[Scope]:
    """The innermost section (numbered or not) around each formula; the whole document when
    it has no headings."""
    found: dict[tuple[int, int], Scope] = {}
    for at in offsets:
        around = [s for s in document.sections if s.start <= at < s.end]
        if around:
            inner = min(around, key=lambda s: s.end - s.start)
            found[(inner.start, inner.end)] = Scope(
                document, inner.start, inner.end, f"the part under '{inner.title.strip()}'",
                0.0, 2)
        else:
            found[(0, len(document.text))] = Scope(document, 0, len(document.text),
                                                   "the document", 0.0, 2)
    return list(found.values())


def _naming_words(label: str) -> frozenset[str]:
    """The words of a figure's label that say what it is (before any " at …" binding)."""
    head = re.split(r"\s(?:at|for|in)\s", label, maxsplit=1)[0]
    return frozenset(w.lower() for w in _LABEL_WORD.findall(head)) - _NOT_NAMING


def _in_names(figure: FigureInfo, mapping: Mapping[str, str]) -> FigureInfo:
    """The figure's prefix and suffix in the document's names (``d_k = 64`` → ``d = 64``)."""
    if not mapping:
        return figure
    from dataclasses import replace

    from tmath.gate.recognition import in_names

    return replace(figure, near=in_names(figure.near, mapping),
                   after=in_names(figure.after, mapping))


def _taken(anchor: Anchor, document: Document, figure: FigureInfo) -> bool:
    """A located number with a strong context, after the figure's whole prefix, in a sentence
    that names the figure."""
    located = anchor.located
    if located is None or located.context < STRONG_CONTEXT:
        return False
    start, end = _sentence(document.text, located.token.start)
    sentence = document.text[start:end].lower()
    if not any(re.search(rf"\b{word}", sentence) for word in _naming_words(figure.label)):
        return False
    return _prefix_before(words(document.text[start:located.token.start]),
                          [w.norm for w in words(figure.near)])


def _prefix_before(before: list, prefix: list[str]) -> bool:
    """``prefix`` is printed in ``before`` (tokens), and no number follows it there."""
    if not prefix:
        return False
    norms = [w.norm for w in before]
    for at in range(len(norms) - len(prefix), -1, -1):
        if norms[at:at + len(prefix)] == prefix:
            return not any(n[0].isdigit() for n in norms[at + len(prefix):])
    return False


def _sentence(text: str, at: int) -> tuple[int, int]:
    """Where the sentence around offset ``at`` starts and ends."""
    start = 0
    for match in _SENTENCE_END.finditer(text, max(0, at - 2000), at):
        start = match.end()
    start = max(start, at - 2000)
    end = _SENTENCE_END.search(text, at)
    return start, end.start() if end else len(text)
