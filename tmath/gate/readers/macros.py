"""A LaTeX source's own macros without arguments (``\\newcommand{\\dmodel}{d_{\\text{model}}}``),
expanded in its formulas before they are read for their meaning (the positions the gate
reports stay those of the formula as written)."""

from __future__ import annotations

import re

MAX_DEPTH = 5
"""Macros expanded inside macros at most this deep (a macro that names itself stops there)."""
_DEFINITION = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\s*\\([A-Za-z]+)\s*\}?\s*\{|\\def\s*\\([A-Za-z]+)\s*\{")


SHORTHAND = {"dmodel": r"d_{\text{model}}", "dff": r"d_{\text{ff}}", "dffn": r"d_{\text{ff}}"}
"""Shorthand for the model's widths that papers define in a preamble (the Transformer paper's
``\\dmodel``, ``\\dff``): read so in a part of a source whose preamble is elsewhere (a section
file checked alone), never over the source's own definition."""


def macros(source: str) -> dict[str, str]:
    """Each macro defined without arguments, by name (``[n]`` arguments are left alone), and
    each :data:`SHORTHAND` the source uses without defining it."""
    found = {}
    for match in _DEFINITION.finditer(source):
        body = _braced(source, match.end())
        if body is not None:
            found[match.group(1) or match.group(2)] = body
    for name, body in SHORTHAND.items():
        if name not in found and re.search(rf"\\{name}(?![A-Za-z])", source):
            found[name] = body
    return found


def _braced(text: str, start: int, limit: int = 2_000) -> str | None:
    """The text up to the brace that closes the one before ``start``."""
    depth = 1
    for at in range(start, min(len(text), start + limit)):
        char = text[at]
        if char == "\\":
            continue
        if char == "{" and text[at - 1] != "\\":
            depth += 1
        elif char == "}" and text[at - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[start:at]
    return None


def expand(latex: str, defined: dict[str, str]) -> str:
    """``latex`` with each macro of ``defined`` put in (braced), a few levels deep."""
    if not defined or "\\" not in latex:
        return latex
    pattern = re.compile(r"\\(" + "|".join(map(re.escape, sorted(defined, key=len,
                                                                  reverse=True))) + r")(?![A-Za-z])")
    for _ in range(MAX_DEPTH):
        expanded = pattern.sub(lambda m: "{" + defined[m.group(1)] + "}", latex)
        if expanded == latex:
            break
        latex = expanded
    return latex
