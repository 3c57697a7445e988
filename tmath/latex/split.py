"""Where a separator stands at the top level of LaTeX text: outside braces, brackets and
parentheses, and not part of a command (``\\&`` is a character, ``\\\\`` a row break); and
the rows of an environment such as a matrix, with where each starts."""

from __future__ import annotations

import re


def top_level(text: str, separator: str) -> list[int]:
    """Offsets of ``separator`` outside braces, brackets and parentheses."""
    found, depth, i = [], 0, 0
    while i < len(text):
        char = text[i]
        if char == "\\" and not text.startswith(separator, i):
            i += 2
            continue
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(separator, i):
            found.append(i)
            i += len(separator)
            continue
        i += 1
    return found


MATRIX = re.compile(r"\\begin\{([pbBvV]?matrix|array)\}(?:\{[^{}]*\})?(.*?)\\end\{\1\}", re.S)
"""A matrix environment; group 2 is its body."""


def rows(body: str) -> list[tuple[int, str]]:
    """The rows of an environment's body cut at its top-level ``\\\\``: where each starts (its
    first character that is not a space) and its text stripped; blank rows (spacing) left
    out."""
    cuts = [0] + [k + 2 for k in top_level(body, "\\\\")]
    found = []
    for a, b in zip(cuts, cuts[1:] + [len(body) + 2]):
        text = body[a:b].replace("\\\\", "")
        if text.strip():
            found.append((a + len(text) - len(text.lstrip()), text.strip()))
    return found
