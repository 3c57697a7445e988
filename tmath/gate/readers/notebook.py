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
    pieces, starts, line = [], [], 1
    for index, cell in enumerate(notebook.cells):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        source = source.replace("\r\n", "\n").replace("\r", "\n")
        starts.append((line, index + 1))
        pieces.append(source)
        line += source.count("\n") + 2  # the cell's lines and the blank line after it
    return NotebookText("\n\n".join(pieces), tuple(starts))


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
