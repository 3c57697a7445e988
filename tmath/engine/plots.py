"""Pictures of claims: plain data a claim provides (drawn by :mod:`tmath.render.plots`).

A claim class may define ``plot(self) -> Plot``. The plot is plain data (curves, bars or a
heat map), so claims never import matplotlib: ``tmath explain ID --plot FILE.png`` draws it
when the optional extra is installed (``pip install 'tmath[plot]'``), and the terminal shows
a sparkline sketch of each curve without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

@dataclass(frozen=True)
class Series:
    """One curve (or set of bars) of a plot."""

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    style: Literal["line", "bar", "dashed"] = "line"


@dataclass(frozen=True)
class Picture:
    """A plot drawn as a PNG (base64 text, so the cache stores it as JSON like any result)."""

    claim: str
    png_base64: str


@dataclass(frozen=True)
class Plot:
    """What a claim wants to show: curves in one panel, or a heat map."""

    title: str
    series: tuple[Series, ...] = ()
    heatmap: tuple[tuple[float, ...], ...] | None = None
    xlabel: str = ""
    ylabel: str = ""
    logy: bool = False
    notes: tuple[str, ...] = field(default=())

    @staticmethod
    def curves(title: str, curves: dict[str, tuple[Sequence[float], Sequence[float]]],
               xlabel: str = "", ylabel: str = "", style: str = "line", logy: bool = False) -> Plot:
        """Build a plot from ``{label: (xs, ys)}``."""
        return Plot(title, tuple(Series(label, tuple(map(float, xs)), tuple(map(float, ys)), style)
                                 for label, (xs, ys) in curves.items()), None, xlabel, ylabel, logy)
