"""Printed figures: read a number as the notes print it, compare at the precision printed.

Supported forms: integers and decimals ("8", "22.6", "≈ 0.00"), thousands separators
("61,400"), fractions ("1/100", "1/9770"), lists ("[0.49, 0.30, 0.22]"), percentages ("92%",
compared in percent), and the Chinese units 万 (10⁴) and 亿 (10⁸). The tolerance is half a unit in the last printed significant
digit; trailing zeros of an integer are not taken as significant ("61400" means ±50). In a
fraction an integer numerator is exact and the denominator's rounding propagates.
This module only parses text; it never evaluates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Sequence

from tmath.engine.model import Figure

UNITS = {"万": 10**4, "亿": 10**8}
_NUMBER = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?(?:\s*[万亿%])?")


class FigureSyntaxError(ValueError):
    """The printed text is not a number tmath knows how to read."""


@dataclass(frozen=True)
class Printed:
    """One printed number: its value and the half-unit of its last significant digit."""

    value: float
    half_unit: float


def parse_number(text: str) -> Printed:
    """Read one printed number ("≈ 22.6", "61,400", "26万", "1/9770")."""
    text = text.strip().lstrip("≈~约").strip()
    if "/" in text:
        num_text, den_text = (part.strip() for part in text.split("/", 1))
        num, den = parse_number(num_text), parse_number(den_text)
        if num_text.isdigit():  # "1/9770": an integer numerator is exact, the rounding is below
            num = Printed(num.value, 0.0)
        if den.value == 0:
            raise FigureSyntaxError(f"division by zero in {text!r}")
        value = num.value / den.value
        half = num.half_unit / abs(den.value) + abs(num.value) * den.half_unit / den.value**2
        return Printed(value, half)
    match = _NUMBER.fullmatch(text)
    if not match:
        raise FigureSyntaxError(f"cannot read {text!r} as a number")
    unit = 1
    if text[-1] in UNITS:
        unit = UNITS[text[-1]]
        text = text[:-1].strip()
    elif text[-1] == "%":  # a percentage is compared in percent: "92%" is 92 ± 0.5
        text = text[:-1].strip()
    digits = text.replace(",", "").replace("−", "-")
    if "." in digits:
        decimals = len(digits.split(".")[1])
        half = 0.5 * 10.0**-decimals
    else:
        stripped = digits.lstrip("-")
        trailing = len(stripped) - len(stripped.rstrip("0")) if stripped.strip("0") else 0
        half = 0.5 * 10.0**trailing
    return Printed(float(digits) * unit, half * unit)


def parse_printed(text: str) -> tuple[Printed, ...]:
    """Read a printed figure: one number, or a bracketed list of numbers."""
    inner = text.strip().lstrip("≈~").strip()
    if inner.startswith("[") and inner.endswith("]"):
        return tuple(parse_number(part) for part in inner[1:-1].split(",") if part.strip())
    return (parse_number(inner),)


FigureStatus = Literal["accurate", "inaccurate", "error"]


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
                "status": self.status, "relative_error": self.relative_error,
                "tolerance": self.tolerance, "detail": self.detail}


def compare(figure: Figure) -> FigureResult:
    """Compute a figure's true value and compare it with the printed one."""
    try:
        printed = parse_printed(figure.printed)
        raw = figure.compute()
        true = tuple(float(v) for v in (raw if _is_sequence(raw) else [raw]))
    except Exception as exc:  # a broken figure is reported, never hidden
        return FigureResult(figure.label, figure.printed, (), "error", float("nan"), "",
                            f"{type(exc).__name__}: {exc}")
    if len(true) != len(printed):
        return FigureResult(figure.label, figure.printed, true, "inaccurate", float("inf"), "",
                            f"prints {len(printed)} numbers, the computation gives {len(true)}")
    worst, ok = 0.0, True
    for p, t in zip(printed, true):
        allowed = figure.rel_tol * abs(t) if figure.rel_tol is not None else p.half_unit
        ok &= abs(p.value - t) <= allowed * (1 + 1e-12)
        if t:
            worst = max(worst, abs(p.value - t) / abs(t))
        elif p.value:
            worst = float("inf")
    if figure.rel_tol is not None:
        tolerance = f"±{100 * figure.rel_tol:g}% ({figure.rough})"
    else:
        tolerance = "half a unit in the last printed digit"
    return FigureResult(figure.label, figure.printed, true, "accurate" if ok else "inaccurate",
                        worst, tolerance)


def show_value(value: float) -> str:
    """A true value for people: whole numbers in full with separators, else 6 digits."""
    if value == int(value) and abs(value) >= 1e4 and abs(value) < 1e16:
        return f"{int(value):,}"
    return f"{value:.6g}"


def show_values(values: Sequence[float]) -> str:
    """One value as is, several as a bracketed list."""
    shown = [show_value(v) for v in values]
    return shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]"


def _is_sequence(x: Any) -> bool:
    return hasattr(x, "__len__") and not isinstance(x, str)
