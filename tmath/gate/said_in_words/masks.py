"""Masks in words: what a masked logit is set to, and which positions a causal one leaves.

* Claim ``masked-softmax-renormalises``: a masked logit must be −∞ (or a very large negative
  number) to get weight 0. A sentence about masking the softmax's input (its logits, scores)
  that sets them to a value is read for that value; masking "before the softmax" is the
  claim's, "after the softmax" contradicts it. A sentence about the weights or probabilities
  is not read, unless, after a sentence about masking or in a section titled after it, it
  sets them to a value no weight can be (infinite, or of magnitude at least 1000), which
  must then be negative.
* Claim ``causal-mask-no-future``: in an auto-regressive (causal) model a position attends to
  itself and the past only. Read in a set written in such a sentence, ``S_i = \\{j: j \\leq
  i\\}`` (a sentence that also speaks of the future is not read); in a paragraph about masks,
  in what a position may depend on or attend to "only" ("positions less than $i$", "earlier
  positions"); in what a mask keeps (prevents, stops, blocks) positions from attending to,
  with the mask named in the passage before or the paragraph around (the future is the
  claim's, the past contradicts it); in "attend to … up to and including that position"
  ("but excluding" contradicts it); in "no query attends to … after the query position" in
  an auto-regressive sentence ("before" contradicts it); and in "prevent leftward
  information flow" in a sentence about the decoder ("rightward" contradicts it).
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

MASK = "masked-softmax-renormalises"
CAUSAL = "causal-mask-no-future"

_MASKED = re.compile(r"\bmask\w*\b", re.I)
_INPUT = re.compile(r"\binput\s+of\s+the\s+softmax\b|\blogits?\b|\b(?:attention\s+)?scores?\b",
                    re.I)
_AFTER = re.compile(r"\b(?:weights?|probabilit\w+|outputs?\s+of\s+the\s+softmax|after\s+the\s+"
                    r"softmax|loss)\b", re.I)
_SET_TO = re.compile(r"\bset(?:s|ting)?\b[^.;()]{0,30}?\bto\s+(?P<value>\$[^$]{1,30}\$|[-−]?\s*"
                     r"(?:infinity|∞|\d[\d,.]*(?:e[-−]?\d+)?)|negative\s+infinity|zero|a\s+(?:very\s+)?"
                     r"large\s+(?:negative|positive)\s+(?:value|number))", re.I)
_MASK_WHEN = re.compile(r"\bmask\w*\s+[^.;]{0,80}?\b(?P<when>before|after)\s+(?:applying\s+)?"
                        r"(?:the\s+)?softmax\b", re.I)
_WEIGHTS = re.compile(r"\bweights?\b|\bprobabilit\w+", re.I)

_ONLY = (r"\b(?:(?:depend\w*|attend\w*|look\w*)\s+only\s+(?:on|to|at)|only\s+(?:(?:allowed|able|"
         r"permitted)\s+)?to\s+(?:attend|look)\s+(?:to|at))\b")
_DEPENDS = re.compile(_ONLY + r"[^.;]{0,60}?\bpositions?\s+(?P<rel>less|smaller|lower|earlier|before|"
                      r"greater|larger|higher|later|after)\b(?:\s+than)?\s*(?:\$[^$]{1,12}\$|[a-z]\b)|"
                      + _ONLY + r"\s+(?:the\s+)?(?P<adj>earlier|previous|preceding|past|later|future|"
                      r"subsequent|following)\s+positions\b", re.I)
_PREVENTS = re.compile(r"\b(?:prevent|stop|keep|block)\w*\s+(?:[\w-]+\s+){0,4}?(?:from|for)\s+(?:attending|"
                       r"looking|peeking)\s+(?:to|at|into)\s+(?:the\s+)?(?P<what>future|subsequent|"
                       r"later|following|next|past|previous|earlier|preceding)\b", re.I)
"""A mask said to keep positions from attending to the future (right) or the past."""
_UP_TO = re.compile(r"\battend\w*\s+to\s+[^.;]{0,60}?\bup\s+to\s+(?:and|but)\s+(?P<what>including|"
                    r"excluding|not\s+including)\s+(?:that|this|the\s+(?:current|query|same)|its\s+"
                    r"own)\s+position\b", re.I)
_NONE_BEYOND = re.compile(r"\bno\s+(?:query|position|token)\s+(?:can\s+|may\s+|ever\s+)?attends?\s+"
                          r"to\s+[^.;]{0,40}?\b(?P<rel>after|before|later\s+than|earlier\s+than|"
                          r"following|preceding)\s+(?:the\s+|its\s+|that\s+)?(?:query\s+)?"
                          r"position\b", re.I)
_FLOW = re.compile(r"\b(?:prevent|block|stop|forbid|avoid)\w*\s+(?P<dir>leftward|rightward)\s+"
                   r"(?:information\s+)?flow\b", re.I)
"""Information flowing leftward (from later positions to earlier ones) is what a causal
decoder must not allow."""
_DECODER = re.compile(r"\bdecoder|a[un]to-?regressive|causal", re.I)
_CAUSAL_WORDS = re.compile(r"\b(?:a[un]to-?regressive\w*|causal\w*|the\s+past|previous\s+"
                           r"positions?|earlier\s+positions?)\b", re.I)
_FUTURE_WORDS = re.compile(r"\b(?:future|following|later|next|bidirectional\w*)\b", re.I)
_SPAN = re.compile(r"\\\{\s*(?P<j>[a-z])\s*(?::|\\mid|\|)\s*(?P=j)\s*"
                   r"(?P<rel>\\leq?|\\le\b|<|\\lt\b|\\geq?|\\ge\b|>|\\gt\b)\s*(?P<i>[a-z])\s*\\\}")
_BEFORE_WORDS = ("less", "smaller", "lower", "earlier", "before", "previous", "preceding", "past")
_PAST = "j ≤ i (the position itself and the past)"
_MINUS_INFINITY = "−∞ (or a very large negative number)"


def causal_sets(s: Sentence) -> list[Said]:
    """``S_i = \\{j: j \\leq i\\}`` in an auto-regressive sentence that says nothing of the
    future."""
    if not s.has(_CAUSAL_WORDS) or s.has(_FUTURE_WORDS):
        return []
    return [Said(CAUSAL, span.group(), span.group("rel") in ("\\leq", "\\le", "<", "\\lt"), _PAST,
                 math.inner + span.start())
            for math in s.document.inline if s.start <= math.start < s.end
            for span in _SPAN.finditer(math.latex)]


def causal_only(s: Sentence) -> list[Said]:
    """What a position depends on, or attends to, only, in a paragraph about masks."""
    if not s.in_paragraph(_MASKED):
        return []
    found = []
    for match in s.matches(_DEPENDS):
        word = "rel" if match.group("rel") else "adj"
        found.append(said(CAUSAL, match, match.group(word).lower() in _BEFORE_WORDS, _PAST, word))
    return found


def causal_prevents(s: Sentence) -> list[Said]:
    """What a mask (named in the passage or the paragraph) keeps positions from attending to."""
    if not (s.in_passage(_MASKED) or s.in_paragraph(_MASKED)):
        return []
    return [said(CAUSAL, m, m.group("what").lower() not in _BEFORE_WORDS, _PAST, "what")
            for m in s.matches(_PREVENTS)]


def causal_spans(s: Sentence) -> list[Said]:
    """"Up to and including that position", "no query attends to … after the query position"
    (auto-regressive sentences) and leftward information flow (sentences about the decoder)."""
    found = [said(CAUSAL, m, m.group("what").lower() == "including", _PAST, "what")
             for m in s.matches(_UP_TO)]
    if s.has(_CAUSAL_WORDS):
        found += [said(CAUSAL, m, m.group("rel").lower().split()[0] in ("after", "later",
                                                                        "following"), _PAST, "rel")
                  for m in s.matches(_NONE_BEYOND)]
    if s.has(_DECODER):
        found += [said(CAUSAL, m, m.group("dir").lower() == "leftward", _PAST, "dir")
                  for m in s.matches(_FLOW)]
    return found


def mask_order(s: Sentence) -> list[Said]:
    """Masking "before" or "after" the softmax, in a sentence that sets no weight to a value."""
    if s.has(_WEIGHTS) or s.has(_SET_TO):
        return []
    return [said(MASK, m, m.group("when").lower() == "before",
                 "−∞ added to the logits before the softmax", "when")
            for m in s.matches(_MASK_WHEN)]


def mask_values(s: Sentence) -> list[Said]:
    """The value masked logits are set to; in a passage or section about masking, also a
    value no weight can be."""
    if s.has(_MASKED) and s.has(_INPUT) and not s.has(_AFTER):
        return [said(MASK, m, _very_negative(m.group("value")), _MINUS_INFINITY, "value")
                for m in s.matches(_SET_TO)]
    if s.in_passage(_MASKED) or s.in_section_title(_MASKED):
        return [said(MASK, m, _very_negative(m.group("value")), _MINUS_INFINITY, "value")
                for m in s.matches(_SET_TO) if _large(m.group("value"))]
    return []


def _very_negative(value: str) -> bool:
    plain = value.strip("$ ").replace("−", "-").replace("\\", "").replace(" ", "").lower()
    if "inf" in plain or "∞" in plain or "largenegative" in plain:
        return plain.startswith("-") or "negative" in value.lower() or "large" in plain
    number = re.fullmatch(r"-\d[\d,.]*(?:e-?\d+)?|-10\^\{?\d+\}?", plain)
    if number is None:
        return False
    digits = plain.replace(",", "").replace("{", "").replace("}", "")
    try:
        worth = -10 ** int(digits.split("^")[1]) if "^" in digits else float(digits)
    except ValueError:
        return False
    return worth <= -1e3


def _large(value: str) -> bool:
    """A value no softmax weight can be: infinite, or a number of magnitude at least 1000
    ("a large positive number", ``$10^{6}$``, ``-1e9``)."""
    plain = value.strip("$ ").replace("−", "-").replace("\\", "").replace(" ", "").lower()
    if "inf" in plain or "∞" in plain or "large" in plain:
        return True
    power = re.fullmatch(r"-?10\^\{?(\d+)\}?", plain)
    if power:
        return int(power.group(1)) >= 3
    try:
        return abs(float(plain.replace(",", ""))) >= 1e3
    except ValueError:
        return False


READERS = ((CAUSAL, causal_sets), (CAUSAL, causal_only), (CAUSAL, causal_prevents),
           (CAUSAL, causal_spans), (MASK, mask_order), (MASK, mask_values))
DETAILS = {
    MASK: lambda s: (f"claim {s.claim} proves a masked logit must be {s.should} to get weight 0; "
                     f"this sentence sets it to another value") if "before" not in s.should else
                    (f"claim {s.claim} proves masking works on the logits: {s.should}; this "
                     f"sentence masks after it"),
    CAUSAL: lambda s: f"claim {s.claim} proves a causal model attends to {s.should}; this span "
                      f"reaches the future",
}
