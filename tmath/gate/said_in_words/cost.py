"""Attention's cost in words: how it grows with the sequence, and what h heads cost.

* Claim ``attention-cost-table``: self-attention does T²·d multiplies and stores T² scores, so
  its cost grows quadratically with the sequence length. A sentence about the cost (compute,
  memory, time, complexity) of the vanilla (standard, full, original) Transformer or
  self-attention that says it "grows linearly (quadratically, …) with the sequence length", or
  one that gives self-attention a "quadratic computational complexity with respect to the
  sequence length", is read for the order; a sentence that names another kind of model or
  attention (linear, sparse, local, kernel, recurrent, a named efficient variant) is not.
* Claim ``multihead-same-order``: h heads of width d/h do the multiplies of one full-width
  head. "The (computational) cost is similar to (the same as) that of single-head attention"
  is the claim's; "h times", "larger", "smaller" and the like contradict it.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

GROWTH = "attention-cost-table"
HEAD_COST = "multihead-same-order"

_GROWS = re.compile(r"\b(?:grows?|grew|growing|scales?|scaling|increases?|increasing)\s+"
                    r"(?P<how>linearly|quadratically|cubically|exponentially)\s+(?:with|in)\s+"
                    r"(?:the\s+)?(?:input\s+|sequence\s+|context\s+)?(?:length|number\s+of\s+"
                    r"tokens)\b", re.I)
_ORDER_OF = re.compile(r"\b(?P<how>linear|quadratic|cubic|exponential)\s+(?:computational\s+|time\s+|"
                       r"memory\s+|space\s+)?(?:complexity|cost)\s+(?:with\s+respect\s+to|in|of)\s+"
                       r"(?:the\s+)?(?:input\s+|sequence\s+|context\s+)?(?:length|number\s+of\s+"
                       r"tokens)\b", re.I)
_COST = re.compile(r"\b(?:cost|compute|computation\w*|memory|time|complexity|operations)\b", re.I)
_PLAIN_ATTENTION = re.compile(r"\b(?:vanilla|standard|full|original)\s+(?:self-attention|"
                              r"attention|transformer)|\bself-attention\b|\bthe\s+transformer\b",
                              re.I)
_VARIANT = re.compile(r"\b(?:linear(?!ly)|sparse|local|efficient|kernel\w*|recurren\w*|RNNs?|"
                      r"LSTMs?|convolution\w*|window\w*|chunk\w*|low-rank|approximat\w*|"
                      r"compress\w*|hash\w*|LSH|Longformer|Reformer|Linformer|Performer|"
                      r"BigBird|Flash\w*|Mamba|RWKV|state[\s-]space)\b", re.I)
_NEGATED = re.compile(r"\bnot\b|n't\b")
_SAME = ("similar", "comparable", "the same", "equal", "identical", "close")
_HEAD_COST = re.compile(r"\b(?:cost|complexity|compute|FLOPs|operations)\s+(?:is|are|remains?)\s+"
                        r"(?:roughly\s+|about\s+|approximately\s+|nearly\s+)?(?P<how>similar|"
                        r"comparable|the\s+same|equal|identical|close|(?:\$?\s*h\s*\$?|two|several)\s+"
                        r"times(?:\s+(?:larger|higher|greater|more|bigger))?|(?:much\s+|far\s+|"
                        r"significantly\s+|considerably\s+)?(?:larger|higher|greater|more|bigger|"
                        r"smaller|lower|less|cheaper)|twice|double|half)\b[^.;]{0,12}?\b(?:that\s+of|to|"
                        r"as|than|with)\s+(?:a\s+|the\s+)?single[\s-]head", re.I)
_QUADRATIC = "quadratically (T² scores)"


def growth(s: Sentence) -> list[Said]:
    """How the plain Transformer's cost is said to grow with the sequence length."""
    if not s.has(_PLAIN_ATTENTION):
        return []
    found = []
    if s.has(_COST) and not s.has(_VARIANT):
        found += [said(GROWTH, m, m.group("how").lower() == "quadratically", _QUADRATIC, "how")
                  for m in s.matches(_GROWS)]
    for match in s.matches(_ORDER_OF):
        rest = s.text[s.start:match.start()] + s.text[match.end():s.end]
        if not _VARIANT.search(rest):   # "linear" in the match is what is read
            found.append(said(GROWTH, match, match.group("how").lower() == "quadratic",
                              _QUADRATIC, "how"))
    return found


def head_cost(s: Sentence) -> list[Said]:
    """What h heads are said to cost next to a single head."""
    if _NEGATED.search(s.words):
        return []
    return [said(HEAD_COST, m, " ".join(m.group("how").lower().split()) in _SAME,
                 "the same T²·d multiplies as one head of full width", "how")
            for m in s.matches(_HEAD_COST)]


READERS = ((HEAD_COST, head_cost), (GROWTH, growth))
DETAILS = {
    GROWTH: lambda s: f"claim {s.claim} counts T²·d multiplies and T² stored scores: "
                      f"self-attention's cost grows {s.should} with the sequence length",
    HEAD_COST: lambda s: f"claim {s.claim} proves h heads of width d/h do {s.should}",
}
