"""The layers around attention in words: the feed-forward layer and normalization.

* Claim ``ffn-no-token-interaction``: the position-wise feed-forward layer never mixes
  positions. "The feed-forward network is applied to each position separately
  (independently)" and "the feed-forward layer does not have those dependencies" are the
  claim's; "jointly" (together, at once) or "dependencies (interactions) between the paths
  (positions, tokens) in the feed-forward layer" contradict it.
  Seen as a convolution, its kernel has size 1 ("two convolutions with kernel size 1", a
  "1×1 convolution"); another size, in a passage (or a section titled) about the
  feed-forward (point-wise, position-wise) layer, contradicts it.
* Claim ``ffn-permutation-equivariant``: shuffling the tokens shuffles the outputs, since one
  network with the same weights acts at every position. "The exact same feed-forward network
  is applied to each position", "applies the same linear transformation to each element",
  "the transformations are the same across positions" are the claim's; "a different
  (separate, distinct) network … applied to each position" contradicts it.
* Claim ``norm-statistics-axes``: layer normalization takes its statistics over one example's
  features, batch normalization over the examples of a batch. "Normalizes across (over) …"
  the features (hidden units, channels) or the examples (samples, the batch) is read for that
  axis; the normalization it speaks of is the one named nearest before the verb, and "the
  former" or "the latter" is the first or second the sentence names.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

POSITIONWISE = "ffn-no-token-interaction"
SHARED = "ffn-permutation-equivariant"
AXES = "norm-statistics-axes"

_FFN = r"(?P<layer>feed[\s-]*forward|FFN)"
_FFN_TOPIC = re.compile(r"\bfeed[\s-]*forward\b|\bFFN\b", re.I)
_APPLIED = re.compile(r"\bapplied\s+to\s+(?P<scope>each\s+position|every\s+position|all\s+positions|the\s+"
                      r"whole\s+sequence)\s+(?P<how>separately|independently|jointly|together|at\s+once)\b"
                      r"|\b(?P<how2>independently|separately|jointly)\s+applied\s+to\s+(?:each|every|all)\s+"
                      r"positions?\b", re.I)
_MIXING = re.compile(r"\b(?P<neg>no\s+)?(?:dependenc(?:y|ies)|interactions?)\s+between\s+(?:the\s+|"
                     r"these\s+|those\s+|different\s+)?(?:paths|positions|tokens|words)\b[^.;]{0,30}?"
                     rf"\bin\s+the\s+{_FFN}", re.I)
_FFN_FREE = re.compile(rf"\bthe\s+{_FFN}\s+(?:layer|network|sub-?layer)s?\s+(?:does\s+not|doesn't|"
                       r"do\s+not|don't)\s+have\s+(?:those|these|any|such)\s+dependencies\b", re.I)
_NORMS = re.compile(r"\b(?P<kind>layer|batch)[\s-]*norm(?:ali[sz]ation)?\b|"
                    r"\b(?P<short>LayerNorm|BatchNorm|LN|BN)\b|\bthe\s+(?P<which>former|latter)\b",
                    re.I)
_ACROSS = re.compile(r"\bnormali[sz]\w*\s+(?:\w+\s+){0,3}?(?:across|over|along)\s+(?:all\s+)?"
                     r"(?:the\s+)?(?:\w+\s+){0,2}?(?P<axis>feature(?:s|\s+dimensions?)?|"
                     r"hidden\s+units?|channels?|examples?|samples?|(?:mini-?)?batch(?:es)?)\b", re.I)
_ALONE = "no dependence between positions"
_POINTWISE_TOPIC = re.compile(r"\bfeed[\s-]*forward\b|\bFFN\b|\b(?:point|position)[\s-]*wise\b", re.I)
_KERNEL = re.compile(r"\bconvolution(?:s|al\s+layers?)?\s+with\s+(?:a\s+)?(?:filter|kernel)\s+(?:size|width)"
                     r"\s+(?:of\s+)?(?P<size>\d+|one|two|three|five)\b|(?<![\w.])(?P<square>\d+)\s*(?:×|x|\*)\s*"
                     r"(?P=square)\s+convolutions?\b", re.I)
"""The feed-forward layer seen as a convolution: its kernel covers one position."""
_WHICH = (r"(?P<which>the\s+(?:exact\s+|very\s+)?same|an?\s+identical|one\s+shared|a\s+shared|"
          r"an?\s+(?:different|separate|distinct)|different|separate|distinct|its\s+own)")
_SAME_APPLIED = re.compile(
    _WHICH + r"\s+(?:linear\s+)?(?:feed[\s-]*forward\s+(?:neural\s+)?(?:network|layer|sub-?layer|block)|"
    r"FFN|transformation|network|function|weights|MLP)s?\b[^.;]{0,40}?\b(?:is\s+|are\s+)?(?:\w+\s+)?"
    r"appli\w*\s+to\s+(?:each|every|all)\s+(?:the\s+)?(?:positions?|elements?|tokens?)\b|"
    r"\bappl(?:y|ies|ied)\s+" + _WHICH.replace("which", "which2") + r"\s+(?:linear\s+)?"
    r"(?:transformation|network|function|weights|MLP|layer)s?\b[^.;]{0,40}?\bto\s+(?:each|every)\s+"
    r"(?:element|position|token)", re.I)
_SAME_ACROSS = re.compile(r"\btransformations?\s+(?:are|is)\s+(?P<which>the\s+same|identical|shared|"
                          r"different|distinct)\s+(?:across|for|at)\s+(?:all\s+|every\s+|each\s+|"
                          r"the\s+|different\s+)?positions\b", re.I)
_SAME = ("the same", "the exact same", "the very same", "an identical", "a identical",
         "one shared", "a shared", "identical", "shared", "same")


def applied_per_position(s: Sentence) -> list[Said]:
    """How the feed-forward layer is said to be applied to the positions."""
    if not s.has(_FFN_TOPIC):
        return []
    found = []
    for match in s.matches(_APPLIED):
        group = "how" if match.group("how") else "how2"
        found.append(said(POSITIONWISE, match,
                          match.group(group).lower() in ("separately", "independently"), _ALONE,
                          group))
    return found


def mixing(s: Sentence) -> list[Said]:
    """Dependencies between positions said to be in the feed-forward layer, or not."""
    return [*(said(POSITIONWISE, m, bool(m.group("neg")), _ALONE, "layer")
              for m in s.matches(_MIXING)),
            *(said(POSITIONWISE, m, True, _ALONE, "layer") for m in s.matches(_FFN_FREE))]


def kernel_size(s: Sentence) -> list[Said]:
    """The kernel size of the convolution the feed-forward layer is said to be: 1 is the
    claim's; a wider kernel would mix neighbouring positions."""
    if not _about_the_ffn(s):
        return []
    found = []
    for match in s.matches(_KERNEL):
        group = "size" if match.group("size") else "square"
        found.append(said(POSITIONWISE, match, match.group(group).lower() in ("1", "one"),
                          "a convolution of kernel size 1 (one position at a time)", group))
    return found


def shared_weights(s: Sentence) -> list[Said]:
    """Whether the same feed-forward network (weights, transformation) is said to act at
    every position, or a different one at each."""
    if not _about_the_ffn(s):
        return []
    found = []
    for match in [*s.matches(_SAME_APPLIED), *s.matches(_SAME_ACROSS)]:
        group = "which2" if match.groupdict().get("which2") else "which"
        which = " ".join(match.group(group).lower().split())
        found.append(said(SHARED, match, which in _SAME,
                          "the same weights at every position", group))
    return found


def _about_the_ffn(s: Sentence) -> bool:
    """The feed-forward (point-wise) layer is named in the passage or its section's title."""
    return s.in_passage(_POINTWISE_TOPIC) or s.in_section_title(_POINTWISE_TOPIC)


def axes(s: Sentence) -> list[Said]:
    """Each "normalizes across <axis>", held to the normalization it speaks of."""
    if not s.has(_ACROSS):
        return []
    named = [(m.start(), (m.group("kind") or m.group("short") or "").lower()[:1],
              (m.group("which") or "").lower()) for m in s.matches(_NORMS)]
    first = [kind for _, kind, which in named if kind][:2]
    found = []
    for match in s.matches(_ACROSS):
        before = [(kind, which) for at, kind, which in named if at < match.start()]
        if not before:
            continue
        kind, which = before[-1]
        if which:
            k = 0 if which == "former" else 1
            kind = first[k] if len(first) > k else ""
        if kind not in ("l", "b"):
            continue
        examples = match.group("axis").lower().startswith(("example", "sample", "batch", "mini"))
        should = "each example's features" if kind == "l" else "the examples of a batch"
        found.append(said(AXES, match, examples == (kind == "b"), should, "axis"))
    return found


READERS = ((POSITIONWISE, applied_per_position), (POSITIONWISE, mixing),
           (POSITIONWISE, kernel_size), (SHARED, shared_weights), (AXES, axes))
DETAILS = {
    POSITIONWISE: lambda s: f"claim {s.claim} proves the feed-forward layer acts on each "
                            f"position alone: {s.should}",
    SHARED: lambda s: f"claim {s.claim} proves shuffling the tokens shuffles the outputs, "
                      f"which needs {s.should}; this sentence gives each position its own",
    AXES: lambda s: f"claim {s.claim} proves this normalization takes its statistics over "
                    f"{s.should}; this sentence normalizes across another axis",
}
