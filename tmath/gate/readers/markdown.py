"""Markdown: CommonMark (markdown-it-py) with the math of MyST and MathJax (mdit-py-plugins).

* display formulas: a ``$$…$$`` block, ``\\[ … \\]``, an amsmath environment
  (``\\begin{align}`` …, starred too), and a ``$$…$$`` or ``\\[…\\]`` inside a paragraph that
  stands on lines of its own; one with prose on its line (kramdown's inline ``$$``) is inline;
* ``$…$`` and ``\\( … \\)`` are inline formulas (also ``\\\\( … \\\\)``, the backslash escaped
  so that the rendered page shows MathJax ``\\(``);
* code is never read: fenced and indented code blocks, code spans and HTML markup (inline
  tags; in an HTML block its tags, entities, comments and its ``pre``, ``code``, ``script``,
  ``style``, ``svg``, ``math`` and ``table`` elements) are not prose, and no formula is found
  in them; the words an HTML block shows (a figure's caption) are prose;
  ``<!-- tmath: id -->`` comments pin;
* headings (ATX and setext) open sections; prose lines are also read for plain-text headings;
* a YAML front matter and link reference definitions (``[1]: https://…``) are not prose.

markdown-it gives block tokens their lines but inline tokens no offsets: each code span and
formula of a paragraph is found again in the source, in order, from where the previous one
ended. The parser and its rules for math are :mod:`~tmath.gate.readers.markdown_rules`.
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Any, Iterable, Iterator

from tmath.gate.readers.markdown_rules import closing_lines, parser
from tmath.gate.readers.regions import (Display, Heading, Regions, comment_pins, find_unescaped,
                                        line_of, line_starts)

if TYPE_CHECKING:
    from markdown_it.token import Token

_BLOCK_MATH = {"math_block", "math_block_label", "math_block_eqno"}
_INLINE_MATH = {"math_inline": ("$", "$"), "math_inline_double": ("$$", "$$"),
                "math_inline_paren": ("\\(", "\\)"), "math_inline_bracket": ("\\[", "\\]")}
_TRAILING = {"", ".", ",", ";", ":"}


def read_markdown(text: str) -> Regions:
    """The headings, display formulas, code and pins of a Markdown text."""
    starts = line_starts(text)
    env: dict[str, Any] = {"closers": closing_lines(text, starts)}
    tokens = parser().parse(text, env)
    regions = Regions(plain_headings=True)
    covered = bytearray(len(starts))  # lines some block holds (the others: link definitions)
    for k, token in enumerate(tokens):
        if token.map is None:
            continue
        first, last = token.map
        if token.level == 0:
            covered[first:last + (token.type == "amsmath")] = b"\1" * (
                last + (token.type == "amsmath") - first)
        span = (starts[first], _line_end(text, starts, last - 1))
        if token.type in ("fence", "code_block", "front_matter"):
            regions.hidden.append(span)
            regions.skip_lines.update(range(first, last))
        elif token.type == "html_block":
            regions.hidden += _html_markup(text, *span)
            regions.pins += comment_pins(text, span[0], span[1], starts)
        elif token.type in _BLOCK_MATH or token.type == "amsmath":
            last = last + 1 if token.type == "amsmath" else last  # amsmath maps its last line
            span = (starts[first], _line_end(text, starts, last - 1))
            for formula in _block_formulas(text, span, token):
                regions.add(formula)
            regions.skip_lines.update(range(first, last))
        elif token.type == "heading_open" and token.level == 0:
            regions.headings.append(_heading(text, starts, token, tokens[k + 1]))
            regions.skip_lines.update(range(first, last))
        elif token.type == "inline":
            _read_inline(text, starts, span, token, regions)
        elif token.type == "blockquote_open":
            regions.hidden += _quote_markers(text, starts, first, last)
    for line in (i for i, held in enumerate(covered) if not held):
        end = _line_end(text, starts, line)
        if text[starts[line]:end].strip():  # "[1]: https://…": a link's address, not prose
            regions.hidden.append((starts[line], end))
            regions.skip_lines.add(line)
    return regions


_QUOTE_MARKER = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+")


def _quote_markers(text: str, starts: list[int], first: int, last: int) -> list[tuple[int, int]]:
    """The ``>`` that open each line of a blockquote: hidden, so that a sentence that runs
    over several quoted lines reads as one."""
    found = []
    for line in range(first, last):
        marker = _QUOTE_MARKER.match(text, starts[line])
        if marker and ">" in marker.group():
            found.append((marker.start(), marker.end()))
    return found


_HTML_MARKUP = re.compile(
    r"<(script|style|pre|code|svg|math|textarea|table)\b.*?</\1\s*>|<!--.*?-->|<[^<>]*>|&\w+;",
    re.S | re.I)


def _html_markup(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """An HTML block's markup (tags, comments, entities, and the whole of its code, script
    and style elements): hidden, so that the words a reader sees (a figure's caption) are
    prose."""
    return [(m.start(), m.end()) for m in _HTML_MARKUP.finditer(text, start, end)]


def _line_end(text: str, starts: list[int], line: int) -> int:
    """Offset of the end of line ``line`` (its "\\n" excluded)."""
    line = min(line, len(starts) - 1)
    return starts[line + 1] - 1 if line + 1 < len(starts) else len(text)


def _block_formulas(text: str, span: tuple[int, int], token: "Token") -> Iterable[Display]:
    """The formulas of a math block token, placed in the source: ``$$a$$$$b$$`` is two."""
    if token.type == "amsmath":
        at = text.find(token.content, span[0], span[1] + 1)
        if at >= 0:
            return [Display(at, at + len(token.content), at, token.content)]
        return [Display(span[0], span[1], -1, token.content.strip())]
    opening = token.markup
    closing = "\\]" if opening == "\\[" else "$$"
    open_at = text.find(opening, span[0], span[1])
    close_at = text.rfind(closing, span[0], span[1])
    if open_at < 0 or close_at <= open_at:
        return [Display(span[0], span[1], -1, token.content.strip())] \
            if token.content.strip() else []
    if text[open_at + len(opening):close_at] != token.content:
        return [Display(open_at, close_at + 2, -1, token.content.strip())] \
            if token.content.strip() else []
    return _glued(token.content, open_at + len(opening), len(opening))


def _glued(content: str, at: int, opening: int) -> Iterator[Display]:
    """The formulas of a block's content (``a$$$$b``: two) that starts at ``at``."""
    pieces = content.split("$$") if opening == 2 and "$$" in content else [content]
    for k, piece in enumerate(pieces):
        if k % 2 == 0 and piece.strip():
            inner = at + len(piece) - len(piece.lstrip())
            yield Display(at - opening, at + len(piece) + 2, inner, piece.strip())
        at += len(piece) + 2


def _heading(text: str, starts: list[int], opening: "Token", inline: "Token") -> Heading:
    """An ATX (``## Title``) or setext (``Title`` over ``===``) heading."""
    first = opening.map[0] if opening.map else 0
    line = text[starts[first]:_line_end(text, starts, first)]
    level = int(opening.tag[1:]) if opening.tag[1:].isdigit() else 1
    title = inline.content.strip()
    if opening.markup.startswith("#"):
        stripped = line.lstrip(" ")
        rest = stripped.lstrip("#")
        title_at = len(line) - len(rest) + (len(rest) - len(rest.lstrip()))
    else:
        title_at = len(line) - len(line.lstrip())
    return Heading(first, level, title, title_at)


def _read_inline(text: str, starts: list[int], span: tuple[int, int], token: "Token",
                 regions: Regions) -> None:
    """Place the code spans, formulas and HTML of a paragraph (or heading) in the source."""
    cursor, stop = span
    for child in token.children or ():
        if child.type == "code_inline":
            placed = _code_span(text, cursor, stop, len(child.markup))
            if placed:
                regions.hidden.append(placed)
                cursor = placed[1]
        elif child.type in _INLINE_MATH:
            opening, closing = _INLINE_MATH[child.type]
            if child.markup in ("\\\\(", "\\\\["):   # escaped for Markdown: \\( … \\)
                opening, closing = child.markup, "\\" + closing
            placed = _inline_math(text, cursor, stop, opening, closing, child.content)
            if placed is None:
                continue
            start, end, inner = placed
            cursor = end
            latex = child.content.strip()
            if inner >= 0:
                inner += len(child.content) - len(child.content.lstrip())
            if not latex:
                continue
            if opening in ("$$", "\\[") and _own_lines(text, start, end):
                regions.add(Display(start, end, inner, latex))
                regions.skip_lines.update(range(line_of(starts, start), line_of(starts, end) + 1))
            else:
                regions.add_inline(Display(start, end, inner, latex))
        elif child.type == "html_inline":
            at = text.find(child.content, cursor, stop)
            if at >= 0:
                regions.hidden.append((at, at + len(child.content)))
                regions.pins += comment_pins(text, at, at + len(child.content), starts)
                cursor = at + len(child.content)
        elif child.type == "text" and "$$" in child.content:
            at = find_unescaped(text, "$$", cursor, stop)
            if at >= 0:
                regions.unclosed.append(at)


def _code_span(text: str, start: int, stop: int, ticks: int) -> tuple[int, int] | None:
    """The next code span opened by exactly ``ticks`` backticks: (start, end)."""
    opening = _backtick_run(text, start, stop, ticks)
    if opening < 0:
        return None
    closing = _backtick_run(text, opening + ticks, stop, ticks)
    return (opening, closing + ticks) if closing >= 0 else None


def _backtick_run(text: str, start: int, stop: int, ticks: int) -> int:
    at = text.find("`" * ticks, start, stop)
    while at >= 0:
        end = at
        while end < stop and text[end] == "`":
            end += 1
        if end - at == ticks and (at == start or text[at - 1] != "`"):
            return at
        at = text.find("`" * ticks, end, stop)
    return -1


def _inline_math(text: str, start: int, stop: int, opening: str, closing: str,
                 content: str) -> tuple[int, int, int] | None:
    """(start, end, inner) of the next formula ``opening content closing``; inner is -1 when
    the content is not as written (a formula over lines of a block quote, say)."""
    whole = opening + content + closing
    at = find_unescaped(text, whole, start, stop)
    if at >= 0:
        return at, at + len(whole), at + len(opening)
    at = find_unescaped(text, opening, start, stop)
    if at < 0:
        return None
    end = text.find(closing, at + len(opening), stop)
    return (at, end + len(closing), -1) if end >= 0 else None


def _own_lines(text: str, start: int, end: int) -> bool:
    """Nothing but spaces (or a block quote's ``>``) before ``start`` on its line, and at most a
    punctuation mark after ``end`` on its line: a displayed formula, not kramdown's inline."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return not text[line_start:start].strip(" \t>") and text[end:line_end].strip() in _TRAILING
