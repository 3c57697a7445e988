"""Judging display formulas: covered (a claim that verified records it, up to trivial
spelling), changed (a near match of a recorded formula), uncovered or missing.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Mapping, Sequence

from tmath.engine.model import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.document import Document, Math
from tmath.gate.figures import heading_line
from tmath.gate.findings import Finding


CHANGED_SIMILARITY = 0.8
"""A recorded formula and a document formula at least this similar (difflib ratio of their
normalised LaTeX) are the same formula, edited."""
MAX_COMPARED = 4_000
"""Characters of a normalised formula used for the similarity ratio (bounds the time)."""
MAX_CANDIDATES = 2_000
"""Document formulas compared with one recorded formula at most."""


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


def judge_formulas(documents: Sequence[Document], infos: Sequence[ClaimInfo],
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
            "formula", "missing", home.path, info.section, heading_line(home, info), info.id,
            recorded=recorded,
            detail=f"claim {info.id} vouches for a formula that is not in the document "
                   "(nor anything close to it)"))
    return findings
