"""Tables a document prints, as rows of cells placed in its text.

A LaTeX ``tabular`` (rows cut at ``\\\\``, cells at ``&``; rules, ``\\rule``, comments and
``\\multirow`` wrappers left out, a ``\\multicolumn`` spanning its columns) and a Markdown pipe
table (``| a | b |``, its ``|---|`` line left out) become one :class:`Table`: its header (the
rows before the first row whose first cell is filled and some other cell holds a number; a
column's header is its header cells joined) and its body rows. Each cell keeps
where it starts in the document's text, so a finding is on the cell's line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document


@dataclass(frozen=True)
class Cell:
    text: str
    start: int


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


_TABULAR = re.compile(r"\\begin\{tabular\*?\}(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})+(.*?)\\end\{tabular\*?\}",
                      re.S)
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^}]*\}|cmidrule(?:\([^)]*\))?"
                    r"\{[^}]*\}|rule\{[^}]*\}\{[^}]*\}|vspace\{[^}]*\}|noalign\{[^}]*\})")
_MULTIROW = re.compile(r"\\multirow\{[^}]*\}\{[^}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_MULTICOLUMN = re.compile(r"^\s*\\multicolumn\{(\d+)\}\{[^}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}\s*$")
_NUMBER = re.compile(r"\d")


def tables_in(document: Document) -> list[Table]:
    """Every LaTeX tabular (in a LaTeX source) or Markdown pipe table of the document."""
    text = document.text
    if document.kind == "latex":
        return [t for m in _TABULAR.finditer(text) for t in [_latex(text, m.start(1), m.end(1))]
                if t is not None]
    return _pipe_tables(document)


def _latex(text: str, start: int, end: int) -> Table | None:
    body = text[start:end]
    blanked = re.sub(r"(?<!\\)%[^\n]*", lambda m: " " * len(m.group()), body)
    blanked = _RULES.sub(lambda m: " " * len(m.group()), blanked)
    rows, at = [], 0
    for piece in _split(blanked, "\\\\"):
        cells, offset = [], at
        for part in _split(piece, "&"):
            span = _MULTICOLUMN.match(part)
            inner = span.group(2) if span else part
            inner = _MULTIROW.sub(lambda m: m.group(1), inner)
            lead = len(part) - len(part.lstrip())
            cells += [Cell(inner.strip(), start + offset + lead)] * (int(span.group(1)) if span else 1)
            offset += len(part) + 1
        at += len(piece) + 2
        if any(c.text for c in cells):
            rows.append(tuple(cells))
    return _table(rows)


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at ``separator`` outside braces (and not escaped)."""
    parts, depth, last, k = [], 0, 0, 0
    while k < len(text):
        c = text[k]
        if c == "\\" and text.startswith(separator, k) and depth == 0:
            parts.append(text[last:k])
            k += len(separator)
            last = k
            continue
        if c == "\\":
            k += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif c == separator and depth == 0:
            parts.append(text[last:k])
            last = k + 1
        k += 1
    parts.append(text[last:])
    return parts


def _pipe_tables(document: Document) -> list[Table]:
    text, starts = document.text, document.line_starts
    lines = text.split("\n")
    tables, current, heads = [], [], []
    for number, line in enumerate(lines):
        if line.lstrip().startswith("|") and line.rstrip().endswith("|"):
            if re.fullmatch(r"\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*", line):
                heads.append(len(current)) if len(heads) == len(tables) else None
                continue
            cells, cursor = [], starts[number] + line.index("|") + 1
            for part in line.strip()[1:-1].split("|"):
                lead = len(part) - len(part.lstrip())
                cells.append(Cell(part.strip(), cursor + lead))
                cursor += len(part) + 1
            current.append(tuple(cells))
        elif current:
            tables.append(current)
            heads += [None] * (len(tables) - len(heads))
            current = []
    if current:
        tables.append(current)
        heads += [None] * (len(tables) - len(heads))
    return [t for t in map(_table, tables, heads) if t is not None]


def _table(rows: list[tuple[Cell, ...]], head: int | None = None) -> Table | None:
    """The header and the rows of values: a Markdown table's header is the rows above its
    delimiter row (``| --- |``); else the rows before the first with a number in it."""
    first = head if head else next((k for k, row in enumerate(rows) if row and row[0].text
                                    and any(_NUMBER.search(c.text) for c in row[1:])), None)
    if not first:
        return None   # no header, or no row of values
    width = max(len(r) for r in rows)
    header = tuple(" ".join(r[k].text for r in rows[:first] if k < len(r)).strip()
                   for k in range(width))
    return Table(header, tuple(rows[first:]))
