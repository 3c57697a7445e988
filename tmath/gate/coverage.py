"""Coverage: covered formulas and located figures over all of them, per top-level section.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from tmath.engine.model import ClaimInfo
from tmath.gate.document import Document
from tmath.gate.findings import SectionCoverage


def section_coverage(documents: Sequence[Document], infos: Sequence[ClaimInfo],
                     tally: Mapping[tuple[str, str | None], list[int]],
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
            covered, total = tally.get((document.path, section.number), [0, 0])
            sections.append(SectionCoverage(document.path, section.number, section.title,
                                            section.line, covered, total, claims))
    return sections
