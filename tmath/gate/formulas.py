"""Judging display formulas: covered, unverified, changed, uncovered or missing.

A recorded formula covers a display formula when it equals, up to spelling that means the
same (spaces, ``\\left``/``\\right``, thin spaces, ``\\tfrac``/``\\dfrac``, ``\\cdot`` or a
plain product, ``\\mathrm`` vs ``\\text``, ``x^{2}`` vs ``x^2``, a trailing full stop):

* the whole formula, or
* one row of an ``aligned``/``align``/``cases``/``gathered``/``split`` environment, or
* one link, or a run of links, of a chain of equalities ``a = b = c`` (rows of an aligned
  block continue the chain of the row above).

The verdict of a display formula: ``covered`` (a claim that verified records it),
``unverified`` (only claims that did not verify record it: an error, fail closed),
``changed`` (no claim records it as it stands, but it is the near match of a recorded formula
that is no longer there: both versions are shown), or ``uncovered`` (a warning). A recorded
formula with no near match at all is ``missing``.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding
from tmath.gate.meaning import FormulaReading, claim_relations, read_formula
from tmath.latex.split import top_level as _top_level


CHANGED_SIMILARITY = 0.8
"""A recorded formula and a document formula at least this similar (difflib ratio of their
normalised LaTeX) are the same formula, edited."""
MAX_COMPARED = 4_000
"""Characters of a normalised formula used for the similarity ratio (bounds the time)."""
MAX_CANDIDATES = 2_000
"""Document formula parts compared with one recorded formula at most."""
MAX_LINKS = 24
"""Links of one chain of equalities split into parts (a longer chain is matched whole)."""


_SPACING = re.compile(r"\\(?:[,;:! ]|q?quad(?![A-Za-z])|displaystyle|textstyle|limits|nolimits)|~")
_SIZED = re.compile(r"\\(?:left|right)\.|\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])")
_TEXT = re.compile(r"\\(?:mathrm|textrm|operatorname|textnormal|mbox|rm)(?![A-Za-z])")
_FRAC = re.compile(r"\\[dt]frac(?![A-Za-z])")
_CDOT = re.compile(r"\\cdot(?![A-Za-z])")


def _product(match: re.Match) -> str:
    """``a \\cdot b`` is ``a b``; between two numbers the dot stays (2·3 is not 23)."""
    text, at, end = match.string, match.start(), match.end()
    before, after = text[max(0, at - 40):at].rstrip()[-1:], text[end:end + 40].lstrip()[:1]
    return "\\cdot" if before.isdigit() and after.isdigit() else " "


_BRACED = re.compile(r"([_^])\{([A-Za-z0-9])\}")
_TRAILING = ",.;，。；"
"""Punctuation that may end a formula (stripped with ``rstrip``: a regular expression
``[,.;]+$`` would retry every run of commas from each of its characters, in quadratic time)."""
_ENVIRONMENT = re.compile(r"\\(begin|end)\{(aligned|align\*?|cases|gathered|split|eqnarray\*?|"
                          r"equation\*?|gather\*?|multline\*?|flalign\*?|displaymath)\}")
_LABEL = re.compile(r"\\(?:label|tag\*?)\{[^{}\n]{0,200}\}|\\(?:nonumber|notag)(?![A-Za-z])")
"""A LaTeX source's equation labels and tags: not part of what a formula says."""


def normalise(latex: str) -> str:
    """LaTeX up to whitespace and spelling that means the same: \\left/\\right, thin spaces,
    \\dfrac/\\tfrac, \\cdot or nothing, \\mathrm vs \\text, x^{2} vs x^2, a trailing comma or
    full stop."""
    text = _SIZED.sub("", _LABEL.sub("", latex) if "\\" in latex else latex)
    text = _SPACING.sub("", text)
    text = _TEXT.sub(r"\\text", text)
    text = _FRAC.sub(r"\\frac", text)
    text = _CDOT.sub(_product, text)
    text = re.sub(r"\s+", "", text)
    text = text.replace("{}", "")
    text = _BRACED.sub(r"\1\2", text)
    return text.rstrip(_TRAILING)


@dataclass(frozen=True)
class Part:
    """A piece of a display formula a recorded formula may match: the whole formula, a row
    of an environment, or a run of links of a chain of equalities (``links``: how many "=").
    ``offset`` is where it starts in the formula's LaTeX."""

    norm: str
    offset: int
    kind: str  # "whole", "row" or "chain"

    @property
    def whole(self) -> bool:
        return self.kind == "whole"


def equals_at(text: str) -> list[int]:
    """Offsets of the top-level equals signs of ``text`` (not of <=, :=, ==, \\ne…)."""
    if "=" not in text:
        return []
    return [k for k in _top_level(text, "=")
            if (k == 0 or text[k - 1] not in "<>!=\\:") and text[k + 1:k + 2] != "="]


def _links(text: str, at: int) -> list[Part]:
    """Runs of at least one link of the chain of equalities in ``text`` (not the whole)."""
    equals = equals_at(text)
    if not equals or len(equals) > MAX_LINKS:
        return []
    cuts = [-1] + equals + [len(text)]
    pieces = [(text[a + 1:b], a + 1) for a, b in zip(cuts, cuts[1:])]
    found = []
    for first in range(len(pieces)):
        for last in range(first + 1, len(pieces)):
            if first == 0 and last == len(pieces) - 1:
                continue  # the whole chain
            run = "=".join(p for p, _ in pieces[first:last + 1])
            found.append(Part(normalise(run), at + pieces[first][1], "chain"))
    return found


@functools.lru_cache(maxsize=4096)
def parts(latex: str) -> tuple[Part, ...]:
    """The whole formula, its rows, and the runs of links of its chains of equalities."""
    found = [Part(normalise(latex), 0, "whole")]
    if "\\begin" in latex and _ENVIRONMENT.search(latex):
        body = _ENVIRONMENT.sub(lambda m: " " * len(m.group()), latex)
        cuts = [0] + [k + 2 for k in _top_level(body, "\\\\")] + [len(body) + 2]
        rows = [(body[a:b - 2].replace("&", " "), a) for a, b in zip(cuts, cuts[1:])
                if body[a:b - 2].strip()]
        chain = " ".join(r for r, _ in rows)
        found.append(Part(normalise(chain), 0, "row"))
        found += _links(chain, 0)
        for row, at in rows:
            found.append(Part(normalise(row), at, "row"))
            found += _links(row, at)
    else:
        found += _links(latex, 0)
    seen, unique = set(), []
    for part in found:
        if part.norm and part.norm not in seen:
            seen.add(part.norm)
            unique.append(part)
    return tuple(unique)


def similarity(a: str, b: str) -> float:
    a, b = a[:MAX_COMPARED], b[:MAX_COMPARED]
    if not a or not b or 2 * min(len(a), len(b)) / (len(a) + len(b)) < CHANGED_SIMILARITY:
        return 0.0  # lengths alone rule it out (difflib's real_quick_ratio, without difflib)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < CHANGED_SIMILARITY or matcher.quick_ratio() < CHANGED_SIMILARITY:
        return 0.0
    return matcher.ratio()


@dataclass
class _Shown:
    document: Document
    math: Math
    parts: tuple[Part, ...]


FormulaKey = tuple[str, int]


def index_formulas(documents: Sequence[Document]) -> tuple[dict[FormulaKey, _Shown],
                                                          dict[str, list[tuple[FormulaKey, Part]]]]:
    """Every display formula of the documents, and its parts by normal form."""
    shown: dict[FormulaKey, _Shown] = {}
    by_text: dict[str, list[tuple[FormulaKey, Part]]] = {}
    for document in documents:
        for k, math in enumerate(document.formulas):
            found = parts(math.latex)
            shown[(document.path, k)] = _Shown(document, math, found)
            for part in found:
                by_text.setdefault(part.norm, []).append(((document.path, k), part))
    return shown, by_text


def _near(shown: Mapping[FormulaKey, _Shown], free: list[FormulaKey], info: ClaimInfo,
          norm: str, held: set[str]) -> tuple[FormulaKey, Part, float] | None:
    """The formula part most similar to a recorded one: first in the claim's section."""
    links = norm.count("=")

    def in_section(key: FormulaKey) -> bool:
        item = shown[key]
        section = item.document.section_at(item.math.start)
        return bool(section) and section.top == info.top_section

    pool_all = [k for k in free if k[0] in held]
    for pool in ([k for k in pool_all if in_section(k)], pool_all):
        best, best_ratio = None, 0.0
        compared = 0
        for key in pool:
            for part in shown[key].parts:
                if part.kind == "chain" and part.norm.count("=") != links:
                    continue
                compared += 1
                ratio = similarity(norm, part.norm)
                if ratio > best_ratio:
                    best, best_ratio = (key, part), ratio
            if compared > MAX_CANDIDATES:
                break
        if best is not None and best_ratio >= CHANGED_SIMILARITY:
            return best[0], best[1], best_ratio
    return None


def judge_formulas(documents: Sequence[Document], infos: Sequence[ClaimInfo],
                   results: Mapping[str, Any],
                   held: Mapping[str, set[str]] | None = None) -> list[Finding]:
    """A finding per display formula, and one per recorded formula that is missing.

    ``held`` maps a claim id to the paths of the documents it is held to (default: all)."""
    everywhere = {d.path for d in documents}
    held = held or {}
    shown, by_text = index_formulas(documents)
    readings = _by_meaning(shown, infos, results, held, everywhere)
    met = {hit for reading in readings.values() for hit in reading.hits}
    vouching: dict[FormulaKey, list[tuple[str, Part]]] = {}
    unmatched: list[tuple[ClaimInfo, str, str]] = []
    for info in infos:
        paths = held.get(info.id, everywhere)
        for recorded in dict.fromkeys(info.formulas):
            norms = [normalise(s) for s in _spellings(info, recorded)]
            hits = [(key, part) for norm in norms for key, part in by_text.get(norm, [])
                    if key[0] in paths]
            for key, part in hits:
                vouching.setdefault(key, []).append((info.id, part))
            if not hits and (info.id, recorded) not in met:
                unmatched.append((info, recorded, norms))
    inline = _inline_prints(documents, unmatched, held, everywhere)
    unmatched = [u for u in unmatched if (u[0].id, u[1]) not in inline]
    free = [key for key in shown if key not in vouching]
    changed: dict[FormulaKey, list[tuple[ClaimInfo, str, float, Part]]] = {}
    lost: list[tuple[ClaimInfo, str]] = []
    for info, recorded, norms in unmatched:
        near = [b for b in (_near(shown, free, info, n, held.get(info.id, everywhere))
                            for n in norms) if b is not None]
        best = max(near, key=lambda b: b[2]) if near else None
        if best is None:
            lost.append((info, recorded))
        else:
            key, part, ratio = best
            changed.setdefault(key, []).append((info, recorded, ratio, part))
    findings = []
    for key, item in shown.items():
        document, math = item.document, item.math
        section = document.section_at(math.start)
        reading = readings[key]
        common = dict(kind="formula", document=document.path,
                      section=section.number if section else None, line=math.line,
                      column=document.column_of(math.start), formula=math.latex,
                      meaning=reading.meaning, compared_with=reading.compared_with)
        if reading.meaning == "contradicts":
            span = (math.inner, math.inner + len(math.latex)) if math.inner >= 0 else None
            findings.append(Finding(status="contradicts", claim=reading.claims[0],
                                    claims=reading.claims, recorded=reading.recorded,
                                    detail=reading.detail, span=span, **common))
            continue
        if reading.meaning == "equivalent":
            good = [c for c in reading.claims
                    if getattr(results.get(c), "verdict", None) in PASSING]
            if good:
                findings.append(Finding(status="covered", claim=good[0], claims=tuple(good),
                                        **common))
            else:
                verdicts = ", ".join(f"{c} ({_verdict(results.get(c))})" for c in reading.claims)
                findings.append(Finding(status="unverified", claim=reading.claims[0],
                                        claims=reading.claims,
                                        detail=f"it means what {verdicts} records, which did "
                                               "not verify", **common))
            continue
        ids = list(dict.fromkeys(c for c, _ in vouching.get(key, [])))
        good = [c for c in ids if getattr(results.get(c), "verdict", None) in PASSING]
        partial = all(not p.whole for c, p in vouching.get(key, []) if c in good)
        unread = f"not compared by meaning: {reading.detail}" if reading.detail else ""
        if not good and reading.claims:   # some of its relations mean what a claim shows
            good = [c for c in reading.claims
                    if getattr(results.get(c), "verdict", None) in PASSING]
            partial = True
        if good:
            detail = "a claim covers part of it (a row or a link of the chain)" if partial else ""
            findings.append(Finding(status="covered", claim=good[0], claims=tuple(good),
                                    detail="; ".join(filter(None, (detail, unread))), **common))
        elif ids:
            verdicts = ", ".join(f"{c} ({_verdict(results.get(c))})" for c in ids)
            findings.append(Finding(status="unverified", claim=ids[0], claims=tuple(ids),
                                    detail=f"recorded by {verdicts}, which did not verify",
                                    **common))
        elif key in changed:
            edits = changed[key]
            info, recorded, ratio, part = max(edits, key=lambda e: e[2])
            claims = tuple(dict.fromkeys(e[0].id for e in edits))
            line = document.line_of(math.inner + part.offset) if math.inner >= 0 else math.line
            findings.append(Finding(
                status="changed", claim=claims[0], claims=claims, recorded=recorded,
                similarity=round(ratio, 3),
                detail=f"claim {', '.join(claims)} vouched for a different formula "
                       f"(similarity {ratio:.0%}); review the claim or the document",
                **{**common, "line": line}))
        else:
            findings.append(Finding(status="uncovered", detail=unread, **common))
    for (claim, recorded), (document, math) in inline.items():
        section = document.section_at(math.start)
        verdict = getattr(results.get(claim), "verdict", None)
        findings.append(Finding(
            "formula", "covered" if verdict in PASSING else "unverified", document.path,
            section.number if section else None, math.line, claim, claims=(claim,),
            column=document.column_of(math.start), formula=math.latex, recorded=recorded,
            detail="" if verdict in PASSING else f"recorded by {claim} ({_verdict(results.get(claim))}), "
                                                 "which did not verify"))
    for info, recorded in lost:
        paths = held.get(info.id, everywhere)
        home = next((d for d in documents if d.path in paths and d.section(info.top_section)),
                    next((d for d in documents if d.path in paths), documents[0]))
        findings.append(Finding(
            "formula", "missing", home.path, info.section, heading_line(home, info), info.id,
            recorded=recorded,
            detail=f"claim {info.id} vouches for a formula that is not in the document "
                   "(nor anything close to it)"))
    return findings


def _inline_prints(documents: Sequence[Document], unmatched: Sequence[tuple[ClaimInfo, str, list]],
                   held: Mapping[str, set[str]], everywhere: set[str]
                   ) -> dict[tuple[str, str], tuple[Document, Math]]:
    """Recorded formulas no display formula prints that an inline formula prints as recorded
    (``$\\omega_i = 1/10000^{2i/d}$`` in a sentence): (claim, recorded) → where."""
    found: dict[tuple[str, str], tuple[Document, Math]] = {}
    if not unmatched:
        return found
    by_norm: dict[str, list[tuple[Document, Math]]] = {}
    for document in documents:
        for math in document.inline:
            by_norm.setdefault(normalise(math.latex), []).append((document, math))
    for info, recorded, norms in unmatched:
        paths = held.get(info.id, everywhere)
        place = next((p for norm in norms for p in by_norm.get(norm, ())
                      if p[0].path in paths), None)
        if place is not None:
            found[(info.id, recorded)] = place
    return found


def _by_meaning(shown: Mapping[FormulaKey, _Shown], infos: Sequence[ClaimInfo],
                results: Mapping[str, Any], held: Mapping[str, set[str]],
                everywhere: set[str]) -> dict[FormulaKey, FormulaReading]:
    """Each display formula read and compared with the bound relations of the claims held to
    its document (:mod:`tmath.gate.meaning`)."""
    relations: dict[str, list] = {}
    for path in {key[0] for key in shown}:
        mine = [i for i in infos if path in held.get(i.id, everywhere)]
        relations[path] = claim_relations(mine, results)
    return {key: read_formula(item.math.latex, relations[key[0]]) for key, item in shown.items()}


def _spellings(info: ClaimInfo, formula: str) -> tuple[str, ...]:
    spellings = getattr(info, "spellings", None)
    return spellings(formula) if spellings else (formula,)


def _verdict(result: Any) -> str:
    return getattr(result, "verdict", None) or "not run"


def heading_line(document: Document, info: ClaimInfo) -> int | None:
    section = document.section(info.section) or document.section(info.top_section)
    return section.line if section else None
