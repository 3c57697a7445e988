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
precision). The prefix was written for the notes: only what follows its last Chinese word is
looked for (a few Chinese words and then ``warmup_steps =`` leave ``warmup_steps =``).

A range said in words, "the wavelengths run from $2\\pi$ to $10000 \\cdot 2\\pi$"
(:func:`ranges_in`), is held end by end to the figures of the claims in play, or building on
one, whose labels name that quantity and that end.
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
from tmath.gate.prose_relations import SENTENCE_END

REPORTED = frozenset({"accurate", "inaccurate"})
"""What a figure found in a recognised document can be; anything else is not reported."""
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
    lowered = document.text.lower()
    figures = []
    for claim_id, offsets in in_play.items():
        info = by_id.get(claim_id)
        result = results.get(claim_id)
        if info is None or getattr(result, "verdict", None) not in PASSING:
            continue
        where = _scopes(document, offsets)
        for k, figure in enumerate(info.figures):
            mine = _in_names(figure, mapping)
            if not _may_be_taken(mine, lowered):
                continue   # no prefix left, or words the document never uses: never taken
            truth = true_value(figure_result(result, k, figure))
            figures.append(((claim_id, k), mine, where, truth))
    found, taken = [], []
    passed: dict[tuple, list[tuple[int, int]]] = {}   # numbers a figure looked at and left
    for _ in range(MAX_ROUNDS):   # a document may print a figure more than once
        placed = [(key, figure, _without(where, taken + passed.get(key, [])), truth)
                  for key, figure, where, truth in figures]
        anchors = locate_all(build_quotes(placed))
        looking = []
        for (claim_id, k), figure, _, _ in placed:
            anchor = anchors[(claim_id, k)]
            if anchor.located is None:
                continue   # nothing more to find for this figure
            looking.append((claim_id, k))
            span = (anchor.located.token.start, anchor.located.token.end)
            if not _taken(anchor, document, figure):
                passed.setdefault((claim_id, k), []).append(span)
                continue
            info, result = by_id[claim_id], results.get(claim_id)
            finding = judge_figure(anchor, [document], info, figure,
                                   figure_result(result, k, info.figures[k]), result)
            taken.append(span)
            if finding.status in REPORTED:
                found.append(finding)
        figures = [f for f in figures if f[0] in looking]
        if not figures:
            break
    return found


MAX_ROUNDS = 6
"""Rounds of looking: each leaves out the numbers taken, and those a figure looked at and
left, so a figure printed in several places is found at each (a bound on the work)."""


def _without(scopes: Sequence[Scope], taken: Sequence[tuple[int, int]]) -> list[Scope]:
    """``scopes`` with the numbers already taken cut out."""
    from dataclasses import replace

    pieces = list(scopes)
    for start, end in taken:
        cut = []
        for scope in pieces:
            if scope.start <= start < scope.end:
                cut += [p for p in (replace(scope, end=start), replace(scope, start=end))
                        if p.start < p.end]
            else:
                cut.append(scope)
        pieces = cut
    return pieces


def _may_be_taken(figure: FigureInfo, lowered: str) -> bool:
    """A prefix is left and the document uses one of the label's naming words (else no
    number can ever be taken for the figure, and it is not looked for)."""
    naming = _naming_words(figure.label)
    return bool(words(figure.near)) and any(word in lowered for word in naming)


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
    """The figure's prefix and suffix as another document may print them: only what follows
    the last word in Chinese (the notes' words are not the document's: Chinese words and then
    ``warmup_steps =`` leave ``warmup_steps =``), in the document's names (``d_k = 64`` → ``d =
    64``)."""
    from dataclasses import replace

    from tmath.gate.recognition import in_names

    near = _CJK_HEAD.sub("", figure.near).strip()
    after = figure.after if not _CJK.search(figure.after) else ""
    if mapping:
        near, after = in_names(near, mapping), in_names(after, mapping)
    return replace(figure, near=near, after=after)


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_HEAD = re.compile(r"^.*[\u3400-\u9fff\uf900-\ufaff]", re.S)


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
    for match in SENTENCE_END.finditer(text, max(0, at - 2000), at):
        start = match.end()
    start = max(start, at - 2000)
    end = SENTENCE_END.search(text, at)
    return start, end.start() if end else len(text)


# -- a range said in words -----------------------------------------------------------------------

NOUNS = {"period": "period", "periods": "period", "wavelength": "period",
         "wavelengths": "period"}
"""Quantity nouns a range sentence may use, and the word a figure's label uses for them."""
LOW = frozenset({"shortest", "smallest", "lowest", "minimum"})
HIGH = frozenset({"longest", "largest", "highest", "maximum", "limit"})
_RANGE = re.compile(r"\bfrom\s+⟨(?P<a>\d+)⟩\s+(?:up\s+)?to\s+⟨(?P<b>\d+)⟩")
RELATIVE = 1e-9
"""How close a range end printed as an exact expression (10000·2π) must be to the figure."""


def ranges_in(document: Document, in_play: Mapping[str, Sequence[int]],
              infos: Sequence[ClaimInfo], results: Mapping[str, Any]) -> list[Finding]:
    """``the wavelengths run from $2\\pi$ to $10000 \\cdot 2\\pi$``: each end, an exact
    expression, compared with the figure of a claim in play (or of one building on it) whose
    label names the same quantity at the same end (``the shortest period``, ``the limit of
    the longest period``)."""
    from tmath.gate.prose_relations import sentences_with_math, with_placeholders

    ends = _range_figures(in_play, infos, results)
    if not ends:
        return []
    found = []
    for text, start, end, maths in sentences_with_math(document):
        if len(maths) < 2:
            continue
        spelt, places = with_placeholders(text, start, end, maths)
        for match in _RANGE.finditer(spelt):
            nouns = {NOUNS[w] for w in re.findall(r"[a-z]+", spelt[:match.start()].lower())
                     if w in NOUNS}
            for side, which in (("a", LOW), ("b", HIGH)):
                math = maths[int(match.group(side))]
                found += _judge_end(document, math, nouns, which, ends)
    return found


def _range_figures(in_play, infos, results) -> list[tuple[ClaimInfo, FigureInfo, float]]:
    """(claim, figure, true value) of the figures of the claims in play and of the claims
    that build on one of them."""
    by_id = {info.id: info for info in infos}
    ids = set(in_play) | {info.id for info in infos if set(info.depends_on) & set(in_play)}
    found = []
    for claim_id in sorted(ids):
        info, result = by_id.get(claim_id), results.get(claim_id)
        if info is None or getattr(result, "verdict", None) not in PASSING:
            continue
        for k, figure in enumerate(info.figures):
            truth = true_value(figure_result(result, k, figure))
            if truth and len(truth) == 1:
                found.append((info, figure, truth[0]))
    return found


def _judge_end(document: Document, math, nouns: set[str], which: frozenset[str],
               ends: Sequence[tuple[ClaimInfo, FigureInfo, float]]) -> list[Finding]:
    from tmath.latex import read

    reading = read(math.latex)
    if not reading.parsed or len(reading.expressions) != 1 or reading.relations:
        return []
    value = reading.expressions[0]
    if getattr(value, "free_symbols", True) or not getattr(value, "is_number", False):
        return []
    printed = float(value)
    found = []
    for info, figure, true in ends:
        words = set(re.findall(r"[a-z]+", figure.label.lower()))
        if not (nouns & words and which & words):
            continue
        good = abs(printed - true) <= RELATIVE * max(1.0, abs(true))
        section = document.section_at(math.start)
        found.append(Finding(
            status="accurate" if good else "inaccurate", kind="figure", document=document.path,
            section=section.number if section else None, line=math.line,
            column=document.column_of(math.start), claim=info.id, claims=(info.id,),
            label=figure.label, printed=math.latex.strip(), expected=(true,),
            detail="" if good else f"{math.latex.strip()} is {printed:.6g}; claim {info.id} "
                                   f"computes {figure.label} = {true:.6g}"))
    return found
