"""The figure around seaborn's drawing: one Axes (the caller's or a new one)
or a seaborn ``FacetGrid`` of row and column facets; one title with its
subtitle and one legend per figure; colours, and ticks that stay readable."""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot._labels import compact, in_order, tick_text
from tbdse.simulation.results import column

LEGEND_INSIDE = 4  # more legend entries than this go outside the axes, on the right
WRAP = 3  # column facets without row facets wrap after this many panels
Palette = str | dict[str, Any] | None


@dataclass
class Panels:
    """The Axes a figure draws on, with the rows each one shows; iterates
    over (rows, Axes) pairs."""

    figure: Figure
    axes: list[Axes]
    parts: list[pd.DataFrame]
    labels: tuple[str | None, str | None]  # the caller's xlabel and ylabel
    grid: sns.FacetGrid | None = None  # the facets' grid; None for one panel

    def __iter__(self) -> Iterator[tuple[pd.DataFrame, Axes]]:
        return zip(self.parts, self.axes, strict=True)


def _check(figsize: Any, style: Any, labels: tuple[Any, Any]) -> None:
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
    for key, text in zip(("xlabel", "ylabel"), labels, strict=True):
        if text is not None and not isinstance(text, str):
            raise ConfigError(f"{key} must be text; got {excerpt(text)}")


@contextmanager
def panels(
    df: pd.DataFrame | None, ax: Axes | None, row: str | None = None, col: str | None = None,
    facet: str | None = None, *, figsize: Any = None, style: str | None = None,
    labels: tuple[Any, Any] = (None, None), sharex: bool = True, sharey: bool = True,
    size: tuple[float, float] = (6.4, 4.2),
) -> Iterator[Panels]:  # fmt: skip
    """Draws in ``style`` on one Axes (``ax``, or a new figure's of ``figsize``
    or else ``size``), or on a seaborn FacetGrid with a row per value of
    ``row`` and a column per value of ``col`` (``facet``), in value order,
    wrapping after ``WRAP`` columns without ``row``.  A grid makes its own
    figure, so ``ax`` and facets are refused together."""
    _check(figsize, style, labels)
    if facet is not None and col is not None:
        raise ConfigError("give col or facet (the same thing), not both")
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    if ax is not None and (row or col or facet):
        raise ConfigError(
            "ax= draws one panel; row=/col=/facet= draw a figure of their own (a seaborn "
            "FacetGrid): leave out ax=, or the facets"
        )
    with nullcontext() if style is None else plt.style.context(style):
        if df is None or not (row or col or facet):
            yield _one(df, ax, figsize, style, size, labels)
            return
        rc, cc = (column(df, c) if c else None for c in (row, col or facet))
        order = {c: [tick_text(v) for v in in_order(df[c])] for c in (rc, cc) if c}
        grid = sns.FacetGrid(
            df.assign(**{c: df[c].map(tick_text) for c in order}), row=rc, col=cc,
            row_order=order.get(rc or ""), col_order=order.get(cc or ""), sharex=sharex,
            sharey=sharey, height=3.4, aspect=1.25, despine=False,
            col_wrap=WRAP if rc is None and len(order[cc or ""]) > WRAP else None,
        )  # fmt: skip
        grid.figure.set_layout_engine("constrained")  # the title and the legend clear of the panels
        if figsize is not None:
            grid.figure.set_size_inches(*figsize)
        said = [t for c, t in ((rc, "{row_var} = {row_name}"), (cc, "{col_var} = {col_name}")) if c]
        grid.set_titles(", ".join(said), size="medium")
        cells = [(grid.facet_axis(i, j), part) for (i, j, _), part in grid.facet_data()]
        yield Panels(grid.figure, [a for a, _ in cells], [p for _, p in cells], labels, grid)


def _one(df: Any, ax: Axes | None, figsize: Any, style: Any, size: Any, labels: Any) -> Panels:
    if ax is None:
        ax = plt.subplots(figsize=figsize or size, layout="constrained")[1]
    elif style is not None and (spec := ax.get_subplotspec()) is not None:
        fig = ax.figure  # an Axes takes its style when made: make it again
        fig.set_facecolor(plt.rcParams["figure.facecolor"])
        ax.remove()
        ax = fig.add_subplot(spec)
    figure = ax.get_figure(root=True)
    assert figure is not None
    if figsize is not None:
        figure.set_size_inches(*figsize)
    return Panels(figure, [ax], [df], labels)


def finish(
    p: Panels, xtext: str, ytext: str, title: str, note: str = "", *, flip: bool = False,
    logx: bool = False, logy: bool = False, ticks: dict[float, str] | None = None,
    legend: bool = True, legend_out: bool = False, legend_title: str | None = None,
) -> Any:  # fmt: skip
    """Log scales, value ``ticks`` on x (position -> text), axis titles (the
    caller's, else ``xtext`` and ``ytext``; swapped if ``flip``; on a grid's
    outer panels), one title (with the subtitle ``note``) and one legend for
    the figure, made from the panels' own legend entries (none with
    ``legend=False``).  Returns the Axes, or the list of a grid's panels."""
    xtext = xtext if p.labels[0] is None else p.labels[0]
    ytext = ytext if p.labels[1] is None else p.labels[1]
    if flip:  # horizontal bars: the parameter on y, the value on x
        xtext, ytext = ytext, xtext
    handles: dict[str, Any] = {}
    for ax in p.axes:
        ax.set(**({"xscale": "log"} if logx else {}), **({"yscale": "log"} if logy else {}))
        if ticks:  # once every panel is drawn: shared limits are final
            value_ticks(ax, sorted(ticks), [ticks[a] for a in sorted(ticks)])
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, h)
        if ax.get_legend() is not None:
            ax.get_legend().remove()  # type: ignore[union-attr]
        for artist in [*ax.lines, *ax.patches]:  # seaborn's empty legend proxies
            if (isinstance(artist, Line2D) and not np.size(artist.get_xdata())) or (
                isinstance(artist, Rectangle) and artist.get_width() == artist.get_height() == 0
            ):
                artist.remove()
    for ax, which in itertools.product(p.axes, "xy"):
        label_log_axis(ax, which)
    text = title + (f"\n{note}" if note else "")
    kw: dict[str, Any] = {"fontsize": "small", "title": legend_title}
    shown = (list(handles.values()), list(handles)) if handles and legend else None
    if p.grid is not None:
        p.grid.set_axis_labels(xtext, ytext)
        p.figure.suptitle(text, wrap=True)
        if shown:
            p.figure.legend(*shown, loc="outside right center", **kw)
        return p.axes
    ax = p.axes[0]
    ax.set(xlabel=xtext, ylabel=ytext)
    inches = float(p.figure.get_size_inches()[0]) * ax.get_position().width * 1.15
    ax.set_title(_wrap(text, inches), pad=plt.rcParams["axes.titlepad"] + 8)
    if legend_out or len(handles) > LEGEND_INSIDE:
        kw.update(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    if shown:
        ax.legend(*shown, **kw)
    return ax


def _wrap(text: str, inches: float) -> str:
    """A panel's title wrapped to the width it spans (matplotlib's own wrap
    goes to the figure's edge), so neighbouring panels' titles never overlap."""
    width = max(24, int(inches * 11))  # characters
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def colour_map(names: list[str], given: Palette = None) -> dict[str, Any]:
    """One colour per configuration for the whole figure (a colour keeps its
    meaning from panel to panel); ``given`` (a seaborn palette name, or
    legend text -> colour such as {'LRR': 'C0'}) keeps it across figures."""
    if given is not None and not isinstance(given, (str, dict)):
        raise ConfigError(
            f"palette must name a seaborn palette or map legend text to colours; got "
            f"{excerpt(given)}"
        )
    try:
        colours = sns.color_palette(given if isinstance(given, str) else None, max(1, len(names)))
        fixed = {k: to_rgb(v) for k, v in given.items()} if isinstance(given, dict) else {}
    except ValueError as exc:
        raise ConfigError(f"palette: {exc}") from None
    free = iter(c for c in colours if c not in fixed.values())
    return {n: fixed[n] if n in fixed else next(free, (0.5, 0.5, 0.5)) for n in names}


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
    size = plt.rcParams["xtick.labelsize"]
    points = size if isinstance(size, (int, float)) else 0.85 * plt.rcParams["font.size"]
    ax.set_xlim(*ax.get_xlim())  # the limits drawn, before positions are read
    where = [float(ax.transData.transform((a, 0.0))[0]) for a in at]
    half = [0.5 * (len(t) + 1.5) * 0.62 * points * ax.figure.dpi / 72 for t in texts]

    def clear(kept: list[int]) -> bool:
        return all(where[b] - where[a] >= half[a] + half[b] for a, b in itertools.pairwise(kept))

    step = next(s for s in range(1, len(at) + 1) if clear(list(range(0, len(at), s))))
    kept, last = list(range(0, len(at), step)), len(at) - 1
    if kept[-1] != last and clear([*kept, last]):
        kept.append(last)
    elif kept[-1] != last and len(kept) > 1 and clear([*kept[:-1], last]):
        kept[-1] = last
    ax.xaxis.set_major_locator(FixedLocator(at))
    ax.xaxis.set_major_formatter(FixedFormatter([t * (i in kept) for i, t in enumerate(texts)]))
    ax.xaxis.set_minor_locator(NullLocator())
