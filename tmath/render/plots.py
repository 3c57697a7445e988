"""Drawing a claim's :class:`~tmath.engine.plots.Plot`: a sparkline sketch for the terminal, or a
PNG with matplotlib (the optional ``plot`` extra)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Sequence

from rich.cells import cell_len

from tmath.engine.plots import Plot
from tmath.errors import UsageError

if TYPE_CHECKING:
    from tmath.i18n import Translator

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int = 40, low: float | None = None,
              high: float | None = None) -> str:
    """A one-line sketch of a sequence, resampled to ``width`` characters, on the axis
    [low, high] (by default the sequence's own range)."""
    values = [float(v) for v in values]
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [values[int(i * step)] for i in range(width)]
    low = min(values) if low is None else low
    high = max(values) if high is None else high
    span = high - low or 1.0
    return "".join(SPARKS[min(len(SPARKS) - 1, int((v - low) / span * (len(SPARKS) - 1) + 0.5))]
                   for v in values)


def sketch_lines(plot: Plot, width: int = 40, tr: Translator | None = None,
                 info: Any = None) -> list[str]:
    """Text lines sketching a plot: a sparkline per curve, or per heat-map row (a few), all on
    one shared axis (so a flat curve looks flat next to a peaked one). With ``tr``, the title
    and curve labels are looked up in the claim's catalog."""
    import math

    text = (lambda t: tr.text(t, info)) if tr is not None else (lambda t: t)
    ui = tr.ui if tr is not None else (lambda t: t)
    lines = [text(plot.title)]
    ys = [[math.log10(v) if plot.logy and v > 0 else v for v in s.y] for s in plot.series]
    finite = [v for y in ys for v in y if math.isfinite(v)]
    low, high = (min(finite), max(finite)) if finite else (None, None)
    if plot.series:
        axis = f"{min(min(s.y) for s in plot.series):.3g} … {max(max(s.y) for s in plot.series):.3g}"
        lines.append(f"  ({ui('one axis for every curve')}: {axis}"
                     + (f", {ui('log scale')})" if plot.logy else ")"))
    for s, y in zip(plot.series, ys):
        label = text(s.label)
        padding = " " * max(0, 28 - cell_len(label))  # wide (CJK) characters count twice
        lines.append(f"  {label}{padding} {sparkline(y, width, low, high)}")
    if plot.heatmap:
        rows = plot.heatmap
        cells = [v for row in rows for v in row]
        shown = rows[:: max(1, len(rows) // 8)][:8]
        for row in shown:
            lines.append("  " + sparkline(row, width, min(cells), max(cells)))
    return lines


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("plots need matplotlib: pip install 'tmath[plot]'") from None
    return plt


def render_png(plot: Plot) -> bytes:
    """The plot as PNG bytes (needs matplotlib)."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=110)
    try:
        if plot.heatmap is not None:
            image = axes.imshow(plot.heatmap, aspect="auto", cmap="RdBu_r", interpolation="nearest")
            figure.colorbar(image, ax=axes)
        for s in plot.series:
            if s.style == "bar":
                axes.bar(s.x, s.y, width=(s.x[1] - s.x[0]) if len(s.x) > 1 else 0.8,
                         alpha=0.5, label=s.label)
            else:
                axes.plot(s.x, s.y, "--" if s.style == "dashed" else "-", label=s.label)
        if plot.logy:
            axes.set_yscale("log")
        axes.set_title(plot.title)
        axes.set_xlabel(plot.xlabel)
        axes.set_ylabel(plot.ylabel)
        if plot.series:
            axes.legend(fontsize="small")
        figure.tight_layout()
        buffer = io.BytesIO()
        # zlib level 1: a tenth of the drawing time saved for files about 6 % larger
        figure.savefig(buffer, format="png", pil_kwargs={"compress_level": 1})
        return buffer.getvalue()
    finally:
        plt.close(figure)
