"""Printed numbers in a document's text: where each figure is and in which form.

Numbers that are exponents, subscripts, coefficients (2π) or parts of names (GPT-2) are
kept apart: the gate takes them only when an anchor ends right before them. Matching is
linear in the text (no pattern here can backtrack catastrophically).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Literal


_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_LNUM = r"\d+(?:\.\d+)?"
_APPROX = r"(?:(?:≈|~|约|\\approx)[ \t]*)?"
_LIST = (r"\[[ \t]*" + _APPROX + r"[-−]?" + _LNUM
         + r"(?:[ \t]*,[ \t]*" + _APPROX + r"[-−]?" + _LNUM + r"){0,63}[ \t]*\]")
_TEX_FRACTION = (r"\\[dt]?frac\{[ \t]*(?P<tnum>[-−]?(?:" + _NUM + r"))[ \t]*\}\{[ \t]*(?P<tden>"
                 + _NUM + r")[ \t]*\}")
_NUMBER = (r"(?P<sign>[-−])?(?P<num>" + _NUM + r")(?:[ \t]*/[ \t]*(?P<den>" + _NUM + r"))?"
           r"(?P<unit>[ \t]*[万亿%])?")
TOKEN = re.compile(f"(?P<list>{_LIST})|(?P<tex>{_TEX_FRACTION})|{_NUMBER}")
"""One printed figure. Each repetition is separated by a character the next one cannot start
with, so matching is linear (no catastrophic backtracking)."""

_GREEK = "α-ωΑ-Ω"
_COEFFICIENT_COMMANDS = {
    "pi", "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "phi", "varphi", "chi", "psi",
    "omega", "sqrt", "sin", "cos", "tan", "log", "ln", "exp", "mathbf", "mathrm", "mathcal",
    "hat", "bar", "tilde", "vec", "partial", "nabla", "infty", "frac",
}
Form = Literal["single", "fraction", "list"]


def _is_letter(char: str) -> bool:
    return char.isascii() and char.isalpha() or "α" <= char <= "ω" or "Α" <= char <= "Ω"


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    form: Form


class Numbers:
    """Every printed figure of a document, by form, in order (computed once per document).

    ``starts``/``ends`` hold the figures the gate takes after an anchor; ``raw_*`` also hold
    numbers whose context marks them as something else (an exponent, a subscript, a
    coefficient, part of a name), which are taken only when the anchor ends right before them.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        forms = ("single", "fraction", "list")
        self.starts: dict[str, list[int]] = {f: [] for f in forms}
        self.ends: dict[str, list[int]] = {f: [] for f in forms}
        self.raw_starts: dict[str, list[int]] = {f: [] for f in forms}
        self.raw_ends: dict[str, list[int]] = {f: [] for f in forms}
        for match in TOKEN.finditer(text):
            token, accepted = self._classify(match)
            self.raw_starts[token.form].append(token.start)
            self.raw_ends[token.form].append(token.end)
            if accepted:
                self.starts[token.form].append(token.start)
                self.ends[token.form].append(token.end)

    def _classify(self, match: re.Match) -> tuple[Token, bool]:
        text, start, end = self.text, match.start(), match.end()
        if match.group("list"):
            return Token(start, end, "list"), True
        if match.group("tex"):
            return Token(start, end, "fraction"), True
        form: Form = "fraction" if match.group("den") else "single"
        named = False
        if match.group("sign"):
            before = text[start - 1] if start else " "
            if before.isalnum() or before in ")]}%_^":
                named = _is_letter(before)  # a name such as GPT-2
                start += 1
        token = Token(start, end, form)
        return token, not named and _plain_context(text, start, end)

    def first(self, form: Form, start: int, end: int, raw: bool = False) -> Token | None:
        """The first figure of ``form`` starting in [start, end)."""
        starts = (self.raw_starts if raw else self.starts)[form]
        k = bisect.bisect_left(starts, start)
        if k < len(starts) and starts[k] < end:
            return Token(starts[k], (self.raw_ends if raw else self.ends)[form][k], form)
        return None


def _plain_context(text: str, start: int, end: int) -> bool:
    """A number read on its own, not part of a name, exponent, subscript, product or version."""
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
    core = _strip_approx(printed)
    if core.startswith("["):
        return "list"
    if "/" in core or "\\frac" in core:
        return "fraction"
    return "single"


def _strip_approx(text: str) -> str:
    text = text.strip().replace("$", "")
    while True:
        for prefix in ("≈", "~", "约", "\\approx"):
            if text.startswith(prefix):
                text = text[len(prefix):].strip()
                break
        else:
            return text


def readable(text: str) -> str:
    """A document's printed figure in the syntax :mod:`tmath.figures` reads."""
    text = text.replace("$", "").replace("\\approx", "≈").strip()
    match = re.fullmatch(r"\\[dt]?frac\{\s*([^{}]*?)\s*\}\{\s*([^{}]*?)\s*\}", text)
    if match:
        return f"{match.group(1)}/{match.group(2)}"
    return text
