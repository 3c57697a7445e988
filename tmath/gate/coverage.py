"""Coverage: covered formulas and located figures over all of them, per top-level section.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from tmath.engine.model import ClaimInfo
from tmath.gate.document import Document
from tmath.gate.findings import SectionCoverage


def section_coverage(documents: Sequence[Document], infos: Sequence[ClaimInfo],
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
