"""The sections a report is grouped by: each claims folder's own, titled by its
``sections.json``.

A claims folder names its top-level sections in a ``sections.json`` next to its modules::

    {"sections": {"1": "Dice and their means", "2": "Sums of dice"}}

(an ``"about"`` key, or any other, is ignored). The built-in claims do the same in
``claims/sections.json``. Translations go in the folder's catalogs with the context
"section" (``python -m tmath.i18n extract --claims DIR`` writes them into ``sections.po``).

Sections of different folders are never merged: a user's §1 is not the built-in §1. A section
without a title is shown by its number, and :func:`problems` says what to add.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from tmath.i18n import Translator

FILE = "sections.json"


@dataclass
class Section:
    """One top-level section of one claims folder, with the results of its claims."""

    folder: Path
    number: str
    title: str | None
    anchor: str
    """An HTML id, unique in the report: ``s3`` for the first folder, ``s2-3`` for the second."""
    owner: str | None = None
    """Where the claims come from, when the report holds several folders and this is not the
    first (``my_claims/``); None otherwise."""
    results: list[Any] = field(default_factory=list)

    def heading(self, tr: Translator | None = None) -> str:
        """"3. Sinusoidal positional encodings" or, untitled, "§3"; with its folder when the
        report has several."""
        title = self.title if tr is None or self.title is None else \
            tr.section_title(self.title, self.folder)
        shown = f"{self.number}. {title}" if title else f"§{self.number}"
        return f"{shown} — {self.owner}" if self.owner else shown


def read_titles(folder: Path) -> tuple[dict[str, str], str | None]:
    """The titles a folder's ``sections.json`` gives, and why it could not be read (None when
    it was read, or when there is none)."""
    path = folder / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        return {}, f"cannot read it ({getattr(exc, 'strerror', None) or exc})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return {}, f"not JSON: {exc}"
    sections = data.get("sections") if isinstance(data, dict) else None
    if not isinstance(sections, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in sections.items()):
        return {}, 'expected {"sections": {"1": "title of section 1", ...}}'
    return {k.strip(): v.strip() for k, v in sections.items() if v.strip()}, None


def shown_folder(folder: Path) -> str:
    """A folder as a user names it: relative to the working directory when inside it."""
    try:
        relative = folder.resolve().relative_to(Path.cwd().resolve())
        return f"{relative}/" if str(relative) != "." else "./"
    except ValueError:
        return f"{folder}/"


def group(results: Sequence[Any]) -> list[Section]:
    """The report's sections in order: folders as loaded (the built-in claims first), then by
    section number; each holds its claims' results (anything with ``.info``) in order."""
    folders: dict[Path, int] = {}
    for result in results:
        folders.setdefault(Path(result.info.path).parent, len(folders))
    titles = {folder: read_titles(folder)[0] for folder in folders}
    sections: dict[tuple[int, str], Section] = {}
    for result in results:
        folder = Path(result.info.path).parent
        index, number = folders[folder], result.info.top_section
        if (index, number) not in sections:
            sections[(index, number)] = Section(
                folder, number, titles[folder].get(number),
                f"s{number}" if index == 0 else f"s{index + 1}-{number}",
                shown_folder(folder) if index else None)
        sections[(index, number)].results.append(result)
    return [sections[k] for k in sorted(sections, key=lambda k: (k[0], _order(k[1])))]


def _order(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdigit() else (1 << 30, number)


def problems(results: Sequence[Any]) -> list[str]:
    """One line per claims folder whose sections.json cannot be read or leaves a section
    without a title: what to write where."""
    lines = []
    for folder in dict.fromkeys(Path(r.info.path).parent for r in results):
        titles, why = read_titles(folder)
        where = f"{shown_folder(folder)}{FILE}"
        if why:
            lines.append(f"{where}: {why}; its sections are shown by their numbers")
            continue
        numbers = sorted({r.info.top_section for r in results
                          if Path(r.info.path).parent == folder} - set(titles), key=_order)
        if numbers:
            example = ", ".join(f'"{n}": "…"' for n in numbers[:3])
            lines.append(f"section{'s' if len(numbers) > 1 else ''} "
                         f"{', '.join(numbers)} of {shown_folder(folder)} "
                         f"{'have' if len(numbers) > 1 else 'has'} no title: name "
                         f"{'them' if len(numbers) > 1 else 'it'} in {where}, "
                         f'{{"sections": {{{example}}}}}')
    return lines
