"""Printed figures: read a number as the notes print it, compare at the precision printed.

Supported forms: integers and decimals ("8", "22.6", "−0.5"), thousands separators ("61,400"),
fractions ("1/100", "1/9770"), lists ("[0.49, 0.30, 0.22]"), percentages ("92%", compared in
percent), the Chinese units 万 (10⁴) and 亿 (10⁸), the suffixes k, M and B (10³, 10⁶, 10⁹),
and powers of ten ("1.6×10⁴", "1.6 \\times 10^{4}", "1.6e4"). Words that mark a rounded
figure are read and dropped: "≈ 16", "~16", "about 16", "约 16", "16 左右".

The tolerance is half a unit in the last printed significant digit; trailing zeros of a
large integer are not taken as significant ("61400" means ±50), except in a percentage ("100%"
means 100 ± 0.5) and in a small integer printed as it is (at most :data:`SMALL_INTEGER_DIGITS`
digits, no rough mark, unit or power: "10 heads" means ten, so 12 is not it; "≈ 10" is 10 ± 5). In a fraction an integer numerator
is exact and the denominator's rounding propagates. A claim that knows the document rounds
more loosely says so with ``Figure(..., rough="why", rel_tol=0.05)``.

All arithmetic on printed values is exact (:class:`fractions.Fraction`), so a 400-digit
number keeps a finite, correct tolerance; a number longer than :data:`MAX_DIGITS` digits is
unreadable rather than slow. This module only parses text; it never evaluates it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Sequence

from tmath.engine.model import Figure

SMALL_INTEGER_DIGITS = 4
"""An integer of at most this many digits, printed plainly, is a count: exact to the unit."""
UNITS = {"万": 10**4, "亿": 10**8, "%": 1, "k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9}
"""Unit suffixes and what they multiply by (a percentage is compared in percent)."""
MAX_DIGITS = 1000
"""Longest run of digits read as one number (longer ones are unreadable, never slow)."""
FLOAT_PRECISION = Fraction(1, 2**51)
"""Relative precision granted to a computed (float) true value: a few units in its last place."""
MAX_EXPONENT = 10_000
"""Largest power of ten read in "…×10^N" or "…eN"."""

ROUGH_PREFIXES = ("\\approx", "\\sim", "≈", "~", "∼", "约为", "大约", "约", "approximately",
                  "approx.", "roughly", "around", "about", "nearly")
"""Words before a figure that say it is rounded; they do not change the tolerance."""
ROUGH_SUFFIXES = ("左右", "上下", "or so")
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_NUMBER = re.compile(
    r"(?P<sign>[-−+])?[ \t]*(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    r"(?:[ \t]*(?:[eE](?P<e>[-−+]?\d+)"
    r"|(?:×|x|·|\*|\\times|\\cdot)[ \t]*10[ \t]*(?:\^[ \t]*\{?[ \t]*(?P<pow>[-−+]?\d+)[ \t]*\}?"
    r"|(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))))?"
    r"(?:[ \t]*(?P<unit>[万亿%]|[kKMB](?![A-Za-z])))?")


class FigureSyntaxError(ValueError):
    """The printed text is not a number tmath knows how to read."""


@dataclass(frozen=True)
class Printed:
    """One printed number: its value and the half-unit of its last significant digit.

    ``value`` and ``half_unit`` are floats for display (±inf when a value is out of a float's
    range); ``exact`` and ``exact_half`` are what comparisons use.
    """

    value: float
    half_unit: float
    exact: Fraction = Fraction(0)
    exact_half: Fraction = Fraction(0)

    @staticmethod
    def of(exact: Fraction, half: Fraction) -> "Printed":
        return Printed(to_float(exact), to_float(half), exact, half)


@dataclass(frozen=True)
class NumberParts:
    """How one number is printed: what :func:`parse_number` reads and ``--fix`` rewrites."""

    sign: str
    integer: str          # digits as printed, separators included
    decimals: str         # digits after the point ("" for none)
    exponent: int         # the power of ten printed ("×10⁴", "e4"), 0 for none
    unit: str             # 万, 亿, %, k, K, M, B or ""
    start: int            # where the number (sign included) starts in the text given
    end: int

    @property
    def scale(self) -> Fraction:
        return Fraction(10) ** self.exponent * UNITS.get(self.unit, 1)

    @property
    def mantissa(self) -> Fraction:
        digits = self.integer.replace(",", "") + self.decimals
        value = Fraction(int(digits), 10 ** len(self.decimals))
        return -value if self.sign in "-−" and self.sign else value

    @property
    def value(self) -> Fraction:
        return self.mantissa * self.scale

    @property
    def half_unit(self) -> Fraction:
        if self.decimals:
            half = Fraction(1, 2 * 10 ** len(self.decimals))
        elif self.unit == "%":  # "100%" means all of it, not 100 ± 50
            half = Fraction(1, 2)
        else:
            digits = self.integer.replace(",", "")
            trailing = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
            half = Fraction(10**trailing, 2)
        return half * self.scale

    @property
    def exact_integer(self) -> bool:
        """An integer printed without a unit, decimals or power of ten (a counted value)."""
        return not (self.decimals or self.exponent or self.unit)


def strip_rough(text: str) -> str:
    """The figure without the words that mark it as rounded ("about 16" → "16")."""
    text = text.strip().replace("$", "").strip()
    changed = True
    while changed:
        changed = False
        lowered = text.lower()
        for prefix in ROUGH_PREFIXES:
            if lowered.startswith(prefix):
                text, changed = text[len(prefix):].strip(), True
                break
        for suffix in ROUGH_SUFFIXES:
            if text.endswith(suffix):
                text, changed = text[: -len(suffix)].strip(), True
                break
    return text


def number_parts(text: str) -> NumberParts:
    """Split one printed number (no fraction, no list) into its parts."""
    core = strip_rough(text)
    offset = text.find(core) if core else 0
    match = _NUMBER.fullmatch(core)
    if not match:
        raise FigureSyntaxError(f"cannot read {core or text!r} as a number")
    digits = len(match.group("int").replace(",", "")) + len(match.group("dec") or "")
    if digits > MAX_DIGITS:
        raise FigureSyntaxError(f"a number of {digits} digits is longer than the "
                                f"{MAX_DIGITS} digits tmath reads")
    power = match.group("e") or match.group("pow") or (
        match.group("sup").translate(_SUPERSCRIPT) if match.group("sup") else None)
    exponent = int(power.replace("−", "-")) if power else 0
    if abs(exponent) > MAX_EXPONENT:
        raise FigureSyntaxError(f"the power of ten {exponent} is beyond the ±{MAX_EXPONENT} "
                                "tmath reads")
    return NumberParts(match.group("sign") or "", match.group("int"), match.group("dec") or "",
                       exponent, match.group("unit") or "", offset, offset + len(core))


def parse_number(text: str) -> Printed:
    """Read one printed number ("≈ 22.6", "61,400", "26万", "1/9770", "1.6×10⁴", "16k")."""
    core = strip_rough(text)
    if "/" in core:
        num_text, den_text = (part.strip() for part in core.split("/", 1))
        num, den = number_parts(num_text), number_parts(den_text)
        if den.value == 0:
            raise FigureSyntaxError(f"division by zero in {core!r}")
        n_half = Fraction(0) if num.exact_integer else num.half_unit  # "1/9770": 1 is exact
        n, d = num.value, den.value
        half = n_half / abs(d) + abs(n) * den.half_unit / (d * d)
        return Printed.of(n / d, half)
    parts = number_parts(core)
    if parts.exact_integer and core == text.strip().replace("$", "").strip() \
            and len(parts.integer.replace(",", "").lstrip("-−")) <= SMALL_INTEGER_DIGITS:
        return Printed.of(parts.value, Fraction(1, 2))   # "10 heads" is ten, not 10 ± 5
    return Printed.of(parts.value, parts.half_unit)


def parse_printed(text: str) -> tuple[Printed, ...]:
    """Read a printed figure: one number, or a bracketed list of numbers."""
    inner = strip_rough(text)
    if inner.startswith("[") and inner.endswith("]"):
        parts = [part for part in inner[1:-1].split(",") if part.strip()]
        if not parts:
            raise FigureSyntaxError(f"{text!r} is an empty list")
        return tuple(parse_number(part) for part in parts)
    return (parse_number(inner),)


def to_float(x: Fraction | int) -> float:
    """A float for display; ±inf instead of an OverflowError."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


FigureStatus = Literal["accurate", "inaccurate", "unreadable", "error"]
"""``unreadable``: the printed text is not a number tmath reads (the claim still verifies);
``error``: the true value could not be computed (the claim is an error)."""


@dataclass(frozen=True)
class FigureResult:
    """A printed figure next to its true value."""

    label: str
    printed: str
    true_value: tuple[float, ...]
    status: FigureStatus
    relative_error: float
    tolerance: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "printed": self.printed, "true": list(self.true_value),
                "status": self.status, "relative_error": _json_number(self.relative_error),
                "tolerance": self.tolerance, "detail": self.detail}


def true_values(raw: Any) -> tuple[float, ...]:
    """A computed figure as floats; a value that is not a finite real number is an error."""
    values = []
    for v in (raw if _is_sequence(raw) else [raw]):
        try:
            x = float(v)
        except OverflowError:
            raise ValueError(f"the computed value {str(v)[:40]} does not fit a float") from None
        if not math.isfinite(x):
            raise ValueError(f"the computation gave {x}; a figure needs a finite value")
        values.append(x)
    if not values:
        raise ValueError("the computation gave no value")
    return tuple(values)


def compare(figure: Figure) -> FigureResult:
    """Compute a figure's true value and compare it with the printed one."""
    try:
        true = true_values(figure.compute())
    except Exception as exc:  # a broken figure is reported, never hidden
        return FigureResult(figure.label, figure.printed, (), "error", math.nan, "",
                            f"{type(exc).__name__}: {exc}")
    try:
        printed = parse_printed(figure.printed)
    except FigureSyntaxError as exc:
        return FigureResult(figure.label, figure.printed, true, "unreadable", math.nan, "",
                            str(exc))
    return judge(figure, printed, true)


def judge(figure: Figure, printed: Sequence[Printed], true: Sequence[float]) -> FigureResult:
    """Compare read values with true ones at the precision printed (or ``rel_tol``)."""
    if len(true) != len(printed):
        return FigureResult(figure.label, figure.printed, tuple(true), "inaccurate", math.inf,
                            "", f"prints {len(printed)} numbers, the computation gives "
                                f"{len(true)}")
    worst, ok = 0.0, True
    slack = 1 + Fraction(1, 10**12)
    for p, t in zip(printed, true):
        exact_t = Fraction(t)
        allowed = Fraction(figure.rel_tol) * abs(exact_t) if figure.rel_tol is not None \
            else p.exact_half
        # the true value is a float: it is known to its last bits only, so a figure printed
        # to more digits than a float holds is compared to the float's own precision
        allowed = allowed * slack + abs(exact_t) * FLOAT_PRECISION
        gap = abs(p.exact - exact_t)
        ok &= gap <= allowed
        if exact_t:
            worst = max(worst, to_float(gap / abs(exact_t)))
        elif p.exact:
            worst = math.inf
    if figure.rel_tol is not None:
        tolerance = f"±{100 * figure.rel_tol:g}% ({figure.rough})"
    else:
        tolerance = "half a unit in the last printed digit"
    return FigureResult(figure.label, figure.printed, tuple(true),
                        "accurate" if ok else "inaccurate", worst, tolerance)


def show_value(value: float, digits: int = 6) -> str:
    """A true value for people: whole numbers in full with separators, else ``digits``
    significant digits."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) >= 1e4 and abs(value) < 1e16:
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


def show_values(values: Sequence[float], printed: str | None = None) -> str:
    """One value as is, several as a bracketed list; beside a ``printed`` figure, with at
    least as many significant digits as it prints (``printed 1000.693, true 1000.69`` would
    hide where the two differ)."""
    digits = max(6, printed_digits(printed)) if printed else 6
    shown = [show_value(v, digits) for v in values]
    return shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]"


def printed_digits(printed: str) -> int:
    """The most significant digits a number in ``printed`` shows (``1000.693``: 7), at most
    17, the digits a float holds."""
    found = [re.sub(r"\D", "", number).lstrip("0")
             for number in re.findall(r"\d[\d,]*(?:\.\d+)?", printed)]
    return min(17, max((len(n) for n in found), default=0))


def _json_number(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _is_sequence(x: Any) -> bool:
    return hasattr(x, "__len__") and not isinstance(x, str)
