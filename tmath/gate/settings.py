"""Published settings a document states, held to the record of the paper that set them.

"BERT-base has 10 attention heads" or "the base model uses $P_{drop} = 0.3$" is wrong by the
papers that define those models (:mod:`tmath.reference.configurations`). A sentence states a
setting when it binds a number to a quantity of :data:`QUANTITIES` in one of two shapes:

* a symbol set equal to it, in the sentence's math or text: ``$h = 8$``, ``d_model = 512``,
  ``$d_k = d_v = d_{model}/h = 64$`` (a chain: its last member);
* a number before the quantity's noun: "eight attention heads", "6 identical layers";
* a phrase around it: "tokens are embedded as vectors of size 512", "it stacks 6 encoders",
  "each encoder receives vectors of size 512" (vectors, in a sentence about encoders,
  decoders or embeddings and not about queries, keys, values or heads), "the query vectors
  have a size of 64" or "the q/k/v vectors (64, …)" (the width of a head's keys); training
  "for 100,000 steps", "12 hours" or "3.5 days" (or "8 P100 GPUs") in a sentence about
  training, "step time was
  1.0 seconds"; "a BLEU score of 28.4" or "achieves 28.4 BLEU" in a sentence about
  English-to-German translation (the paper's English-to-French figure is not recorded: its
  text and its Table 2 disagree, 41.0 and 41.8);
* a pronoun subject ("Their size is 64") read as what it stands for, when that is the query,
  key and value vectors of an earlier sentence.

Which configuration it speaks of is decided, most specific first:

1. the sentence names exactly one recorded configuration ("the original Transformer",
   "BERT-base"; in a document about the paper, "the base model"), or names several, each
   clause one;
2. else, when it names no other model ("GPT-2", "a small BERT"), its paragraph names exactly
   one; or, when its paragraph names none, its section does (and the section's heading names
   no other model);
3. else the document presents itself as about the paper (its title, or its opening, names the
   paper's title), and the part of the sentence that states it (parts are cut at "--", "—",
   ";", ", but") is not hypothetical ("suppose", "for example", …), the sentence not
   about another instance ("a 4-layer transformer") and not a table row (the same holds under
   2 when the section names it). Symbols too common
   to mean a setting by themselves (``A``, ``L``, ``H``, ``\\beta_1``, …) are read only under 1.

A quantity bound to two different numbers in one sentence ("0.1 instead of 0.3") is not read.
A setting is exact: ``accurate`` when the printed number equals the record, else
``inaccurate`` (an error), naming the paper and the place that states it. Nothing is
reported where nothing is stated.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.readers.macros import expand
from tmath.gate.findings import Finding
from tmath.gate.prose_relations import paragraph as paragraph_around, sentences
from tmath.reference.configurations import CONFIGURATIONS, Configuration


@dataclass(frozen=True)
class Quantity:
    """How documents print a quantity: symbols (normalised spelling, see :func:`plain`),
    nouns that may follow its number, and whether a symbol alone means it outside a sentence
    that names the configuration (``loose``)."""

    label: str
    symbols: tuple[str, ...] = ()
    nouns: tuple[str, ...] = ()
    loose: bool = True
    needs: str = ""
    """A word the sentence must contain for the symbol to mean this quantity (``Adam``)."""
    phrases: tuple[str, ...] = ()
    """Words around the number: ending with it ("embedded as vectors of size 512"), or with
    ``{n}`` where it stands ("stacks {n} encoders")."""
    unless: str = ""
    """A word that, in the sentence, says the number is of something else (``query``)."""


QUANTITIES = {
    "heads": Quantity("number of attention heads", ("h",),
                      (r"(?:parallel\s+)?(?:attention\s+|self-attention\s+)?heads",)),
    "heads_bert": Quantity("number of attention heads", ("A",), loose=False),
    "layers": Quantity("number of layers", ("N",), (r"identical\s+layers",), phrases=(
        r"\bstack(?:s|ed)?\s+(?:of\s+)?{n}\s+(?:of\s+them|identical|(?:encoder|decoder)s?\b|"
        r"(?:[a-z]+\s+)?(?:layers|modules|blocks)\b)",)),
    "layers_named": Quantity("number of layers", ("L",), (r"(?:encoder\s+|decoder\s+)?layers",),
                             loose=False),
    "d_model": Quantity("model width d_model", ("d_model",), phrases=(
        r"\bembed(?:ded|dings?)\b[^.;:\d]{0,40}?\b(?:size|dimension(?:ality)?|width)\s+"
        r"(?:of\s+|is\s+)?",)),
    "d_model_vectors": Quantity("model width d_model", phrases=(
        r"\bvectors?\b[^.;:\d]{0,40}?\b(?:size|dimension(?:ality)?|width)\s+(?:of\s+|is\s+)?",),
        needs=r"\b(?:[Ee]ncoders?|[Dd]ecoders?|[Ee]mbeddings?)\b",
        unless=r"\b(?:[Qq]uer(?:y|ies)|[Kk]eys?|[Vv]alues?|[Hh]eads?|q/k/v)\b"),
    "d_model_bert": Quantity("model width d_model", ("H",), loose=False),
    "d_ff": Quantity("inner width of the feed-forward layer d_ff", ("d_ff",)),
    "d_k": Quantity("width of each head's keys d_k", ("d_k",), needs=r"head|/h\b"),
    "d_v": Quantity("width of each head's values d_v", ("d_v",), needs=r"head|/h\b"),
    "d_k_vectors": Quantity("width of each head's keys d_k", phrases=(
        r"\b(?:quer(?:y|ies)|keys?|q/k/v)\s+vectors?\s*\(\s*",
        r"\b(?:quer(?:y|ies)|keys?|q/k/v)\s+vectors?\b[^.;:\d()]{0,30}?\b(?:size|"
        r"dimension(?:ality)?|width)\s+(?:of\s+|is\s+)?")),
    "train_steps": Quantity("training steps", phrases=(
        r"\btrain(?:ed|ing)?\b[^.;:]{0,60}?\b(?:for\s+)?(?:a\s+total\s+of\s+)?{n}\s+"
        r"(?:training\s+)?steps\b",), unless=r"\bwarm-?up"),
    "train_hours": Quantity("training time in hours", nouns=(r"hours",), needs=r"\b[Tt]rain"),
    "train_days": Quantity("training time in days", nouns=(r"days",), needs=r"\b[Tt]rain"),
    "gpus": Quantity("GPUs trained on", nouns=(r"(?:NVIDIA\s+)?(?:Tesla\s+)?P100\s+GPUs?",),
                     needs=r"\b[Tt]rain"),
    "step_time": Quantity("seconds per training step", phrases=(
        r"\bstep(?:\s+time)?\b[^.;:\d]{0,30}?\b(?:was|took|of|is)\s+(?:about\s+|around\s+|"
        r"roughly\s+|~\s*)?{n}\s*(?:s\b|sec\b|seconds\b)",)),
    "bleu_en_de": Quantity("BLEU on WMT 2014 English-to-German", phrases=(
        r"\bBLEU\s+score\s+of\s+{n}", r"\bachiev\w*\s+(?:a\s+)?{n}\s+BLEU\b"),
        needs=r"\bEnglish[\s-]+to[\s-]+German\b|\bEN-DE\b|\bEn-De\b"),
    "bleu_en_fr_table": Quantity("BLEU on WMT 2014 English-to-French (Table 2)"),
    "dropout": Quantity("dropout rate P_drop", ("P_drop",)),
    "label_smoothing": Quantity("label smoothing ε_ls", ("ε_ls",)),
    "warmup_steps": Quantity("warmup steps", ("warmup_steps",), (r"warm-?up\s+steps",)),
    "beta_1": Quantity("β₁", ("β_1",), needs=r"\bAdam\b"),
    "beta_2": Quantity("β₂", ("β_2",), needs=r"\bAdam\b"),
    "adam_epsilon": Quantity("ε", ("ε",), needs=r"\bAdam\b"),
}
"""Each quantity a configuration may set. ``*_bert`` are BERT's own letters for the same;
"layers" alone is read only where the sentence names the configuration (an encoder's "two
layers" may be its sub-layers)."""
ALIASES = {"heads_bert": "heads", "layers_named": "layers", "d_model_bert": "d_model",
           "d_model_vectors": "d_model", "d_k_vectors": "d_k"}

_WORD_NUMBERS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen".split())}
_NUMBER = (r"\d+(?:\.\d+)?[eE][-−]?\d+|10\^\{?[-−]?\d+\}?"
           r"|(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(?:\\times|×|x|\\cdot|·)\s*10\^\{?[-−]?\d+\}?)?")
_WORDS = "|".join(_WORD_NUMBERS)
HYPOTHETICAL = re.compile(
    r"\b(?:suppose|assume|assuming|imagine|consider|let|say|e\.g\.|for example|for instance|"
    r"such as|toy|smaller|larger|instead|rather than|if we|we could|would)\b", re.I)
"""Words that make a sentence an example or a what-if, not a statement of a setting."""
INSTANCE = re.compile(r"\b(?:[Aa]|[Aa]n|[Oo]ur|[Tt]his|[Tt]heir)\s+(?:[\w-]+\s+){0,3}?"
                      r"(?:[Tt]ransformer|model)s?\b")
"""An indefinite or possessed model ("a 4-layer transformer", "our model"): another instance
than the one the document presents."""
OTHER_MODELS = re.compile(
    r"\b(?:GPT(?:-\d)?|BERT|RoBERTa|T5|XLNet|ALBERT|ELECTRA|LLaMA|Llama|PaLM|ViT|BART|"
    r"Transformer-XL|Reformer|Longformer|Performer|Linformer|Sparse Transformer)\b")
"""Other models a sentence may speak of (it is then not read for the document's subject)."""


@dataclass(frozen=True)
class Stated:
    """A number a sentence binds to a quantity, and where it is printed."""

    quantity: str
    printed: str
    value: float
    at: int
    named: bool
    """Bound by a symbol that is read only where the configuration is named."""


def settings_in(document: Document) -> list[Finding]:
    """A finding for each published setting the document states (see the module's doc)."""
    text = document.masked or document.text
    subject = _subject(document)
    presented = None if subject else _presented(document)
    defined = {}
    if document.kind == "latex":   # a LaTeX source's own macros: $\dmodel=512$
        from tmath.gate.readers.macros import macros

        defined = macros(document.raw)
    inline = sorted(document.inline, key=lambda m: m.start)
    starts = [m.start for m in inline]
    found: list[Finding] = []
    spans = list(sentences(text))
    for k, (start, end) in enumerate(spans):
        if not _ANY_NUMBER.search(text, start, end):
            continue
        first, last = bisect_left(starts, start), bisect_left(starts, end)
        stated = _stated(text, start, end, list(inline[first:last]), defined,
                         _antecedent(text, spans, k))
        if not stated:
            continue
        sentence = text[start:end]
        named = _named(sentence, subject or _presented_here(presented, text, start, end))
        config, how = None, ""
        if len(named) > 1:   # "BERT-base has 12 heads, while BERT-large has 16": clause by clause
            found += _by_clause(document, text, start, end, stated, subject)
            continue
        if len(named) == 1:
            config, how = named[0], "sentence"
        elif not OTHER_MODELS.search(plain(sentence)):
            paragraph = _named(paragraph_around(text, start, end), subject)
            section = _section_named(document, text, start, subject) if not paragraph else []
            if len(paragraph) == 1:
                config, how = paragraph[0], "paragraph"
            elif len(section) == 1:
                config, how = section[0], "section"
            elif not paragraph and subject:
                config, how = subject, "document"
        if config is None or how in ("document", "section") and \
                (INSTANCE.search(sentence) or _in_table(sentence)):
            continue
        seen = set()
        for item in _unambiguous(stated):
            if (item.named and how != "sentence") or item.at in seen or \
                    how != "sentence" and HYPOTHETICAL.search(_part(text, start, end, item.at)):
                continue
            seen.add(item.at)
            found += _judge(document, config, item, QUANTITIES[item.quantity], how)
    return sorted(found, key=lambda f: (f.line or 0, f.column or 0))


def table_settings(document: Document) -> list[Finding]:
    """Settings a table states: a column headed by a quantity's symbol (``$N$``, ``$d_k$``,
    ``$P_{drop}$``) in a row whose first cell names a configuration ("BERT-base"; in a
    document about the paper, "base" or "big"), each judged like a setting in a sentence."""
    from tmath.gate.tables import tables_in

    subject = _subject(document)
    presented = None if subject else _presented(document)
    defined = {}
    if document.kind == "latex":
        from tmath.gate.readers.macros import macros

        defined = macros(document.raw)
    found: list[Finding] = []
    for table in tables_in(document):
        columns = {k: _column_quantity(expand(head, defined)) for k, head in enumerate(table.header)}
        if not any(columns.values()):
            continue
        for row in table.rows:
            config = _row_configuration(row[0].text, subject) if row else None
            if config is None:
                continue
            for k, cell in enumerate(row[1:], start=1):
                quantity = columns.get(k)
                printed = _EMPHASIS.sub(r"\1", cell.text).strip("$ ")
                if quantity is None or not re.fullmatch(_NUMBER, printed):
                    continue
                item = Stated(quantity, printed, number(printed), cell.start, False)
                found += _judge(document, config, item, QUANTITIES[quantity], "table")
    return found


_HEADED = {"bleu_en_de": re.compile(r"^BLEU\s+(?:EN-DE|En-De|English-German)$"),
           "bleu_en_fr_table": re.compile(r"^BLEU\s+(?:EN-FR|En-Fr|English-French)$")}
"""Columns named by words: Table 2's BLEU scores, headed "BLEU" over "EN-DE" and "EN-FR"
(the English-to-French score is read in a table only: the paper's text and Table 2
disagree, 41.0 and 41.8)."""


_EMPHASIS = re.compile(r"\\(?:textbf|mathbf|bm|boldsymbol|underline|emph|textit)\s*\{([^{}]*)\}")
"""A cell's number set in bold (the table's best score) is still that number."""


def _column_quantity(header: str) -> str | None:
    """The quantity a column's header names by its symbol alone (``$d_{model}$``), or by the
    words of :data:`_HEADED`."""
    for key, pattern in _HEADED.items():
        if pattern.match(" ".join(header.split())):
            return key
    spelt = plain(header).strip("$ ").replace("$", "").strip()
    for key, quantity in QUANTITIES.items():
        if spelt in quantity.symbols and quantity.loose:
            return key
    return None


def _row_configuration(label: str, subject: Configuration | None) -> Configuration | None:
    """The configuration a row's label names: by name, or (in a document about the paper)
    a variant's own word ("base", "big")."""
    named = _named(label, subject)
    if len(named) == 1:
        return named[0]
    if subject is not None:
        variants = [c for c in CONFIGURATIONS if c.variant and c.paper == subject.paper
                    and re.search(c.variant, f"{label.strip()} model")
                    and re.fullmatch(r"[A-Za-z]+", label.strip())]
        if len(variants) == 1:
            return variants[0]
    return None


CLAUSE = re.compile(r"[,;]\s+(?:and|but|while|whereas)\b|;|\s(?:while|whereas)\s")


def _by_clause(document: Document, text: str, start: int, end: int, stated: list[Stated],
               subject: Configuration | None) -> list[Finding]:
    """The settings of a sentence naming several configurations, each held to the one its own
    clause names (none where a clause names no configuration or several)."""
    cuts = [start, *(m.start() for m in CLAUSE.finditer(text, start, end)), end]
    found: list[Finding] = []
    for a, b in zip(cuts, cuts[1:]):
        named = _named(text[a:b], subject)
        if len(named) != 1:
            continue
        for item in _unambiguous([i for i in stated if a <= i.at < b]):
            found += _judge(document, named[0], item, QUANTITIES[item.quantity], "clause")
    return found


def plain(latex: str) -> str:
    """A formula's or a sentence's spelling with LaTeX's wrappers and spacing taken out:
    ``d_{\\text{model}}`` → ``d_model``, ``\\epsilon_{ls}`` → ``ε_ls``, ``β₂`` → ``β_2``."""
    s = re.sub(r"\\(?:text|mathrm|textrm|mathit|operatorname|textit|rm|it)\b\s*", "", latex)
    s = s.replace("\\_", "_").replace("\\%", "%")
    s = re.sub(r"\\(?:varepsilon|epsilon)(?![A-Za-z])", "ε", s)
    s = re.sub(r"\\beta(?![A-Za-z])", "β", s)
    s = re.sub(r"\\[,;:! ]|~", " ", s)
    s = s.replace("{", "").replace("}", "")
    s = s.translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
    s = re.sub(r"([βε])\s*_?\s*(\d|ls)\b", r"\1_\2", s)
    s = re.sub(r"\s*_\s*", "_", s)
    return s


def _stated(text: str, start: int, end: int, maths: list[Math],
            defined: dict[str, str] | None = None, antecedent: str = "") -> list[Stated]:
    """Every (quantity, number) the sentence binds, with the number's offset. When its subject
    is a pronoun, its first clause is read with the ``antecedent`` the pronoun stands for
    ("Their size is 64" after the query vectors), the rest as it is."""
    if not antecedent:
        return _stated_after(text, start, end, maths, defined, "")
    cut = next((m.start() for m in CLAUSE.finditer(text, start, end)), end)
    resolved = _stated_after(text, start, cut, [m for m in maths if m.end <= cut], defined,
                             antecedent + " ")
    rest = _stated_after(text, start, end, maths, defined, "")
    return resolved + [i for i in rest if i.at >= cut]


PRONOUN_SUBJECT = re.compile(r"\W*(?:[A-Za-z]+\s+){0,2}?(?:these|those|they|their|its|such)\b",
                             re.I)
"""A sentence whose subject is a pronoun or a demonstrative ("Their size is …", "Notice that
these vectors …")."""
QKV_VECTORS = re.compile(r"\b(?:quer(?:y|ies)|keys?|values?)\s+vectors?\b|\bq/k/v\b", re.I)
ANTECEDENT_REACH = 4
"""How many sentences back a pronoun's antecedent is looked for."""


def _antecedent(text: str, spans: list[tuple[int, int]], k: int) -> str:
    """What the pronoun subject of sentence ``k`` stands for, when it is the query, key and
    value vectors: the nearest sentence before it whose subject is not itself a pronoun (no
    heading between) names them. "" otherwise: the sentence is read as it is."""
    if not PRONOUN_SUBJECT.match(text, spans[k][0]):
        return ""
    for j in range(k - 1, max(-1, k - 1 - ANTECEDENT_REACH), -1):
        start, end = spans[j]
        if re.search(r"^#|\\(?:sub)*section\b", text[start:spans[j + 1][0]], re.M):
            return ""   # a heading between: another subject
        if PRONOUN_SUBJECT.match(text, start):
            continue    # itself about what came before
        return "query vectors" if QKV_VECTORS.search(text, start, end) else ""
    return ""


def _stated_after(text: str, start: int, end: int, maths: list[Math],
                  defined: dict[str, str] | None, antecedent: str) -> list[Stated]:
    """Every (quantity, number) ``text[start:end]`` binds, read after ``antecedent``."""
    pieces, places, cursor = [antecedent], [start] * len(antecedent), start

    def prose(a: int, b: int) -> None:   # each word spelt plainly, placed at its start
        for word in re.finditer(r"\S+|\s+", text[a:b]):
            spelt = plain(word.group()) if not word.group().isspace() else word.group()
            pieces.append(spelt)
            places.extend([a + word.start()] * len(spelt))

    for math in maths:
        prose(cursor, math.start)
        spelt = " " + plain(expand(math.latex, defined or {})) + " "
        pieces.append(spelt)
        places.extend([math.inner] * len(spelt))
        cursor = math.end
    prose(cursor, end)
    spelt = "".join(pieces)
    found: list[Stated] = []
    for key, quantity, pattern in _PATTERNS:
        if quantity.needs and not re.search(quantity.needs, spelt) or \
                quantity.unless and re.search(quantity.unless, spelt):
            continue
        for match in pattern.finditer(spelt):
            found.append(_item(key, match, places, not quantity.loose))
    return found


def _patterns(key: str, quantity: Quantity) -> list[tuple[str, Quantity, re.Pattern]]:
    """The regular expressions that bind a number to ``quantity``: a symbol set equal to it
    (the last member of a chain of equalities), a number before its noun."""
    found = [(key, quantity, re.compile(
        rf"(?:^|(?<=[\s(,;=])){re.escape(symbol)}\s*=\s*(?:[^=\d,;]{{1,40}}=\s*)*"
        rf"(?P<n>{_NUMBER})(?!\.?\d|\s*(?:/|\^|\\times|×|\*))")) for symbol in quantity.symbols]
    found += [(key, quantity, re.compile(rf"(?<![\w.^{{,])(?P<n>\d+(?:\.\d+)?|{_WORDS})\s+{noun}\b",
                                         re.I)) for noun in quantity.nouns]
    return found + [(key, quantity, re.compile(
        phrase.replace("{n}", rf"(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?|{_WORDS})\b")
        if "{n}" in phrase
        else rf"{phrase}(?P<n>\d+)(?!\.?\d)", re.I)) for phrase in quantity.phrases]


_PATTERNS = [p for key, quantity in QUANTITIES.items() for p in _patterns(key, quantity)]
_ANY_NUMBER = re.compile(rf"\d|\b(?:{_WORDS})\b", re.I)


def _unambiguous(items: list[Stated]) -> list[Stated]:
    """The items whose quantity is given one value only among ``items`` ("0.1, not 0.3")."""
    values: dict[str, set[float]] = {}
    for item in items:
        values.setdefault(ALIASES.get(item.quantity, item.quantity), set()).add(item.value)
    return [item for item in items if len(values[ALIASES.get(item.quantity, item.quantity)]) == 1]


def _item(key: str, match: re.Match, places: list[int], named: bool) -> Stated:
    printed = match.group("n")
    return Stated(key, printed, number(printed), places[match.start("n")], named)


def number(printed: str) -> float:
    """The value of a printed number: ``4,000``, ``0.1``, ``10^{-9}``, ``1e-9``, ``eight``."""
    word = printed.lower()
    if word in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[word])
    s = printed.replace(",", "").replace("−", "-").replace("{", "").replace("}", "")
    power = re.fullmatch(r"(?:([\d.]+)\s*(?:\\times|×|x|\\cdot|·)\s*)?10\^(-?\d+)", s)
    if power:
        return float(f"{power.group(1) or 1}e{power.group(2)}")   # 10^{400}: inf, no error
    return float(s)


PARTS = re.compile(r"\s--?\s|\s—\s|—|;|,\s+but\b")
"""What separates the parts of a sentence that say different things ("… of size 512 -- in
other encoders it would be …"): a what-if in one part leaves the others stated."""


def _part(text: str, start: int, end: int, at: int) -> str:
    """The part of the sentence ``text[start:end]`` that holds offset ``at``."""
    cuts = [start] + [m.end() for m in PARTS.finditer(text, start, end)] + [end]
    k = bisect_left(cuts, at + 1) - 1
    return text[cuts[max(k, 0)]:cuts[min(k + 1, len(cuts) - 1)]]


def _in_table(sentence: str) -> bool:
    """A sentence that is part of a table: a LaTeX row (``&``) or a Markdown row (``|``)."""
    return "&" in sentence or bool(re.search(r"^\s*\|", sentence, re.M))


def _named(text: str, subject: Configuration | None = None) -> list[Configuration]:
    """The configurations ``text`` names: by their names, or (in a document about their
    paper) as one of the paper's variants, "the big model"; a name broken over two lines is
    still its name."""
    spelt = re.sub(r"\s+", " ", plain(text))
    return [c for c in CONFIGURATIONS if any(re.search(name, spelt) for name in c.names)
            or (subject is not None and c.variant and c.paper == subject.paper
                and re.search(c.variant, spelt))]


def _section_named(document: Document, text: str, at: int,
                   subject: Configuration | None) -> list[Configuration]:
    """The configurations the section around ``at`` names, when its heading names no other
    model (a section on Transformer-XL that recalls the vanilla Transformer is not about
    it)."""
    section = document.section_at(at)
    if section is None or OTHER_MODELS.search(plain(section.title)):
        return []
    return _named(text[section.start:section.end], subject)


_TITLE = re.compile(r"^title:\s*[\"']?(.+?)[\"']?\s*$|\\title\{([^}]*)\}", re.M)
OPENING = 6000
"""How much of a document's opening may name the paper it presents."""


def _subject(document: Document) -> Configuration | None:
    """The configuration whose paper the document presents itself as about: the paper's title
    in the document's title or opening (the base model, for a paper that defines several)."""
    head = document.text[:OPENING]
    titles = " ".join(t for m in _TITLE.finditer(head) for t in m.groups() if t)
    if document.sections:
        titles += " " + document.sections[0].title
    for config in CONFIGURATIONS:
        paper = config.paper.lower()
        if paper in titles.lower() or paper in head.lower():
            return config   # the first configuration of a paper is its base model
    return None


def _presented(document: Document) -> Configuration | None:
    """The base configuration of the one paper whose model the document names as a proper
    name ("the Transformer"), for a document that does not name the paper itself (a
    section of its source, a page of notes). It lets "the big models" name that paper's
    variant, never a sentence that names no configuration."""
    text = document.masked or document.text
    papers = {c.paper: c for c in reversed(CONFIGURATIONS) if c.model and re.search(c.model, text)}
    return next(iter(papers.values())) if len(papers) == 1 else None


def _presented_here(presented: Configuration | None, text: str, start: int,
                    end: int) -> Configuration | None:
    """``presented``, unless the sentence's paragraph names another model ("the base model"
    of a paragraph on BERT is BERT's)."""
    if presented is None or OTHER_MODELS.search(plain(paragraph_around(text, start, end))):
        return None
    return presented


def _judge(document: Document, config: Configuration, item: Stated, quantity: Quantity,
           how: str) -> list[Finding]:
    key = ALIASES.get(item.quantity, item.quantity)
    setting = next((s for s in config.settings if s.quantity == key), None)
    if setting is None:
        return []
    good = abs(item.value - setting.value) <= 1e-12 * max(1.0, abs(setting.value))
    section = document.section_at(item.at)
    label = f"{quantity.label} of {config.label}"
    where = f"{config.source}, {setting.where}"
    span = _span(document, item)
    at = span[0] if span else item.at
    return [Finding(
        "figure", "accurate" if good else "inaccurate", document.path,
        section.number if section else None, document.line_of(at),
        setting.claim, (setting.claim,) if setting.claim else (), span=span,
        column=document.column_of(at), label=label, printed=item.printed,
        expected=(setting.value,), tolerance="exact (a published setting)",
        located=f"a setting of {config.label}, named by the {how}",
        detail="" if good else f"{where} gives {setting.value:g}")]


def _span(document: Document, item: Stated) -> tuple[int, int] | None:
    """Where the number is printed, as it is printed (``--fix`` restates it there); None
    when the reader spelt it otherwise (``10^{-9}`` read as ``10^-9``)."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(item.printed)}(?![\w.]*\d)")
    match = pattern.search(document.text, item.at, item.at + SPAN_SEARCH)
    return (match.start(), match.end()) if match else None


SPAN_SEARCH = 200
"""How far after where a setting's word or formula starts its number is looked for."""
