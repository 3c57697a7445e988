"""Scaled dot-product attention in words: scores, weights, variance and saturation.

* Claim ``attention-temperature`` writes Attention(Q, K, V) = softmax(QKᵀ/√d_k)V: a key's
  score is its dot product with the query ("the score is calculated by taking the dot product
  of the query vector with the key vector", "the weight … is computed by a compatibility
  function of the query with the corresponding key"), and the output is a weighted sum of the
  values. Other vectors in those places contradict it.
* Claim ``scaled-score-variance``: Var(qᵀk/√d_k) = 1. A sentence about scaling (scaled,
  rescaled, divided) that says the variance "remains (stays, is kept at)" a value is read for
  it: 1 (one, unit) is the claim's.
* Claim ``dot-product-variance``: Var(qᵀk) = d_k, so the dot products grow with the key width.
  "The dot products grow large … for large values of d_k" is the claim's; small values of d_k
  contradict it.
* Claim ``softmax-saturation``: scores grown large drive softmax to one-hot and its gradient
  to zero. A sentence whose softmax gets large (grown, saturated) inputs and that names the
  size of its gradients is read for that size: small (tiny, vanishing) is the claim's; a
  sentence that avoids or prevents them is not read.
* Claim ``softmax-is-a-distribution``: softmax's weights are positive and sum to 1. A sentence
  about the softmax (or attention weights) that says they "add up to" (sum to) a number, are
  "all positive" (negative), or speaks of "nonnegative (negative) attention weights" is read;
  one about gradients, a Jacobian, logits or a difference is not.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

SCORE = "attention-temperature"
SCALED = "scaled-score-variance"
VARIANCE = "dot-product-variance"
SATURATION = "softmax-saturation"
DISTRIBUTION = "softmax-is-a-distribution"

ROLE = r"(?:quer(?:y|ies)|keys?|values?)"
"""A role in attention: queries, keys or values."""
_SCORE_DOT = re.compile(rf"\bscores?\b[^.;]{{0,60}}?\bdot[\s-]+products?\s+of\s+(?:the\s+|a\s+|each\s+)?"
                        rf"(?P<a>{ROLE})(?:\s+vectors?)?\s+(?:with|and)\s+(?:the\s+|a\s+|each\s+)?"
                        rf"(?P<b>{ROLE})\b", re.I)
_WEIGHTED_OF = re.compile(rf"\boutputs?\b[^.;]{{0,30}}?\bweighted\s+(?:sum|average|combination|mean)\s+"
                          rf"of\s+(?:the\s+)?(?P<role>{ROLE})\b|\bsum\s+(?:up\s+)?the\s+weighted\s+"
                          r"(?P<vectors>value|key|query)\s+vectors\b", re.I)
_WEIGHT_FROM = re.compile(rf"\bweights?\b[^.;]{{0,60}}?\b(?:compatibility\s+function|dot[\s-]+products?)\s+"
                          rf"of\s+the\s+(?P<a>{ROLE})\s+with\s+(?:the\s+)?(?:corresponding\s+)?"
                          rf"(?P<b>{ROLE})\b", re.I)
_REMAINS = re.compile(r"\bvariance\b[^.;]{0,40}?\b(?:still\s+)?(?:remains?|stays?|is\s+kept)\s+(?:at\s+|"
                      r"equal\s+to\s+)?(?P<value>\$[^$]{1,20}\$|\\\([^)]{1,20}\\\)|\d+(?:\.\d+)?\b|one\b|"
                      r"unit\b)", re.I)
_SCALING = re.compile(r"\b(?:scaled|scaling|rescal\w*|divid\w*)\b", re.I)
_DK = r"(?:\$\s*d_\{?k\}?\s*\$|\\\(\s*d_\{?k\}?\s*\\\)|\bd_k\b)"
_GROW_LARGE = re.compile(r"\bdot[\s-]products?\s+(?:\w+\s+){0,2}?(?:grow|get|become)\w*\s+"
                         r"(?:very\s+)?large\b", re.I)
_DK_SIZE = re.compile(rf"\bfor\s+(?P<size>large|larger|big|high|small|smaller|low)\s+"
                      rf"(?:values?\s+of\s+)?{_DK}", re.I)
_SATURATES = re.compile(r"\bsoftmax\b[^.;]*\b(?:large|larger|grows?|magnitude|saturat\w*)\b|"
                        r"\b(?:large|larger|grows?|magnitude|saturat\w*)\b[^.;]*\bsoftmax\b", re.I)
_GRADIENT_SIZE = re.compile(r"\b(?:(?:extremely|very|vanishingly|really|too)\s+)?(?P<size>small|tiny|"
                            r"minuscule|vanishing|negligible|large|huge|big|exploding)\s+gradients?\b|"
                            r"\bgradients?\s+(?:become|becomes|get|gets|are|grow|grows)\s+(?:extremely"
                            r"\s+|very\s+)?(?P<after>small|tiny|large|huge|big)\b", re.I)
_NOT_SATURATED = re.compile(r"\b(?:not|n't|never|avoid\w*|prevent\w*|instead|rather\s+than|"
                            r"counteract\w*)\b", re.I)
_SMALL = ("small", "tiny", "minuscule", "vanishing", "negligible")
_WEIGHTS_TOPIC = re.compile(r"\bsoftmax\b|\battention\s+weights\b", re.I)
_NOT_WEIGHTS = re.compile(r"\bgradients?\b|\bderivatives?\b|\bJacobian\b|\blogits?\b|\bminus\b|"
                          r"\bdifferences?\b|\blog\b", re.I)
_ADD_UP = re.compile(r"\b(?:add|adds|sum|sums|summing)\s+(?:up\s+)?to\s+(?P<value>\$?\s*-?\d+(?:\.\d+)?"
                     r"\s*\$?|one|zero)(?![\w.])|\ball\s+(?P<sign>positive|negative)\b", re.I)
_SIGNED_WEIGHTS = re.compile(r"\b(?P<sign>non-?negative|positive|negative)\s+(?:attention\s+)?"
                            r"(?:weights|probabilities)\b", re.I)
_NO_SIGN = re.compile(r"\b(?:not|no|never|cannot|without|unlike|instead|rather|other)\b|n't\b",
                      re.I)
_DISTRIBUTION = "positive weights that add up to 1"


def scores(s: Sentence) -> list[Said]:
    """What the output is a weighted sum of, and what a score (weight) is the dot product of."""
    found = []
    for match in s.matches(_WEIGHTED_OF):
        role = "role" if match.group("role") else "vectors"
        found.append(said(SCORE, match, match.group(role).lower().startswith("value"),
                          "a weighted sum of the values (softmax(QKᵀ/√d_k) V)", role))
    for match in [*s.matches(_WEIGHT_FROM), *s.matches(_SCORE_DOT)]:
        roles = {match.group(g).lower()[0] for g in ("a", "b")}
        found.append(said(SCORE, match, roles == {"q", "k"},
                          "the dot product of a query with a key (QKᵀ)", "a"))
    return found


def scaled_variance(s: Sentence) -> list[Said]:
    """The value the variance of the scaled scores is said to keep."""
    if not s.has(_SCALING):
        return []
    return [said(SCALED, m, re.sub(r"[$\\()\s{}]", "", m.group("value")).lower()
                 in ("1", "1.0", "one", "unit"), "1 (Var(qᵀk/√d_k) = 1)", "value")
            for m in s.matches(_REMAINS)]


def growth_with_width(s: Sentence) -> list[Said]:
    """For which values of d_k the dot products are said to grow large."""
    if not s.has(_GROW_LARGE):
        return []
    return [said(VARIANCE, m, m.group("size").lower() in ("large", "larger", "big", "high"),
                 "large values of d_k (Var(qᵀk) = d_k)", "size")
            for m in s.matches(_DK_SIZE)]


def saturation(s: Sentence) -> list[Said]:
    """The size of the gradients of a softmax said to get large inputs."""
    if not s.has(_SATURATES) or s.has(_NOT_SATURATED):
        return []
    found = []
    for match in s.matches(_GRADIENT_SIZE):
        group = "size" if match.group("size") else "after"
        found.append(said(SATURATION, match, match.group(group).lower() in _SMALL,
                          "vanishing gradients (softmax saturates)", group))
    return found


def distribution(s: Sentence) -> list[Said]:
    """What softmax's weights are said to add up to, and their sign."""
    if not s.has(_WEIGHTS_TOPIC) or s.has(_NOT_WEIGHTS):
        return []
    found = []
    for match in s.matches(_ADD_UP):
        if match.group("sign"):
            found.append(said(DISTRIBUTION, match, match.group("sign").lower() == "positive",
                              _DISTRIBUTION, "sign"))
        else:
            value = (match.group("value") or "").strip("$ ").lower()
            found.append(said(DISTRIBUTION, match, value in ("1", "1.0", "one"), _DISTRIBUTION,
                              "value"))
    if not s.has(_NO_SIGN):
        found += [said(DISTRIBUTION, m, m.group("sign").lower() != "negative", _DISTRIBUTION,
                       "sign") for m in s.matches(_SIGNED_WEIGHTS)]
    return found


READERS = ((SCORE, scores), (SCALED, scaled_variance), (SATURATION, saturation),
           (VARIANCE, growth_with_width), (DISTRIBUTION, distribution))
DETAILS = {
    SCORE: lambda s: (f"claim {s.claim} scores each key by {s.should}; this sentence takes the "
                      f"dot product of other vectors") if "dot" in s.should else
                     (f"claim {s.claim} makes attention's output {s.should}; this sentence "
                      f"weights other vectors"),
    SCALED: lambda s: f"claim {s.claim} proves the scaled scores' variance is {s.should}; this "
                      f"sentence keeps it at another value",
    VARIANCE: lambda s: f"claim {s.claim} proves Var(qᵀk) = d_k: the dot products grow large "
                        f"for {s.should.split(' (')[0]}, not small ones",
    SATURATION: lambda s: f"claim {s.claim} proves that scores grown large drive softmax to "
                          f"one-hot and its gradient to zero: {s.should}",
    DISTRIBUTION: lambda s: f"claim {s.claim} proves softmax gives {s.should}",
}
