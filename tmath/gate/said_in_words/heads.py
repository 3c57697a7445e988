"""Multi-head attention in words: how the heads' outputs are combined.

Claim ``multi-head-shapes``: multi-head attention concatenates the h heads' outputs,
Concat(head_1, …, head_h) W^O. A sentence about heads (or parallel attention layers, or
attention-pooling outputs; or after sentences that run "the attention function in parallel"
or project "$h$ times") that says the outputs "are concatenated", "summed", "added" or
"averaged" is read for that verb; so is "we concat (sum, add, average) the matrices (heads,
outputs)" in a sentence about heads or the output matrix W^O. A negation, "instead of",
"rather than", or words about residuals or encodings leave the sentence unread.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

HEADS = "multi-head-shapes"

_HEADS_TOPIC = re.compile(r"\bheads?\b|\bmulti-?head\b|\bparallel\s+attention\s+layers\b|"
                          r"\battention[\s-]+pooling\s+outputs\b", re.I)
_JOINED = re.compile(r"\b(?:are|is|get|gets|being|been)\s+(?:then\s+|simply\s+|all\s+)?"
                     r"(?P<how>concatenated|summed|added|averaged|multiplied)\b", re.I)
_PARALLEL_HEADS = re.compile(r"\battention\s+(?:function|functions|pooling)\s+in\s+parallel\b|"
                             r"\bproject\w*\s+[^.;]{0,60}?\$h\$\s+times\b", re.I)
"""Heads named without the word: h projections, attention run in parallel on each."""
_WE_JOIN = re.compile(r"\bwe\s+(?:then\s+|simply\s+)?(?P<how>concat(?:enate)?|sum|add|average)\s+(?:up\s+)?"
                      r"(?:the|these|all|those)\s+(?:\w+\s+)?(?:matrices|heads|outputs)\b", re.I)
_OUTPUT_MATRIX = re.compile(r"\bW_?\^?\{?O\}?(?![\w}])|\boutput\s+(?:weight\s+|projection\s+)?matrix\b")
_NOT_SO = re.compile(r"\b(?:not|n't|never|instead|rather\s+than|residual|positional|"
                     r"encodings?|embeddings?)\b", re.I)
_CONCATENATED = "concatenated (Concat(head_1, …, head_h) W^O)"


def joined(s: Sentence) -> list[Said]:
    """"The heads' outputs are concatenated (summed, averaged)"."""
    if s.has(_NOT_SO) or not (s.has(_HEADS_TOPIC) or s.before(_PARALLEL_HEADS)):
        return []
    return [said(HEADS, m, m.group("how").lower() == "concatenated", _CONCATENATED, "how")
            for m in s.matches(_JOINED)]


def we_join(s: Sentence) -> list[Said]:
    """"We concat (sum, average) the matrices" about heads or the output matrix."""
    if s.has(_NOT_SO) or not (s.has(_HEADS_TOPIC) or s.has(_OUTPUT_MATRIX)):
        return []
    return [said(HEADS, m, m.group("how").lower().startswith("concat"), _CONCATENATED, "how")
            for m in s.matches(_WE_JOIN)]


READERS = ((HEADS, joined), (HEADS, we_join))
DETAILS = {
    HEADS: lambda s: f"claim {s.claim} proves the heads' outputs are {s.should}; this sentence "
                     f"combines them another way",
}
