"""Where a separator stands at the top level of LaTeX text: outside braces, brackets and
parentheses, and not part of a command (``\\&`` is a character, ``\\\\`` a row break)."""

from __future__ import annotations


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
