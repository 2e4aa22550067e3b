"""The figure around seaborn's drawing: one Axes (the caller's or a new one)
or a seaborn ``FacetGrid`` of row and column facets; one title with its
subtitle and one legend per figure; ticks that stay readable."""

from __future__ import annotations

import itertools
import math
import textwrap
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot._labels import compact, in_order, tick_text
from tbdse.simulation.results import column

LEGEND_INSIDE = 4  # more legend entries than this go outside the axes, on the right
WRAP = 3  # column facets without row facets wrap after this many panels


def check_figure(figsize: Any, style: Any, xlabel: Any, ylabel: Any) -> None:
    size_ok = isinstance(figsize, (list, tuple)) and len(figsize) == 2
    if figsize is not None and not (
        size_ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 100
                        for v in figsize)
    ):  # fmt: skip
        raise ConfigError(
            f"figsize must be [width, height] in inches (0 < each <= 100); got {excerpt(figsize)}"
        )
    if style is not None and (not isinstance(style, str) or style not in plt.style.available):
        raise ConfigError(
            f"style must name a matplotlib style (plt.style.available, e.g. 'ggplot'); got "
            f"{excerpt(style)}{suggest(str(style), plt.style.available)}"
        )
    for key, text in (("xlabel", xlabel), ("ylabel", ylabel)):
        if text is not None and not isinstance(text, str):
            raise ConfigError(f"{key} must be text; got {excerpt(text)}")


def styled(style: str | None) -> Any:
    return nullcontext() if style is None else plt.style.context(style)


@dataclass
class Panels:
    """The Axes a figure draws on, with the rows each one shows."""

    figure: Figure
    axes: list[Axes]
    parts: list[pd.DataFrame]
    grid: sns.FacetGrid | None = None  # the facets' grid; None for one panel

    @property
    def faceted(self) -> bool:
        return self.grid is not None


def panels(
    df: pd.DataFrame, ax: Axes | None, row: str | None, col: str | None, facet: str | None,
    *, figsize: Any = None, style: str | None = None, sharex: bool = True, sharey: bool = True,
) -> Panels:  # fmt: skip
    """One Axes (``ax``, or a new figure's), or a seaborn FacetGrid with a
    row per value of ``row`` and a column per value of ``col`` (``facet``),
    in value order, wrapping after ``WRAP`` columns without ``row``.  A grid
    makes its own figure, so ``ax`` and facets are refused together."""
    if facet is not None and col is not None:
        raise ConfigError("give col or facet (the same thing), not both")
    rc, cc = (
        column(df, c) if c is not None else None for c in (row, facet if col is None else col)
    )
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    if rc is None and cc is None:
        if ax is None:
            ax = plt.subplots(figsize=figsize or (6.4, 4.2), layout="constrained")[1]
        elif style is not None and (spec := ax.get_subplotspec()) is not None:
            fig = ax.figure  # an Axes takes its style when made: make it again
            fig.set_facecolor(plt.rcParams["figure.facecolor"])
            ax.remove()
            ax = fig.add_subplot(spec)
        figure = ax.get_figure(root=True)
        assert figure is not None
        if figsize is not None:
            figure.set_size_inches(*figsize)
        return Panels(figure, [ax], [df])
    if ax is not None:
        raise ConfigError(
            "ax= draws one panel; row=/col=/facet= draw a figure of their own (a seaborn "
            "FacetGrid): leave out ax=, or the facets"
        )
    order = {c: [tick_text(v) for v in in_order(df[c])] for c in (rc, cc) if c is not None}
    many = cc is not None and rc is None and len(order[cc]) > WRAP
    grid = sns.FacetGrid(
        df.assign(**{c: df[c].map(tick_text) for c in order}), row=rc, col=cc,
        row_order=order.get(rc or ""), col_order=order.get(cc or ""), sharex=sharex,
        sharey=sharey, col_wrap=WRAP if many else None, height=3.4, aspect=1.25, despine=False,
    )  # fmt: skip
    grid.figure.set_layout_engine("constrained")  # the title and the legend clear of the panels
    if figsize is not None:
        grid.figure.set_size_inches(*figsize)
    said = [t for c, t in ((rc, "{row_var} = {row_name}"), (cc, "{col_var} = {col_name}")) if c]
    grid.set_titles(", ".join(said), size="medium")
    cells = [(grid.facet_axis(i, j), part) for (i, j, _), part in grid.facet_data()]
    return Panels(grid.figure, [a for a, _ in cells], [p for _, p in cells], grid)


def finish(
    p: Panels, title: str, note: str, *, legend_out: bool = False, legend_title: str | None = None
) -> None:
    """One title (and the subtitle ``note``) and one legend for the figure,
    made from the panels' own legend entries."""
    handles: dict[str, Any] = {}
    for ax in p.axes:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, h)
        if ax.get_legend() is not None:
            ax.get_legend().remove()  # type: ignore[union-attr]
        for artist in [*ax.lines, *ax.collections, *ax.patches]:  # seaborn's empty proxies
            if not str(artist.get_label()).startswith("_") and _empty(artist):
                artist.remove()
    text = title + (f"\n{note}" if note else "")
    inches = float(p.figure.get_size_inches()[0])
    kw: dict[str, Any] = {"fontsize": "small", "title": legend_title}
    if p.faceted:
        p.figure.suptitle(wrap(text, inches))
        if handles:
            p.figure.legend(list(handles.values()), list(handles), loc="outside right center", **kw)
        return
    ax = p.axes[0]
    ax.set_title(wrap(text, inches * ax.get_position().width * 1.15),
                 pad=plt.rcParams["axes.titlepad"] + 8)  # fmt: skip
    if handles and (legend_out or len(handles) > LEGEND_INSIDE):
        kw.update(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    if handles:
        ax.legend(list(handles.values()), list(handles), **kw)


def wrap(text: str, inches: float) -> str:
    """A title wrapped to the width it spans, so neighbours never overlap."""
    width = max(24, int(inches * 11))
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def _empty(artist: Any) -> bool:
    if hasattr(artist, "get_width") and hasattr(artist, "get_height"):
        return bool(artist.get_width() == 0 and artist.get_height() == 0)
    if hasattr(artist, "get_xdata"):
        return len(artist.get_xdata()) == 0
    return hasattr(artist, "get_offsets") and len(artist.get_offsets()) == 0


def label_axes(p: Panels, xtext: str, ytext: str) -> None:
    """Axis titles: on a grid's outer panels, or the one panel's."""
    if p.grid is not None:
        p.grid.set_axis_labels(xtext, ytext)
    else:
        p.axes[0].set(xlabel=xtext, ylabel=ytext)


def nice_log_ticks(low: float, high: float) -> list[float]:
    """Between 2 and 8 round values in [low, high] for a log axis: decades,
    else 1-2-5 steps, else finer steps, else four values spaced evenly in
    log (data within a fraction of a decade still get labelled ticks)."""
    if not (low > 0 and high > low and math.isfinite(high)):
        return []
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    for subs in ((1.0,), (1.0, 2.0, 5.0), (1.0, 1.5, 2.0, 3.0, 5.0, 7.0)):
        found = [m * 10.0**k for k in range(first, last + 1) for m in subs]
        found = [v for v in found if low <= v <= high]
        if len(found) >= 2:
            return found[:: -(-len(found) // 8)]
    return sorted({float(f"{v:.2g}") for v in np.geomspace(low, high, 6)[1:-1]})


def label_log_axis(ax: Axes, which: str) -> None:
    """Labelled ticks on a log axis whatever its range (matplotlib labels
    only decades: data within one decade had no tick labels at all)."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    if axis.get_scale() != "log" or isinstance(axis.get_major_formatter(), FixedFormatter):
        return
    ticks = nice_log_ticks(*sorted(ax.get_xlim() if which == "x" else ax.get_ylim()))
    if ticks:
        axis.set_major_locator(FixedLocator(ticks))
        axis.set_major_formatter(FixedFormatter([compact(t) for t in ticks]))
        axis.set_minor_formatter(NullFormatter())


def value_ticks(ax: Axes, at: list[float], texts: list[str]) -> None:
    """Ticks at the values drawn, labelled every step-th (the smallest step
    whose labels clear each other, the last value too where it fits), so
    that neighbours never overlap on a narrow or log axis."""
    if not at:
        return
    dpi = ax.figure.dpi
    size = plt.rcParams["xtick.labelsize"]
    points = size if isinstance(size, (int, float)) else 0.85 * plt.rcParams["font.size"]
    ax.set_xlim(*ax.get_xlim())  # the limits drawn, before positions are read
    where = [float(ax.transData.transform((a, 0.0))[0]) for a in at]
    half = [0.5 * (len(t) + 1.5) * 0.62 * points * dpi / 72 for t in texts]

    def clear(kept: list[int]) -> bool:
        return all(where[b] - where[a] >= half[a] + half[b] for a, b in itertools.pairwise(kept))

    step = next(s for s in range(1, len(at) + 1) if clear(list(range(0, len(at), s))))
    kept = list(range(0, len(at), step))
    last = len(at) - 1
    if kept[-1] != last and clear([*kept, last]):
        kept.append(last)
    elif kept[-1] != last and len(kept) > 1 and clear([*kept[:-1], last]):
        kept[-1] = last
    ax.xaxis.set_major_locator(FixedLocator(at))
    ax.xaxis.set_major_formatter(FixedFormatter([t * (i in kept) for i, t in enumerate(texts)]))
    ax.xaxis.set_minor_locator(NullLocator())
