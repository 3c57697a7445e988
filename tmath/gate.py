"""The documentation gate: hold a document to the claims that vouch for it.

For each figure a claim records, the gate finds the figure in the claim's section of the
document: the text printed near it (``near``; whitespace and ``$`` ignored), then the first
number printed after it in the same form as the claim's (one number, a ``[list]``, or a
fraction ``a/b``). Numbers that are exponents, subscripts, coefficients (2π) or parts of names
(GPT-2) are skipped, unless the anchor ends right before them. When the anchor text itself
holds the figure as a whole number (near="用 0.1"), that number is taken; such a figure can
only be reported missing, never inaccurate, when the document edits it, so anchors should end
before the figure. The number is read as the *document* prints it and compared with
the value the claim computed, at the precision printed (or the claim's rough tolerance):

* ``accurate`` / ``inaccurate`` (printed vs true, relative error, line), or
* ``missing``: the anchor is not in the section any more, so the claim needs review, or
* ``unverified``: the claim could not compute its true value.

Each display formula of the document is ``covered`` (a claim that verified records it, up to
whitespace and trivial spelling such as ``\\left``/``\\right`` and thin spaces), ``changed``
(a claim recorded a formula that is no longer there, and this one is its near match: both
are shown), or ``uncovered``. A recorded formula with no near match is ``missing``.

Coverage counts the document's display formulas and the claims' figures: covered formulas
and located figures over all of them, per section and overall.

This module reads text only; it never evaluates it.
"""

from __future__ import annotations

import bisect
import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence

from tmath.document import MAX_LINE, Document, Math, valid_claim_id
from tmath.figures import compare, show_values
from tmath.model import ClaimInfo, Figure, FigureInfo
from tmath.results import PASSING

if TYPE_CHECKING:
    from tmath.results import ClaimResult

CHANGED_SIMILARITY = 0.8
"""A recorded formula and a document formula at least this similar (difflib ratio of their
normalised LaTeX) are the same formula, edited."""
MAX_COMPARED = 4_000
"""Characters of a normalised formula used for the similarity ratio (bounds the time)."""
MAX_CANDIDATES = 2_000
"""Document formulas compared with one recorded formula at most."""
MAX_OCCURRENCES = 10_000
"""Occurrences of one anchor tried per section at most (bounds the time on hostile input)."""

Kind = Literal["figure", "formula", "anchor"]
FAILING = {"inaccurate", "missing", "unverified", "changed", "unknown"}

# -- reading printed numbers ------------------------------------------------------------------

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_LNUM = r"\d+(?:\.\d+)?"
_APPROX = r"(?:(?:≈|~|约|\\approx)[ \t]*)?"
_LIST = (r"\[[ \t]*" + _APPROX + r"[-−]?" + _LNUM
         + r"(?:[ \t]*,[ \t]*" + _APPROX + r"[-−]?" + _LNUM + r"){0,63}[ \t]*\]")
_TEX_FRACTION = (r"\\[dt]?frac\{[ \t]*(?P<tnum>[-−]?(?:" + _NUM + r"))[ \t]*\}\{[ \t]*(?P<tden>"
                 + _NUM + r")[ \t]*\}")
_NUMBER = (r"(?P<sign>[-−])?(?P<num>" + _NUM + r")(?:[ \t]*/[ \t]*(?P<den>" + _NUM + r"))?"
           r"(?P<unit>[ \t]*[万亿%])?")
TOKEN = re.compile(f"(?P<list>{_LIST})|(?P<tex>{_TEX_FRACTION})|{_NUMBER}")
"""One printed figure. Each repetition is separated by a character the next one cannot start
with, so matching is linear (no catastrophic backtracking)."""

_GREEK = "α-ωΑ-Ω"
_COEFFICIENT_COMMANDS = {
    "pi", "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "phi", "varphi", "chi", "psi",
    "omega", "sqrt", "sin", "cos", "tan", "log", "ln", "exp", "mathbf", "mathrm", "mathcal",
    "hat", "bar", "tilde", "vec", "partial", "nabla", "infty", "frac",
}
Form = Literal["single", "fraction", "list"]


def _is_letter(char: str) -> bool:
    return char.isascii() and char.isalpha() or "α" <= char <= "ω" or "Α" <= char <= "Ω"


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    form: Form


class Numbers:
    """Every printed figure of a document, by form, in order (computed once per document).

    ``starts``/``ends`` hold the figures the gate takes after an anchor; ``raw_*`` also hold
    numbers whose context marks them as something else (an exponent, a subscript, a
    coefficient, part of a name), which are taken only when the anchor ends right before them.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        forms = ("single", "fraction", "list")
        self.starts: dict[str, list[int]] = {f: [] for f in forms}
        self.ends: dict[str, list[int]] = {f: [] for f in forms}
        self.raw_starts: dict[str, list[int]] = {f: [] for f in forms}
        self.raw_ends: dict[str, list[int]] = {f: [] for f in forms}
        for match in TOKEN.finditer(text):
            token, accepted = self._classify(match)
            self.raw_starts[token.form].append(token.start)
            self.raw_ends[token.form].append(token.end)
            if accepted:
                self.starts[token.form].append(token.start)
                self.ends[token.form].append(token.end)

    def _classify(self, match: re.Match) -> tuple[Token, bool]:
        text, start, end = self.text, match.start(), match.end()
        if match.group("list"):
            return Token(start, end, "list"), True
        if match.group("tex"):
            return Token(start, end, "fraction"), True
        form: Form = "fraction" if match.group("den") else "single"
        named = False
        if match.group("sign"):
            before = text[start - 1] if start else " "
            if before.isalnum() or before in ")]}%_^":
                named = _is_letter(before)  # a name such as GPT-2
                start += 1
        token = Token(start, end, form)
        return token, not named and _plain_context(text, start, end)

    def first(self, form: Form, start: int, end: int, raw: bool = False) -> Token | None:
        """The first figure of ``form`` starting in [start, end)."""
        starts = (self.raw_starts if raw else self.starts)[form]
        k = bisect.bisect_left(starts, start)
        if k < len(starts) and starts[k] < end:
            return Token(starts[k], (self.raw_ends if raw else self.ends)[form][k], form)
        return None


def _plain_context(text: str, start: int, end: int) -> bool:
    """A number read on its own, not part of a name, exponent, subscript, product or version."""
    before = text[start - 1] if start else " "
    if _is_letter(before) or before in "_^.\\":
        return False  # part of a name, an exponent, a subscript or a version number
    if before in "{(" and start >= 2 and text[start - 2] in "^_":
        return False  # inside an exponent or subscript: x^{-0.5}, 10000^(2i/d)
    after = text[end] if end < len(text) else " "
    if _is_letter(after) or after in "^_":
        return False  # a coefficient (2π, 4d) or the base of a power (10^9)
    if after == "." and end + 1 < len(text) and text[end + 1].isdigit():
        return False  # 3.2.1
    if after == "\\":
        command = re.match(r"[A-Za-z]{1,12}", text[end + 1:end + 13])
        if command and command.group() in _COEFFICIENT_COMMANDS:
            return False  # 2\pi, 4\sqrt{d}
    return True


def form_of(printed: str) -> Form:
    """The form of a printed figure: a [list], a fraction (a/b), or one number."""
    core = _strip_approx(printed)
    if core.startswith("["):
        return "list"
    if "/" in core or "\\frac" in core:
        return "fraction"
    return "single"


def _strip_approx(text: str) -> str:
    text = text.strip().replace("$", "")
    while True:
        for prefix in ("≈", "~", "约", "\\approx"):
            if text.startswith(prefix):
                text = text[len(prefix):].strip()
                break
        else:
            return text


def readable(text: str) -> str:
    """A document's printed figure in the syntax :mod:`tmath.figures` reads."""
    text = text.replace("$", "").replace("\\approx", "≈").strip()
    match = re.fullmatch(r"\\[dt]?frac\{\s*([^{}]*?)\s*\}\{\s*([^{}]*?)\s*\}", text)
    if match:
        return f"{match.group(1)}/{match.group(2)}"
    return text


# -- findings and the report ------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """One figure, formula or anchor of the document and what the gate found."""

    kind: Kind
    status: str
    document: str
    section: str | None
    line: int | None
    claim: str | None = None
    claims: tuple[str, ...] = ()
    column: int | None = None
    label: str = ""
    printed: str | None = None
    claim_printed: str | None = None
    expected: tuple[float, ...] | None = None
    relative_error: float | None = None
    tolerance: str = ""
    located: str = ""
    formula: str | None = None
    recorded: str | None = None
    similarity: float | None = None
    detail: str = ""

    @property
    def failing(self) -> bool:
        return self.status in FAILING

    @property
    def warning(self) -> bool:
        return self.status == "uncovered"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "status": self.status, "document": self.document,
                             "section": self.section, "line": self.line, "column": self.column,
                             "claim": self.claim,
                             "claims": list(self.claims or ((self.claim,) if self.claim else ()))}
        if self.kind == "figure":
            expected = list(self.expected) if self.expected is not None else None
            d.update(label=self.label, printed=self.printed, claim_printed=self.claim_printed,
                     expected=expected[0] if expected and len(expected) == 1 else expected,
                     relative_error=self.relative_error, tolerance=self.tolerance,
                     located=self.located)
        elif self.kind == "formula":
            d.update(formula=self.formula, recorded=self.recorded, similarity=self.similarity)
        d["detail"] = self.detail
        return d


@dataclass(frozen=True)
class SectionCoverage:
    """How much of one top-level section the claims check."""

    document: str
    number: str
    title: str
    line: int
    covered: int
    total: int
    claims: tuple[str, ...]

    @property
    def percent(self) -> float | None:
        return 100.0 * self.covered / self.total if self.total else None

    def to_dict(self) -> dict[str, Any]:
        return {"document": self.document, "section": self.number, "title": self.title,
                "line": self.line, "covered": self.covered, "total": self.total,
                "percent": _round(self.percent), "claims": list(self.claims)}


@dataclass
class Report:
    """Everything the gate found in a set of documents."""

    documents: tuple[str, ...]
    findings: list[Finding]
    sections: list[SectionCoverage]
    covered: int
    total: int
    min_coverage: float = 0.0
    claims: tuple[str, ...] = ()
    unverified_claims: tuple[tuple[str, str, str], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def coverage(self) -> float | None:
        return 100.0 * self.covered / self.total if self.total else None

    @property
    def coverage_ok(self) -> bool:
        if self.coverage is None:
            return self.min_coverage <= 0
        return self.coverage + 1e-9 >= self.min_coverage

    @property
    def failures(self) -> list[Finding]:
        return [f for f in self.findings if f.failing]

    @property
    def passed(self) -> bool:
        return not self.failures and self.coverage_ok

    def count(self, kind: str, status: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind and f.status == status)

    def sections_without_claims(self) -> list[SectionCoverage]:
        return [s for s in self.sections if not s.claims]

    def summary(self) -> dict[str, Any]:
        return {
            "figures": {s: self.count("figure", s)
                        for s in ("accurate", "inaccurate", "missing", "unverified")},
            "formulas": {s: self.count("formula", s)
                         for s in ("covered", "changed", "uncovered", "missing")},
            "anchors": {"unknown": self.count("anchor", "unknown")},
            "claims": len(self.claims),
            "unverified_claims": [{"claim": c, "verdict": v, "reason": r}
                                  for c, v, r in self.unverified_claims],
            "coverage": _round(self.coverage),
            "min_coverage": self.min_coverage,
            "passed": self.passed,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.documents[0] if len(self.documents) == 1 else list(self.documents),
            "findings": [f.to_dict() for f in self.findings],
            "coverage": {
                "percent": _round(self.coverage), "covered": self.covered, "total": self.total,
                "min_coverage": self.min_coverage,
                "sections": [s.to_dict() for s in self.sections],
                "sections_without_claims": [
                    {"document": s.document, "section": s.number, "title": s.title}
                    for s in self.sections_without_claims()],
                "uncovered_formulas": self.count("formula", "uncovered"),
            },
            "summary": self.summary(),
            "notes": list(self.notes),
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


# -- locating figures -------------------------------------------------------------------------

@dataclass(frozen=True)
class Located:
    document: Document
    start: int
    end: int
    how: str


class _Index:
    """Per-document caches: printed numbers and squeezed text."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.numbers = Numbers(document.masked)
        self.squeezed, self.offsets = document.squeezed()

    def squeezed_range(self, start: int, end: int) -> tuple[int, int]:
        return (bisect.bisect_left(self.offsets, start), bisect.bisect_left(self.offsets, end))


def squeeze(text: str) -> str:
    return re.sub(r"[\s$]+", "", text)


def _digit_boundary(text: str, start: int, end: int) -> bool:
    """The span [start, end) does not cut a number in two."""
    first, last = text[start], text[end - 1]
    if first.isdigit() and start > 0 and (text[start - 1].isdigit() or text[start - 1] == "."
                                          and start > 1 and text[start - 2].isdigit()):
        return False
    if last.isdigit() and end < len(text) and (text[end].isdigit() or text[end] in ".,"
                                               and end + 1 < len(text) and text[end + 1].isdigit()):
        return False
    return True


def locate(index: _Index, scopes: Iterable[tuple[int, int, str]], near: str, printed: str
           ) -> Located | None:
    """Where a figure is printed: in the first scope whose text contains its anchor."""
    form = form_of(printed)
    needle = squeeze(near)
    core = squeeze(_strip_approx(printed))
    text = index.document.masked
    for start, end, where in scopes:
        if not needle:
            token = index.numbers.first(form, start, end)
            if token:
                return Located(index.document, token.start, token.end, f"first in {where}")
            continue
        s_start, s_end = index.squeezed_range(start, end)
        at = index.squeezed.find(needle, s_start, s_end)
        for _ in range(MAX_OCCURRENCES):
            if at < 0:
                break
            a_start = index.offsets[at]
            a_end = index.offsets[at + len(needle) - 1] + 1
            if _digit_boundary(text, a_start, a_end):
                inside = _inside(index, at, needle, core, text)
                if inside:
                    return Located(index.document, *inside, f"inside the anchor in {where}")
                token = _right_after(index, form, a_end, end) or index.numbers.first(form, a_end, end)
                if token:
                    return Located(index.document, token.start, token.end,
                                   f"after the anchor in {where}")
            at = index.squeezed.find(needle, at + 1, s_end)
    return None


def _inside(index: _Index, at: int, needle: str, core: str, text: str) -> tuple[int, int] | None:
    """The figure, when the anchor text itself contains it as a whole number (near="用 0.1")."""
    if not core:
        return None
    k = needle.find(core)
    while k >= 0:
        start = index.offsets[at + k]
        end = index.offsets[at + k + len(core) - 1] + 1
        if _whole_number(text, start, end):
            return start, end
        k = needle.find(core, k + 1)
    return None


def _whole_number(text: str, start: int, end: int) -> bool:
    """[start, end) is a whole printed number, not a piece of a longer number or fraction."""
    before = text[start - 1] if start else " "
    before2 = text[start - 2] if start >= 2 else " "
    if before.isdigit() or before in "./^_" or (before == "," and before2.isdigit()):
        return False
    after = text[end] if end < len(text) else " "
    after2 = text[end + 1] if end + 1 < len(text) else " "
    return not (after.isdigit() or after in "/^" or (after in ".," and after2.isdigit()))


def _right_after(index: _Index, form: Form, at: int, end: int) -> Token | None:
    """A number of ``form`` printed right after the anchor (only spaces or ``$`` between),
    taken whatever its context: the anchor points at it."""
    text = index.document.masked
    limit = min(end, at + 200)
    while at < limit and (text[at].isspace() or text[at] == "$"):
        at += 1
    return index.numbers.first(form, at, at + 1, raw=True) if at < limit else None


def _scopes(document: Document, info: ClaimInfo) -> list[tuple[int, int, str]]:
    """Where a claim's figures may be: its pinned paragraphs, its sub-section, its section."""
    scopes = [(p.start, p.end, f"the paragraph pinned at line {p.line}")
              for p in document.pins if info.id in p.claims]
    for number in dict.fromkeys((info.section, info.top_section)):
        section = document.section(number)
        if section is not None:
            scopes.append((section.start, section.end, f"§{number}"))
    return scopes


# -- formulas ---------------------------------------------------------------------------------

_SPACING = re.compile(r"\\(?:[,;:! ]|q?quad(?![A-Za-z])|displaystyle|textstyle|limits|nolimits)|~")
_SIZED = re.compile(r"\\(?:left|right)\.|\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])")
_TEXT = re.compile(r"\\(?:mathrm|textrm|operatorname|textnormal|mbox|rm)(?![A-Za-z])")
_FRAC = re.compile(r"\\[dt]frac(?![A-Za-z])")
_BRACED = re.compile(r"([_^])\{([A-Za-z0-9])\}")
_TRAILING = re.compile(r"[,.;，。；]+$")


def normalise(latex: str) -> str:
    """LaTeX up to whitespace and trivial spelling: \\left/\\right, thin spaces, \\dfrac,
    \\mathrm vs \\text, x^{2} vs x^2, a trailing comma or full stop."""
    text = _SIZED.sub("", latex)
    text = _SPACING.sub("", text)
    text = _TEXT.sub(r"\\text", text)
    text = _FRAC.sub(r"\\frac", text)
    text = re.sub(r"\s+", "", text)
    text = _BRACED.sub(r"\1\2", text)
    return _TRAILING.sub("", text)


def similarity(a: str, b: str) -> float:
    a, b = a[:MAX_COMPARED], b[:MAX_COMPARED]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < CHANGED_SIMILARITY or matcher.quick_ratio() < CHANGED_SIMILARITY:
        return 0.0
    return matcher.ratio()


# -- the gate ---------------------------------------------------------------------------------

def check(documents: Sequence[Document], infos: Sequence[ClaimInfo],
          results: Mapping[str, "ClaimResult"], min_coverage: float = 0.0,
          known_ids: Iterable[str] = ()) -> Report:
    """Hold ``documents`` to the claims ``infos`` given their verification ``results``.

    ``known_ids`` are all claim ids that exist (to report anchors naming an unknown claim).
    """
    indexes = [_Index(d) for d in documents]
    findings: list[Finding] = []
    # (document, top section) -> [covered, total]
    tally: dict[tuple[str, str | None], list[int]] = {}

    def count(document: Document, section: str | None, covered: bool) -> None:
        cell = tally.setdefault((document.path, section), [0, 0])
        cell[0] += covered
        cell[1] += 1

    known = set(known_ids) | {i.id for i in infos}
    findings += _anchor_findings(documents, known)
    for info in infos:
        result = results.get(info.id)
        for k, figure in enumerate(info.figures):
            finding = _figure(indexes, info, figure, _figure_result(result, k, figure), result)
            findings.append(finding)
            document = _document(documents, finding.document)
            count(document, _top(finding.section or info.top_section), finding.status != "missing")
    formula_findings = _formulas(documents, infos, results)
    for finding in formula_findings:
        document = _document(documents, finding.document)
        count(document, _top(finding.section), finding.status == "covered")
    findings += formula_findings
    order = {d.path: k for k, d in enumerate(documents)}
    findings.sort(key=lambda f: (order[f.document], f.line is None, f.line or 0, f.column or 0,
                                 {"anchor": 0, "formula": 1, "figure": 2}[f.kind]))
    sections = _coverage(documents, infos, tally)
    covered = sum(c for c, _ in tally.values())
    total = sum(t for _, t in tally.values())
    unverified = tuple((i.id, results[i.id].verdict, results[i.id].reason)
                       for i in infos if i.id in results
                       and results[i.id].verdict not in PASSING)
    notes = tuple(f"{d.path}:{n}: the line is longer than the {MAX_LINE} characters the gate "
                  "reads; the rest of it is ignored" for d in documents
                  for n in d.truncated_lines[:5])
    notes += tuple(f"{d.path}:{n}: '$$' is never closed; the text after it is not read as math"
                   for d in documents for n in d.unclosed_math[:5])
    return Report(tuple(d.path for d in documents), findings, sections, covered, total,
                  min_coverage, tuple(i.id for i in infos), unverified, notes=notes)


def _top(section: str | None) -> str | None:
    return section.split(".")[0] if section else None


def _document(documents: Sequence[Document], path: str) -> Document:
    return next(d for d in documents if d.path == path)


def _figure_result(result: Any, k: int, figure: FigureInfo) -> Any:
    if result is None:
        return None
    if k < len(result.figures) and result.figures[k].label == figure.label:
        return result.figures[k]
    return next((f for f in result.figures if f.label == figure.label), None)


def _figure(indexes: list[_Index], info: ClaimInfo, figure: FigureInfo, computed: Any,
            result: Any) -> Finding:
    found = None
    pinned_first = sorted(indexes, key=lambda i: not any(info.id in p.claims
                                                         for p in i.document.pins))
    for index in pinned_first:
        found = locate(index, _scopes(index.document, info), figure.near, figure.printed)
        if found:
            break
    if found is None:
        home = _home(indexes, info)
        where = f"§{info.section}" if home.section(info.top_section) else \
            f"§{info.top_section} (not in the document)"
        anchor = f"text {figure.near!r}" if figure.near else f"a {form_of(figure.printed)} figure"
        return Finding("figure", "missing", home.path, info.section, _heading_line(home, info),
                       info.id, label=figure.label, claim_printed=figure.printed,
                       expected=_true(computed),
                       detail=f"{anchor} not found in {where}: the document changed, "
                              f"review claim {info.id}")
    document = found.document
    printed = document.text[found.start:found.end]
    section = document.section_at(found.start)
    line = document.line_of(found.start)
    common = dict(kind="figure", document=document.path,
                  section=section.number if section else None, line=line,
                  column=found.start - document.line_starts[line - 1] + 1,
                  claim=info.id, label=figure.label, printed=printed.strip(),
                  claim_printed=figure.printed, located=found.how)
    true = _true(computed)
    if not true:
        reason = getattr(computed, "detail", "") or (
            f"claim {result.verdict}: {result.reason}" if result is not None
            else "the claim was not run")
        return Finding(status="unverified", detail=reason, **common)
    outcome = compare(Figure(figure.label, readable(printed), lambda: true, figure.near,
                             figure.rough, figure.rel_tol))
    if outcome.status == "error":
        return Finding(status="inaccurate", expected=true, detail=outcome.detail, **common)
    detail = ""
    if outcome.status == "inaccurate":
        detail = f"printed {printed.strip()}, true {_show(true)}"
    return Finding(status=outcome.status, expected=true, relative_error=outcome.relative_error,
                   tolerance=outcome.tolerance, detail=detail, **common)


def _true(computed: Any) -> tuple[float, ...] | None:
    if computed is None or not computed.true_value:
        return None
    return tuple(computed.true_value)


def _show(values: Sequence[float]) -> str:
    return show_values(values)


def _home(indexes: list[_Index], info: ClaimInfo) -> Document:
    """The document a claim belongs to: the first with its section (or pinned), else the first."""
    for index in indexes:
        d = index.document
        if any(info.id in p.claims for p in d.pins) or d.section(info.top_section):
            return d
    return indexes[0].document


def _heading_line(document: Document, info: ClaimInfo) -> int | None:
    section = document.section(info.section) or document.section(info.top_section)
    return section.line if section else None


def _anchor_findings(documents: Sequence[Document], known: set[str]) -> list[Finding]:
    found = []
    for document in documents:
        for pin in document.pins:
            for claim_id in pin.claims:
                if claim_id in known:
                    continue
                section = document.section_at(pin.start)
                why = "is not a claim id" if not valid_claim_id(claim_id) else "names no claim"
                found.append(Finding("anchor", "unknown", document.path,
                                     section.number if section else None, pin.line, claim_id,
                                     detail=f"anchor '<!-- tmath: {claim_id} -->' {why}; "
                                            "`tmath list` shows the ids"))
    return found


def _formulas(documents: Sequence[Document], infos: Sequence[ClaimInfo],
              results: Mapping[str, Any]) -> list[Finding]:
    shown: dict[tuple[str, int], tuple[Document, Math, str]] = {}
    by_text: dict[str, list[tuple[str, int]]] = {}
    for document in documents:
        for k, math in enumerate(document.formulas):
            norm = normalise(math.latex)
            shown[(document.path, k)] = (document, math, norm)
            by_text.setdefault(norm, []).append((document.path, k))
    vouching: dict[tuple[str, int], list[str]] = {}
    unmatched: list[tuple[ClaimInfo, str, str]] = []
    for info in infos:
        for recorded in dict.fromkeys(info.formulas):
            norm = normalise(recorded)
            if norm in by_text:
                for key in by_text[norm]:
                    vouching.setdefault(key, []).append(info.id)
            else:
                unmatched.append((info, recorded, norm))
    # near matches among the formulas no claim records as they stand
    free = [key for key in shown if key not in vouching]
    changed: dict[tuple[str, int], list[tuple[ClaimInfo, str, float]]] = {}
    lost: list[tuple[ClaimInfo, str]] = []
    for info, recorded, norm in unmatched:
        best = _near(shown, free, info, norm)
        if best is None:
            lost.append((info, recorded))
        else:
            key, ratio = best
            changed.setdefault(key, []).append((info, recorded, ratio))
    findings = []
    for key, (document, math, _) in shown.items():
        section = document.section_at(math.start)
        common = dict(kind="formula", document=document.path,
                      section=section.number if section else None, line=math.line,
                      column=math.start - document.line_starts[math.line - 1] + 1,
                      formula=math.latex)
        ids = vouching.get(key, [])
        good = [c for c in ids if getattr(results.get(c), "verdict", None) in PASSING]
        if good:
            findings.append(Finding(status="covered", claim=good[0], claims=tuple(good), **common))
        elif key in changed:
            edits = changed[key]
            info, recorded, ratio = max(edits, key=lambda e: e[2])
            claims = tuple(dict.fromkeys(e[0].id for e in edits))
            findings.append(Finding(
                status="changed", claim=claims[0], claims=claims, recorded=recorded,
                similarity=round(ratio, 3),
                detail=f"claim {', '.join(claims)} vouched for a different formula "
                       f"(similarity {ratio:.0%}); review the claim or the document", **common))
        elif ids:
            verdicts = ", ".join(f"{c} ({getattr(results.get(c), 'verdict', 'not run')})"
                                 for c in ids)
            findings.append(Finding(status="uncovered", claim=ids[0], claims=tuple(ids),
                                    detail=f"recorded by {verdicts}, which did not verify",
                                    **common))
        else:
            findings.append(Finding(status="uncovered", **common))
    for info, recorded in lost:
        home = documents[0]
        for document in documents:
            if document.section(info.top_section):
                home = document
                break
        findings.append(Finding(
            "formula", "missing", home.path, info.section, _heading_line(home, info), info.id,
            recorded=recorded,
            detail=f"claim {info.id} vouches for a formula that is not in the document "
                   "(nor anything close to it)"))
    return findings


def _near(shown: Mapping[tuple[str, int], tuple[Document, Math, str]],
          free: list[tuple[str, int]], info: ClaimInfo, norm: str
          ) -> tuple[tuple[str, int], float] | None:
    """The document formula most similar to a recorded one: first in the claim's section."""
    def in_section(key: tuple[str, int]) -> bool:
        document, math, _ = shown[key]
        section = document.section_at(math.start)
        return bool(section) and section.top == info.top_section

    for pool in ([k for k in free if in_section(k)], free):
        best, best_ratio = None, 0.0
        for key in pool[:MAX_CANDIDATES]:
            ratio = similarity(norm, shown[key][2])
            if ratio > best_ratio:
                best, best_ratio = key, ratio
        if best is not None and best_ratio >= CHANGED_SIMILARITY:
            return best, best_ratio
    return None


def _coverage(documents: Sequence[Document], infos: Sequence[ClaimInfo],
              tally: Mapping[tuple[str, str | None], list[int]]) -> list[SectionCoverage]:
    sections = []
    for document in documents:
        pinned = {c for p in document.pins for c in p.claims}
        for section in document.top_sections():
            claims = tuple(i.id for i in infos if i.top_section == section.number
                           or (i.id in pinned and any(
                               i.id in p.claims and section.start <= p.start < section.end
                               for p in document.pins)))
            covered, total = tally.get((document.path, section.number), [0, 0])
            sections.append(SectionCoverage(document.path, section.number, section.title,
                                            section.line, covered, total, claims))
    return sections
