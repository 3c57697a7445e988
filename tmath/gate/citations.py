"""Checking a document's citations against the bibliography its claims record.

The claims held to a document record their sources with bibliographic facts
(:class:`~tmath.engine.model.Source`: authors in order, title, year, venue, arXiv id). Each
citation :mod:`~tmath.gate.references` reads is resolved to one of those works, by arXiv id,
then by title, then by the surname of its first author (and year), and compared with it:

* ``authors``: a name that is not the work's, a misspelt name (``Schwartz-Ziv`` for
  ``Shwartz-Ziv``), names in the wrong order, or the authors of another work;
* ``year``: a year that is neither the work's publication year nor its arXiv year;
* ``title``: a quoted title that is not the work's (``A Unified…`` for ``An Unified…``);
* ``arxiv``: an arXiv id that is malformed (:mod:`~tmath.gate.arxiv`; any id in the text),
  or, in a reference entry whose title or authors name a recorded work, not that work's id;
* ``misattributed``: the paragraph where a prose claim's passage is located cites a work the
  claim records as *not* the source of its statement (``not_in=``), with the reason;
* ``shortened`` (a warning): a reference entry quotes only the start of the title.

A citation that is right gives no finding; one that names a work no claim records is only
counted. Everything here reads text; nothing is evaluated.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping, Sequence

from tmath.engine.info import ClaimInfo, Source
from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate import arxiv as arxiv_ids
from tmath.gate.references import (MAX_CITATIONS, ArxivId, Citation, read_arxiv_ids,
                                   read_citations, surname)

MAX_FINDINGS = 500
"""Citation findings listed at most (the rest are counted in a note: the gate fails anyway)."""
TITLE_SIMILARITY = 0.6
"""A quoted title at least this similar to a recorded one (difflib ratio, normalised) is that
work's title, misquoted; below it, a quotation is not taken for a title."""


@dataclass(frozen=True)
class Work:
    """A work the claims record, and which claims record it."""

    source: Source
    claims: tuple[str, ...]

    @functools.cached_property
    def surnames(self) -> tuple[str, ...]:
        return tuple(surname(a) for a in self.source.authors)

    @property
    def years(self) -> set[int]:
        years = {self.source.year} if self.source.year else set()
        arxiv = arxiv_year(self.source.arxiv)
        return years | ({arxiv} if arxiv else set())

    @property
    def shown(self) -> str:
        s = self.source
        names = self.surnames
        who = names[0] if len(names) == 1 else " & ".join(names) if len(names) == 2 \
            else ", ".join(names[:-1]) + " & " + names[-1] if len(names) <= 4 \
            else f"{names[0]} et al."
        ident = f", arXiv:{s.arxiv}" if s.arxiv else ""
        return f"{who} ({'/'.join(map(str, sorted(self.years))) or 'n.d.'}), “{s.title}”{ident}"


def arxiv_year(arxiv: str | None) -> int | None:
    """The year an arXiv id was issued (``2406.09405`` → 2024, ``physics/0004057`` → 2000)."""
    if not arxiv:
        return None
    match = re.match(r"(?:[a-z\-]+(?:\.[A-Z]{2})?/)?(\d\d)(\d\d)", arxiv.split()[0])
    if not match:
        return None
    yy = int(match.group(1))
    return 1900 + yy if yy >= 91 else 2000 + yy


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    return _plain(name).lower().replace("’", "'")


@functools.lru_cache(maxsize=65536)
def title_key(title: str) -> str:
    """A title up to case, quotes, apostrophes, dashes, spaces and final punctuation."""
    text = _plain(title).lower()
    text = re.sub(r"[’‘`]", "'", text)
    text = re.sub(r"[“”\"]", "", text)
    text = re.sub(r"[‐‑‒–—]", "-", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text.rstrip(" .,;:")


_arxiv_key = arxiv_ids.key


def bibliography(infos: Sequence[ClaimInfo]) -> list[Work]:
    """The works the claims record with bibliographic facts (authors and a title), once each
    (sources and ``not_in`` works alike)."""
    works: dict[str, tuple[Source, list[str]]] = {}
    for info in infos:
        recorded = list(info.sources) + [s for s, _ in getattr(info, "not_in", ())]
        for source in recorded:
            if not (source.authors and source.title):
                continue
            key = source.key or _arxiv_key(source.arxiv) or title_key(source.title)
            have = works.setdefault(key, (source, []))
            if info.id not in have[1]:
                have[1].append(info.id)
    return [Work(source, tuple(claims)) for source, claims in works.values()]


def _edit_distance(a: str, b: str) -> int:
    if abs(len(a) - len(b)) > 2:
        return 3
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


@functools.lru_cache(maxsize=65536)
def _same_name(a: str, b: str) -> str:
    """``same``, ``misspelt`` (at most two letters apart, and not short) or ``other``."""
    ka, kb = name_key(a), name_key(b)
    if ka == kb:
        return "same"
    if min(len(ka), len(kb)) >= 4 and _edit_distance(ka, kb) <= 2:
        return "misspelt"
    return "other"


@functools.lru_cache(maxsize=65536)
def _title_relation(cited: str, recorded: str) -> str:
    """``same``, ``shortened`` (the start of the title, up to a word), ``similar`` or ``other``."""
    c, r = title_key(cited), title_key(recorded)
    if c == r:
        return "same"
    if len(c) >= 8 and r.startswith(c) and (len(r) == len(c) or not r[len(c)].isalnum()):
        return "shortened"
    matcher = difflib.SequenceMatcher(None, c, r, autojunk=False)
    if matcher.real_quick_ratio() < TITLE_SIMILARITY or matcher.quick_ratio() < TITLE_SIMILARITY:
        return "other"
    return "similar" if matcher.ratio() >= TITLE_SIMILARITY else "other"


def resolve(citation: Citation, works: Sequence[Work]) -> tuple[Work | None, str]:
    """The recorded work a citation refers to, and how it was found (``arxiv``, ``title``,
    ``authors``), or (None, "")."""
    if citation.arxiv:
        key = _arxiv_key(citation.arxiv)
        for work in works:
            if _arxiv_key(work.source.arxiv) == key:
                return work, "arxiv"
    if citation.title:
        relations = [(w, _title_relation(citation.title, w.source.title)) for w in works]
        for wanted in ("same", "shortened", "similar"):
            hits = [w for w, r in relations if r == wanted]
            if wanted == "similar":  # a misquoted title, only where the names agree
                hits = [w for w in hits if not citation.surnames or not w.surnames
                        or _same_name(citation.surnames[0], w.surnames[0]) != "other"]
            if hits:
                return _by_year(hits, citation), "title"
    if citation.surnames:
        first = citation.surnames[0]
        exact = [w for w in works if w.surnames and _same_name(first, w.surnames[0]) == "same"]
        if exact:
            if not citation.et_al and len(citation.surnames) > 1:
                full = [w for w in exact if len(w.surnames) > 1
                        and _same_name(citation.surnames[1], w.surnames[1]) != "other"]
                exact = full or exact
            return _by_year(exact, citation), "authors"
        near = [w for w in works if w.surnames and (
            _same_name(first, w.surnames[0]) == "misspelt"
            or (len(citation.surnames) > 1 and not citation.et_al
                and {name_key(s) for s in citation.surnames[:2]} & {name_key(s) for s in w.surnames[:2]}
                and _names_match_loosely(citation.surnames, w.surnames)))]
        if near:
            return _by_year(near, citation), "authors"
    return None, ""


def _names_match_loosely(cited: Sequence[str], recorded: Sequence[str]) -> bool:
    """Every cited name is one of the recorded ones, up to spelling (another order allowed)."""
    return all(any(_same_name(c, r) != "other" for r in recorded) for c in cited)


def _by_year(works: Sequence[Work], citation: Citation) -> Work:
    if citation.year:
        for work in works:
            if citation.year in work.years:
                return work
    return works[0]


def author_problems(citation: Citation, work: Work) -> list[str]:
    """What is wrong with the names a citation gives for a work (empty: nothing)."""
    cited, recorded = list(citation.surnames), list(work.surnames)
    if not cited or not recorded:
        return []
    if citation.et_al:
        cited = cited[:1]
    problems: list[str] = []
    matched: list[int] = []
    for name in cited:
        relation = [(k, _same_name(name, r)) for k, r in enumerate(recorded)]
        same = [k for k, r in relation if r == "same"]
        close = [k for k, r in relation if r == "misspelt"]
        if same:
            matched.append(same[0])
        elif close:
            matched.append(close[0])
            problems.append(f"{name!r} is spelt {recorded[close[0]]!r}")
        else:
            problems.append(f"{name!r} is not an author")
    if len(set(matched)) == len(matched) and matched != sorted(matched):
        problems.append("the authors are in another order")
    if matched and matched[0] != 0 and not any("another order" in p for p in problems):
        problems.append(f"the first author is {recorded[0]}")
    if not citation.et_al and len(cited) > 1 and len(cited) < len(recorded) and not problems:
        problems.append(f"{len(cited)} of its {len(recorded)} authors are named, with no et al.")
    return problems


def judge_citations(documents: Sequence[Document], infos: Sequence[ClaimInfo],
                    anchors: Mapping[tuple[str, str], object] | None = None
                    ) -> tuple[list[Finding], dict[str, int]]:
    """Findings for the citations of ``documents`` that do not match what ``infos`` record,
    and counts (``checked``: resolved to a recorded work, ``unknown``: not)."""
    works = bibliography(infos)
    findings: list[Finding] = []
    counts = {"checked": 0, "unknown": 0, "right": 0}
    for document in documents:
        if not works:
            findings += _malformed(document, read_arxiv_ids(document), [])
            continue
        citations = read_citations(document, MAX_CITATIONS)
        if len(citations) > MAX_CITATIONS:
            counts["cut"] = counts.get("cut", 0) + 1
            citations = citations[:MAX_CITATIONS]
        resolved = [(c, *resolve(c, works)) for c in citations]
        findings += _malformed(document, read_arxiv_ids(document), resolved)
        for citation, work, how in resolved:
            if work is None:
                counts["unknown"] += 1
                continue
            counts["checked"] += 1
            found = _judge(document, citation, work, how, resolved, works)
            findings += found
            counts["right"] += not any(f.failing for f in found)
        findings += _misattributed(document, infos, resolved, anchors or {}, works)
    if len(findings) > MAX_FINDINGS:
        counts["unlisted"] = len(findings) - MAX_FINDINGS
        findings = findings[:MAX_FINDINGS]
    return findings, counts


def _malformed(document: Document, ids: Sequence[ArxivId], resolved) -> list[Finding]:
    """A finding for each malformed arXiv id (naming the right one when its reference entry
    names a recorded work)."""
    entries = {c.line: w for c, w, _ in resolved if c.kind == "reference" and w is not None}
    found = []
    for written in ids:
        why = arxiv_ids.problem(written.ident)
        if why is None:
            continue
        work = entries.get(written.line)
        hint = f"; the entry names {work.shown}" if work and work.source.arxiv else ""
        section = document.section_at(written.start)
        found.append(Finding(
            "citation", "arxiv", document.path, section.number if section else None,
            written.line, work.claims[0] if work else None,
            claims=work.claims if work else (), column=written.column,
            label=f"arXiv:{written.ident}", printed=f"arXiv:{written.ident}",
            recorded=work.shown if work else None,
            detail=f"arXiv:{written.ident} is not a well-formed arXiv id: {why}{hint}"))
    return found


def _finding(document: Document, citation: Citation, work: Work | None, status: str,
             detail: str, claim: str | None = None) -> Finding:
    section = document.section_at(citation.start)
    claims = (claim,) if claim else work.claims if work else ()
    return Finding("citation", status, document.path, section.number if section else None,
                   citation.line, claim or (claims[0] if claims else None), claims=claims,
                   column=citation.column, label=citation.authors_shown,
                   printed=citation.text[:200], recorded=work.shown if work else None,
                   detail=detail)


def _judge(document: Document, citation: Citation, work: Work, how: str,
           resolved: Sequence[tuple[Citation, Work | None, str]],
           works: Sequence[Work]) -> list[Finding]:
    found = []
    what = f"arXiv:{citation.arxiv}" if how == "arxiv" else \
        f"“{citation.title}”" if how == "title" else citation.authors_shown
    problems = author_problems(citation, work)
    if problems:
        other = _other_work(citation, work, works)
        hint = f"; {other}" if other else ""
        found.append(_finding(document, citation, work, "authors",
                              f"{citation.authors_shown} for {what}: " + "; ".join(problems)
                              + f" (the record: {work.shown}){hint}"))
    if how != "arxiv" and citation.arxiv and work.source.arxiv \
            and arxiv_ids.problem(citation.arxiv) is None \
            and _arxiv_key(citation.arxiv) != _arxiv_key(work.source.arxiv):
        found.append(_finding(document, citation, work, "arxiv",
                              f"arXiv:{citation.arxiv} is not the id of {what}: the record is "
                              f"arXiv:{work.source.arxiv} ({work.shown})"))
    if citation.year and work.years and citation.year not in work.years:
        hint = _listed_as(citation, work, resolved)
        found.append(_finding(document, citation, work, "year",
                              f"{citation.authors_shown} ({citation.year}): {work.shown} is "
                              f"from {'/'.join(map(str, sorted(work.years)))}{hint}"))
    if citation.title:
        relation = _title_relation(citation.title, work.source.title)
        if relation == "similar" or (relation == "other" and how == "arxiv"):
            found.append(_finding(document, citation, work, "title",
                                  f"the title is “{work.source.title}”, not "
                                  f"“{citation.title.rstrip('.')}”"))
        elif relation == "shortened" and citation.kind == "reference":
            found.append(_finding(document, citation, work, "shortened",
                                  f"the full title is “{work.source.title}”"))
    return found


def _other_work(citation: Citation, work: Work, works: Sequence[Work]) -> str:
    """The recorded work the cited names belong to, if it is another one."""
    for other in works:
        if other is not work and not author_problems(citation, other):
            return f"{citation.authors_shown} wrote {other.shown}"
    return ""


def _listed_as(citation: Citation, work: Work, resolved) -> str:
    """Where the document's own reference list sends the same names and year."""
    for other_citation, other, how in resolved:
        if other is None or other is work or other_citation.kind != "reference":
            continue
        if other_citation.year == citation.year and \
                [name_key(s) for s in other_citation.surnames] == \
                [name_key(s) for s in citation.surnames]:
            return (f"; the reference list (line {other_citation.line}) gives "
                    f"{('arXiv:' + other_citation.arxiv) if other_citation.arxiv else 'a work'} "
                    f"for {citation.authors_shown} ({citation.year}), which is {other.shown}")
    return ""


def _candidates(citation: Citation, works: Sequence[Work]) -> list[Work]:
    """Every recorded work a mention by names (and year) may mean: "He et al. (2016)" is
    either of two papers."""
    first = citation.surnames[0] if citation.surnames else ""
    named = [w for w in works if w.surnames and _same_name(first, w.surnames[0]) != "other"]
    dated = [w for w in named if citation.year is None or not w.years or citation.year in w.years]
    return dated or named  # a wrong year still names the work


def _misattributed(document: Document, infos: Sequence[ClaimInfo], resolved,
                   anchors: Mapping[tuple[str, str], object],
                   works: Sequence[Work]) -> list[Finding]:
    """A prose claim's passage citing a work the claim records as not its source (a mention
    by names alone counts when the work is one of those it may mean)."""
    found = []
    for info in infos:
        if not getattr(info, "not_in", ()) or (info.id, document.path) not in anchors:
            continue
        anchor = anchors[(info.id, document.path)]
        start, end = anchor.start, anchor.end  # the paragraph that states it, no further
        for citation, work, how in resolved:
            if work is None or citation.kind != "mention" or not start <= citation.start < end:
                continue
            meant = _candidates(citation, works) if how == "authors" else [work]
            for source, why in info.not_in:
                hit = next((w for w in meant if _same_work(w.source, source)), None)
                if hit is not None:
                    work = hit
                    right = ("The claim records: " + "; ".join(s.shown for s in info.sources)
                             if info.sources else "The claim records no source for it")
                    found.append(_finding(
                        document, citation, work, "misattributed",
                        f"credits {work.shown} with what claim {info.id} states ({info.title}); "
                        f"that work does not contain it: {why}. {right}", claim=info.id))
    return found


def _same_work(a: Source, b: Source) -> bool:
    if a.key and b.key:
        return a.key == b.key
    if a.arxiv and b.arxiv:
        return _arxiv_key(a.arxiv) == _arxiv_key(b.arxiv)
    return title_key(a.title) == title_key(b.title)
