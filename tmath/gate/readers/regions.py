"""What a reader finds in a text: the neutral result every format's reader returns."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


FORMULAS_KEPT = 5_000
INLINE_KEPT = 20_000
"""Display formulas a reader keeps; more are only counted (the gate judges at most
:data:`tmath.gate.document.MAX_FORMULAS`, fewer than this)."""


@dataclass(frozen=True)
class Heading:
    """A heading on line ``line`` (0-based) at ``level`` (1 = top).

    ``title_at`` is the column where its title starts (a number the title states is blanked
    up to it); ``number`` is set when the format itself numbers the heading (LaTeX), and
    ``numbered`` is False for a heading the format leaves unnumbered (``\\section*``).
    """

    line: int
    level: int
    title: str
    title_at: int = 0
    number: str | None = None
    numbered: bool = True


@dataclass(frozen=True)
class Display:
    """A formula (display or inline): ``start``/``end`` span its delimiters, ``latex`` is the formula as
    written and ``inner`` where it starts in the text (-1 when it could not be placed exactly,
    e.g. a formula split across lines of a block quote)."""

    start: int
    end: int
    inner: int
    latex: str


@dataclass(frozen=True)
class PinComment:
    """A ``tmath: ids`` comment: the claims, the comment's span and its line (0-based)."""

    claims: tuple[str, ...]
    line: int
    start: int
    end: int


@dataclass
class Regions:
    """The regions of one text a reader found; offsets index that text."""

    headings: list[Heading] = field(default_factory=list)
    formulas: list[Display] = field(default_factory=list)
    hidden: list[tuple[int, int]] = field(default_factory=list)
    """Spans that are not prose (code, comments, markup arguments): blanked in ``masked``."""
    pins: list[PinComment] = field(default_factory=list)
    unclosed: list[int] = field(default_factory=list)
    """Offsets of math delimiters never closed (the text after them is not read as math)."""
    notes: list[str] = field(default_factory=list)
    plain_headings: bool = False
    """Also read plain-text headings (``三、…``, ``3.2 …``) in prose lines (Markdown)."""
    skip_lines: set[int] = field(default_factory=set)
    """Lines (0-based) that are no prose heading: code, HTML, formulas, setext underlines."""
    uncounted: int = 0
    """Display formulas found beyond :data:`FORMULAS_KEPT` (only counted)."""
    inline: list[Display] = field(default_factory=list)
    """Inline formulas (``$…$``, ``\\(…\\)``, kramdown's ``$$…$$``), at most
    :data:`INLINE_KEPT`."""

    def add_inline(self, formula: Display) -> None:
        """Keep an inline formula (up to :data:`INLINE_KEPT`)."""
        if len(self.inline) < INLINE_KEPT:
            self.inline.append(formula)

    def add(self, formula: Display) -> None:
        """Keep a display formula (only count it beyond :data:`FORMULAS_KEPT`)."""
        if len(self.formulas) < FORMULAS_KEPT:
            self.formulas.append(formula)
        else:
            self.uncounted += 1


def line_starts(text: str) -> list[int]:
    """Offsets of the first character of each line of ``text`` (lines end with "\\n")."""
    starts, at = [0], text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def line_of(starts: list[int], offset: int) -> int:
    """0-based line index of ``offset``."""
    return bisect.bisect_right(starts, offset) - 1


def find_unescaped(text: str, needle: str, start: int, stop: int) -> int:
    """First offset of ``needle`` in ``text[start:stop]`` not preceded by an odd run of
    backslashes; -1 if there is none."""
    at = text.find(needle, start, stop)
    while at >= 0:
        slashes = 0
        while at - slashes - 1 >= start and text[at - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            return at
        at = text.find(needle, at + 1, stop)
    return -1


def comment_pins(text: str, start: int, stop: int, starts: list[int]) -> list[PinComment]:
    """``<!-- tmath: ids -->`` comments in ``text[start:stop]`` (a comment is at most 1,000
    characters long)."""
    pins = []
    at = text.find("<!--", start, stop)
    while at >= 0:
        close = text.find("-->", at + 4, min(stop, at + 1004))
        if close < 0:
            break
        pin = pin_claims(text[at + 4:close])
        if pin:
            pins.append(PinComment(pin, line_of(starts, at), at, close + 3))
        at = text.find("<!--", close + 3, stop)
    return pins


def pin_claims(comment: str) -> tuple[str, ...]:
    """The claim ids of a comment's text ``tmath: a, b`` (empty if it is no pin)."""
    inner = comment.strip()
    if not inner.startswith("tmath:"):
        return ()
    return tuple(p for p in inner[len("tmath:"):].replace(",", " ").split() if p)


def cell_at(cells: tuple[tuple[int, int], ...], line: int) -> tuple[int, int] | None:
    """(cell number, line in the cell) of ``line`` of a notebook's text, given (first line,
    cell number) of each cell; None without cells."""
    if not cells:
        return None
    k = max(0, bisect.bisect_right([first for first, _ in cells], line) - 1)
    return cells[k][1], line - cells[k][0] + 1
