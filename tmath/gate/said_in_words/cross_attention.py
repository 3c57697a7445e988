"""Cross-attention in words: where its queries, keys and values come from, and its output's
shape.

Claim ``cross-attention-shapes``: in encoder-decoder (cross) attention the queries come from
the decoder and the keys and values from the encoder, softmax(Q_dec K_encᵀ/√d_k)V_enc, and the
output has one row per query, as wide as a value (batch × T_q × d_v).

* A sentence about encoder-decoder or cross attention that says where queries, keys or
  values come from ("the queries come from the previous decoder layer", "takes the Keys and
  Values matrix from the output of the encoder stack") is read for each source that names one
  side alone (the encoder, or the decoder, "the layer below").
* In a paragraph about the decoder, "the output of the top encoder is transformed into
  attention vectors K and V" is the claim's; Q among them contradicts it.
* A sentence that says the output is "a B × R × C tensor" is held to what its passage states:
  a minibatch size, a number of queries (or "one row / one query per example"), the values'
  dimensionality. A size that disagrees contradicts the claim; one that nothing fixes is not
  judged.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.attention import ROLE
from tmath.gate.said_in_words.sentence import Said, Sentence, said

CROSS = "cross-attention-shapes"

_CROSS_TOPIC = re.compile(r"\bencoder(?:-{1,3}|–|—)decoder\s+attention|\bcross-attention\b|"
                          r"\bencoder(?:-{1,3}|–|—)decoder\b[^.;]{0,40}\battention", re.I)
_FROM = re.compile(rf"\b(?P<what>{ROLE}(?:\s*(?:,|and|,\s*and)\s*(?:the\s+)?(?:memory\s+)?{ROLE})*)"
                   r"(?:\s+(?:matri(?:x|ces)|vectors?))?\s+(?:(?:are\s+|is\s+)?(?:all\s+)?(?:comes?|are|is|"
                   r"(?:are|is)\s+taken)\s+)?from\s+(?P<source>(?:(?!\band\s+(?:its|the|their)\b)[^,.;]){1,60})", re.I)
_DECODER_SIDE = re.compile(r"\blayer\s+below|\bprevious\s+layer")
_LETTER_ROLE = r"(?:(?-i:[QKV])|keys?|values?|quer(?:y|ies))"
_ENCODER_INTO = re.compile(r"\boutput\s+of\s+the\s+(?:top\s+|last\s+|final\s+)?encoder\b[^.;]{0,60}?"
                           r"\binto\s+(?:a\s+set\s+of\s+)?(?:attention\s+)?(?:vectors?|matrices)\s+"
                           rf"(?P<what>{_LETTER_ROLE}\s*(?:,|and)\s*{_LETTER_ROLE})\b", re.I)
_DECODER = re.compile(r"decoder", re.I)
_N = r"\$?\s*(?P<{}>\d+)\s*\$?"
_OUTPUT_SHAPE = re.compile(r"\boutputs?\b[^.;]{0,40}?\b(?:be|is|has\s+shape|of\s+shape)\s+(?:a\s+|an\s+)?"
                           r"\$\s*(?P<a>\d+)\s*(?:\\times|×)\s*(?P<b>\d+)\s*(?:\\times|×)\s*"
                           r"(?P<c>\d+)\s*\$\s*tensor", re.I)
_BATCH = re.compile(r"\b(?:mini-?)?batch\s+size\s+(?:of|is)\s+" + _N.format("n"), re.I)
_QUERIES = re.compile(r"(?:(?<![\w.])" + _N.format("n") + r"\s+quer(?:y|ies)\b|\bone\s+(?P<one>row|query)"
                      r"\s+(?:per|for\s+each)\s+(?:example|sequence|observation))", re.I)
_VALUE_WIDTH = re.compile(r"\bdimension(?:ality)?\s+of\s+the\s+values\s+is\s+" + _N.format("n") +
                          r"|(?<![\w.])" + _N.format("m") + r"-dimensional\s+values\b", re.I)
_SOURCES = "the queries from the decoder, the keys and values from the encoder"
_SHAPE = "one row per query, as wide as a value (batch × T_q × d_v)"


def sources(s: Sentence) -> list[Said]:
    """Each "<queries/keys/values> … from <source>" of a sentence about cross-attention whose
    source names one side."""
    if not s.has(_CROSS_TOPIC):
        return []
    found = []
    for match in s.matches(_FROM):
        source = match.group("source").lower()
        encoder = "encoder" in source and "decoder" not in source
        decoder = ("decoder" in source or _DECODER_SIDE.search(source)) and "encoder" not in source
        if encoder == bool(decoder):
            continue
        roles = re.findall(ROLE, match.group("what"), re.I)
        wrong = [r for r in roles if r.lower().startswith("quer") == encoder]
        found.append(said(CROSS, match, not wrong, _SOURCES))
    return found


def encoder_outputs(s: Sentence) -> list[Said]:
    """Each "output of the encoder … into (attention vectors) K and V" in a paragraph about
    the decoder."""
    if not s.in_paragraph(_DECODER):
        return []
    return [said(CROSS, m, {r[0].lower() for r in re.findall(_LETTER_ROLE, m.group("what"))}
                 == {"k", "v"}, _SOURCES, "what")
            for m in s.matches(_ENCODER_INTO)]


def output_shapes(s: Sentence) -> list[Said]:
    """Each "output … a B × R × C tensor", held to the sizes its passage states."""
    if not s.has(_OUTPUT_SHAPE):
        return []
    stated = {}
    for name, pattern in (("batch", _BATCH), ("rows", _QUERIES), ("width", _VALUE_WIDTH)):
        values = set()
        for match in pattern.finditer(s.text, s.passage_start, s.end):
            groups = match.groupdict()
            values.add(1 if groups.get("one") else int(groups.get("n") or groups.get("m")))
        if len(values) == 1:   # two different numbers: not one setting
            stated[name] = values.pop()
    if not stated:
        return []
    found = []
    for match in s.matches(_OUTPUT_SHAPE):
        sizes = {"batch": ("a", int(match.group("a"))), "rows": ("b", int(match.group("b"))),
                 "width": ("c", int(match.group("c")))}
        wrong = [group for name, (group, size) in sizes.items()
                 if name in stated and size != stated[name]]
        found.append(said(CROSS, match, not wrong, _SHAPE, wrong[0] if wrong else "a"))
    return found


READERS = ((CROSS, output_shapes), (CROSS, sources), (CROSS, encoder_outputs))
DETAILS = {
    CROSS: lambda s: (f"claim {s.claim} proves cross-attention takes {s.should} "
                      f"(softmax(Q_dec K_encᵀ/√d_k)); this sentence takes them the other way")
                     if "row" not in s.should else
                     (f"claim {s.claim} proves attention's output has {s.should}; this shape "
                      f"disagrees with the sizes its passage states"),
}
