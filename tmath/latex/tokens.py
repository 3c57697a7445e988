"""Tokenizer: LaTeX math text to a flat tuple of tokens (no evaluation, bounded size)."""

from __future__ import annotations

from typing import NamedTuple

from tmath.latex.limits import MAX_CHARS, MAX_NESTING, MAX_NUMBER_DIGITS, MAX_TOKENS, Unreadable

TEXT_COMMANDS = frozenset({"text", "mathrm", "operatorname", "textrm", "textit", "mbox", "textnormal"})
SPACING = frozenset({",", ";", ":", "!", " ", "quad_inner", "displaystyle", "textstyle", "limits",
                     "nonumber", "notag", "left.", "right.", "big", "Big", "bigg", "Bigg",
                     # font sizes: how large it is printed, not what it says
                     "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large",
                     "Large", "LARGE", "huge", "Huge"})
DROPPED_WITH_ARGUMENT = frozenset({"label", "tag",
                                   # colours: how it is printed (\textcolor{red}{x} keeps x)
                                   "color", "textcolor", "colorbox"})
SINGLE = set("+-*/=<>()[]{}^_,;|&'!.:")
UNICODE_SIGNS = {"\u2212": "-"}
"""Characters a document may type for an operator: the minus sign U+2212 is "-"."""


class Token(NamedTuple):
    """kind: ``cmd`` (\\name), ``letter``, ``number``, ``text`` (content of \\text{…}), ``sym``."""
    kind: str
    value: str
    spaced: bool = False   # whitespace precedes it


def tokenize(source: str) -> tuple[Token, ...]:
    """Split ``source`` into tokens; raise :class:`Unreadable` on what the reader does not know."""
    if len(source) > MAX_CHARS:
        raise Unreadable(f"formula of {len(source)} characters (at most {MAX_CHARS} are read): "
                         "split it into smaller formulas")
    out: list[Token] = []
    i, n, spaced, depth = 0, len(source), False, 0
    while i < n:
        c = source[i]
        if c.isspace() or c == "~":
            spaced, i = True, i + 1
            continue
        if c == "%":   # a TeX comment: the rest of the line is not typeset
            end = source.find("\n", i)
            spaced, i = True, n if end < 0 else end + 1
            continue
        if c == "\\":
            i, token = _command(source, i)
            if token is None:
                spaced = True
                continue
            if token.value in DROPPED_WITH_ARGUMENT:
                i = _skip_group(source, i)
                continue
            out.append(token._replace(spaced=spaced))
        elif c.isdigit() or (c == "." and i + 1 < n and source[i + 1].isdigit()):
            j = i
            while j < n and (source[j].isdigit() or (source[j] == "." and j + 1 < n
                                                      and source[j + 1].isdigit())):
                j += 1
            if j - i > MAX_NUMBER_DIGITS:
                raise Unreadable(f"a number of {j - i} digits: not read")
            out.append(Token("number", source[i:j], spaced))
            i = j
        elif c.isascii() and c.isalpha():
            out.append(Token("letter", c, spaced))
            i += 1
        elif c == "." and source.startswith("...", i):
            out.append(Token("cmd", "ldots", spaced))
            i += 3
        elif c in UNICODE_SIGNS:   # a minus sign typed as one character, as MathJax reads it
            out.append(Token("sym", UNICODE_SIGNS[c], spaced))
            i += 1
        elif c in SINGLE:
            if c in "([{":
                depth += 1
                if depth > MAX_NESTING:
                    raise Unreadable(f"groups nested more than {MAX_NESTING} deep: not read")
            elif c in ")]}":
                depth -= 1
            out.append(Token("sym", c, spaced))
            i += 1
        else:
            raise Unreadable(f"character {c!r} outside \\text{{…}}: write it as a LaTeX command")
        spaced = False
        if len(out) > MAX_TOKENS:
            raise Unreadable(f"more than {MAX_TOKENS} tokens: split the formula")
    return tuple(out)


def _command(source: str, i: int) -> tuple[int, Token | None]:
    """Read the command at ``source[i] == '\\\\'``; text commands take their braced content raw."""
    j = i + 1
    if j >= len(source):
        raise Unreadable("a lone backslash at the end of the formula")
    if not source[j].isalpha():
        name = source[j]
        if name in SPACING:
            return j + 1, None
        if name == "\\":
            return j + 1, Token("cmd", "\\\\")
        return j + 1, Token("cmd", name)      # \| \{ \} \_
    while j < len(source) and source[j].isalpha():
        j += 1
    name = source[i + 1:j]
    if name in ("left", "right") and j < len(source) and source[j] == ".":
        return j + 1, None
    if name in SPACING or name in ("left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr"):
        return j, None
    if name in TEXT_COMMANDS:
        while j < len(source) and source[j].isspace():
            j += 1
        end = _skip_group(source, j)
        return end, Token("text", f"{name}:{source[j + 1:end - 1]}")
    return j, Token("cmd", name)


def _skip_group(source: str, j: int) -> int:
    """Index after the braced group starting at ``source[j]`` (raises when there is none)."""
    while j < len(source) and source[j].isspace():
        j += 1
    if j >= len(source) or source[j] != "{":
        raise Unreadable("a command that needs a {…} argument has none")
    depth = 0
    for k in range(j, min(len(source), j + MAX_CHARS)):
        if source[k] == "{":
            depth += 1
            if depth > MAX_NESTING:
                raise Unreadable(f"groups nested more than {MAX_NESTING} deep: not read")
        elif source[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    raise Unreadable("an unclosed { in the formula")


def split_at(tokens, at) -> list[list[Token]]:
    """``tokens`` split at the commands or symbols in ``at`` that stand outside brackets,
    braces (``{`` or ``\\{``) and environments; empty parts dropped."""
    parts, current, depth = [], [], 0
    for tok in tokens:
        if tok.value in ("begin", "{") or (tok.kind == "sym" and tok.value in "(["):
            depth += 1
        elif tok.value in ("end", "}") or (tok.kind == "sym" and tok.value in ")]"):
            depth -= 1
        if depth == 0 and tok.value in at and tok.kind in ("cmd", "sym"):
            parts.append(current)
            current = []
        else:
            current.append(tok)
    parts.append(current)
    return [p for p in parts if p]
