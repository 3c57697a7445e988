"""The markdown-it parser the Markdown reader uses, and its rules for math.

CommonMark with tables, mdit-py-plugins' ``$$`` blocks and amsmath environments, and rules of
our own: ``\\(…\\)`` and ``\\[…\\]`` (texmath's bracket rules give the block no source map
and copy the rest of the text at each try), ``$…$``/``$$…$$`` inside paragraphs, and inline
parsing only where a paragraph can hold code, math or HTML. Every search for a closing
delimiter is bounded or remembered, so a text full of unclosed delimiters is read in linear
time.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

from tmath.gate.readers.regions import line_of

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

MAX_BLOCK_LINES = 400
"""Lines a display formula may span; an opening delimiter not closed within them is text."""
MAX_INLINE_MATH = 20_000
"""Characters a formula inside a paragraph may span."""
_DOLLAR_CLOSE = re.compile(r"\$\$[ \t]*(?:\([^)\n]*\))?[ \t]*$", re.MULTILINE)
_END_ENVIRONMENT = re.compile(r"\\end\{[a-zA-Z]+\*?\}[ \t]*$", re.MULTILINE)


@lru_cache(maxsize=1)
def parser() -> "MarkdownIt":
    """CommonMark with tables, ``$``/``$$`` (Pandoc's rules: no space inside, no digit after
    the closing ``$``, so prices are not math), amsmath environments, ``\\(…\\)`` and
    ``\\[…\\]``; the math block rules bounded (:func:`_bounded`)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark").enable("table")
    md.disable(["emphasis", "link", "image", "autolink", "entity"])  # prose either way: not read
    md.disable("text_join")
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    md.inline.ruler.at("math_inline", _dollar_inline)
    md.core.ruler.at("inline", _inline_where_needed)
    md.use(amsmath_plugin)
    md.use(front_matter_plugin)  # a blog post's "---" header is no heading and no prose
    block = md.block.ruler
    for name, closers in (("math_block", "dollar"), ("amsmath", "environment")):
        rule = block.__rules__[block.__find__(name)]
        block.at(name, _bounded(rule.fn, closers), {"alt": rule.alt})
    block.before("fence", "math_block_bracket", _bracket_block,
                 {"alt": ["paragraph", "reference", "blockquote", "list"]})
    # a Markdown source writes \\( to show MathJax \( once its escape is rendered: both read
    for opening, closing in (("\\\\(", "\\\\)"), ("\\\\[", "\\\\]"), ("\\(", "\\)"), ("\\[", "\\]")):
        md.inline.ruler.before("escape", _RULE_NAMES[opening], _inline_rule(opening, closing))
    return md


_INLINE_TRIGGERS = ("`", "$", "\\", "<")
"""Characters without which a paragraph holds nothing the reader needs (code, math, HTML)."""
MAX_CLOSING_TRIES = 8


def _inline_where_needed(state: Any) -> None:
    """markdown-it's core ``inline`` rule, run only on paragraphs and headings that hold a
    code span, math or HTML: plain prose is left as it is (four times faster on prose)."""
    md = state.md
    for token in state.tokens:
        if token.type == "inline":
            token.children = []
            content = token.content
            if any(c in content for c in _INLINE_TRIGGERS):
                md.inline.parse(content, md, state.env, token.children)


def _dollar_inline(state: Any, silent: bool) -> bool:
    """``$$…$$`` inside a paragraph (it may stand on lines of its own) and ``$…$`` (Pandoc's
    rules: no space inside the dollars, no digit after the closing one). Each search is
    bounded, so a paragraph of dollars is read in linear time."""
    src, pos = state.src, state.pos
    if src[pos] != "$":
        return False
    stop = min(len(src), pos + MAX_INLINE_MATH)
    if src.startswith("$$", pos):
        close = src.find("$$", pos + 2, stop)
        if close < 0:
            return False
        content = src[pos + 2:close]
        if content.strip() and not silent:
            token = state.push("math_inline_double", "math", 0)
            token.content, token.markup = content, "$$"
        state.pos = close + 2
        return True
    if pos + 1 >= len(src) or src[pos + 1] in " \t\n":
        return False
    close = src.find("$", pos + 1, stop)
    for _ in range(MAX_CLOSING_TRIES):
        if close < 0:
            return False
        after = src[close + 1:close + 2]
        if src[close - 1] not in " \t\n\\" and not after.isdigit() and after != "$":
            if not silent:
                token = state.push("math_inline", "math", 0)
                token.content, token.markup = src[pos + 1:close], "$"
            state.pos = close + 1
            return True
        close = src.find("$", close + 1, stop)
    return False


def closing_lines(text: str, starts: list[int]) -> dict[str, list[int]]:
    """The lines (0-based, ascending) that could close each kind of display block."""
    def lines(pattern: re.Pattern[str] | str) -> list[int]:
        if isinstance(pattern, str):
            found, at = [], text.find(pattern)
            while at >= 0:
                found.append(line_of(starts, at))
                at = text.find(pattern, at + 1)
            return sorted(set(found))
        return sorted({line_of(starts, m.start()) for m in pattern.finditer(text)})

    return {"dollar": lines(_DOLLAR_CLOSE), "environment": lines(_END_ENVIRONMENT),
            "bracket": lines("\\]")}


def _bounded(rule: Callable[..., bool], kind: str) -> Callable[..., bool]:
    """``rule`` tried only when a line that could close it lies within MAX_BLOCK_LINES, and
    searching no further than that line."""
    def bounded(state: Any, start: int, end: int, silent: bool) -> bool:
        closers = state.env.get("closers", {}).get(kind) if isinstance(state.env, dict) else None
        if closers is None:
            return rule(state, start, min(end, start + MAX_BLOCK_LINES), silent)
        k = bisect.bisect_left(closers, start)
        if k == len(closers) or closers[k] >= min(end, start + MAX_BLOCK_LINES):
            return False
        return rule(state, start, min(end, start + MAX_BLOCK_LINES), silent)
    return bounded


def _bracket_block(state: Any, start: int, end: int, silent: bool) -> bool:
    """``\\[ … \\]`` starting a line and closed at the end of a line (within MAX_BLOCK_LINES)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("\\[", begin):
        return False
    closers = state.env.get("closers", {}).get("bracket", []) if isinstance(state.env, dict) \
        else []
    k = bisect.bisect_left(closers, start)
    while k < len(closers) and closers[k] < min(end, start + MAX_BLOCK_LINES):
        line = closers[k]
        close = state.src.find("\\]", begin + 2 if line == start else state.bMarks[line],
                               state.eMarks[line])
        if close >= 0 and not state.src[close + 2:state.eMarks[line]].strip():
            if not silent:
                token = state.push("math_block", "math", 0)
                token.block = True
                token.content = state.src[begin + 2:close]
                token.markup = "\\["
                token.map = [start, line + 1]
            state.line = line + 1
            return True
        if close >= 0:
            return False  # closed with text after it: an inline formula of the paragraph
        k += 1
    return False


_RULE_NAMES = {"\\(": "math_inline_paren", "\\[": "math_inline_bracket",
               "\\\\(": "math_inline_paren_escaped", "\\\\[": "math_inline_bracket_escaped"}


def _inline_rule(opening: str, closing: str) -> Callable[[Any, bool], bool]:
    """An inline rule for ``opening … closing`` (MathJax's ``\\(…\\)``, ``\\[…\\]``, and
    the same with the backslash escaped for Markdown, ``\\\\(…\\\\)``)."""
    name, width = _RULE_NAMES[opening].replace("_escaped", ""), len(opening)

    def rule(state: Any, silent: bool) -> bool:
        if not state.src.startswith(opening, state.pos):
            return False
        close = _next(state, closing, state.pos + width)
        if close < 0 or close > state.pos + width + MAX_INLINE_MATH \
                or not state.src[state.pos + width:close].strip():
            return False
        if not silent:
            token = state.push(name, "math", 0)
            token.content = state.src[state.pos + width:close]
            token.markup = opening
        state.pos = close + len(closing)
        return True
    return rule


def _next(state: Any, needle: str, start: int) -> int:
    """``state.src.find(needle, start)``, remembered per paragraph: a paragraph of unclosed
    ``\\(`` is searched once, not once for each."""
    memory = state.env.setdefault("next", {}) if isinstance(state.env, dict) else {}
    key = (id(state.src), needle)
    searched, found = memory.get(key, (None, -1))
    if searched is not None and searched <= start and (found < 0 or found >= start):
        return found
    found = state.src.find(needle, start)
    memory[key] = (start, found)
    return found


