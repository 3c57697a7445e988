"""Jupyter notebooks (nbformat): only Markdown cells are read; code, raw cells and outputs never.

The Markdown cells are joined into one text, a blank line between two cells, and read as
Markdown; :class:`NotebookText` keeps where each cell starts so that a finding says "cell 4,
line 2" (cells are numbered from 1 as they stand in the notebook, code cells included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tmath.errors import UsageError


@dataclass(frozen=True)
class NotebookText:
    """The Markdown cells' text and (first line in it, cell number) of each cell."""

    text: str
    starts: tuple[tuple[int, int], ...]
    file_lines: tuple[int, ...] = ()
    """For each line of :attr:`text`, its line in the notebook file (0 where not known: the
    blank line between two cells, or a cell whose source the file does not hold line by
    line), so that a CI annotation can point into the ``.ipynb`` itself."""


def parse_notebook(text: str, path: str) -> Any:
    """The notebook (nbformat 4); anything else is a one-line :class:`UsageError`."""
    import nbformat

    try:
        notebook = nbformat.reads(text, as_version=4)
    except Exception as exc:  # nbformat raises JSON, validation and version errors alike
        reason = " ".join(str(exc).split())[:160] or type(exc).__name__
        raise UsageError(f"{path} is not a Jupyter notebook nbformat can read ({reason})") \
            from None
    if not isinstance(notebook.get("cells"), list):
        raise UsageError(f"{path} is not a Jupyter notebook (it has no list of cells)")
    return notebook


def markdown_cells(text: str, path: str) -> NotebookText:
    """The Markdown cells of the notebook ``text`` (the file's contents)."""
    notebook = parse_notebook(text, path)
    pieces, starts, line, lines = [], [], 1, []
    found = _Finder(text)
    for index, cell in enumerate(notebook.cells):
        if cell.get("cell_type") != "markdown":
            continue
        raw = cell.get("source", "")
        source = "".join(raw) if isinstance(raw, list) else str(raw)
        source = source.replace("\r\n", "\n").replace("\r", "\n")
        starts.append((line, index + 1))
        pieces.append(source)
        line += source.count("\n") + 2  # the cell's lines and the blank line after it
        lines += found.lines_of(source, source.count("\n") + 1)
        lines.append(0)
    return NotebookText("\n\n".join(pieces), tuple(starts), tuple(lines))


class _Finder:
    """Where each string of a cell's source is printed in the notebook file, searched in
    order (each JSON-encoded as Jupyter writes it, with or without escaped non-ASCII)."""

    def __init__(self, raw: str) -> None:
        import bisect

        self.raw, self.at = raw, 0
        self.starts = [0] + [k + 1 for k, c in enumerate(raw) if c == "\n"]
        self.line = lambda offset: bisect.bisect_right(self.starts, offset)

    def lines_of(self, source: str, count: int) -> list[int]:
        """The file line of each of a cell's ``count`` lines: each line of its source as one
        string of a list (Jupyter's layout), else the whole source as one string."""
        lines = [self._find(part) for part in source.splitlines(keepends=True)]
        if lines and not lines[0]:
            whole = self._find(source)
            lines = [whole] * count
        return (lines + [0] * count)[:count]

    def _find(self, part: str) -> int:
        import json

        spots = [self.raw.find(json.dumps(part, ensure_ascii=a), self.at) for a in (False, True)]
        spot = min((s for s in spots if s >= 0), default=-1)
        if spot < 0:
            return 0
        self.at = spot + 1
        return self.line(spot)


def rewrite_cells(raw: str, path: str, cells: tuple[tuple[int, int], ...],
                  fixed: list[str]) -> str:
    """The notebook file ``raw`` with its Markdown cells' sources replaced by ``fixed`` (one per
    Markdown cell, in order), written by nbformat; a notebook that cannot be written back
    exactly so (not laid out as nbformat writes it, or with line endings the text changed) is
    a one-line :class:`UsageError`, and nothing is written."""
    import nbformat

    def refuse(why: str) -> UsageError:
        return UsageError(f"{path}: --fix cannot write this notebook ({why}); correct the "
                          "cells by hand as the diff of --fix shows")

    notebook = nbformat.reads(raw, as_version=nbformat.NO_CONVERT)
    if notebook.get("nbformat") != 4:
        raise refuse(f"nbformat {notebook.get('nbformat')}, not 4")
    if nbformat.writes(notebook) + "\n" != raw:
        raise refuse("it is not laid out as Jupyter writes it, so rewriting it would change "
                     "more than the corrected cells")
    markdown = [cell for cell in notebook.cells if cell.get("cell_type") == "markdown"]
    if len(markdown) != len(fixed) or len(cells) != len(fixed):
        raise refuse("its cells are not the cells that were checked")
    for cell, source in zip(markdown, fixed):
        old = cell.source if isinstance(cell.source, str) else "".join(cell.source)
        if "\r" in old:
            raise refuse("a cell has carriage returns")
        if old != source:
            cell.source = source
    return nbformat.writes(notebook) + "\n"
