"""Coverage: covered formulas, located figures and anchored statements over all of them, per
top-level section.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.gate.document import Document
from tmath.gate.findings import SectionCoverage

KINDS = ("formula", "figure", "statement")
"""What coverage counts (in this order in each section's breakdown)."""
Tally = Mapping[tuple[str, str | None], Mapping[str, list[int]]]
"""(document, top-level section) → kind → [covered, total]."""


def section_coverage(documents: Sequence[Document], infos: Sequence[ClaimInfo], tally: Tally,
                     held: Mapping[str, set[str]] | None = None) -> list[SectionCoverage]:
    """One row per top-level section of each document: what is covered, and by which claims
    (those of the section held to the document, and those pinned inside it)."""
    sections = []
    for document in documents:
        mine = [i for i in infos if held is None or document.path in held.get(i.id, ())]
        for section in document.top_sections():
            pinned = {c for p in document.pins if section.start <= p.start < section.end
                      for c in p.claims}
            claims = tuple(i.id for i in mine if i.top_section == section.number
                           or i.id in pinned)
            cells = tally.get((document.path, section.number), {})
            by_kind = tuple((k, *cells.get(k, [0, 0])) for k in KINDS)
            covered = sum(c for _, c, _ in by_kind)
            total = sum(t for _, _, t in by_kind)
            sections.append(SectionCoverage(document.path, section.number, section.title,
                                            section.line, covered, total, claims, by_kind))
    return sections
