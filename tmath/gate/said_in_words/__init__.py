"""What some claims prove, said in words instead of a formula.

Documents state much of the mathematics in sentences: "the learning rate increases linearly
for the first warmup steps", "the queries come from the previous decoder layer", "the dot
products grow large for large values of d_k". Each module here reads one topic's sentences
for what a built-in claim proves:

* :mod:`.masks`: what a masked logit is set to, which positions a causal mask leaves;
* :mod:`.attention`: scores and weights, the variance of dot products, saturation;
* :mod:`.cross_attention`: where cross-attention's queries, keys and values come from, and
  its output's shape;
* :mod:`.heads`: how the heads' outputs are combined;
* :mod:`.cost`: how attention's cost grows, what h heads cost;
* :mod:`.positions`: the encoding's range, the shift between positions, relative offsets;
* :mod:`.layers`: the feed-forward layer per position (shared, kernel size 1),
  normalization axes;
* :mod:`.training`: the warm-up schedule, label smoothing.

A reader (:data:`~.sentence.Reader`) takes one :class:`~.sentence.Sentence` (with its passage
and paragraph) and returns what it :class:`~.sentence.Said`. Readers run only for claims that
verified. Said as the claim has it: ``recognised``; otherwise ``contradicts``, on the line of
the words that differ, with the claim's fact in the detail. A sentence whose words the
readers do not know is not a finding.
"""

from __future__ import annotations

from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.said_in_words import (attention, cost, cross_attention, heads, layers, masks,
                                      positions, training)
from tmath.gate.said_in_words.attention import (DISTRIBUTION, SATURATION, SCALED, SCORE,
                                                VARIANCE)
from tmath.gate.said_in_words.cost import GROWTH, HEAD_COST
from tmath.gate.said_in_words.cross_attention import CROSS
from tmath.gate.said_in_words.heads import HEADS
from tmath.gate.said_in_words.layers import AXES, POSITIONWISE, SHARED
from tmath.gate.said_in_words.masks import CAUSAL, MASK
from tmath.gate.said_in_words.positions import RANGE, RELATIVE, SHIFT
from tmath.gate.said_in_words.sentence import Reader, Said, Sentence, each_sentence
from tmath.gate.said_in_words.training import SCHEDULE, SMOOTHING, SMOOTHING_EFFECT

_TOPICS = (training, masks, cross_attention, attention, cost, heads, positions, layers)
READERS: tuple[tuple[str, Reader], ...] = tuple(r for topic in _TOPICS for r in topic.READERS)
"""Every reader, with the claim it reads for."""
_DETAILS = {claim: detail for topic in _TOPICS for claim, detail in topic.DETAILS.items()}

__all__ = ["AXES", "CAUSAL", "CROSS", "DISTRIBUTION", "GROWTH", "HEAD_COST", "HEADS", "MASK",
           "POSITIONWISE", "RANGE", "READERS", "RELATIVE", "SATURATION", "SCALED", "SCHEDULE",
           "SCORE", "SHARED", "SHIFT", "SMOOTHING", "SMOOTHING_EFFECT", "VARIANCE", "Said", "Sentence",
           "judged", "said_in"]


def said_in(document: Document, verified: set[str]) -> list[Said]:
    """Every sentence of ``document`` that says what a claim in ``verified`` proves."""
    readers = [read for claim, read in READERS if claim in verified]
    return [found for sentence in each_sentence(document) for read in readers
            for found in read(sentence)]


def judged(document: Document, said: Said) -> Finding:
    """The finding for what a sentence said: recognised, or contradicts with the claim's fact."""
    section = document.section_at(said.start)
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=document.line_of(said.start),
                  column=document.column_of(said.start), formula=" ".join(said.words.split()),
                  claim=said.claim, claims=(said.claim,), compared_with=("statement",))
    if said.right:
        return Finding(status="recognised", meaning="equivalent", **common)
    return Finding(status="contradicts", meaning="contradicts", detail=_DETAILS[said.claim](said),
                   **common)
