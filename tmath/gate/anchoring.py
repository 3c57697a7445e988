"""Locating figures like annotations: a quote, its prefix and suffix, a position hint.

A claim's figure is a W3C Web Annotation ``TextQuoteSelector``: the *exact* text
(``printed``), a *prefix* (``near``) and an optional *suffix* (``after``); its section (or the
paragraph a ``<!-- tmath: id -->`` comment pins) is the position hint. Annotation tools
re-anchor such a quote fuzzily when the page changes; so does the gate:

1. **Candidates** are the printed numbers in the figure's scopes with the figure's form (one
   number, fraction, list) and *role* (running text or display formula): a number in running
   text is never taken from inside a formula, and vice versa.
2. **Context.** The text around each candidate is cut into tokens (numbers, LaTeX commands,
   math symbols, words, CJK characters) and aligned, in order, with the prefix and suffix.
   Tokens weigh by what they are, math and numbers most, prose least, and the alignment counts
   for less the further it ends from the candidate: prose can be reworded, math seldom is.
3. **Quote.** A candidate that prints the exact quote, or a value consistent with the true one
   at its own precision (a corrected figure), is preferred; with no context left it is still
   taken when it is the only such number in its scope. The value never overrides the context:
   where the anchor plainly points to one number, a number that fits the anchor clearly less
   well gets nothing for its value (two figures printed in each other's place are read where
   their anchors are, and both judged inaccurate).
4. **One number, one figure.** Figures are assigned greedily, best match first, across all
   claims; a number taken by one figure is no candidate for another, and a prefix never
   matches another figure's digits, except where it names that figure on purpose (the prefix
   ``1/9770`` of a period follows the figure ``≈ 1/9770``, wherever and however it is printed
   now).

A figure that is not located keeps its best candidate, so it is reported on that line with
what was expected and what is printed there.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from tmath.engine.figures import FigureSyntaxError, judge, parse_printed
from tmath.engine.model import Figure, FigureInfo
from tmath.gate.document import Document
from tmath.gate.numbers import Form, Token, core, form_of, readable, scan, token_at

SCOPE_TOKENS = 3_000
"""Numbers of one scope read in full; a larger (hostile) scope is searched, not read."""
MAX_CANDIDATES = SCOPE_TOKENS
"""Numbers one figure scores in all its scopes together (a claim pinned in thousands of
paragraphs reads no more): the rest are not candidates, so the figure may be missing (which
fails the gate), never judged from an unread number."""
SEARCH_HITS = 200
"""Occurrences of a quote or anchor token followed in a large scope."""
WINDOW_CHARS = 320
"""Characters read on each side of a candidate for its context."""
WINDOW_TOKENS = 48
"""Context tokens kept on each side of a candidate."""
GAP_FREE, GAP_SPAN = 4.0, 12.0
"""An alignment ending within GAP_FREE token weights of the candidate counts in full, then
less, down to nothing GAP_SPAN further away..."""
FIRST_AFTER = 0.9
"""...but at least this much when no other number is printed in between: the candidate is
the first number after the anchor."""
QUOTE_BONUS, CONSISTENT_BONUS = 0.5, 0.4
"""Added to the context score of a candidate that prints the exact quote / a value
consistent with the true one."""
TIER_BONUS = {"quote": QUOTE_BONUS, "consistent": CONSISTENT_BONUS, "context": 0.0}
CONTEXT_MARGIN = 0.2
"""A number whose context is this much below that of a number the anchor plainly points to
gets no bonus for its value (see :func:`_context_first`)."""
PIN_BONUS, SUBSECTION_BONUS = 0.15, 0.05
UNIT_BONUS, UNIT_PENALTY = 0.05, 0.15
WEAK_CONTEXT = 0.25
"""A quote candidate needs this much context, unless it is the only one in its scope."""
STRONG_CONTEXT = 0.75
"""A candidate that prints neither the quote nor a consistent value needs this much
context, and a percentage must be read from a percentage: then the document changed the
figure, and it is judged inaccurate. (Other units may differ between documents: 1600 万 and
16,000,000 are the same figure in two styles.)"""
ORDER_BONUS = 0.1
"""For a candidate that keeps the claim's figures in the order they are recorded (after the
figure recorded before it, before the one recorded after it)."""
PASSES = 3
"""Rounds of assignment: each sees which numbers the others took."""


# -- context tokens ------------------------------------------------------------------------------

_CONTEXT = re.compile(r"\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|[A-Za-z]+|[\u3400-\u9fff\uf900-\ufaff]|\S")
_DROPPED = {"\\left", "\\right", "\\big", "\\Big", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr",
            "\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "\\displaystyle",
            "\\textstyle", "\\limits", "$", "\\mathrm", "\\text", "\\operatorname", "\\mathbf",
            "\\boldsymbol"}
_SAME = {"\\approx": "≈", "~": "≈", "\\sim": "≈", "∼": "≈", "\\times": "×", "\\cdot": "·",
         "⋅": "·", "−": "-", "–": "-", "\\le": "≤", "\\leq": "≤", "\\ge": "≥", "\\geq": "≥",
         "\\to": "→", "\\rightarrow": "→", "{": "(", "}": ")", "[": "(", "]": ")",
         "（": "(", "）": ")", "，": ",", "：": ":", "；": ";", "。": ".", "、": ",",
         "\\dfrac": "\\frac", "\\tfrac": "\\frac", "\\neq": "≠", "\\infty": "∞",
         "\\sum": "∑", "\\sqrt": "√", "\\_": "_"}
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
          "varepsilon": "ε", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π",
          "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "kappa": "κ", "rho": "ρ"}
_MATH_SYMBOLS = set("=<>+-*/^_≈×·≤≥→≠∞∑√|!'") | set(_GREEK.values())


@dataclass(frozen=True)
class Word:
    """One context token: its normal form, weight, and where it is (document tokens)."""

    norm: str
    weight: float
    start: int = -1
    end: int = -1


def _normal(piece: str) -> str | None:
    if piece in _DROPPED:
        return None
    if piece.startswith("\\") and piece[1:] in _GREEK:
        return _GREEK[piece[1:]]
    piece = _SAME.get(piece, piece)
    return piece.lower() if piece.isascii() and piece.isalpha() else piece


def _weight(norm: str) -> float:
    if norm[0].isdigit():
        return 3.0
    if norm.startswith("\\"):
        return 1.5
    if norm in _MATH_SYMBOLS:
        return 1.0
    if norm.isascii() and norm.isalpha():
        return 1.0 if len(norm) == 1 else 0.8
    if "\u3400" <= norm[0] <= "\ufaff":
        return 0.5
    return 0.3


@functools.lru_cache(maxsize=65536)
def _read(piece: str) -> tuple[str, float] | None:
    norm = _normal(piece)
    return (norm, _weight(norm)) if norm else None


def words(text: str, offset: int = 0) -> list[Word]:
    """The context tokens of ``text`` (``offset``: where ``text`` starts in the document)."""
    found = []
    for match in _CONTEXT.finditer(text):
        read = _read(match.group())
        if read:
            found.append(Word(read[0], read[1], offset + match.start(), offset + match.end()))
    return found


# -- quotes and candidates -----------------------------------------------------------------------

Key = tuple[str, int]
"""A figure: (claim id, index in the claim's figures)."""


@dataclass(frozen=True)
class Scope:
    document: Document
    start: int
    end: int
    where: str
    bonus: float
    depth: int
    """0 for a pinned paragraph, 1 for the claim's sub-section, 2 for its section."""


@dataclass
class Quote:
    """What the gate looks for: one figure's selector and what it knows of its true value."""

    key: Key
    figure: FigureInfo
    scopes: list[Scope]
    truth: tuple[float, ...] | None = None
    prefix: list[Word] = field(default_factory=list)
    suffix: list[Word] = field(default_factory=list)
    refs: dict[int, set[Key]] = field(default_factory=dict)
    """Prefix/suffix positions (suffix ones offset by len(prefix)) that print another figure
    of the same claim, and which."""
    immediate: bool = False
    """The anchor ended with the figure itself (near="用 0.1"): it must follow right after."""

    @property
    def form(self) -> Form:
        return form_of(self.figure.printed)

    @property
    def exact(self) -> str:
        return core(self.figure.printed)

    @property
    def has_context(self) -> bool:
        return bool(self.prefix or self.suffix)


@dataclass(frozen=True)
class Candidate:
    """A printed number that may be a figure, and how well it fits it."""

    document: Document
    token: Token
    scope: Scope
    context: float
    tier: str          # "quote", "consistent" or "context"
    score: float
    gap_zero: bool     # the prefix ends right before it
    percent_match: bool = True  # a percentage read from a percentage (other units may differ)
    in_order: bool = False

    @property
    def text(self) -> str:
        return self.document.text[self.token.start:self.token.end]

    @property
    def ident(self) -> tuple[str, int]:
        return (self.document.path, self.token.start)

    @property
    def how(self) -> str:
        what = {"quote": "the printed quote", "consistent": "a value consistent with the true one",
                "context": "its context"}[self.tier]
        return f"{what}, context {self.context:.0%}, in {self.scope.where}"


@dataclass(frozen=True)
class Anchor:
    """Where a figure was found, or its best candidate when it was not."""

    key: Key
    located: Candidate | None
    best: Candidate | None


def build_quotes(figures: Sequence[tuple[Key, FigureInfo, list[Scope], tuple[float, ...] | None]]
                 ) -> list[Quote]:
    """Quotes for figures; a prefix that prints another figure of the same claim refers to it."""
    quotes = []
    by_claim: dict[str, list[tuple[Key, FigureInfo]]] = {}
    for key, figure, _, _ in figures:
        by_claim.setdefault(key[0], []).append((key, figure))
    for key, figure, scopes, truth in figures:
        quote = Quote(key, figure, scopes, truth)
        prefix = words(figure.near)
        exact = words(readable(figure.printed).replace("≈", ""))
        if exact and len(prefix) > len(exact) and \
                [w.norm for w in prefix[-len(exact):]] == [w.norm for w in exact]:
            prefix, quote.immediate = prefix[:-len(exact)], True
        quote.prefix = prefix[-MAX_PATTERN:]
        quote.suffix = words(figure.after)[:MAX_PATTERN]
        pattern = quote.prefix + quote.suffix
        for other_key, other in by_claim[key[0]]:
            if other_key == key:
                continue
            printed = [w.norm for w in words(readable(other.printed).replace("≈", ""))]
            if not printed or not any(p[0].isdigit() for p in printed):
                continue
            for at in range(len(pattern) - len(printed) + 1):
                if [w.norm for w in pattern[at:at + len(printed)]] == printed:
                    for i in range(at, at + len(printed)):
                        quote.refs.setdefault(i, set()).add(other_key)
        quotes.append(quote)
    return quotes


# -- scoring -------------------------------------------------------------------------------------

def _proximity(gap: float) -> float:
    if gap <= GAP_FREE:
        return 1.0
    return max(0.0, 1.0 - (gap - GAP_FREE) / GAP_SPAN)


MAX_PATTERN = 24
"""Prefix (suffix) tokens aligned at most: the ones nearest the figure."""


class Slots:
    """The numbers other figures took, per document: their digits are not anchor text."""

    def __init__(self, taken: dict[Key, "Candidate"] | None = None) -> None:
        self._by_path: dict[str, list[tuple[int, int, Key]]] = {}
        for key, c in (taken or {}).items():
            self._by_path.setdefault(c.document.path, []).append((c.token.start, c.token.end, key))
        for spans in self._by_path.values():
            spans.sort()
        self._starts = {p: [s for s, _, _ in spans] for p, spans in self._by_path.items()}

    def any_in(self, path: str, lo: int, hi: int) -> bool:
        """Whether a taken number overlaps the text from ``lo`` to ``hi``."""
        spans = self._by_path.get(path)
        if not spans:
            return False
        k = bisect.bisect_left(self._starts[path], hi)  # spans starting before hi
        return any(spans[j][1] > lo for j in range(max(0, k - 1), k)) or \
            bisect.bisect_right(self._starts[path], lo) < k

    def key_at(self, path: str, offset: int) -> Key | None:
        spans = self._by_path.get(path)
        if not spans:
            return None
        k = bisect.bisect_right(self._starts[path], offset) - 1
        if k >= 0 and offset < spans[k][1]:
            return spans[k][2]
        return None


def _align(pattern: list[Word], offset: int, refs: dict[int, set[Key]], window: list[Word],
           slots: Slots, path: str, before: bool) -> tuple[float, bool]:
    """How well ``pattern`` aligns, in order, with the ``window`` next to a candidate:
    (score in [0, 1], whether the alignment touches the candidate).

    A weighted longest common subsequence over the (few) matching pairs; its value is
    discounted by how far the alignment ends from the candidate."""
    total = sum(w.weight for w in pattern)
    if not total or not window:
        return 0.0, False
    if not before:  # align the suffix from the candidate outwards, like the prefix
        window, pattern = window[::-1], pattern[::-1]
        refs = {len(pattern) - 1 - (i - offset): v for i, v in refs.items()
                if 0 <= i - offset < len(pattern)}
    else:
        refs = {i - offset: v for i, v in refs.items() if 0 <= i - offset < len(pattern)}
    index: dict[str, list[int]] = {}
    for i, w in enumerate(pattern):
        index.setdefault(w.norm, []).append(i)
    pairs: list[tuple[int, int]] = []
    for j, w in enumerate(window):
        slot = slots.key_at(path, w.start)
        if slot is not None:  # another figure's digits: only a reference to it matches
            pairs.extend((j, i) for i in sorted(refs, reverse=True) if slot in refs[i])
            continue
        pairs.extend((j, i) for i in reversed(index.get(w.norm, ())))
    if not pairs:
        return 0.0, False
    tail = [0.0] * (len(window) + 1)  # tail[j]: weight of the window tokens after j
    clear = [True] * (len(window) + 1)  # clear[j]: no number among the tokens after j
    for j in range(len(window) - 1, -1, -1):
        tail[j] = tail[j + 1] + min(window[j].weight, 1.0)
        clear[j] = clear[j + 1] and not window[j].norm[0].isdigit()
    ending = [0.0] * len(pattern)  # best chain value ending at pattern index i
    score, touching = 0.0, False
    for j, i in pairs:  # j ascending, i descending within one j: a token is used once
        value = pattern[i].weight + max(ending[:i], default=0.0)
        if value > ending[i]:
            ending[i] = value
        gap = tail[j + 1]
        near = _proximity(gap)
        fit = value / total * (max(near, FIRST_AFTER) if clear[j + 1] else near)
        if fit > score:
            score, touching = fit, gap == 0
    return min(score, 1.0), touching


class Reading:
    """What anchoring reads of the documents, read once: the numbers of each scope, the
    context tokens on each side of every candidate, each candidate's tier."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], tuple[list[Word], list[Word]]] = {}
        self._tiers: dict[tuple, str] = {}
        self._contexts: dict[tuple, tuple[float, bool]] = {}
        self._scanned: dict[tuple[str, int, int], tuple[list[Token], bool]] = {}
        self._scans: dict[str, list[tuple[int, int, list[Token], bool]]] = {}

    def scan(self, scope: "Scope") -> tuple[list[Token], bool]:
        """The numbers of a scope (and whether there were too many to read them all); a
        scope inside one already read is cut out of it, not read again."""
        key = (scope.document.path, scope.start, scope.end)
        if key in self._scanned:
            return self._scanned[key]
        done = self._scans.setdefault(scope.document.path, [])
        for start, end, tokens, more in done:
            if start <= scope.start and scope.end <= end and not more:
                found = [t for t in tokens if scope.start <= t.start < scope.end], False
                break
        else:
            found = scan(scope.document, scope.start, scope.end, SCOPE_TOKENS)
            if scope.depth:  # a section may hold another scope; a pinned paragraph, none
                done.append((scope.start, scope.end, *found))
        self._scanned[key] = found
        return found

    def around(self, document: Document, token: Token) -> tuple[list[Word], list[Word]]:
        key = (document.path, token.start)
        if key not in self._cache:
            text = document.masked
            lo = max(0, token.start - WINDOW_CHARS)
            hi = min(len(text), token.end + WINDOW_CHARS)
            before = words(text[lo:token.start], lo)[-WINDOW_TOKENS:]
            after = words(text[token.end:hi], token.end)[:WINDOW_TOKENS]
            self._cache[key] = (before, after)
        return self._cache[key]

    def context(self, quote: "Quote", document: Document, token: Token, slots: "Slots"
                ) -> tuple[float, bool]:
        """How well the quote's prefix and suffix fit around ``token`` (and whether the prefix
        touches it). Kept from one round of assignment to the next while no number another
        figure took is in its windows (only those change an alignment)."""
        before, after = self.around(document, token)
        key = (quote.key, document.path, token.start)
        lo = before[0].start if before else token.start
        hi = after[-1].end if after else token.end
        if key in self._contexts and not slots.any_in(document.path, lo, hi):
            return self._contexts[key]
        found = _context(quote, before, after, slots, document.path)
        self._contexts[key] = found
        return found

    def tier(self, quote: "Quote", document: Document, token: Token) -> str:
        key = (quote.key, document.path, token.start)
        if key not in self._tiers:
            self._tiers[key] = _tier(quote, document, token)
        return self._tiers[key]


@functools.lru_cache(maxsize=65536)
def _core(text: str) -> str:
    return core(text)


@functools.lru_cache(maxsize=65536)
def _parsed(text: str):
    """The printed figure read, or None when it cannot be (read once per spelling)."""
    try:
        return parse_printed(readable(text))
    except FigureSyntaxError:
        return None


def _tier(quote: Quote, document: Document, token: Token) -> str:
    text = document.text[token.start:token.end]
    if _core(text) == quote.exact:
        return "quote"
    if quote.truth:
        printed = _parsed(text)
        if printed is None:
            return "context"
        f = quote.figure
        check = judge(Figure(f.label, text, lambda: 0, rough=f.rough, rel_tol=f.rel_tol),
                      printed, quote.truth)
        if check.status == "accurate":
            return "consistent"
    return "context"


def _unit(text: str) -> str:
    match = re.search(r"([万亿%]|[kKMB])\s*\]?\s*$", text.replace("$", ""))
    return match.group(1) if match else ""


def _context(quote: Quote, before: list[Word], after: list[Word], slots: "Slots", path: str
             ) -> tuple[float, bool]:
    ctx, touching = 0.0, False
    weights = 0.0
    if quote.prefix:
        s, touching = _align(quote.prefix, 0, quote.refs, before, slots, path, True)
        if quote.immediate and not touching:
            s = 0.0
        w = sum(x.weight for x in quote.prefix)
        ctx, weights = ctx + s * w, weights + w
    if quote.suffix:
        s, _ = _align(quote.suffix, len(quote.prefix), quote.refs, after, slots, path, False)
        w = sum(x.weight for x in quote.suffix)
        ctx, weights = ctx + s * w, weights + w
    return (ctx / weights if weights else 0.0), touching


def score(quote: Quote, document: Document, token: Token, scope: Scope, reading: Reading,
          slots: Slots, order: "Order | None" = None) -> Candidate:
    ctx, touching = reading.context(quote, document, token, slots)
    tier = reading.tier(quote, document, token)
    total = ctx + scope.bonus + TIER_BONUS[tier]
    printed_unit, unit = _unit(quote.figure.printed), _unit(document.text[token.start:token.end])
    total += UNIT_BONUS if printed_unit == unit else -UNIT_PENALTY
    in_order = order.keeps(quote.key, document.path, token.start) if order else False
    total += ORDER_BONUS if in_order else 0.0
    percent = (printed_unit == "%") == (unit == "%")  # 92% is not 92, nor 0.92
    return Candidate(document, token, scope, ctx, tier, total, touching, percent, in_order)


# -- candidates ----------------------------------------------------------------------------------

def _scope_tokens(quote: Quote, scope: Scope, reading: "Reading") -> list[Token]:
    tokens, more = reading.scan(scope)
    if more:  # a hostile or huge scope: follow the quote and the anchor's heaviest tokens
        tokens = _searched(quote, scope)
    role = quote.figure.role
    return [t for t in tokens if t.form == quote.form and t.role == role]


def _searched(quote: Quote, scope: Scope) -> list[Token]:
    document, text = scope.document, scope.document.masked
    found: dict[int, Token] = {}
    needles = [readable(quote.figure.printed).replace("≈", "").strip()]
    heavy = sorted(quote.prefix, key=lambda w: -w.weight)[:2]
    for needle in needles:
        at, hits = text.find(needle, scope.start, scope.end), 0
        while at >= 0 and hits < SEARCH_HITS:
            token = token_at(document, at)
            if token:
                found[token.start] = token
            at, hits = text.find(needle, at + 1, scope.end), hits + 1
    for w in heavy:
        needle = w.norm if w.norm[0].isdigit() or w.norm.isalpha() else None
        if not needle:
            continue
        at, hits = text.find(needle, scope.start, scope.end), 0
        while at >= 0 and hits < SEARCH_HITS:
            following, _ = scan(document, at + len(needle), min(scope.end, at + 400), 4)
            for token in following:
                found[token.start] = token
            at, hits = text.find(needle, at + 1, scope.end), hits + 1
    if not quote.has_context:
        first, _ = scan(document, scope.start, scope.end, 50)
        for token in first:
            found[token.start] = token
    return [found[k] for k in sorted(found)]


class Order:
    """Where the figures of each claim were located in the previous round (position hint)."""

    def __init__(self, assigned: dict[Key, Candidate]) -> None:
        self._at: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
        for (claim, k), c in assigned.items():
            self._at.setdefault((claim, c.document.path), []).append((k, c.token.start,
                                                                      c.token.end))

    def keeps(self, key: Key, path: str, start: int) -> bool:
        located = [x for x in self._at.get((key[0], path), []) if x[0] != key[1]]
        before = [end for k, _, end in located if k < key[1]]
        after = [begin for k, begin, _ in located if k > key[1]]
        if not before and not after:
            return False
        return all(end <= start for end in before) and all(start < b for b in after)


def candidates(quote: Quote, reading: Reading, slots: Slots, order: Order | None = None
               ) -> list[Candidate]:
    best: dict[tuple[str, int], Candidate] = {}
    budget = MAX_CANDIDATES
    for scope in sorted(quote.scopes, key=lambda s: s.start - s.end):  # the widest read first
        if budget <= 0:
            break
        tokens = _scope_tokens(quote, scope, reading)[:budget]
        budget -= len(tokens)
        for token in tokens:
            candidate = score(quote, scope.document, token, scope, reading, slots, order)
            if not token.plain and not candidate.gap_zero:
                continue  # an exponent, coefficient or name part: only right after the anchor
            old = best.get(candidate.ident)
            if old is None or candidate.score > old.score:
                best[candidate.ident] = candidate
    return _context_first(list(best.values()))


def _context_first(pool: list[Candidate]) -> list[Candidate]:
    """The context places a figure; its value may not. When one number is plainly where the
    anchor points (context at least :data:`STRONG_CONTEXT`), a number that fits the anchor
    :data:`CONTEXT_MARGIN` less well gets nothing for printing the quote or a consistent
    value: it is judged by its context alone, like any other number (two figures printed in
    each other's place are both read where their anchors are, and both found inaccurate)."""
    placed = [c.context for c in pool if c.token.plain and c.percent_match
              and c.context >= STRONG_CONTEXT]
    if not placed:
        return pool
    bar = max(placed) - CONTEXT_MARGIN
    return [c if c.tier == "context" or c.context >= bar else dataclasses.replace(
        c, tier="context", score=c.score - TIER_BONUS[c.tier]) for c in pool]


def _acceptable(quote: Quote, candidate: Candidate, pool: Iterable[Candidate]) -> bool:
    if not candidate.token.plain and candidate.context < STRONG_CONTEXT:
        return False
    if candidate.tier == "context":
        return quote.has_context and candidate.context >= STRONG_CONTEXT and candidate.percent_match
    if not quote.has_context or candidate.context >= WEAK_CONTEXT:
        return True
    rank = {"quote": 2, "consistent": 1, "context": 0}
    rivals = [c for c in pool if rank[c.tier] >= rank[candidate.tier]
              and c.scope.depth <= candidate.scope.depth and c.ident != candidate.ident
              and (c.in_order or not candidate.in_order)]
    return not rivals  # the only number in its scope (and place) that prints the quote


def locate_all(quotes: Sequence[Quote]) -> dict[Key, Anchor]:
    """Assign every figure its number (or none), best matches first, one number per figure."""
    reading = Reading()
    slots, order = Slots(), None
    assigned: dict[Key, Candidate] = {}
    pools: dict[Key, list[Candidate]] = {}
    for _ in range(PASSES):
        pools = {q.key: candidates(q, reading, slots, order) for q in quotes}
        new = _greedy(quotes, pools)
        if {k: c.ident for k, c in new.items()} == {k: c.ident for k, c in assigned.items()}:
            assigned = new
            break
        assigned = new
        slots, order = Slots(assigned), Order(assigned)
    anchors = {}
    for quote in quotes:
        located = assigned.get(quote.key)
        pool = pools.get(quote.key, [])
        best = located or (max(pool, key=lambda c: (c.score, -c.token.start)) if pool else None)
        anchors[quote.key] = Anchor(quote.key, located, best)
    return anchors


def _greedy(quotes: Sequence[Quote], pools: dict[Key, list[Candidate]]) -> dict[Key, Candidate]:
    taken: set[tuple[str, int]] = set()
    assigned: dict[Key, Candidate] = {}
    by_key = {q.key: q for q in quotes}
    ordered = {k: sorted(pool, key=lambda c: (-c.score, c.document.path, c.token.start))
               for k, pool in pools.items()}
    while True:
        choice: tuple[float, Key, Candidate] | None = None
        for key, pool in ordered.items():
            if key in assigned:
                continue
            free = [c for c in pool if c.ident not in taken]
            for candidate in free:
                if choice is not None and candidate.score <= choice[0]:
                    break
                if _acceptable(by_key[key], candidate, free):
                    choice = (candidate.score, key, candidate)
                    break
        if choice is None:
            return assigned
        _, key, candidate = choice
        assigned[key] = candidate
        taken.add(candidate.ident)
