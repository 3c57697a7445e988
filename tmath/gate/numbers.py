"""Printed numbers in a document's text: where each figure is, its form and its role.

A *figure token* is one printed number as a reader sees it: ``8``, ``≈ 22.6`` (the number
only), ``61,400``, ``26 万``, ``92%``, ``16k``, ``1.6×10⁴``, ``1.6e4``, ``1/9770``,
``\\frac{1}{100}`` or a list ``[0.49, 0.30, 0.22]``. Its *form* is single, fraction or list;
its *role* is ``text`` (running text, inline math included) or ``formula`` (inside a display
formula): a figure is only ever read from a number in its own role.

Numbers that are exponents, subscripts, coefficients (2π) or parts of names (GPT-2) are
marked as not *plain*: the gate takes them only when the anchor ends right before them.
Matching is linear in the text (no pattern here can backtrack catastrophically).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tmath.engine.figures import strip_rough
from tmath.gate.document import Document

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_LNUM = r"\d+(?:\.\d+)?"
_APPROX = r"(?:(?:≈|~|约|\\approx)[ \t]*)?"
_LIST = (r"\[[ \t]*" + _APPROX + r"[-−]?" + _LNUM
         + r"(?:[ \t]*,[ \t]*" + _APPROX + r"[-−]?" + _LNUM + r"){0,63}[ \t]*\]")
_TEX_FRACTION = (r"\\[dt]?frac\{[ \t]*(?P<tnum>[-−]?(?:" + _NUM + r"))[ \t]*\}\{[ \t]*(?P<tden>"
                 + _NUM + r")[ \t]*\}")
_POWER = (r"(?:[eE][-−+]?\d{1,5}(?![\w])"
          r"|[ \t]*(?:×|·|\\times|\\cdot|x(?=[ \t]*10\^))[ \t]*10"
          r"(?:\^[ \t]*\{?[ \t]*[-−+]?\d{1,5}[ \t]*\}?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,5}))")
_NUMBER = (r"(?P<sign>[-−])?(?P<num>" + _NUM + r")(?P<power>" + _POWER + r")?"
           r"(?:[ \t]*/[ \t]*(?P<den>" + _NUM + r"))?"
           r"(?P<unit>[ \t]*[万亿%]|[kKMB](?![A-Za-z0-9]))?")
TOKEN = re.compile(f"(?P<list>{_LIST})|(?P<tex>{_TEX_FRACTION})|{_NUMBER}")
"""One printed figure. Each repetition is separated by a character the next one cannot start
with, so matching is linear (no catastrophic backtracking)."""

_COEFFICIENT_COMMANDS = {
    "pi", "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "phi", "varphi", "chi", "psi",
    "omega", "sqrt", "sin", "cos", "tan", "log", "ln", "exp", "mathbf", "mathrm", "mathcal",
    "hat", "bar", "tilde", "vec", "partial", "nabla", "infty", "frac",
}
Form = Literal["single", "fraction", "list"]
Role = Literal["text", "formula"]


def _is_letter(char: str) -> bool:
    return char.isascii() and char.isalpha() or "α" <= char <= "ω" or "Α" <= char <= "Ω"


@dataclass(frozen=True)
class Token:
    """One printed number: [start, end) in the document, its form and role, and whether it
    reads as a figure on its own (``plain``) or is an exponent, coefficient or name part."""

    start: int
    end: int
    form: Form
    role: Role = "text"
    plain: bool = True


def scan(document: Document, start: int, end: int, limit: int) -> tuple[list[Token], bool]:
    """The figure tokens starting in [start, end), at most ``limit`` (and whether there were
    more)."""
    text = document.masked
    tokens: list[Token] = []
    for match in TOKEN.finditer(text, start, min(len(text), end + 200)):
        if match.start() >= end:
            break
        token = classify(text, match)
        role: Role = "formula" if document.in_display(token.start) else "text"
        tokens.append(Token(token.start, token.end, token.form, role, token.plain))
        if len(tokens) > limit:
            return tokens[:limit], True
    return tokens, False


def token_at(document: Document, start: int) -> Token | None:
    """The figure token that starts exactly at ``start`` (None if a number does not start
    there: a search hit inside a longer number is not one)."""
    text = document.masked
    if start > 0 and (text[start - 1].isdigit() or text[start - 1] in ".," and start > 1
                      and text[start - 2].isdigit()):
        return None
    match = TOKEN.match(text, start)
    if not match:
        return None
    token = classify(text, match)
    role: Role = "formula" if document.in_display(token.start) else "text"
    return Token(token.start, token.end, token.form, role, token.plain)


def classify(text: str, match: re.Match) -> Token:
    start, end = match.start(), match.end()
    if match.group("list"):   # [12]: a reference number, not a list of one figure
        return Token(start, end, "list", plain=not text[start + 1:end - 1].strip().isdigit())
    if match.group("tex"):
        return Token(start, end, "fraction")
    form: Form = "fraction" if match.group("den") else "single"
    named = False
    if match.group("sign"):
        before = text[start - 1] if start else " "
        if before.isalnum() or before in ")]}%_^":
            named = _is_letter(before)  # a name such as GPT-2
            start += 1
    return Token(start, end, form, plain=not named and _plain_context(text, start, end))


def _citation_year(text: str, start: int, end: int) -> bool:
    """A year in a citation: ``(2017)``, ``(Vaswani et al., 2017)``, ``et al. 2017``."""
    digits = text[start:end]
    if len(digits) != 4 or not digits.isdigit() or not 1800 <= int(digits) <= 2099:
        return False
    before = text[max(0, start - 60):start]
    line = before.rsplit("\n", 1)[-1]
    opened = max(line.rfind("("), line.rfind("[")) > max(line.rfind(")"), line.rfind("]"))
    after = text[end:end + 1]
    return (opened and after in ");],") or "et al" in before[-16:]


def _plain_context(text: str, start: int, end: int) -> bool:
    """A number read on its own, not part of a name, exponent, subscript, product or version,
    nor a year in a citation."""
    if _citation_year(text, start, end):
        return False
    before = text[start - 1] if start else " "
    if _is_letter(before) or before in "_^.\\":
        return False  # part of a name, an exponent, a subscript or a version number
    if before in "{(" and start >= 2 and text[start - 2] in "^_":
        return False  # inside an exponent or subscript: x^{-0.5}, 10000^(2i/d)
    after = text[end] if end < len(text) else " "
    if _is_letter(after) or after in "^_":
        return False  # a coefficient (2π, 4d) or the base of a power (10^9)
    if after == "." and end + 1 < len(text) and text[end + 1].isdigit():
        return False  # 3.2.1
    if after == "\\":
        command = re.match(r"[A-Za-z]{1,12}", text[end + 1:end + 13])
        if command and command.group() in _COEFFICIENT_COMMANDS:
            return False  # 2\pi, 4\sqrt{d}
    return True


def form_of(printed: str) -> Form:
    """The form of a printed figure: a [list], a fraction (a/b), or one number."""
    core = strip_rough(printed)
    if core.startswith("["):
        return "list"
    if "/" in core or "\\frac" in core:
        return "fraction"
    return "single"


_TEX_FRAC_TEXT = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
r"""Spaces inside the braces are stripped afterwards: ``\{\s*([^{}]*?)\s*\}`` would retry the
spaces from every position, in quadratic time."""


def readable(text: str) -> str:
    """A document's printed figure in the syntax :mod:`tmath.engine.figures` reads."""
    text = text.replace("$", "").replace("\\approx", "≈").strip()
    return _TEX_FRAC_TEXT.sub(lambda m: f"{m.group(1).strip()}/{m.group(2).strip()}", text)


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def core(text: str) -> str:
    """A printed figure reduced for comparing quotes: no rough marks, spaces or thousands
    separators ("≈ 61,400" and "61400" are the same quote)."""
    text = readable(text)
    parts = text[1:-1].split(",") if text.startswith("[") and text.endswith("]") else None
    if parts is not None:
        return "[" + ",".join(core(p) for p in parts) + "]"
    text = strip_rough(text).replace("−", "-")
    return _THOUSANDS.sub("", re.sub(r"\s+", "", text))
