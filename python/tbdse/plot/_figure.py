"""The figure around the seaborn drawing: the panels (row and column facets
in the place of a given Axes), one title with its subtitle and one legend per
figure, figure options, and tick labels that stay readable (log axes
labelled at any range, value ticks that never overlap)."""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot._labels import compact, in_order, tick_text
from tbdse.simulation.results import column

LEGEND_INSIDE = 4  # more legend entries than this go outside the axes, on the right
WRAP = 3  # column facets without row facets wrap after this many panels


def check_figure(figsize: Any, style: Any, xlabel: Any, ylabel: Any) -> None:
    if figsize is not None and not (
        isinstance(figsize, (list, tuple))
        and len(figsize) == 2
        and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 100
            for v in figsize
        )
    ):
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


@contextmanager
def styled(style: str | None) -> Iterator[None]:
    if style is None:
        yield
    else:
        with plt.style.context(style):
            yield


def wrap(text: str, inches: float) -> str:
    """A title wrapped to the width it spans, so neighbours never overlap."""
    width = max(24, int(inches * 11))
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


@dataclass
class Panels:
    """The Axes a figure draws on, row-major, with the rows each one shows."""

    container: Figure | SubFigure
    axes: list[Axes]
    parts: list[pd.DataFrame]
    titles: list[str]
    faceted: bool
    extra: list[Axes] = field(default_factory=list)  # colour bars

    @property
    def width(self) -> float:
        """Inches a title spans: the grid's, or the one Axes' (a figure may
        hold others beside it)."""
        fig = self.axes[0].get_figure(root=True)
        inches = float(fig.get_size_inches()[0]) if fig is not None else 6.4
        if self.faceted:
            return inches * float(self.container.bbox.width / fig.bbox.width) if fig else inches
        return inches * float(self.axes[0].get_position().width) * 1.15


def facet_columns(df: pd.DataFrame, row: str | None, col: str | None, facet: str | None) -> list:
    """The resolved row and column facet columns ([row, col], None where absent)."""
    if facet is not None and col is not None:
        raise ConfigError("give col or facet (the same thing), not both")
    col = col if col is not None else facet
    return [column(df, c) if c is not None else None for c in (row, col)]


def panels(
    df: pd.DataFrame,
    ax: Axes | None,
    row: str | None,
    col: str | None,
    *,
    figsize: Any = None,
    style: str | None = None,
    sharex: bool = True,
    sharey: bool = True,
) -> Panels:
    """One Axes, or a grid of them: a row per value of ``row``, a column per
    value of ``col`` (wrapping after ``WRAP`` without ``row``), in value order.
    Given ``ax``, the grid takes its place as a subfigure."""
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    if row is None and col is None:
        if ax is None:
            ax = plt.subplots(figsize=figsize or (6.4, 4.2), layout="constrained")[1]
        else:
            ax = _restyled(ax) if style is not None else ax
            fig = ax.get_figure(root=True)
            if figsize is not None and fig is not None:
                fig.set_size_inches(*figsize)
        return Panels(ax.figure, [ax], [df], [""], False)
    rows = in_order(df[row]) if row else [None]
    cols = in_order(df[col]) if col else [None]
    n_rows, n_cols = len(rows), len(cols)
    keys = [(r, c) for r in rows for c in cols]
    if row is None and n_cols > WRAP:
        n_rows, n_cols = -(-n_cols // WRAP), WRAP
    size = tuple(figsize) if figsize is not None else (4.2 * n_cols + 1.2, 3.4 * n_rows + 0.8)
    container: Figure | SubFigure
    if ax is None:
        container = plt.figure(figsize=size, layout="constrained")
    else:
        fig = ax.get_figure(root=True)
        assert fig is not None
        fig.set_layout_engine("constrained")  # titles and the legend clear of the panels
        spec = ax.get_subplotspec()
        ax.remove()
        width, height = fig.get_size_inches()
        if figsize is None:
            size = (max(width, size[0]), max(height, size[1]))
        fig.set_size_inches(*size)
        container = fig.add_subfigure(spec) if spec is not None else fig
    grid = container.subplots(n_rows, n_cols, sharex=sharex, sharey=sharey, squeeze=False)
    axes = list(grid.ravel())
    for extra in axes[len(keys) :]:
        extra.remove()
    axes = axes[: len(keys)]
    parts, titles = [], []
    for r, c in keys:
        mine, said = df, []
        for name, value in ((row, r), (col, c)):
            if name is not None:
                mine = mine[mine[name] == value]
                said.append(f"{name} = {tick_text(value)}")
        parts.append(mine)
        titles.append(", ".join(said))
    return Panels(container, axes, parts, titles, True)


def _restyled(ax: Axes) -> Axes:
    """``ax`` made again in its place under the current style (an Axes takes
    its colours and cycle from the style in force when it is made)."""
    fig = ax.get_figure(root=True)
    spec = ax.get_subplotspec()
    if fig is None or spec is None:
        return ax
    fig.set_facecolor(plt.rcParams["figure.facecolor"])
    ax.remove()
    return fig.add_subplot(spec)


def finish(
    p: Panels, title: str, note: str, *, legend_out: bool = False, legend_title: str | None = None
) -> None:
    """One title (and the subtitle ``note``) and one legend for the figure;
    each facet panel keeps only the value it shows as its title."""
    handles: dict[str, Any] = {}
    for ax in p.axes:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            if not label.startswith("_"):
                handles.setdefault(label, h)
        if ax.get_legend() is not None:
            ax.get_legend().remove()  # type: ignore[union-attr]
    for ax in p.axes:  # seaborn's empty legend proxies: the legend has copied them
        for artist in [*ax.lines, *ax.collections, *ax.patches]:
            if not str(artist.get_label()).startswith("_") and _empty(artist):
                artist.remove()
    text = title + (f"\n{note}" if note else "")
    if p.faceted:
        for ax, panel in zip(p.axes, p.titles, strict=True):
            ax.set_title(panel, fontsize="medium")
        p.container.suptitle(wrap(text, p.width))
        if handles:
            p.container.legend(
                list(handles.values()),
                list(handles),
                loc="outside right center",
                fontsize="small",
                title=legend_title,
            )
        return
    ax = p.axes[0]
    ax.set_title(wrap(text, p.width), pad=plt.rcParams["axes.titlepad"] + 8)
    if not handles:
        return
    if legend_out or len(handles) > LEGEND_INSIDE:
        ax.legend(
            list(handles.values()),
            list(handles),
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            fontsize="small",
            title=legend_title,
        )
    else:
        ax.legend(
            list(handles.values()), list(handles), loc="best", fontsize="small", title=legend_title
        )


def nice_log_ticks(low: float, high: float) -> list[float]:
    """Between 2 and 8 round values in [low, high] for a log axis: decades,
    else 1-2-5 steps, else finer steps, else four values spaced evenly in
    log (data within a fraction of a decade still gets labelled ticks)."""
    if not (low > 0 and high > low and math.isfinite(high)):
        return []
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    for subs in ((1.0,), (1.0, 2.0, 5.0), (1.0, 1.5, 2.0, 3.0, 5.0, 7.0)):
        found = [
            m * 10.0**k for k in range(first, last + 1) for m in subs if low <= m * 10.0**k <= high
        ]
        if len(found) > 8:
            step = -(-len(found) // 8)
            return found[::step]
        if len(found) >= 2:
            return found
    values = np.geomspace(low, high, 6)[1:-1]
    return sorted({float(f"{v:.2g}") for v in values})


def label_log_axis(ax: Axes, which: str) -> None:
    """Labelled ticks on a log axis whatever its range (matplotlib labels
    only decades, so data within one decade had no tick labels at all)."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    if axis.get_scale() != "log" or isinstance(axis.get_major_formatter(), FixedFormatter):
        return
    low, high = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    ticks = nice_log_ticks(low, high)
    if not ticks:
        return
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FixedFormatter([compact(t) for t in ticks]))
    axis.set_minor_formatter(NullFormatter())


def value_ticks(ax: Axes, at: list[float], texts: list[str]) -> None:
    """Ticks at the values drawn, labelled; a label that would run into the
    one before it (a narrow axis, values bunched on a log or linear scale) is
    left out, so that neighbours never overlap."""
    fig = ax.get_figure(root=True)
    dpi = fig.dpi if fig is not None else 100.0
    size = plt.rcParams["xtick.labelsize"]
    points = size if isinstance(size, (int, float)) else 0.85 * plt.rcParams["font.size"]
    ax.set_xlim(*ax.get_xlim())  # the limits drawn, before positions are read
    where = [float(ax.transData.transform((a, 0.0))[0]) for a in at]
    half = [0.5 * (len(t) + 1.5) * 0.62 * points * dpi / 72 for t in texts]

    def clear(kept: list[int]) -> bool:
        return all(where[b] - where[a] >= half[a] + half[b] for a, b in itertools.pairwise(kept))

    # Every step-th label (regular), the smallest step that clears; the last
    # value too where it fits (the range's end is worth reading).
    step = next(s for s in range(1, len(at) + 1) if clear(list(range(0, len(at), s))))
    kept = list(range(0, len(at), step))
    if kept and kept[-1] != len(at) - 1:
        if clear([*kept, len(at) - 1]):
            kept.append(len(at) - 1)
        elif len(kept) > 1 and clear([*kept[:-1], len(at) - 1]):
            kept[-1] = len(at) - 1
    shown = [t if i in kept else "" for i, t in enumerate(texts)]
    ax.xaxis.set_major_locator(FixedLocator(at))
    ax.xaxis.set_major_formatter(FixedFormatter(shown))
    ax.xaxis.set_minor_locator(NullLocator())


def label_axes(p: Panels, xtext: str, ytext: str) -> None:
    """Axis titles on the outer panels of a grid (every panel of a single one)."""
    for ax in p.axes:
        spec = ax.get_subplotspec()
        outer_x = not p.faceted or spec is None or spec.is_last_row()
        outer_y = not p.faceted or spec is None or spec.is_first_col()
        ax.set_xlabel(xtext if outer_x else "")
        ax.set_ylabel(ytext if outer_y else "")


def _empty(artist: Any) -> bool:
    if hasattr(artist, "get_width") and hasattr(artist, "get_height"):
        return bool(artist.get_width() == 0 and artist.get_height() == 0)
    if hasattr(artist, "get_xdata"):
        return len(artist.get_xdata()) == 0
    offsets = getattr(artist, "get_offsets", None)
    return offsets is not None and len(offsets()) == 0
