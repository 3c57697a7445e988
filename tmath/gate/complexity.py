"""The cost of self-attention stated in big-O, held to the claim that counts it.

Documents state what claim ``attention-cost-table`` proves (T²d multiplies, a T×T matrix
stored) as a sentence with a big-O: "the self-attention has $\\mathcal{O}(n^2 d)$
computational complexity", "the attention matrix requires $O(L^2)$ in memory and time". A
clause is read when

* it names self-attention (or the attention matrix, layer, or scores) and says what is
  counted: time (complexity, cost, computation, FLOPs, time) or memory (memory, space,
  storage); and it holds exactly one inline big-O whose argument is a product of powers;
* it names nothing else whose cost differs: another layer (recurrent, convolutional), a
  variant (sparse, local, restricted, linear, LSH, low-rank, kernelised, Reformer, …),
  cross-attention, a change ("reduces … from … to"), sequential operations or path length.

A table states it in the cell of the row labelled self-attention under a column headed by
what is counted ("Complexity per Layer"), read the same way (:func:`costs_in_tables`).

The letters are read by their common use: ``n``, ``N``, ``L``, ``T`` and ``\\ell`` count the
sequence's positions, ``d`` (``d_{model}``, ``d_k``, ``D``) its width; a big-O with any other
letter is not read. Then the length's power must be 2 and, for time, the width's at most 1
(left out, the width is held fixed): ``O(n^2 d)`` and ``O(n^2)`` are recognised, ``O(n d^2)``
or ``O(n)`` contradict the claim, with its form in the document's letters.

The layers self-attention is compared with have no claim, but a published cost: a clause
that names one recurrent or convolutional layer and states its time in big-O
(:func:`layer_costs_said`) is held to Table 1 of the paper
(:mod:`tmath.reference.layer_costs`): O(n·d²) and O(k·n·d²), the width and the kernel width
``k`` possibly left out (held fixed); letters other than these are not read. Another power contradicts the record; per-step costs (no length), sequential
operations and variants are not read. A table row labelled with one of the two layers is read
as the self-attention row is (:func:`layer_costs_in_tables`). A sentence that compares self-attention with a recurrent
layer ("faster … when the sequence length $n$ is smaller than the dimensionality $d$") is held
to the two costs (:func:`crossover_said`): n²d < n·d² exactly when n < d.

Whatever the cost, a clause that says it is reduced (lowered, cut, improved) "from $O(A)$ to
$O(B)$" is held to itself (:func:`reductions_said`): B must grow more slowly than A in the
length (the only length letter of the two, the other letters held fixed), else the clause
contradicts itself; where the limit cannot be taken nothing is said.

A sentence that compares a convolutional and a recurrent layer ("convolutional layers are
generally more expensive than recurrent layers, by a factor of $k$") is held to the two
costs (:func:`comparisons_said`): the convolutional one is k times the recurrent one.

A sentence about restricting self-attention (to a neighbourhood, a local window; self-attention
named in it or the sentence before) that says this would increase (reduce) "the maximum
path length to $O(B)$" is held to Table 1's O(1) for full self-attention
(:func:`path_changes_said`): B growing with the length is an increase, so "reduce" then
contradicts the record (and "increase" a B that shrinks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding
from tmath.gate.prose_relations import paragraph, sentences_with_math

CLAIM = "attention-cost-table"
LENGTH = frozenset({"n", "N", "L", "T", "ell"})
WIDTH = frozenset({"d", "D", "d_model", "d_k"})
_SUBJECT = re.compile(r"\bself-attention\b|\battention\s+(?:matrix|matrices|layers?|scores?|"
                      r"weights|mechanism|operation)\b|\b(?:dot-product|multi-head)\s+attention\b",
                      re.I)
_TIME = re.compile(r"\b(?:complexity|cost|costs|computation(?:al)?|compute|FLOPs?|time)\b", re.I)
_MEMORY = re.compile(r"\b(?:memory|space|storage)\b", re.I)
_OTHER = re.compile(
    r"\b(?:recurren\w*|RNNs?|LSTMs?|convolution\w*|CNNs?|sparse|local(?:ly|ized)?|restricted|"
    r"window\w*|linear\w*|LSH|hash\w*|low-rank|kernel\w*|approximat\w*|efficient|"
    r"Reformer|Linformer|Performer|Longformer|BigBird|cross-attention|reduc\w*|instead|"
    r"sequential\w*|sequentially|path|per\s+head)\b", re.I)
_BIG_O = re.compile(r"^\s*(?:\\mathcal\s*\{\s*O\s*\}|\\mathcal\s*O|O)\s*\\?(?:left)?\(\s*(?P<arg>.*?)"
                    r"\s*\\?(?:right)?\)\s*$", re.S)
CLAUSE = re.compile(r"[,;]\s+(?:and|but|while|whereas)\b|;|\s(?:while|whereas)\s")


@dataclass(frozen=True)
class Cost:
    """A big-O a clause states for self-attention: its length and width powers."""

    math: Math
    length: str
    powers: tuple[int, int]      # (length, width)
    width: str
    memory: bool
    time: bool


def costs_said(document: Document) -> list[Cost]:
    """Every clause that states self-attention's cost in big-O (see the module's doc)."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        if not maths or "&" in text[start:end] or re.search(r"^\s*\|", text[start:end], re.M):
            continue   # a table row
        cuts = [start] + [m.end() for m in CLAUSE.finditer(text, start, end)] + [end]
        for a, b in zip(cuts, cuts[1:]):
            inside = [m for m in maths if a <= m.start and m.end <= b]
            big = [m for m in inside if _BIG_O.match(m.latex)]
            words = _words(text, a, b, inside)
            if len(big) != 1 or not _SUBJECT.search(words) or _OTHER.search(words):
                continue
            memory, time = bool(_MEMORY.search(words)), bool(_TIME.search(words))
            cost = _powers(_BIG_O.match(big[0].latex).group("arg"))
            if cost is not None and (memory or time):
                found.append(Cost(big[0], cost[0], cost[1], cost[2], memory, time))
    return found


def costs_in_tables(document: Document) -> list[Cost]:
    """A table's cell of self-attention's cost: its row labelled self-attention (no variant,
    no other layer), its column headed by what is counted (complexity, cost, time, memory)
    and not by sequential operations or path length."""
    from tmath.gate.tables import tables_in

    inline = sorted(document.inline, key=lambda m: m.start)
    found = []
    for table in tables_in(document):
        columns = {k: head for k, head in enumerate(table.header)
                   if (_TIME.search(head) or _MEMORY.search(head)) and not _OTHER.search(head)}
        for row in table.rows:
            label = row[0].text if row else ""
            if not columns or not _SUBJECT.search(label + " ") and \
                    not re.fullmatch(r"\W*self-attention\W*", label, re.I) or _OTHER.search(label):
                continue
            for k, head in columns.items():
                if k >= len(row):
                    continue
                math = next((m for m in inline if row[k].start <= m.start
                             < row[k].start + max(len(row[k].text), 1)), None)
                match = _BIG_O.match(math.latex) if math else None
                cost = _powers(match.group("arg")) if match else None
                if cost is not None:
                    found.append(Cost(math, cost[0], cost[1], cost[2], bool(_MEMORY.search(head)),
                                      bool(_TIME.search(head))))
    return found


def _words(text: str, a: int, b: int, maths: list[Math]) -> str:
    """The clause's prose, each formula left out."""
    pieces, cursor = [], a
    for math in maths:
        pieces.append(text[cursor:math.start])
        cursor = math.end
    return " ".join(pieces + [text[cursor:b]])


def _powers(argument: str, letters: frozenset[str] = frozenset()
            ) -> tuple[str, tuple[int, int], str] | None:
    """(length letter, (its power, the width's power), width letter) of a product of powers
    of length and width letters (and of ``letters`` too, whose powers :func:`_letter_powers`
    gives); None for anything else."""
    powers = _letter_powers(argument, letters)
    if powers is None:
        return None
    lengths = [n for n in powers if n in LENGTH]
    widths = [n for n in powers if n in WIDTH]
    if len(lengths) > 1 or len(widths) > 1 or set(powers) - LENGTH - WIDTH - letters or \
            not lengths:
        return None
    width = widths[0] if widths else ""
    return lengths[0], (powers[lengths[0]], powers.get(width, 0)), width


def _letter_powers(argument: str, letters: frozenset[str] = frozenset()) -> dict[str, int] | None:
    """Each letter's power in a product of powers of length, width (and ``letters``)."""
    from tmath.latex import read

    import sympy as sp

    known = LENGTH | WIDTH | letters
    reading = read(argument)
    if not reading.parsed or reading.relations or len(reading.expressions) != 1:
        return None
    expr = reading.expressions[0]
    if not isinstance(expr, sp.Expr):
        return None
    powers: dict[str, int] = {}
    for factor, power in expr.as_powers_dict().items():
        if factor == 1:
            continue
        if not isinstance(factor, sp.Symbol) or not power.is_Integer or power < 1:
            return None
        # in math, ``nd`` is n times d: a run of letters each of which is a length or a width
        run = list(factor.name) if factor.name not in known and set(factor.name) <= known \
            else [factor.name]
        for k, letter in enumerate(run):
            powers[letter] = powers.get(letter, 0) + (int(power) if k == len(run) - 1 else 1)
    return powers


def judged(document: Document, cost: Cost) -> Finding | None:
    """``recognised`` when the powers are the claim's, ``contradicts`` (on its line) when the
    length's power is not 2 or the time's width power is above 1; None for a memory stated
    with a width (``O(n^2 d)`` stored holds the scores, but is not their order)."""
    length, width = cost.powers
    if length == 2 and width and cost.memory and (width == 1 or not cost.time):
        return None
    right = length == 2 and width <= 1
    section = document.section_at(cost.math.start)
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=cost.math.line,
                  column=document.column_of(cost.math.start), formula=cost.math.latex,
                  claim=CLAIM, claims=(CLAIM,))
    if right:
        return Finding(status="recognised", meaning="equivalent", compared_with=("statement",),
                       **common)
    letter = cost.length if cost.length != "ell" else "\\ell"
    width = cost.width.replace("_model", "_{model}") if cost.width else "d"
    should = f"O({letter}^2)" if cost.memory and not cost.time else f"O({letter}^2 {width})"
    counted = "time and memory" if cost.time and cost.memory else \
        "time" if cost.time else "memory"
    return Finding(status="contradicts", meaning="contradicts", compared_with=("statement",),
                   recorded="multiplies(QK^T) = T^2 d, stored scores T^2",
                   detail=f"claim {CLAIM} counts T²d multiplies and T² stored scores for "
                          f"self-attention: its {counted} is {should} in this document's "
                          f"letters; this sentence states O({_shown(cost)})", **common)


def _shown(cost: Cost) -> str:
    length, width = cost.powers
    letter = cost.length if cost.length != "ell" else "\\ell"
    parts = [letter + (f"^{length}" if length > 1 else "")]
    if width:
        parts.append(cost.width + (f"^{width}" if width > 1 else ""))
    return " ".join(parts)


_LAYER = {"recurrent": re.compile(r"\b(?:recurren\w*|RNNs?)\b", re.I),
          "convolutional": re.compile(r"\b(?:convolution\w*|CNNs?)\b", re.I)}
_NOT_THE_LAYER = re.compile(
    r"\b(?:self-attention|attention|sparse|separable|dilated|depthwise|restricted|LSTMs?|"
    r"GRUs?|reduc\w*|instead|sequential\w*|sequentially|path|per\s+(?:step|head|position)|"
    r"each\s+(?:step|time\s+step))\b", re.I)
KERNEL = frozenset({"k"})


@dataclass(frozen=True)
class LayerCostSaid:
    """A big-O a clause states for a recurrent or convolutional layer."""

    math: Math
    layer: str
    powers: dict
    place: str = "sentence"


def layer_costs_said(document: Document) -> list[LayerCostSaid]:
    """Clauses that state the time of a recurrent or convolutional layer in big-O: one layer
    named, time words, one inline big-O over the length (and width, kernel width), nothing
    that makes it another cost (attention, a variant, per step, sequential operations)."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        if not maths or "&" in text[start:end] or re.search(r"^\s*\|", text[start:end], re.M):
            continue
        cuts = [start] + [m.end() for m in CLAUSE.finditer(text, start, end)] + [end]
        for a, b in zip(cuts, cuts[1:]):
            inside = [m for m in maths if a <= m.start and m.end <= b]
            big = [m for m in inside if _BIG_O.match(m.latex)]
            words = _words(text, a, b, inside)
            layers = [name for name, pattern in _LAYER.items() if pattern.search(words)]
            if len(big) != 1 or len(layers) != 1 or not _TIME.search(words) or \
                    _MEMORY.search(words) or _NOT_THE_LAYER.search(words):
                continue
            powers = _letter_powers(_BIG_O.match(big[0].latex).group("arg"), KERNEL)
            if powers and not set(powers) - LENGTH - WIDTH - KERNEL and \
                    any(p in LENGTH for p in powers) and \
                    len([p for p in powers if p in LENGTH]) == 1 and \
                    len([p for p in powers if p in WIDTH]) <= 1:
                found.append(LayerCostSaid(big[0], layers[0], powers))
    return found


def layer_costs_in_tables(document: Document) -> list[LayerCostSaid]:
    """A table's cell of a recurrent or convolutional layer's time: its row labelled with the
    layer alone (no variant), its column headed by a time word and not by sequential
    operations, path length or memory."""
    from tmath.gate.tables import tables_in

    inline = sorted(document.inline, key=lambda m: m.start)
    found = []
    for table in tables_in(document):
        columns = [k for k, head in enumerate(table.header)
                   if _TIME.search(head) and not _OTHER.search(head) and not _MEMORY.search(head)]
        for row in table.rows:
            layer = _row_layer(row[0].text if row else "")
            if not columns or layer is None or layer == "self-attention":
                continue
            own = KERNEL if layer != "restricted" else frozenset({"r"})
            for k in columns:
                math = _cell_math(inline, row, k)
                match = _BIG_O.match(math.latex) if math else None
                powers = _letter_powers(match.group("arg"), own) if match else None
                if powers and not set(powers) - LENGTH - WIDTH - own and \
                        len([p for p in powers if p in LENGTH]) == 1 and \
                        len([p for p in powers if p in WIDTH]) <= 1:
                    found.append(LayerCostSaid(math, layer, powers, "table row"))
    return found


def _row_layer(text: str) -> str | None:
    """The layer of Table 1 a row's label names alone: self-attention, recurrent,
    convolutional, or restricted self-attention; None for anything else (a variant)."""
    label = _plain_label(text)
    if len(label.split()) > 3:
        return None
    if re.fullmatch(r"\W*self-attention\W*", label, re.I):
        return "self-attention"
    if re.search(r"\brestricted\b", label, re.I) and re.search(r"\battention\b", label, re.I) \
            and len(label.split()) <= 2:
        return "restricted"
    layers = [name for name, pattern in _LAYER.items() if pattern.search(label)]
    if len(layers) != 1 or _NOT_THE_LAYER.search(label) or len(label.split()) > 2:
        return None
    return layers[0]


def _cell_math(inline: list, row, k: int):
    """The first inline formula in cell ``k`` of ``row`` (None past the row's end)."""
    if k >= len(row):
        return None
    return next((m for m in inline if row[k].start <= m.start
                 < row[k].start + max(len(row[k].text), 1)), None)


def _plain_label(text: str) -> str:
    """A row label without LaTeX spacing commands (``\\rule{0pt}{2ex}Recurrent``)."""
    return re.sub(r"\\[A-Za-z]+(?:\{[^}]*\})*", " ", text).strip()


def layer_judged(document: Document, said: LayerCostSaid) -> Finding | None:
    """``contradicts`` when the powers are not the published ones (Table 1 of the paper);
    None when they are (nothing is proved of it, so nothing is recognised)."""
    from tmath.reference.layer_costs import LAYER_COSTS

    record = LAYER_COSTS[said.layer]
    length = sum(p for letter, p in said.powers.items() if letter in LENGTH)
    width = sum(p for letter, p in said.powers.items() if letter in WIDTH)
    kernel = said.powers.get(record.letter, 0)
    if length == record.length and width in (0, record.width) and kernel in (0, record.kernel):
        return None   # the width and the kernel width may be held fixed and left out
    section = document.section_at(said.math.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=said.math.line, column=document.column_of(said.math.start),
                   formula=said.math.latex, compared_with=("citation",),
                   recorded=record.printed,
                   detail=f"{record.source} gives {record.printed} per {record.layer} layer "
                          f"(n positions of width d"
                          f"{(', kernel width k' if record.letter == 'k' else ', neighbourhood r') if record.kernel else ''})"
                          f"; this {said.place} states {said.math.latex}")


_FASTER = re.compile(r"\b(?P<cheap>faster|cheaper|less\s+expensive|more\s+efficient)\b|"
                     r"\b(?P<dear>slower|more\s+expensive|costlier|less\s+efficient)\b", re.I)
_WHEN = re.compile(r"\b(?:when|if|whenever|as\s+long\s+as)\b[^.;]{0,40}?\bn\s+is\s+"
                   r"(?P<rel>smaller|less|lower|shorter|larger|greater|bigger|longer)\s+than\b"
                   r"[^.;]{0,50}?\bd\b", re.I)


@dataclass(frozen=True)
class Crossover:
    """A sentence saying when self-attention beats a recurrent layer."""

    start: int
    line: int
    right: bool
    words: str


def crossover_said(document: Document) -> list[Crossover]:
    """Sentences comparing self-attention with a recurrent layer by n against d."""
    found = []
    for text, start, end, maths in sentences_with_math(document):
        spelt = re.sub(r"\$+([^$]*)\$+", r"\1", _words(text, start, end, []))
        if not _SUBJECT.search(spelt) or not _LAYER["recurrent"].search(spelt):
            continue
        faster, when = _FASTER.search(spelt), _WHEN.search(spelt)
        if faster is None or when is None or faster.start() > when.start() or \
                spelt.find("self-attention") > faster.start():
            continue   # the sentence must say self-attention is faster (or slower) first
        small = when.group("rel").lower() in ("smaller", "less", "lower", "shorter")
        right = small == bool(faster.group("cheap"))
        at = text.find(when.group(0).split()[0], start, end)
        found.append(Crossover(at, document.line_of(at), right, " ".join(when.group(0).split())))
    return found


def crossover_judged(document: Document, said: Crossover) -> Finding | None:
    """``contradicts`` when the comparison is the wrong way round; None when it is right."""
    from tmath.reference.layer_costs import LAYER_COSTS

    if said.right:
        return None
    section = document.section_at(said.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=said.line, column=document.column_of(said.start), formula=said.words,
                   compared_with=("citation",), recorded=LAYER_COSTS["recurrent"].printed,
                   detail=f"self-attention costs O(n^2 d) (claim {CLAIM}) and a recurrent layer "
                          f"{LAYER_COSTS['recurrent'].printed} ({LAYER_COSTS['recurrent'].source})"
                          f": self-attention is the cheaper exactly when n < d")


_REDUCES = re.compile(r"\b(?:reduc\w*|lower\w*|cut\w*|decreas\w*|improv\w*|bring\w*\s+down|"
                      r"brought\s+down|speed\w*\s+up)\b", re.I)
_FROM_TO = re.compile(r"\bfrom\s*⟨(?P<a>\d+)⟩[^⟨.;]{0,40}?\bto\s*⟨(?P<b>\d+)⟩")


@dataclass(frozen=True)
class Reduction:
    """"reduces … from O(A) to O(B)": a cost said to become smaller."""

    math: Math
    before: str
    after: str


def reductions_said(document: Document) -> list[Reduction]:
    """Every clause that says a cost is reduced (lowered, cut, improved) from one big-O to
    another, both inline formulas."""
    from tmath.gate.prose_relations import with_placeholders

    found = []
    for text, start, end, maths in sentences_with_math(document):
        if len(maths) < 2 or not _REDUCES.search(text, start, end):
            continue
        spelt, _ = with_placeholders(text, start, end, maths)
        for match in _FROM_TO.finditer(spelt):
            if not _REDUCES.search(spelt, 0, match.start()):
                continue
            a, b = (maths[int(match.group(k))] for k in ("a", "b"))
            before, after = _BIG_O.match(a.latex), _BIG_O.match(b.latex)
            if before and after:
                found.append(Reduction(b, before.group("arg"), after.group("arg")))
    return found


def reduction_judged(document: Document, said: Reduction) -> Finding | None:
    """``contradicts`` when the new cost does not grow more slowly than the old one in the
    length (the other letters held fixed); None when it does or when it cannot be told."""
    import sympy as sp

    from tmath.latex import read

    growth = _growth(said.before, said.after, old_has_length=True)
    if growth is None or growth < 0:
        return None
    n = growth_length(said.before, said.after)
    section = document.section_at(said.math.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=said.math.line, column=document.column_of(said.math.start),
                   formula=said.math.latex, compared_with=("statement",),
                   detail=f"a reduction must grow more slowly: O({said.after}) is not smaller "
                          f"than O({said.before}) as {n} grows")


def growth_length(before: str, after: str) -> str:
    """The length letter of two big-O arguments (for messages)."""
    return next((n for n in sorted(LENGTH) if re.search(rf"(?<![A-Za-z\\]){n}(?![A-Za-z])",
                                                           before + " " + after)), "n")


def _growth(before: str, after: str, old_has_length: bool = False) -> int | None:
    """How ``after`` grows against ``before`` in the length (its only length letter, the
    other letters held fixed): −1 more slowly, 0 alike, 1 faster; None when it cannot be
    told."""
    import sympy as sp

    from tmath.latex import read

    readings = [read(before), read(after)]
    if not all(r.parsed and len(r.expressions) == 1 and not r.relations for r in readings):
        return None
    old, new = (r.expressions[0] for r in readings)
    if any(e.has(sp.zoo, sp.oo, sp.nan) for e in (old, new)):
        return None   # an infinite or undefined cost says nothing to compare
    lengths = [s for s in (old.free_symbols | new.free_symbols) if s.name in LENGTH]
    if len(lengths) != 1 or (old_has_length and not old.has(lengths[0])):
        return None
    n, n_ = lengths[0], sp.Symbol("n_", positive=True)
    fixed = {s: sp.Symbol(s.name, positive=True) for s in (old.free_symbols | new.free_symbols)
             if s != n}
    try:
        ratio = sp.limit((new / old).xreplace(fixed).xreplace({n: n_}), n_, sp.oo)
    except (NotImplementedError, ValueError, TypeError, RecursionError):
        return None
    if ratio.has(n_):
        return None
    if ratio == 0:
        return -1
    if ratio.is_finite is False:
        return 1
    return 0 if ratio.is_positive else None


_PATH_CHANGE = re.compile(r"\b(?:(?P<up>increas\w*|rais\w*|lengthen\w*|grow\w*)|(?P<down>reduc\w*|"
                          r"decreas\w*|lower\w*|shorten\w*|cut\w*))\s+the\s+maximum\s+path\s+"
                          r"length\s+to\s*⟨(?P<to>\d+)⟩", re.I)
_RESTRICTING = re.compile(r"\brestrict\w*|\bneighbou?rhood\b|\blocal\s+window\b", re.I)


@dataclass(frozen=True)
class PathChange:
    """"restricting self-attention would increase the maximum path length to O(n/r)"."""

    math: Math
    up: bool
    to: str


def path_changes_said(document: Document) -> list[PathChange]:
    """Clauses saying that restricting self-attention raises or lowers its maximum path
    length to a big-O (self-attention named in the sentence or the one before)."""
    from tmath.gate.prose_relations import with_placeholders

    found, before = [], ""
    for text, start, end, maths in sentences_with_math(document):
        sentence = text[start:end]
        passage = before + " " + sentence
        before = sentence
        if not maths or not _RESTRICTING.search(passage) or \
                not re.search(r"\bself-attention\b", passage, re.I):
            continue
        spelt, _ = with_placeholders(text, start, end, maths)
        for match in _PATH_CHANGE.finditer(spelt):
            math = maths[int(match.group("to"))]
            big = _BIG_O.match(math.latex)
            if big:
                found.append(PathChange(math, bool(match.group("up")), big.group("arg")))
    return found


def path_change_judged(document: Document, said: PathChange) -> Finding | None:
    """``contradicts`` when the new path length grows with the length but is said to be
    lower than self-attention's O(1) (or the reverse); None otherwise."""
    from tmath.reference.layer_costs import ORDERS

    baseline = ORDERS[("self-attention", "path")][0]
    growth = _growth(baseline, said.to)
    if growth is None or growth == 0 or (growth > 0) == said.up:
        return None
    section = document.section_at(said.math.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=said.math.line, column=document.column_of(said.math.start),
                   formula=said.math.latex, compared_with=("citation",),
                   recorded=f"O({baseline})",
                   detail=f"Vaswani et al. (2017), arXiv:1706.03762, Table 1 gives "
                          f"self-attention a maximum path length of O({baseline}): "
                          f"O({said.to}) is {'longer' if growth > 0 else 'shorter'}, so "
                          f"restricting it {'increases' if growth > 0 else 'reduces'} the "
                          f"path length")


_KINDS = r"(?:convolutional|recurrent)"
_COMPARED = re.compile(rf"\b(?P<a>{_KINDS})\s+layers?\s+(?:are|is)\s+(?:\w+\s+)?"
                       r"(?P<how>more\s+expensive|costlier|slower|cheaper|less\s+expensive|faster)"
                       rf"\s+than\s+(?P<b>{_KINDS})\s+(?:layers?|ones?)"
                       r"(?:,?\s+by\s+a\s+factor\s+of\s+⟨(?P<factor>\d+)⟩)?", re.I)


@dataclass(frozen=True)
class LayerComparison:
    """"convolutional layers are more expensive than recurrent layers, by a factor of k"."""

    start: int
    first: str
    second: str
    dearer: bool
    factor: Math | None
    printed: str


def comparisons_said(document: Document) -> list[LayerComparison]:
    """Sentences comparing the time of a convolutional and a recurrent layer."""
    from tmath.gate.prose_relations import with_placeholders

    found = []
    for text, start, end, maths in sentences_with_math(document):
        spelt, places = with_placeholders(text, start, end, maths)
        for match in _COMPARED.finditer(spelt):
            first, second = match.group("a").lower(), match.group("b").lower()
            if first == second:
                continue
            how = match.group("how").lower()
            factor = maths[int(match.group("factor"))] if match.group("factor") else None
            last = factor.end if factor else places[match.end() - 1] + 1
            found.append(LayerComparison(places[match.start("how")], first, second,
                                         how.startswith(("more", "costlier", "slower")), factor,
                                         " ".join(text[places[match.start()]:last].split())))
    return found


def comparison_judged(document: Document, said: LayerComparison) -> Finding | None:
    """Held to Table 1: a convolutional layer costs k times a recurrent one (k ≥ 2, the
    kernel width). ``contradicts`` when the direction or the factor disagrees; None when
    the factor cannot be read."""
    import sympy as sp

    from tmath.latex import read
    from tmath.reference.layer_costs import LAYER_COSTS

    k = sp.Symbol("k", positive=True)
    costs = {name: k ** cost.kernel for name, cost in LAYER_COSTS.items()}
    ratio = costs[said.first] / costs[said.second]   # n and d cancel: same powers
    wrong = said.dearer != (ratio == k)
    if not wrong and said.factor is not None:
        reading = read(said.factor.latex)
        if not reading.parsed or reading.relations or len(reading.expressions) != 1:
            return None
        factor = reading.expressions[0].xreplace({s: k for s in reading.expressions[0].free_symbols
                                                  if s.name == "k"})
        wrong = sp.simplify(factor - (ratio if said.dearer else 1 / ratio)) != 0
    if not wrong:
        return None
    section = document.section_at(said.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=document.line_of(said.start), column=document.column_of(said.start),
                   formula=said.printed, compared_with=("citation",),
                   recorded=f"{LAYER_COSTS['convolutional'].printed} vs "
                            f"{LAYER_COSTS['recurrent'].printed}",
                   detail=f"Vaswani et al. (2017), arXiv:1706.03762, Table 1 gives a "
                          f"convolutional layer O(k·n·d²) and a recurrent one O(n·d²): the "
                          f"convolutional layer is the more expensive, by a factor of k")


_ORDER = {"sequential": re.compile(r"\bsequential\s+operations?\b", re.I),
          "path": re.compile(r"\b(?:maximum\s+)?path\s+lengths?\b", re.I)}
_LAYER_WORDS = {"self-attention": re.compile(r"\bself-attention\b", re.I), **_LAYER}


@dataclass(frozen=True)
class OrderSaid:
    """A layer's sequential operations or maximum path length, stated in big-O."""

    math: Math
    layer: str
    what: str        # sequential, path
    argument: str
    place: str


def orders_said(document: Document) -> list[OrderSaid]:
    """Clauses stating a layer's sequential operations or maximum path length with one big-O:
    the layer named in the sentence, else the only one its paragraph names; and the cells of
    a table's rows labelled with one layer of Table 1, under such a column."""
    from tmath.gate.prose_relations import with_placeholders
    from tmath.gate.tables import tables_in

    found = []
    for text, start, end, maths in sentences_with_math(document):
        if not maths or "&" in text[start:end] or re.search(r"^\s*\|", text[start:end], re.M):
            continue
        layer = _one_layer(text[start:end]) or (
            None if _any_layer(text[start:end]) else _one_layer(paragraph(text, start, end)))
        if layer is None or re.search(r"\brestricted|sparse|local|dilated\b", text[start:end], re.I):
            continue
        spelt, _ = with_placeholders(text, start, end, maths)
        for what, pattern in _ORDER.items():
            for match in pattern.finditer(spelt):
                after = re.match(r"[^⟨.;]{0,40}?⟨(\d+)⟩", spelt[match.end():])
                before = re.search(r"⟨(\d+)⟩\s*$", spelt[:match.start()])
                mark = before or after   # "O(1) sequential operations", else "… is O(n)"
                math = maths[int(mark.group(1))] if mark else None
                big = _BIG_O.match(math.latex) if math else None
                if big:
                    found.append(OrderSaid(math, layer, what, big.group("arg"), "sentence"))
    inline = sorted(document.inline, key=lambda m: m.start)
    for table in tables_in(document):
        columns = {k: what for k, head in enumerate(table.header)
                   for what, pattern in _ORDER.items() if pattern.search(head)}
        for row in table.rows:
            layer = _row_layer(row[0].text if row else "")
            for k, what in columns.items() if layer else ():
                math = _cell_math(inline, row, k)
                big = _BIG_O.match(math.latex) if math else None
                if big:
                    found.append(OrderSaid(math, layer, what, big.group("arg"), "table row"))
    return found


def _one_layer(text: str) -> str | None:
    named = [name for name, pattern in _LAYER_WORDS.items() if pattern.search(text)]
    return named[0] if len(named) == 1 else None


def _any_layer(text: str) -> bool:
    return any(pattern.search(text) for pattern in _LAYER_WORDS.values())


def order_judged(document: Document, said: OrderSaid) -> Finding | None:
    """``contradicts`` when the big-O is none of those Table 1 (or §4's text) gives for the
    layer; None when it is one, or cannot be read."""
    import sympy as sp

    from tmath.latex import read
    from tmath.reference.layer_costs import ORDERS

    accepted = ORDERS.get((said.layer, said.what))
    mine = read(said.argument)
    if not accepted or not mine.parsed or len(mine.expressions) != 1 or mine.relations:
        return None
    value = mine.expressions[0]
    if value.free_symbols - {sp.Symbol(n) for n in ("n", "k", "r")}:
        return None   # letters Table 1 does not use: not read
    for record in accepted:
        ratio = sp.simplify(value / read(record).expressions[0])
        if ratio.is_number and ratio != 0:
            return None
    what = {"sequential": "sequential operations", "path": "maximum path length"}[said.what]
    section = document.section_at(said.math.start)
    return Finding(status="contradicts", meaning="contradicts", kind="formula",
                   document=document.path, section=section.number if section else None,
                   line=said.math.line, column=document.column_of(said.math.start),
                   formula=said.math.latex, compared_with=("citation",),
                   recorded=" or ".join(f"O({a})" for a in accepted),
                   detail=f"Vaswani et al. (2017), arXiv:1706.03762, Table 1 gives the {what} "
                          f"of a {said.layer} layer as "
                          f"{' or '.join(f'O({a})' for a in accepted)}; this {said.place} "
                          f"states {said.math.latex}")
