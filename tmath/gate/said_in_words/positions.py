"""Positional encodings in words: their range, the shift between positions, relative offsets.

* Claim ``pe-values-bounded``: every value of the sinusoidal encoding lies in [−1, 1] and
  takes both signs. A sentence in a passage about the (fixed, sinusoidal) positional encoding
  that says its values (entries, elements) are "between A and B" (in either order) or "in [A,
  B]" is read for the interval: [−1, 1] is the claim's; one that leaves out part of it
  ("between 0 and 1") contradicts it; a wider one is true and not reported. A sentence about
  learned encodings, bits or a normalised index is not read.
* Claim ``pe-shift-is-rotation``: PE(pos + k) is a linear map of PE(pos) whose matrix depends
  on the offset k alone. A sentence about an offset and positions that says one "can be
  represented as a linear function (projection, transformation)" of the other is the claim's
  (nonlinear, quadratic, exponential, … contradict it); a sentence about the projection
  (transformation, rotation) matrix that says it "does not depend on" the position is the
  claim's, and one that says it "depends on" the (absolute) position, not only through the
  offset, contradicts it.
* Claim ``rope-relative-angle``: RoPE's scores depend on the positions m and n only through
  m − n. An inline formula that a sentence calls a relative position (or offset), right
  before it or a few words and "i.e." before, is read when it is a sum or difference of two
  names: a sum is not a relative position (a difference is what the words define, not what
  the claim proves, and is not reported). The rotations act on the queries and keys
  "before" ("prior to") their dot product; a sentence that rotates them "after" it
  contradicts the claim (one that contrasts the two, "not after", is not read).
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

RANGE = "pe-values-bounded"
SHIFT = "pe-shift-is-rotation"
RELATIVE = "rope-relative-angle"

_PE_TOPIC = re.compile(r"(?<!learned\s)(?<!learnable\s)(?<!trainable\s)\bposition(?:al)?\s+"
                       r"(?:encoding|embedding)s?\b|\bsinusoid\w*\b", re.I)
_OTHER_RANGE = re.compile(r"\b(?:bits?|binary|normali[sz]\w*|index|indices|probabilit\w*|"
                          r"weights?|softmax|correlat\w*|tanh|sigmoid)\b", re.I)
_NUMBER = r"(?:\$|\\\()?\s*[-−–]?\s*\d+(?:\.\d+)?\s*(?:\$|\\\))?"
_ASIDE = r"(?:\s*\([^()]{0,20}\))?"
_WITHIN = re.compile(r"\b(?:values?|entry|entries|elements?|components?|numbers)\b[^.;]{0,40}?"
                     rf"(?:\bbetween\s+(?P<low>{_NUMBER}){_ASIDE}\s+and\s+(?P<high>{_NUMBER})|"
                     r"\b(?:in|within)\s+(?:the\s+(?:range|interval)\s+)?(?:\$|\\\()?\s*"
                     r"\[\s*(?P<left>[-−–]?\s*\d+(?:\.\d+)?)\s*,\s*(?P<right>[-−–]?\s*\d+(?:\.\d+)?)"
                     r"\s*\])", re.I)
_SHIFT_MATRIX = re.compile(r"\b(?:projection|transformation|rotation|linear)\s+matri(?:x|ces)\b",
                           re.I)
_DEPEND = re.compile(r"\bdepend\w*\s+on\b|\bindependent\s+of\b", re.I)
_ON_POSITION = re.compile(r"(?P<verb>depend\w*\s+on|independent\s+of)\s+(?:any\s+|the\s+)?"
                          r"(?:absolute\s+)?position", re.I)
_ONLY_OFFSET = re.compile(r"\bonly\b|\boffset|\brelative|\bdistance|\bshift", re.I)
_REPRESENTED = re.compile(r"\b(?:represent|express|written|writ|obtain|comput)\w*\s+(?:as|by|"
                          r"through)\s+(?:a|an)\s+(?P<kind>linear|non-?linear|quadratic|exponential|"
                          r"polynomial|logarithmic|affine)\s+(?:function|projection|"
                          r"transformation|combination|map(?:ping)?)\b", re.I)
_OFFSET_TOPIC = re.compile(r"\boffset\b", re.I)
_POSITION_TOPIC = re.compile(r"\bpositions?\b|\bencodings?\b", re.I)
_RELATIVE_TOPIC = re.compile(r"relative|offset", re.I)
_RELATIVE = re.compile(r"\b(?:relative\s+(?:positions?|offsets?|distances?)|position\s+offsets?)\b"
                       r"(?:(?:\s+[a-z]+){0,5}?,?\s+(?:say|i\.e\.|namely),?)?\s*(?::\s*)?$", re.I)
RELATIVE_REACH = 80
"""How many characters before an inline formula "relative position" may end."""
_ROTATED = re.compile(r"\b(?:rotat\w*|RoPE|rotary)\b[^.;,]{0,100}?\b(?P<when>before|prior\s+to|after|"
                      r"following)\s+(?:taking\s+|computing\s+|forming\s+)?(?:the\s+|their\s+|a\s+)?"
                      r"(?:attention\s+)?(?:dot|inner)[\s-]+products?\b", re.I)
"""Rotations before (after) the dot product in one clause: "we rotate q and k, and after the
dot product take the softmax" says when the softmax comes, not the rotation."""
_QUERY_KEY = re.compile(r"\b(?:quer(?:y|ies)|keys?)\b|\\mathbf\{[qk]\}|(?<![\\\w])[qk](?:_\{?\w+\}?)?"
                        r"(?![\w])", re.I)
_CONTRASTED = re.compile(r"\b(?:not|never|instead|rather\s+than|unlike)\b|n't\b", re.I)


def value_ranges(s: Sentence) -> list[Said]:
    """Each interval a sentence about the encoding gives its values."""
    if not s.has(_WITHIN) or not s.in_passage(_PE_TOPIC) or s.has(_OTHER_RANGE):
        return []
    found = []
    for match in s.matches(_WITHIN):
        low, high = match.group("low") or match.group("left"), \
            match.group("high") or match.group("right")
        try:
            a, b = (float(re.sub(r"[$\\()\s]", "", v).replace("−", "-").replace("–", "-"))
                    for v in (low, high))
        except ValueError:
            continue
        a, b = min(a, b), max(a, b)   # "between 1 and -1"
        exact = (a, b) == (-1, 1)
        if a == b or (not exact and a <= -1 and b >= 1):
            continue
        found.append(said(RANGE, match, exact, "in [−1, 1], and negative as often as positive",
                          "low" if match.group("low") else "left"))
    return found


def linear_map(s: Sentence) -> list[Said]:
    """The kind of map said to take the encoding at one position to another at an offset."""
    if not (s.has(_OFFSET_TOPIC) and s.has(_POSITION_TOPIC)):
        return []
    return [said(SHIFT, m, m.group("kind").lower() in ("linear", "affine"),
                 "a linear map (a rotation by k·ω_i in each pair)", "kind")
            for m in s.matches(_REPRESENTED)]


def shift_matrix(s: Sentence) -> list[Said]:
    """What the shift matrix is said to depend on: not the position is the claim's; the
    position, unless only through the offset, contradicts it."""
    if not s.has(_SHIFT_MATRIX):
        return []
    words = _DEPEND.search(s.text, s.start, s.end)
    if words is None:
        return []
    tail = s.text[words.start():s.end]
    match = _ON_POSITION.match(tail)
    if match is None:
        return []
    before = s.text[max(s.start, words.start() - 12):words.start()].lower()
    negated = "independent" in match.group("verb").lower() or \
        re.search(r"(?:not|n't|never)\s*$", before) is not None
    if not negated and _ONLY_OFFSET.search(tail):
        return []
    return [Said(SHIFT, " ".join(s.text[words.start():words.start() + match.end()].split()),
                 negated, "the offset k alone, not the position", words.start())]


def relative_positions(s: Sentence) -> list[Said]:
    """Each inline formula a sentence calls a relative position, read when it is a sum of
    two names."""
    if not s.has(_RELATIVE_TOPIC):
        return []
    import sympy as sp

    from tmath.latex import read

    found = []
    for math in [m for m in s.document.inline if s.start <= m.start < s.end]:
        if not _RELATIVE.search(s.text[max(s.start, math.start - RELATIVE_REACH):math.start]):
            continue
        reading = read(math.latex)
        if not reading.parsed or reading.relations or len(reading.expressions) != 1:
            continue
        value = reading.expressions[0]
        terms = value.as_ordered_terms() if isinstance(value, sp.Add) else []
        plain = [t for t in terms if isinstance(t, sp.Symbol) or
                 (isinstance(-t, sp.Symbol) and t.could_extract_minus_sign())]
        if len(terms) != 2 or len(plain) != 2:
            continue
        difference = any(t.could_extract_minus_sign() for t in terms) and \
            not all(t.could_extract_minus_sign() for t in terms)
        if not difference:   # a difference is what the words say, not what the claim proves
            found.append(Said(RELATIVE, math.latex, False,
                              "a difference of the two positions (m − n)", math.start))
    return found


def rotated_when(s: Sentence) -> list[Said]:
    """Whether RoPE's rotations are said to act on the queries and keys before or after
    their dot product."""
    if not s.has(_QUERY_KEY) or s.has(_CONTRASTED):
        return []
    return [said(RELATIVE, m, m.group("when").lower().startswith(("before", "prior")),
                 "rotations of q and k before their dot product", "when")
            for m in s.matches(_ROTATED)]


READERS = ((SHIFT, linear_map), (RELATIVE, relative_positions), (RELATIVE, rotated_when),
           (RANGE, value_ranges), (SHIFT, shift_matrix))
DETAILS = {
    RANGE: lambda s: f"claim {s.claim} proves the sinusoidal values lie {s.should}; this "
                     f"interval leaves part of that range out",
    SHIFT: lambda s: (f"claim {s.claim} proves the matrix taking PE(pos) to PE(pos + k) "
                      f"depends on {s.should}") if "linear" not in s.should else
                     (f"claim {s.claim} proves PE(pos + k) is {s.should} of PE(pos); this "
                      f"sentence calls the map another kind"),
    RELATIVE: lambda s: (f"claim {s.claim} proves the score depends on the positions only "
                         f"through {s.should}; a sum of the two is not a relative position")
                        if "rotations" not in s.should else
                        (f"claim {s.claim} proves (R_m q)ᵀ(R_n k) = qᵀR_(n−m)k: {s.should}; "
                         f"their dot product is a number, which no rotation acts on"),
}
