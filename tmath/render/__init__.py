"""Turning results into terminal tables, explanation pages and JSON. The engine never prints."""

from __future__ import annotations

PROOF_MARK = {
    "proved": ("✓", "green"),
    "proved-assuming": ("✓", "cyan"),
    "proved-for-cases": ("✓", "cyan"),
    "failed": ("✗", "red"),
    "error": ("!", "red"),
    "none": ("–", "yellow"),
}
CHECK_MARK = {"passed": ("✓", "green"), "failed": ("✗", "red"), "error": ("!", "red"),
              "none": ("–", "yellow")}
STEP_MARK = {"checked": ("✓", "green"), "rule": ("○", "cyan"), "premise": ("○", "cyan"),
             "lemma": ("↳", "cyan"), "derived": ("↳", "green"), "assumed": ("!", "yellow"),
             "noop": ("·", "dim"), "failed": ("✗", "red")}
LEVELS = ("proved", "proved-assuming", "proved-for-cases", "none", "failed", "error")
VERDICT_STYLE = {"verified": "green", "heuristic": "yellow", "cited": "cyan", "failed": "red",
                 "error": "red", "blocked": "red", "timeout": "red"}
KIND_LABEL = {"theorem": "theorem", "heuristic": "heuristic", "empirical": "empirical (cited)",
              "fact": "fact (cited)"}


def kind_label(info) -> str:
    """How ``list`` and ``explain`` name a claim's kind."""
    return KIND_LABEL.get(getattr(info, "kind", "theorem"), "theorem")


def sci(x: float) -> str:
    """10⁻³ style for bounds."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.1e}".split("e")
    sup = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"10{sup}" if mantissa in ("1.0",) else f"{float(mantissa):g}·10{sup}"


def command_line(text: str, style: str = "dim"):
    """A line holding a command to copy: never broken by the console (the terminal wraps
    it softly, so a copied command has no inserted newline)."""
    from rich.text import Text

    return Text(text, style=style, no_wrap=True, overflow="ignore")
