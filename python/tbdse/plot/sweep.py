"""A metric against a parameter: lines (seaborn ``lineplot``) and grouped bars
(``barplot``), faceted by row and column.  tbdse's layers on top: one line or
bar per configuration (nothing averaged but replicates), the baseline drawn
at speed-up 1, the geometric-mean group, failed runs marked."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import matplotlib.colors
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot import _figure as fg
from tbdse.plot._labels import (
    axis_label,
    baseline_name,
    compact,
    in_order,
    short_name,
    subtitle,
    tick_text,
    value_label,
    value_order,
)
from tbdse.plot._rows import Hue, failed, hue_columns, hue_labels, numeric, select
from tbdse.simulation.results import column

FAILED_COLOUR = "#c0392b"
SUMMARIES = ("none", "gmean")
VALUE_TICKS = 12  # up to this many x values drawn, each is a labelled tick
SPREADS = {"minmax": ("pi", 100), "std": ("sd", 1), "none": None}
Palette = str | dict[str, Any] | None


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
        fixed = {k: matplotlib.colors.to_rgb(v) for k, v in (given or {}).items()}  # type: ignore[union-attr]
    except (ValueError, AttributeError) as exc:
        raise ConfigError(f"palette: {exc}") from None
    free = iter(c for c in colours if c not in fixed.values())
    return {n: fixed[n] if n in fixed else next(free, (0.5, 0.5, 0.5)) for n in names}


def _prepare(df: pd.DataFrame, x: str, y: str, hue: Hue, where: Any, facets: list[Any]) -> Any:
    """The rows drawn, the x and y columns, and the hue split (refusing an average)."""
    df = select(df, where)
    xc, yc = column(df, x), column(df, y)
    numeric(df, yc)
    hues = hue_columns(df, hue, [xc, *(column(df, c) for c in facets if c is not None)])
    data = df.assign(_hue=hue_labels(df, hues) if hues else "", _failed=failed(df))
    return df, xc, yc, hues, data, list(dict.fromkeys(data["_hue"]))


def _baseline(ax: Axes, df: pd.DataFrame, name: str, horizontal: bool = False) -> None:
    """A dashed reference at speed-up 1 named after the baseline (in the legend)."""
    base = baseline_name(df) if name == "speedup" else None
    if base is not None:
        (ax.axvline if horizontal else ax.axhline)(
            1.0, color="0.35", lw=0.9, ls=(0, (4, 3)), zorder=1, label=f"{base} (= 1)",
            gid="baseline",
        )  # fmt: skip


def _x_positions(df: pd.DataFrame, xc: str, log: bool) -> tuple[np.ndarray, dict[float, str]]:
    """Where each row sits on x and the text of every position: 'unbounded'
    (inf) one step past the largest value (3x it on a log axis); text values
    (numbers mixed with 'auto') at 0, 1, ... in value order."""
    if not pd.api.types.is_numeric_dtype(df[xc]):
        shown = sorted(set(df[xc].map(tick_text)), key=value_order)
        slot = {t: float(i) for i, t in enumerate(shown)}
        return df[xc].map(tick_text).map(slot).to_numpy(), {p: t for t, p in slot.items()}
    xs = df[xc].to_numpy(dtype=float)
    finite = np.unique(xs[np.isfinite(xs)])
    top = float(finite.max()) if finite.size else 1.0
    step = float(np.diff(finite).max()) if finite.size > 1 else max(1.0, top)
    past = 3.0 * top if log and top > 0 else top + step
    special = {past: "unbounded"} if np.isinf(xs).any() else {}
    xs = np.where(np.isinf(xs), past, xs)
    text = compact if log else tick_text
    return xs, {float(v): special.get(float(v)) or text(float(v)) for v in np.unique(xs)}


def _mark_failed(ax: Axes, part: pd.DataFrame, y: str) -> None:
    """A red x and 'k/n failed' where some runs of a point failed."""
    counts = part.groupby(["_hue", "_x"], sort=False)["_failed"].agg(["sum", "size"])
    means = part[~part["_failed"]].groupby(["_hue", "_x"])[y].mean()
    for key, (s, n) in counts[counts["sum"] > 0].iterrows():
        h, x = cast(tuple[Any, Any], key)
        mine = means.get(h)
        yv = means.get((h, x), float(np.nanmin(mine)) if mine is not None and len(mine) else 0.0)
        ax.scatter([x], [yv], marker="x", color=FAILED_COLOUR, zorder=3, gid="failed")
        ax.annotate(f"{s}/{n} failed", (x, yv), fontsize=6, color=FAILED_COLOUR,
                    xytext=(3, 3), textcoords="offset points")  # fmt: skip
    if (counts["sum"] > 0).any():
        ax.scatter([], [], marker="x", color=FAILED_COLOUR, label="some runs failed")


def line(
    df: pd.DataFrame, x: str, y: str = "makespan_us", hue: Hue = "auto", *,
    facet: str | None = None, row: str | None = None, col: str | None = None,
    sharex: bool = True, sharey: bool = True, spread: str = "minmax", ax: Axes | None = None,
    logx: bool = False, logy: bool = False, title: str | None = None, xlabel: str | None = None,
    ylabel: str | None = None, figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, palette: Palette = None,
) -> Axes | list[Axes]:  # fmt: skip
    """``y`` against ``x``: one line per configuration (seaborn ``lineplot``),
    the mean over replicates with their spread shaded (``spread``: 'minmax',
    'std' or 'none').  ``hue='auto'`` splits lines by scheme label and every
    other parameter that varies at a given x; an explicit ``hue`` (a column
    or a list) must cover them all.  ``row`` / ``col`` (``facet`` is ``col``)
    draw a panel per value on a FacetGrid of its own (so not with ``ax``),
    axes shared unless ``sharex`` / ``sharey`` is False.  ``where`` (column
    -> value or list) selects rows and is named under the title;
    ``palette`` (a seaborn palette, or legend text -> colour) fixes colours
    across figures; ``xlabel``, ``ylabel``, ``figsize`` and ``style`` (one
    of ``plt.style.available``; a passed ``ax`` is remade in its place) as
    named.  See docs/experiments.md, "Figures".  Returns the Axes, or the
    list of panels when faceted.
    """
    if spread not in SPREADS:
        raise ConfigError(f"spread must be 'minmax', 'std' or 'none'; got {excerpt(spread)}")
    fg.check_figure(figsize, style, xlabel, ylabel)
    df, xc, yc, hues, data, order = _prepare(df, x, y, hue, where, [row, col, facet])
    xs, texts = _x_positions(df, xc, logx)
    data = data.assign(_x=xs)
    split = dict(hue="_hue", style="_hue", hue_order=order, style_order=order, markers=True,
                 palette=colour_map(order, palette)) if hues else {"marker": "o"}  # fmt: skip
    with fg.styled(style):
        p = fg.panels(data, ax, row, col, facet, figsize=figsize, style=style, sharex=sharex,
                      sharey=sharey)  # fmt: skip
        for part, panel in zip(p.parts, p.axes, strict=True):
            sns.lineplot(part[~part["_failed"]], x="_x", y=yc, errorbar=SPREADS[spread],
                         markersize=5, ax=panel, **split)  # fmt: skip
            _mark_failed(panel, part, yc)
            _baseline(panel, df, yc)
            panel.set(**({"xscale": "log"} if logx else {}), **({"yscale": "log"} if logy else {}))
            panel.grid(True, alpha=0.3)
        few = len(texts) <= VALUE_TICKS or "unbounded" in texts.values()
        if logx or few or not pd.api.types.is_numeric_dtype(df[xc]):
            for panel in p.axes:  # once every panel is drawn: shared limits are final
                fg.value_ticks(panel, sorted(texts), [texts[a] for a in sorted(texts)])
        fg.label_axes(p, axis_label(xc) if xlabel is None else xlabel,
                      value_label(df, yc) if ylabel is None else ylabel)  # fmt: skip
        for panel in p.axes:
            fg.label_log_axis(panel, "x")
            fg.label_log_axis(panel, "y")
        text = title or f"{value_label(df, yc)} vs {short_name(xc)}"
        fg.finish(p, text, subtitle(df, where, yc))
    return p.axes if p.faceted else p.axes[0]


def _gmean(means: np.ndarray, name: str, series: str, names: list[str]) -> tuple[float, ...]:
    """The geometric mean of one configuration's bars, and their lowest and highest."""
    finite = np.isfinite(means)
    if (bad := finite & (means <= 0)).any():
        raise ConfigError(
            f"summary='gmean' needs positive values of '{name}'; {series or 'the bars'} "
            f"has {means[bad][0]:g} at {names[int(np.flatnonzero(bad)[0])]}"
        )
    if not finite.any():
        return (math.nan, math.nan, math.nan)
    v = means[finite]
    return (float(np.exp(np.log(v).mean())), float(v.min()), float(v.max()))


def _bar_table(part: pd.DataFrame, xc: str, yc: str, names: list[str], gmean: bool) -> Any:
    """One row per bar: category, configuration, mean, whisker ends (the
    replicates' min and max; for a gmean bar its configuration's lowest and
    highest bar) and the failed-run mark."""
    keys = [xc, "_hue"]
    runs = part.groupby(keys, sort=False)["_failed"].agg(["sum", "size"])
    stats = part[~part["_failed"]].groupby(keys, sort=False)[yc].agg(["mean", "min", "max"])
    table = runs.join(stats).reset_index()
    table = table.assign(_cat=table[xc].map(tick_text), mark=[
        f"{s}/{n} failed" if s else "" for s, n in zip(table["sum"], table["size"], strict=True)
    ])  # fmt: skip
    for h, mine in list(table.groupby("_hue", sort=False)) if gmean else []:
        means = mine.set_index("_cat")["mean"].reindex(names[:-1]).to_numpy(dtype=float)
        g, low, high = _gmean(means, yc, str(h), names)
        table.loc[len(table), ["_cat", "_hue", "mean", "min", "max", "mark"]] = [
            "gmean", h, g, low, high, ""
        ]  # fmt: skip
    return table


def bar(
    df: pd.DataFrame, x: str, y: str = "speedup", hue: Hue = "auto", *,
    facet: str | None = None, row: str | None = None, col: str | None = None,
    sharex: bool = True, sharey: bool = True, ax: Axes | None = None, logy: bool = False,
    title: str | None = None, summary: str | None = None, xlabel: str | None = None,
    ylabel: str | None = None, figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, palette: Palette = None,
) -> Axes | list[Axes]:  # fmt: skip
    """Grouped bars (seaborn ``barplot``): mean ``y`` per ``x`` category, one
    bar per configuration (``hue`` as for :func:`line`), whiskers from the
    replicates' min to max; more than 24 categories turn the bars
    horizontal.  ``summary='gmean'`` adds a 'gmean' group, per configuration
    the geometric mean of its bars with whiskers from the lowest to the
    highest (positive values only).  Other options as for :func:`line`.
    """
    if summary is not None and summary not in SUMMARIES:
        raise ConfigError(
            f"summary must be one of {', '.join(SUMMARIES)}; got {excerpt(summary)}"
            f"{suggest(str(summary), SUMMARIES)}"
        )
    gmean = summary == "gmean"
    fg.check_figure(figsize, style, xlabel, ylabel)
    df, xc, yc, hues, data, order = _prepare(df, x, y, hue, where, [row, col, facet])
    names = [tick_text(c) for c in in_order(df[xc])] + (["gmean"] if gmean else [])
    flat = len(names) - gmean > 24  # horizontal bars
    colours = colour_map(order, palette) if hues else None
    with fg.styled(style):
        p = fg.panels(data, ax, row, col, facet, figsize=figsize, style=style, sharex=sharex,
                      sharey=sharey)  # fmt: skip
        for part, panel in zip(p.parts, p.axes, strict=True):
            table = _bar_table(part, xc, yc, names, gmean)
            sns.barplot(
                table, **({"y": "_cat", "x": "mean"} if flat else {"x": "_cat", "y": "mean"}),
                hue="_hue" if hues else None, order=names, hue_order=order if hues else None,
                palette=colours, errorbar=None, legend=bool(hues), ax=panel, gap=0.0,
                dodge=bool(hues), orient="h" if flat else "v",
            )  # fmt: skip
            _whiskers(panel, table, names, order, flat)
            if gmean:
                (panel.axhline if flat else panel.axvline)(len(names) - 1.5, color="0.6", lw=0.8,
                                                           ls=":", gid="summary")  # fmt: skip
            _baseline(panel, df, yc, flat)
            if logy:
                panel.set(**{"xscale" if flat else "yscale": "log"})
            if not flat and (len(names) > 6 or (max(map(len, names)) > 8 and len(names) > 3)):
                # Slanted labels need ~1.5 line heights between categories, upright one.
                upright = len(names) > 12
                panel.tick_params(axis="x", labelrotation=90 if upright else 45)
                for label in panel.get_xticklabels():
                    label.set_horizontalalignment("center" if upright else "right")
            panel.grid(True, axis="x" if flat else "y", alpha=0.3)
        x_text = axis_label(xc) if xlabel is None else xlabel
        y_text = value_label(df, yc) if ylabel is None else ylabel
        fg.label_axes(p, *((y_text, x_text) if flat else (x_text, y_text)))
        for panel in p.axes:
            fg.label_log_axis(panel, "x" if flat else "y")
        notes = [subtitle(df, where, yc), "whiskers: min to max over replicates"]
        notes += [f"gmean: min to max over {xc}"] if gmean else []
        text = title or f"{value_label(df, yc)} by {short_name(xc)}"
        fg.finish(p, text, "; ".join(n for n in notes if n), legend_out=True)
    return p.axes if p.faceted else p.axes[0]


def _whiskers(
    ax: Axes, table: pd.DataFrame, names: list[str], order: list[str], flat: bool
) -> None:
    """Min-to-max whiskers at each bar (seaborn dodges ``len(order)`` bars
    evenly over 0.8 of a category), and the failed-run marks."""
    width = 0.8 / max(1, len(order))
    for _, r in table[np.isfinite(table["mean"].astype(float))].iterrows():
        k = order.index(r["_hue"]) if len(order) > 1 else 0
        at = names.index(r["_cat"]) + (-0.4 + width * (k + 0.5) if len(order) > 1 else 0.0)
        err = [[max(0.0, r["mean"] - r["min"])], [max(0.0, r["max"] - r["mean"])]]
        x, y = ([r["mean"]], [at]) if flat else ([at], [r["mean"]])
        ax.errorbar(x, y, xerr=err if flat else None, yerr=None if flat else err, fmt="none",
                    ecolor="0.2", elinewidth=0.9, capsize=2, gid="whiskers")  # fmt: skip
        if r["mark"]:
            ax.annotate(r["mark"], (r["mean"], at) if flat else (at, r["mean"]), fontsize=6,
                        color=FAILED_COLOUR, ha="center", va="bottom")  # fmt: skip
