"""Figures from sweep results: a metric against a parameter, heatmaps, grouped bars.

Every function takes the DataFrame :func:`tbdse.sweep` returns, resolves bare
column names as sweeps do (``sms`` -> ``gpu.sms``), labels axes with units and
returns the matplotlib Axes (a list of them with ``facet``).

Nothing is averaged but replicates.  ``hue='auto'`` splits lines and bars by
the scheme label and by every other parameter that varies at a given x; an
explicit ``hue`` (a column or a list of columns) or a heatmap cell that would
mix runs of different parameters is refused with a message naming them
(select rows first, add them to ``hue``, or draw one panel per value with
``facet``).  Runs that failed (``on_error='record'``) are marked: a point,
bar or cell some of whose runs failed shows the mean of the others with a
red mark and the count.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from tbdse._inputs import excerpt
from tbdse._params import suggest
from tbdse.errors import ConfigError
from tbdse.results import SIZE_UNITS, column, units

__all__ = [
    "activity",
    "axis_label",
    "bar",
    "baseline_name",
    "check",
    "counters",
    "gantt",
    "heatmap",
    "line",
    "parameter_columns",
    "pareto",
    "tick_text",
    "value_order",
]

Hue = str | Sequence[str] | None
FAILED_COLOUR = "#c0392b"
# Columns that describe a run rather than measure it, besides the scheme parameters.
_RUN_COLUMNS = ("label", "workload", "gpu")
_DERIVED = tuple(f"workload.{k}" for k in SIZE_UNITS)
# Lines differ by marker and line style as well as colour (legible in grey print).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
LEGEND_INSIDE = 4  # more legend entries than this go outside the axes, on the right
SUMMARIES = ("none", "gmean")


def axis_label(name: str) -> str:
    """'makespan_us' -> 'makespan_us (us)'; columns without a unit stay as they are."""
    unit = units().get(name)
    return f"{name} ({unit})" if unit and unit not in ("fraction",) else name


def baseline_name(df: pd.DataFrame) -> str | None:
    """The baseline a table's speed-ups are over: the names in its ``baseline``
    column (the best of several baselines served each row), else those the
    sweep was given (``df.attrs['baselines']``); 'best of a, b' for several;
    None when the table does not say."""
    names: list[str] = []
    if "baseline" in df.columns:
        names = [tick_text(v) for v in dict.fromkeys(df["baseline"].dropna())]
    if not names:
        names = [str(b) for b in df.attrs.get("baselines", [])]
    if not names:
        return None
    return names[0] if len(names) == 1 else "best of " + ", ".join(names)


def _value_label(df: pd.DataFrame, name: str) -> str:
    """An axis label for a measured column; a speed-up names its baseline."""
    if name == "speedup":
        return f"speed-up over {baseline_name(df) or 'the baseline'}"
    return axis_label(name)


def _baseline_line(ax: Axes, df: pd.DataFrame, name: str, horizontal: bool = False) -> bool:
    """A dashed reference at speed-up 1 named after the baseline (in the legend)."""
    base = baseline_name(df) if name == "speedup" else None
    if base is None:
        return False
    draw = ax.axvline if horizontal else ax.axhline
    draw(1.0, color="0.35", lw=0.9, ls=(0, (4, 3)), zorder=1, label=f"{base} (= 1)", gid="baseline")
    return True


def _legend(ax: Axes, **options: Any) -> None:
    """A legend that never covers the data: more than ``LEGEND_INSIDE``
    entries go outside the axes on the right (a tight bounding box keeps it
    in the saved file); fewer take the emptiest corner (``loc='best'``)."""
    if len(ax.get_legend_handles_labels()[0]) > LEGEND_INSIDE:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            fontsize="small",
            **options,
        )
    else:
        ax.legend(loc="best", fontsize="small", **options)


def _check_figure(figsize: Any, style: Any, xlabel: Any, ylabel: Any) -> None:
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
def _styled(style: str | None) -> Iterator[None]:
    if style is None:
        yield
    else:
        with plt.style.context(style):
            yield


def _wrap(text: str, inches: float) -> str:
    """A title wrapped to the width of its panel, so neighbours never overlap."""
    width = max(24, int(inches * 11))
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def tick_text(value: Any) -> str:
    """A parameter value as a tick or legend label: 64 (not 64.0), 'unbounded' for inf."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "n/a"
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if math.isinf(number):
            return "unbounded" if number > 0 else "-inf"
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return f"{number:g}"
    return str(value)


def value_order(value: Any) -> tuple[int, float, str]:
    """Sort key of a parameter value on an axis: numbers (also written as
    text) by value, then 'unbounded', then other names such as 'auto' — never
    as text, where 256 < 64 < auto."""
    text = tick_text(value)
    if text in ("unbounded", "inf"):
        return (1, math.inf, "")
    try:
        return (0, float(text), "")
    except ValueError:
        return (2, 0.0, text)


def parameter_columns(df: pd.DataFrame) -> list[str]:
    """The columns that say which configuration a row ran (not its results)."""
    named = df.attrs.get("parameters")
    if named is None:  # a frame not made by tbdse.sweep: go by the naming rules
        named = [*_RUN_COLUMNS, *(c for c in df.columns if str(c).startswith(("gpu.", "cost.")))]
        named += [c for c in df.columns if str(c).startswith("workload.")]
    return [c for c in named if c in df.columns and c not in _DERIVED]


def _varying(df: pd.DataFrame, keys: list[str], candidates: list[str]) -> list[str]:
    """The candidates that take more than one value among rows sharing ``keys``."""
    if df.empty:
        return []
    groups = df.groupby(keys, dropna=False, sort=False) if keys else None
    out = []
    for c in candidates:
        counts = groups[c].nunique(dropna=False) if groups is not None else df[c].nunique()
        if int(np.max(counts)) > 1:
            out.append(c)
    return out


def _splitting(df: pd.DataFrame, fixed: list[str], params: list[str]) -> list[str]:
    """The fewest of ``params`` (preferring the scheme label, workload, GPU and
    swept axes) that make every group of rows sharing ``fixed`` one configuration."""
    swept = [c for c in df.attrs.get("scheme_axes", []) if c in params]
    order = [c for c in _RUN_COLUMNS if c in params]
    order += swept + [c for c in params if c not in order and c not in swept]
    chosen: list[str] = []
    for c in order:
        if _varying(df, fixed + chosen, [c]):
            chosen.append(c)
    return chosen


def _hue_columns(df: pd.DataFrame, hue: Hue, fixed: list[str]) -> list[str]:
    """The columns lines/bars are split by, given the columns ``fixed`` per point."""
    params = [c for c in parameter_columns(df) if c not in fixed]
    if hue == "auto":
        return _splitting(df, fixed, params)
    if hue is not None and not isinstance(hue, (str, list, tuple)):
        raise ConfigError(f"hue must be 'auto', a column or a list of columns; got {excerpt(hue)}")
    chosen = [] if hue is None else [hue] if isinstance(hue, str) else list(hue)
    chosen = [column(df, c) for c in chosen]
    left = _splitting(df, fixed + chosen, [c for c in params if c not in chosen])
    if left:
        values = "; ".join(
            f"{c}: {', '.join(tick_text(v) for v in list(dict.fromkeys(df[c]))[:4])}"
            for c in left[:4]
        )
        raise ConfigError(
            f"rows at the same {' / '.join(fixed)} differ in {', '.join(left)} ({values}), "
            "which the figure would average together; select rows first (where / df[...]), "
            f"split by them (hue=[..., {', '.join(repr(c) for c in left)}]) or draw one panel "
            "per value (facet=...)"
        )
    return chosen


def _labels(df: pd.DataFrame, cols: list[str]) -> pd.Series:
    """Legend text per row: the label/workload/gpu values, name=value for the
    rest (left out where the parameter does not apply to the row)."""

    def text(row: tuple[Any, ...]) -> str:
        parts = []
        for c, v in zip(cols, row, strict=True):
            if c in _RUN_COLUMNS or c == "variant":
                parts.append(tick_text(v))
            elif not pd.isna(v):
                parts.append(f"{c}={tick_text(v)}")
        return ", ".join(parts)

    return pd.Series([text(r) for r in df[cols].itertuples(index=False)], index=df.index)


def _numeric(df: pd.DataFrame, name: str) -> None:
    if not pd.api.types.is_numeric_dtype(df[name]):
        raise ConfigError(f"column '{name}' is not numeric; it cannot be plotted as a value")


def _failed(df: pd.DataFrame) -> pd.Series:
    if "status" not in df.columns:
        return pd.Series(False, index=df.index)
    return df["status"].astype(str) != "ok"


def _in_order(values: Iterable[Any]) -> list[Any]:
    """Categories as drawn: by value (numbers ascending, then 'unbounded', then
    names such as 'auto') when any is a number; names alone keep their order
    of appearance (a paper's benchmark order)."""
    values = list(dict.fromkeys(values))
    if any(value_order(v)[0] < 2 for v in values):
        return sorted(values, key=value_order)
    return values


def _facet_axes(ax: Axes | None, count: int, figsize: Any = None) -> list[Axes]:
    """``count`` panels side by side (wrapping after 3), in ``ax``'s place if given."""
    cols = min(count, 3)
    rows = -(-count // cols)
    grid: Any
    fig: Any
    size = tuple(figsize) if figsize is not None else (4.2 * cols, 3.6 * rows)
    if ax is None:
        fig = plt.figure(figsize=size, layout="constrained")
        grid = fig.add_gridspec(rows, cols)
    else:
        fig = ax.get_figure(root=True)
        assert fig is not None
        fig.set_layout_engine("constrained")  # panel titles clear of the row above
        spec = ax.get_subplotspec()
        ax.remove()
        grid = spec.subgridspec(rows, cols) if spec is not None else fig.add_gridspec(rows, cols)
        width, height = fig.get_size_inches()
        if figsize is None:
            size = (max(width, size[0]), max(height, size[1]))
        fig.set_size_inches(*size)
    return [fig.add_subplot(grid[i // cols, i % cols]) for i in range(count)]


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


def _draw(
    df: pd.DataFrame,
    facet: str | None,
    ax: Axes | None,
    draw_one: Callable[[pd.DataFrame, Axes, str], None],
    title: str,
    *,
    figsize: Any = None,
    style: str | None = None,
    finish: Callable[[list[Axes]], None] | None = None,
) -> Axes | list[Axes]:
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    with _styled(style):
        if facet is None:
            if ax is None:
                ax = plt.subplots(figsize=figsize or (6.4, 4.2), layout="constrained")[1]
            else:
                ax = _restyled(ax) if style is not None else ax
                fig = ax.get_figure(root=True)
                if figsize is not None and fig is not None:
                    fig.set_size_inches(*figsize)
            fig = ax.get_figure(root=True)
            width = fig.get_size_inches()[0] if fig is not None else 6.4
            draw_one(df, ax, _wrap(title, width))
            if finish is not None:
                finish([ax])
            return ax
        fc = column(df, facet)
        values = _in_order(df[fc])
        if ax is not None and style is not None:
            ax = _restyled(ax)
        panels = _facet_axes(ax, len(values), figsize)
        fig = panels[0].get_figure(root=True)
        width = fig.get_size_inches()[0] / min(len(values), 3) if fig is not None else 4.2
        for value, panel in zip(values, panels, strict=True):
            text = f"{_wrap(title, width)}\n{_wrap(f'{fc} = {tick_text(value)}', width)}"
            draw_one(df[df[fc] == value], panel, text)
        if finish is not None:
            finish(panels)
        return panels


def _positions(values: pd.Series, log: bool) -> tuple[np.ndarray, dict[float, str]]:
    """Numeric x positions; 'unbounded' (inf) is drawn one step past the largest
    finite value (three times it on a log axis) and labelled so."""
    xs = values.to_numpy(dtype=float)
    ticks: dict[float, str] = {}
    finite = xs[np.isfinite(xs)]
    if np.isinf(xs).any():
        top = float(finite.max()) if finite.size else 1.0
        if log and top > 0:
            where = 3.0 * top
        else:
            step = float(np.diff(np.unique(finite)).max()) if finite.size > 1 else max(1.0, top)
            where = top + step
        xs = np.where(np.isinf(xs), where, xs)
        ticks[where] = "unbounded"
    return xs, ticks


def line(
    df: pd.DataFrame,
    x: str,
    y: str = "makespan_us",
    hue: Hue = "auto",
    *,
    facet: str | None = None,
    spread: str = "minmax",
    ax: Axes | None = None,
    logx: bool = False,
    logy: bool = False,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    figsize: Sequence[float] | None = None,
    style: str | None = None,
) -> Axes | list[Axes]:
    """``y`` against ``x``, one line per configuration, the mean over replicates.

    ``hue='auto'`` draws a line per scheme label and per value of every other
    parameter that varies at a given x; an explicit ``hue`` (a column or a list)
    must cover every such parameter.  Lines differ by marker and line style as
    well as colour.  ``spread`` shades the replicate spread at each point:
    'minmax', 'std' or 'none'.  ``facet`` draws a panel per value of a column.
    Points where some runs failed carry a red mark.  A speed-up axis names the
    baseline (:func:`baseline_name`) and draws it as a dashed line at 1.

    ``xlabel``/``ylabel`` replace the axis labels, ``figsize`` ([width,
    height] in inches) sizes the figure and ``style`` (one of
    ``plt.style.available``) draws it in that matplotlib style, only while
    drawing (an ``ax`` passed in is made again in its place, in the style:
    use the Axes returned).
    """
    if spread not in ("minmax", "std", "none"):
        raise ConfigError(f"spread must be 'minmax', 'std' or 'none'; got {excerpt(spread)}")
    _check_figure(figsize, style, xlabel, ylabel)
    xc, yc = column(df, x), column(df, y)
    _numeric(df, yc)
    fixed = [xc] + ([column(df, facet)] if facet else [])
    hues = _hue_columns(df, hue, fixed)
    y_text = ylabel if ylabel is not None else _value_label(df, yc)

    def draw_one(part: pd.DataFrame, ax: Axes, text: str) -> None:
        part = part.assign(_hue=_labels(part, hues), _failed=_failed(part))
        ticks: dict[float, str] = {}
        numeric_x = pd.api.types.is_numeric_dtype(part[xc])
        # Text x values (numbers mixed with 'auto') sit at positions in value order.
        order = sorted({tick_text(v) for v in part[xc]}, key=value_order)
        slot = {text: float(i) for i, text in enumerate(order)}
        marked = False
        drawn: set[float] = set()
        for k, (key, group) in enumerate(part.groupby("_hue", sort=False)):
            ok = group[~group["_failed"]]
            stats = ok.groupby(xc, sort=True)[yc].agg(["mean", "min", "max", "std"])
            fails = group.groupby(xc, sort=True)["_failed"].agg(["sum", "size"])
            stats = stats.reindex(fails.index)
            if numeric_x:
                xs, more = _positions(pd.Series(stats.index), logx)
                ticks.update(more)
            else:
                stats = stats.iloc[np.argsort([slot[tick_text(v)] for v in stats.index])]
                fails = fails.loc[stats.index]
                xs = np.array([slot[tick_text(v)] for v in stats.index])
                ticks.update({slot[t]: t for t in order})
            label = str(key) if hues else None
            drawn.update(float(v) for v in np.asarray(xs, dtype=float).ravel())
            ax.plot(
                xs,
                stats["mean"],
                marker=MARKERS[k % len(MARKERS)],
                linestyle=LINESTYLES[k % len(LINESTYLES)],
                markersize=4,
                label=label,
            )
            if spread == "minmax" and (stats["max"] > stats["min"]).any():
                ax.fill_between(xs, stats["min"], stats["max"], alpha=0.2)
            elif spread == "std" and stats["std"].fillna(0).gt(0).any():
                sd = stats["std"].fillna(0)
                ax.fill_between(xs, stats["mean"] - sd, stats["mean"] + sd, alpha=0.2)
            bad = fails["sum"].to_numpy() > 0
            if bad.any():
                marked = True
                means = stats["mean"].to_numpy()
                low = np.nanmin(means) if np.isfinite(means).any() else 0.0
                ys = np.where(np.isfinite(means), means, low)
                ax.scatter(np.asarray(xs)[bad], ys[bad], marker="x", color=FAILED_COLOUR, zorder=3)
                for xv, yv, s, n in zip(
                    np.asarray(xs)[bad], ys[bad], fails["sum"][bad], fails["size"][bad], strict=True
                ):
                    ax.annotate(
                        f"{s}/{n} failed",
                        (xv, yv),
                        fontsize=6,
                        color=FAILED_COLOUR,
                        xytext=(3, 3),
                        textcoords="offset points",
                    )
        ax.set_xlabel(xlabel if xlabel is not None else axis_label(xc))
        ax.set_ylabel(y_text)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        if ticks or (logx and numeric_x):  # label the values drawn, 'unbounded' included
            at = sorted(drawn)
            ax.set_xticks(at, [ticks.get(p, tick_text(p)) for p in at])
            ax.minorticks_off()
        based = _baseline_line(ax, df, yc)
        if hues or marked or based:
            if marked:
                ax.scatter([], [], marker="x", color=FAILED_COLOUR, label="some runs failed")
            _legend(ax)
        ax.grid(True, alpha=0.3)
        ax.set_title(text)

    return _draw(df, facet, ax, draw_one, title or f"{yc} vs {xc}", figsize=figsize, style=style)


def heatmap(
    df: pd.DataFrame,
    x: str,
    y: str,
    value: str,
    *,
    agg: str = "mean",
    facet: str | None = None,
    ax: Axes | None = None,
    cmap: str = "viridis",
    annotate: bool = True,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    figsize: Sequence[float] | None = None,
    style: str | None = None,
) -> Axes | list[Axes]:
    """``value`` over two parameters, ``agg`` over the replicates of each cell.

    A cell whose rows differ in another parameter is refused (select rows, or
    ``facet`` by it).  Cells some of whose runs failed are marked with the
    count; cells whose runs all failed read 'failed'.  With ``facet`` every
    panel shares one colour scale and one colour bar (its label says 'shared
    scale'), so equal colours mean equal values.  ``xlabel``, ``ylabel``,
    ``figsize`` and ``style`` as for :func:`line`.
    """
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    xc, yc, vc = column(df, x), column(df, y), column(df, value)
    _numeric(df, vc)
    if agg not in ("mean", "median", "min", "max"):
        raise ConfigError(f"agg must be mean, median, min or max; got {excerpt(agg)}")
    _check_figure(figsize, style, xlabel, ylabel)
    import matplotlib

    if not isinstance(cmap, str) or cmap not in matplotlib.colormaps:
        raise ConfigError(
            f"cmap must name a matplotlib colour map (e.g. 'viridis'); got {excerpt(cmap)}"
            f"{suggest(str(cmap), list(matplotlib.colormaps)) if isinstance(cmap, str) else ''}"
        )
    fixed = [xc, yc] + ([column(df, facet)] if facet else [])
    _hue_columns(df, None, fixed)  # refuses cells that mix configurations
    bar_label = f"{agg} {_value_label(df, vc)}"  # 'mean speed-up over best of a, b'
    # Faceted panels share one scale: the range of every panel's cells.
    shared: Normalize | None = None
    if facet is not None:
        ok_rows = df[~_failed(df)]
        cells = ok_rows.groupby(fixed, dropna=False)[vc].agg(agg).to_numpy(dtype=float)
        finite = cells[np.isfinite(cells)]
        if finite.size:
            shared = Normalize(float(finite.min()), float(finite.max()))
        else:
            shared = Normalize(0.0, 1.0)

    def draw_one(part: pd.DataFrame, ax: Axes, text: str) -> None:
        failed = _failed(part)
        ok = part[~failed]
        table = ok.pivot_table(index=yc, columns=xc, values=vc, aggfunc=agg)  # type: ignore[arg-type]
        counts = part.assign(_f=failed).pivot_table(
            index=yc, columns=xc, values="_f", aggfunc=["sum", "size"]
        )
        grid = table.reindex(index=counts.index, columns=counts["sum"].columns)
        by_value = lambda index: pd.Index([value_order(v) for v in index])  # noqa: E731
        grid = grid.sort_index(key=by_value).sort_index(axis=1, key=by_value)
        n_failed, n_runs = (
            pd.DataFrame(counts[k])
            .reindex(index=grid.index, columns=grid.columns)
            .fillna(0)
            .to_numpy(dtype=int)
            for k in ("sum", "size")
        )
        values = grid.to_numpy(dtype=float)
        image = ax.imshow(values, origin="lower", aspect="auto", cmap=cmap, norm=shared)
        ax.set_xticks(range(grid.shape[1]), [tick_text(v) for v in grid.columns])
        ax.set_yticks(range(grid.shape[0]), [tick_text(v) for v in grid.index])
        ax.set_xlabel(xlabel if xlabel is not None else axis_label(xc))
        ax.set_ylabel(ylabel if ylabel is not None else axis_label(yc))
        if shared is None:
            ax.figure.colorbar(image, ax=ax).set_label(bar_label)
        norm, colours = image.norm, image.get_cmap()
        for (i, j), v in np.ndenumerate(values):
            if n_failed[i, j] and not np.isfinite(v):
                ax.add_patch(
                    plt.Rectangle(
                        (j - 0.5, i - 0.5), 1, 1, fill=False, hatch="xx", color=FAILED_COLOUR
                    )
                )
                ax.text(j, i, "failed", ha="center", va="center", fontsize=7, color=FAILED_COLOUR)
            elif n_failed[i, j]:
                ax.text(
                    j,
                    i,
                    f"{v:.3g}\n{n_failed[i, j]}/{n_runs[i, j]} failed",
                    ha="center",
                    va="center",
                    fontsize=6,
                    color=FAILED_COLOUR,
                )
            elif annotate and grid.size <= 400 and np.isfinite(v):
                ax.text(
                    j,
                    i,
                    f"{v:.3g}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if _dark(colours(norm(v))) else "black",
                )
        ax.set_title(text)

    def one_colour_bar(panels: list[Axes]) -> None:
        if shared is None:
            return
        fig = panels[0].get_figure(root=True)
        assert fig is not None
        mappable = ScalarMappable(norm=shared, cmap=cmap)
        fig.colorbar(mappable, ax=panels).set_label(f"{bar_label} (shared scale)")

    return _draw(
        df,
        facet,
        ax,
        draw_one,
        title or f"{vc} over {xc} x {yc}",
        figsize=figsize,
        style=style,
        finish=one_colour_bar,
    )


def _dark(rgba: Any) -> bool:
    """Whether white text reads better than black on this colour."""
    r, g, b = (float(c) for c in tuple(rgba)[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b < 0.5


def bar(
    df: pd.DataFrame,
    x: str,
    y: str = "speedup",
    hue: Hue = "auto",
    *,
    facet: str | None = None,
    ax: Axes | None = None,
    logy: bool = False,
    title: str | None = None,
    summary: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    figsize: Sequence[float] | None = None,
    style: str | None = None,
) -> Axes | list[Axes]:
    """Grouped bars: mean ``y`` per ``x`` category, one bar per configuration
    (``hue`` as for :func:`line`), whiskers spanning the replicates' min to max.
    Numeric categories are in value order ('unbounded', then names, last);
    names keep their order.  Many or long category names are rotated; more
    than 24 categories turn the bars horizontal.

    ``summary='gmean'`` adds a 'gmean' group after the categories, as papers
    do: per configuration the geometric mean of its bars, with whiskers from
    the lowest to the highest of them (the values must be positive).  A
    speed-up axis names the baseline and draws it as a dashed line at 1.
    ``xlabel``, ``ylabel``, ``figsize`` and ``style`` as for :func:`line`.
    """
    if summary is not None and summary not in SUMMARIES:
        raise ConfigError(
            f"summary must be one of {', '.join(SUMMARIES)}; got {excerpt(summary)}"
            f"{suggest(str(summary), SUMMARIES)}"
        )
    gmean = summary == "gmean"
    _check_figure(figsize, style, xlabel, ylabel)
    xc, yc = column(df, x), column(df, y)
    _numeric(df, yc)
    fixed = [xc] + ([column(df, facet)] if facet else [])
    hues = _hue_columns(df, hue, fixed)
    y_text = ylabel if ylabel is not None else _value_label(df, yc)

    def draw_one(part: pd.DataFrame, ax: Axes, text: str) -> None:
        part = part.assign(_hue=_labels(part, hues), _failed=_failed(part))
        ok = part[~part["_failed"]]
        stats = ok.groupby([xc, "_hue"], sort=False)[yc].agg(["mean", "min", "max"])
        fails = part.groupby([xc, "_hue"], sort=False)["_failed"].agg(["sum", "size"])
        categories = _in_order(part[xc])
        series = list(dict.fromkeys(part["_hue"]))
        names = [tick_text(c) for c in categories] + (["gmean"] if gmean else [])
        # The summary group stands a little apart from the categories.
        slots = np.arange(len(categories) + (1 if gmean else 0), dtype=float)
        if gmean:
            slots[-1] += 0.5
        horizontal = len(categories) > 24
        width = 0.8 / len(series)
        spread = False
        for k, s in enumerate(series):
            means, lows, highs, marks = [], [], [], []
            for c in categories:
                row = stats.loc[(c, s)] if (c, s) in stats.index else None
                means.append(np.nan if row is None else row["mean"])
                # max(0, ...): rounding can put a mean of equal values a hair outside them
                lows.append(0 if row is None else max(0.0, row["mean"] - row["min"]))
                highs.append(0 if row is None else max(0.0, row["max"] - row["mean"]))
                f = fails.loc[(c, s)] if (c, s) in fails.index else None
                marks.append(
                    None if f is None or not f["sum"] else f"{f['sum']}/{f['size']} failed"
                )
            spread = spread or any(h > 0 or lo > 0 for h, lo in zip(highs, lows, strict=True))
            if gmean:
                g, low, high = _gmean(np.asarray(means, dtype=float), yc, str(s), names)
                means.append(g)
                lows.append(max(0.0, g - low) if np.isfinite(g) else 0.0)
                highs.append(max(0.0, high - g) if np.isfinite(g) else 0.0)
                marks.append(None)
            pos = slots - 0.4 + width * (k + 0.5)
            label = s if hues else None
            whiskers = [lows, highs]
            if horizontal:
                bars = ax.barh(pos, means, width, xerr=whiskers, capsize=2, label=label)
            else:
                bars = ax.bar(pos, means, width, yerr=whiskers, capsize=2, label=label)
            for patch, mark in zip(bars, marks, strict=True):
                if mark:
                    patch.set_hatch("xx")
                    patch.set_edgecolor(FAILED_COLOUR)
                    ax.annotate(
                        mark,
                        (patch.get_x() + patch.get_width() / 2, patch.get_y() + patch.get_height()),
                        fontsize=6,
                        color=FAILED_COLOUR,
                        ha="center",
                        va="bottom",
                    )
        long_names = max((len(n) for n in names), default=0) > 8
        x_text = xlabel if xlabel is not None else axis_label(xc)
        if gmean:
            (ax.axhline if horizontal else ax.axvline)(
                slots[-1] - 0.75, color="0.6", lw=0.8, ls=":", gid="summary"
            )
        if horizontal:
            ax.set_yticks(slots, names)
            ax.invert_yaxis()
            ax.set_ylabel(x_text)
            ax.set_xlabel(y_text)
        else:
            rotate = len(categories) > 6 or (long_names and len(categories) > 3)
            ax.set_xticks(
                slots,
                names,
                rotation=45 if rotate else 0,
                ha="right" if rotate else "center",
            )
            ax.set_xlabel(x_text)
            ax.set_ylabel(y_text)
        if logy:
            (ax.set_xscale if horizontal else ax.set_yscale)("log")
        if _baseline_line(ax, df, yc, horizontal) or hues:
            _legend(ax)
        if spread or gmean:
            notes = ["min to max over replicates"] if spread else []
            notes += [f"gmean: min to max over {xc}"] if gmean else []
            note = "whiskers: " + "; ".join(notes)
            ax.text(
                1.0,
                -0.02 if horizontal else 1.0,
                note,
                transform=ax.transAxes,
                ha="right",
                va="top" if horizontal else "bottom",
                fontsize=6,
                color="0.35",
            )
        ax.grid(True, axis="x" if horizontal else "y", alpha=0.3)
        # The whisker note sits above a vertical chart: the title clears it.
        noted = (spread or gmean) and not horizontal
        ax.set_title(text, pad=plt.rcParams["axes.titlepad"] + (8 if noted else 0))

    return _draw(df, facet, ax, draw_one, title or f"{yc} by {xc}", figsize=figsize, style=style)


def _gmean(means: np.ndarray, name: str, series: str, names: list[str]) -> tuple[float, ...]:
    """The geometric mean of one configuration's bars, and their lowest and highest."""
    finite = np.isfinite(means)
    bad = finite & (means <= 0)
    if bad.any():
        at = names[int(np.flatnonzero(bad)[0])]
        raise ConfigError(
            f"summary='gmean' needs positive values of '{name}'; {series or 'the bars'} "
            f"has {means[bad][0]:g} at {at}"
        )
    if not finite.any():
        return (math.nan, math.nan, math.nan)
    values = means[finite]
    return (float(np.exp(np.log(values).mean())), float(values.min()), float(values.max()))


def activity(
    trace: Any,
    columns: Sequence[str] = ("active_threads", "waiting_threads"),
    *,
    ax: Axes | None = None,
    label: str | None = None,
    title: str | None = None,
) -> Axes:
    """A worklist run's sampled activity over time (HWWL Fig. 8): the share of
    threads active (holding a work item) and waiting, in percent.  ``trace``
    is a :class:`~tbdse.Result` recorded with ``timeline=True`` or its
    ``trace()`` table; ``label`` prefixes the legend (to overlay runs)."""
    frame = trace.trace() if hasattr(trace, "trace") else trace
    if not isinstance(frame, pd.DataFrame) or "cycle" not in frame.columns:
        raise ConfigError("activity needs a recorded worklist run or its Result.trace() table")
    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 3.6))[1]
    for c in columns:
        if c not in frame.columns:
            raise ConfigError(
                f"the trace has no column '{c}'{suggest(c, frame.columns)}; it has "
                f"{', '.join(map(str, frame.columns))}"
            )
        fraction = c.endswith("_threads")
        values = frame[c] * (100.0 if fraction else 1.0)
        name = c.replace("_", " ") + (" (%)" if fraction else "")
        ax.plot(frame["cycle"], values, label=f"{label}: {name}" if label else name)
    ax.set_xlabel("cycle")
    ax.set_ylabel("% of threads" if all(c.endswith("_threads") for c in columns) else "value")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(title or "activity over time")
    return ax


KINDS: dict[str, Callable[..., Any]] = {"line": line, "heatmap": heatmap, "bar": bar}


def check(kind: str, df: pd.DataFrame, **options: Any) -> None:
    """The checks ``kind`` makes before drawing (columns exist, values are
    numeric, nothing would be averaged), without drawing; ConfigError otherwise."""
    if kind not in KINDS:
        raise ConfigError(f"unknown plot kind '{kind}'{suggest(kind, KINDS)}")
    x, y = str(options.get("x")), str(options.get("y"))
    facet = options.get("facet")
    value = options.get("value") if kind == "heatmap" else y
    xc = column(df, x)
    fixed = [xc] + ([column(df, facet)] if facet else [])
    if value is not None:
        _numeric(df, column(df, value))
    if kind == "heatmap":
        _hue_columns(df, None, [*fixed, column(df, y)])
    else:
        _hue_columns(df, options.get("hue", "auto"), fixed)


DOMINATED_COLOUR = "#b0b0b0"


def pareto(
    df: pd.DataFrame,
    x: str,
    y: str,
    directions: Sequence[str] | dict[str, str] = ("min", "min"),
    *,
    hue: str | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Two objectives against each other, every run a point: dominated runs
    grey, the Pareto front (:func:`tbdse.pareto`) coloured and joined as a
    step line that bounds the dominated region.

    ``directions`` says which way is better for ``x`` and ``y``: a pair such
    as ``("max", "min")``, or a mapping ``{x: "max", y: "min"}``; the axis
    labels say it too.  With ``hue`` (a column) each of its values gets its
    own front in its own colour, e.g. one per scheme label.  Rows are runs,
    not means over replicates (average them first for a front of means);
    runs without both values (failed runs, NaN) are left out and counted in
    a note.  Returns the Axes.
    """
    from tbdse._inputs import excerpt
    from tbdse.pareto import DIRECTIONS, front_mask, objective_columns

    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    xc, yc = column(df, x), column(df, y)
    if xc == yc:
        raise ConfigError(f"pareto needs two different columns; x and y are both '{xc}'")
    if isinstance(directions, dict):
        given = {column(df, k): v for k, v in directions.items()}
        if set(given) != {xc, yc}:
            raise ConfigError(
                f"directions must give 'min' or 'max' for exactly '{xc}' and '{yc}'; got "
                f"{excerpt(directions)}"
            )
        pair = (given[xc], given[yc])
    elif isinstance(directions, (list, tuple)) and len(directions) == 2:
        pair = (directions[0], directions[1])
    else:
        raise ConfigError(
            "directions must be a pair such as ('max', 'min') or a mapping "
            f"{{x: 'max', y: 'min'}}; got {excerpt(directions)}"
        )
    for name, d in zip((xc, yc), pair, strict=True):
        if d not in DIRECTIONS:
            raise ConfigError(
                f"direction of '{name}' must be 'min' or 'max'; got {excerpt(d)}"
                f"{suggest(d, DIRECTIONS) if isinstance(d, str) else ''}"
            )
    objectives = objective_columns(df, {xc: pair[0], yc: pair[1]})
    hc = column(df, hue) if hue is not None else None
    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 4.2))[1]

    values = df[[xc, yc]].to_numpy(dtype=float, na_value=np.nan)
    shown = np.isfinite(values).all(axis=1)
    on_front = np.zeros(len(df), dtype=bool)
    groups = [np.arange(len(df))]
    names = ["Pareto front"]
    if hc is not None:
        codes, uniques = pd.factorize(df[hc], use_na_sentinel=False)
        groups = [np.flatnonzero(codes == i) for i in range(len(uniques))]
        names = [tick_text(v) for v in uniques]
    for rows in groups:
        on_front[rows] = front_mask(df.iloc[rows], objectives)

    grey = shown & ~on_front
    ax.scatter(
        values[grey, 0],
        values[grey, 1],
        s=14,
        color=DOMINATED_COLOUR,
        label="dominated",
        zorder=1,
        gid="dominated",
    )
    # The corner between neighbours is their worse combination: right of a
    # point when lower x is better, left of it when higher x is.
    where: Any = "post" if pair[0] == "min" else "pre"
    for i, (rows, label) in enumerate(zip(groups, names, strict=True)):
        mine = rows[on_front[rows] & shown[rows]]
        points = values[mine]
        points = points[np.lexsort((points[:, 1], points[:, 0]))]
        colour = f"C{i % 10}"
        ax.step(points[:, 0], points[:, 1], where=where, color=colour, lw=1.2, zorder=2)
        ax.scatter(
            points[:, 0], points[:, 1], s=28, color=colour, label=label, zorder=3, gid="front"
        )
    better = {"min": "lower is better", "max": "higher is better"}
    ax.set_xlabel(f"{axis_label(xc)}, {better[pair[0]]}")
    ax.set_ylabel(f"{axis_label(yc)}, {better[pair[1]]}")
    hidden = int((~shown).sum())
    if hidden:
        ax.text(
            1.0,
            1.0,
            f"{hidden} run(s) without both values not shown",
            transform=ax.transAxes,
            ha="right",
            va="bottom",
            fontsize=6,
            color="0.35",
        )
    ax.legend(fontsize="small", title=hc)
    ax.grid(True, alpha=0.3)
    ax.set_title(title or f"Pareto front: {yc} vs {xc}")
    return ax


GANTT_MAX_BARS = 200_000  # beyond this matplotlib draws for minutes; zoom with ``cycles``
_MANY_ROWS = 48  # above this many SM slots, one tick per SM


def _recorded(result: Any, what: str) -> Any:
    from tbdse.results import Result

    if not isinstance(result, Result):
        raise ConfigError(
            f"{what} needs a Result from simulate(..., timeline=True); got {type(result).__name__}"
        )
    return result


def gantt(
    result: Any,
    ax: Axes | None = None,
    *,
    cycles: tuple[float, float] | None = None,
    title: str | None = None,
) -> Axes:
    """Per-SM Gantt chart of a TB run: one row per SM slot (SM 0 slot 0 at the
    top), a bar from each TB's start to its end, coloured by kernel.
    ``cycles=(first, last)`` shows only the TBs overlapping that window; more
    than ``GANTT_MAX_BARS`` bars are refused (zoom in, or open the run in
    Perfetto: ``Result.to_perfetto``)."""
    from matplotlib.collections import PolyCollection

    tl = _recorded(result, "gantt").timeline()
    if cycles is not None:
        if not isinstance(cycles, (tuple, list)) or len(cycles) != 2:
            raise ConfigError(f"cycles must be (first, last); got {excerpt(cycles)}")
        tl = tl[(tl["end"] >= cycles[0]) & (tl["start"] <= cycles[1])]
    if len(tl) > GANTT_MAX_BARS:
        raise ConfigError(
            f"gantt would draw {len(tl):,} bars, more than {GANTT_MAX_BARS:,}; pass "
            "cycles=(first, last) to show a window, or use Result.to_perfetto"
        )
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    gpu = result.gpu
    slots = max(int(gpu.tb_slots), int(tl["slot"].max()) + 1 if len(tl) else 1)
    sms = max(int(gpu.sms), int(tl["sm"].max()) + 1 if len(tl) else 1)
    ax = ax if ax is not None else plt.subplots(figsize=(8, max(2.5, 0.18 * sms * slots)))[1]
    row = (tl["sm"] * slots + tl["slot"]).to_numpy()
    start, end = tl["start"].to_numpy(), tl["end"].to_numpy()
    for i, kernel in enumerate(tl["kernel"].cat.categories):
        mine = (tl["kernel"] == kernel).to_numpy()
        if not mine.any():
            continue
        x0, x1, y = start[mine], end[mine], row[mine]
        verts = np.stack(
            [np.c_[x0, y - 0.4], np.c_[x1, y - 0.4], np.c_[x1, y + 0.4], np.c_[x0, y + 0.4]], 1
        )
        colour = f"C{i % 10}"
        bars = PolyCollection(list(verts), facecolors=colour, edgecolors="none", label=kernel)
        bars.set_gid("tb")
        ax.add_collection(bars)
    if sms * slots <= _MANY_ROWS:
        ax.set_yticks(
            range(sms * slots), [f"SM {s // slots} slot {s % slots}" for s in range(sms * slots)]
        )
    else:
        ax.set_yticks(range(0, sms * slots, slots), [f"SM {s}" for s in range(sms)])
    ax.set_ylim(sms * slots - 0.5, -0.5)
    first = float(start.min()) if len(tl) else 0.0
    last = float(end.max()) if len(tl) else 1.0
    lo, hi = cycles if cycles is not None else (first, last)
    ax.set_xlim(lo, hi if hi > lo else lo + 1)
    ax.set_xlabel("cycle")
    ax.tick_params(axis="y", labelsize="small")
    if 1 < len(tl["kernel"].cat.categories) <= 20:
        ax.legend(fontsize="small", title="kernel")
    ax.set_title(title or f"{result.scheme.label()} on {result.workload.name}: TBs per SM slot")
    return ax


def counters(
    result: Any,
    ax: Axes | None = None,
    *,
    columns: Sequence[str] | None = None,
    title: str | None = None,
) -> Axes:
    """What a run had in flight over time: for a TB run the TBs running and the
    TBs ready but not started (as the Perfetto export's counters), for a
    worklist run each series of ``Result.trace()`` (or ``columns`` of them),
    as steps."""
    from tbdse._perfetto import tb_counters

    result = _recorded(result, "counters")
    if ax is not None and not isinstance(ax, Axes):
        raise ConfigError(f"ax must be a matplotlib Axes; got {type(ax).__name__}")
    if result.workload.kind == "task_graph":
        series = {f"{k} TBs": v for k, v in tb_counters(result.timeline()).items()}
        ylabel = "TBs"
    else:
        trace = result.trace()
        series = {
            str(c): (trace["cycle"].to_numpy(), trace[c].to_numpy())
            for c in trace.columns
            if c != "cycle"
        }
        ylabel = "value"
    names = list(series) if columns is None else list(columns)
    for name in names:
        if name not in series:
            raise ConfigError(
                f"the run has no series '{name}'{suggest(str(name), series)}; it has "
                f"{', '.join(series)}"
            )
    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 3.6))[1]
    for name in names:
        x, y = series[name]
        ax.step(x, y, where="post", label=name)
    ax.set_xlabel("cycle")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(title or f"{result.scheme.label()} on {result.workload.name} over time")
    return ax
