"""A metric against a parameter: lines (seaborn ``lineplot``) and grouped bars
(``barplot``), faceted by row and column.  tbdse's own layers on top: one
line or bar per configuration (nothing averaged but replicates), the
baseline drawn at speed-up 1, the geometric-mean group, failed runs marked."""

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
    """One colour per configuration for the whole figure, so a colour keeps
    its meaning from panel to panel; ``given`` (a seaborn palette name, or
    legend text -> colour, e.g. {'LRR': 'C0'}) keeps it across figures too."""
    if given is not None and not isinstance(given, (str, dict)):
        raise ConfigError(
            f"palette must name a seaborn palette or map legend text to colours; got "
            f"{excerpt(given)}"
        )
    try:
        colours = sns.color_palette(given if isinstance(given, str) else None, max(1, len(names)))
        chosen = (
            {k: matplotlib.colors.to_rgb(v) for k, v in (given or {}).items()}
            if isinstance(given, dict)
            else {}
        )
    except ValueError as exc:
        raise ConfigError(f"palette: {exc}") from None
    free = iter(c for c in colours if c not in chosen.values())
    return {n: chosen[n] if n in chosen else next(free, (0.5, 0.5, 0.5)) for n in names}


def baseline_line(ax: Axes, df: pd.DataFrame, name: str, horizontal: bool = False) -> None:
    """A dashed reference at speed-up 1 named after the baseline (in the legend)."""
    base = baseline_name(df) if name == "speedup" else None
    if base is not None:
        draw = ax.axvline if horizontal else ax.axhline
        draw(
            1.0,
            color="0.35",
            lw=0.9,
            ls=(0, (4, 3)),
            zorder=1,
            label=f"{base} (= 1)",
            gid="baseline",
        )


def _positions(values: pd.Series, log: bool) -> tuple[np.ndarray, dict[float, str]]:
    """Numeric x positions; 'unbounded' (inf) is drawn one step past the largest
    finite value (three times it on a log axis) and labelled so."""
    xs = values.to_numpy(dtype=float)
    ticks: dict[float, str] = {}
    finite = np.unique(xs[np.isfinite(xs)])
    if np.isinf(xs).any():
        top = float(finite.max()) if finite.size else 1.0
        if log and top > 0:
            where = 3.0 * top
        else:
            step = float(np.diff(finite).max()) if finite.size > 1 else max(1.0, top)
            where = top + step
        xs = np.where(np.isinf(xs), where, xs)
        ticks[where] = "unbounded"
    return xs, ticks


def _x_positions(df: pd.DataFrame, xc: str, log: bool) -> tuple[np.ndarray, dict[float, str]]:
    """Where each row sits on x, and the text of every position drawn."""
    if pd.api.types.is_numeric_dtype(df[xc]):
        xs, special = _positions(df[xc], log)
        from tbdse.plot._labels import compact

        text = compact if log else tick_text
        return xs, {float(v): special.get(float(v), text(float(v))) for v in np.unique(xs)}
    # Text x values (numbers mixed with 'auto') sit at positions in value order.
    order = sorted({tick_text(v) for v in df[xc]}, key=value_order)
    slot = {t: float(i) for i, t in enumerate(order)}
    return np.array([slot[tick_text(v)] for v in df[xc]]), {p: t for t, p in slot.items()}


def _mark_failed(ax: Axes, part: pd.DataFrame, x: str, y: str, hue: str) -> bool:
    """A red x and 'k/n failed' where some runs of a point failed."""
    counts = part.groupby([hue, x], sort=False)["_failed"].agg(["sum", "size"])
    means = part[~part["_failed"]].groupby([hue, x])[y].mean()
    bad = counts[counts["sum"] > 0]
    for key, (s, n) in bad.iterrows():
        h, xv = cast(tuple[Any, Any], key)
        mine = means.get(h)
        low = float(np.nanmin(mine)) if mine is not None and len(mine) else 0.0
        yv = means.get((h, xv), low)
        ax.scatter([xv], [yv], marker="x", color=FAILED_COLOUR, zorder=3, gid="failed")
        ax.annotate(
            f"{s}/{n} failed", (xv, yv), fontsize=6, color=FAILED_COLOUR,
            xytext=(3, 3), textcoords="offset points",
        )  # fmt: skip
    if len(bad):
        ax.scatter([], [], marker="x", color=FAILED_COLOUR, label="some runs failed")
    return bool(len(bad))


def line(
    df: pd.DataFrame,
    x: str,
    y: str = "makespan_us",
    hue: Hue = "auto",
    *,
    facet: str | None = None,
    row: str | None = None,
    col: str | None = None,
    sharex: bool = True,
    sharey: bool = True,
    spread: str = "minmax",
    ax: Axes | None = None,
    logx: bool = False,
    logy: bool = False,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    figsize: Sequence[float] | None = None,
    style: str | None = None,
    where: dict[str, Any] | None = None,
    palette: Palette = None,
) -> Axes | list[Axes]:
    """``y`` against ``x``, one line per configuration, the mean over
    replicates (seaborn ``lineplot``), the replicates' spread shaded
    (``spread``: 'minmax', 'std' or 'none').

    ``hue='auto'`` draws a line per scheme label and per value of every other
    parameter that varies at a given x; an explicit ``hue`` (a column or a
    list) must cover every such parameter.  Lines differ by marker and dash
    as well as colour, and a colour means the same configuration in every
    panel.  ``row`` and ``col`` (``facet`` is ``col``) draw a panel per value,
    on shared axes unless ``sharex``/``sharey`` is False; the figure has one
    title, one legend, and a subtitle naming ``where`` (rows kept: column ->
    value or list) and the baseline; ``palette`` (a seaborn palette name,
    or legend text -> colour) keeps a configuration's colour across figures.
    Points where some runs failed carry a red mark.  A speed-up axis names
    the baseline and draws it at 1.  Log axes are labelled at any range.
    ``xlabel``/``ylabel`` replace the axis titles, ``figsize`` ([width,
    height] in inches) sizes the figure and ``style`` (one of
    ``plt.style.available``) draws it in that style (an ``ax`` passed in is
    made again in its place: use the Axes returned).
    Returns the Axes, or the list of panels when faceted.
    """
    if spread not in SPREADS:
        raise ConfigError(f"spread must be 'minmax', 'std' or 'none'; got {excerpt(spread)}")
    fg.check_figure(figsize, style, xlabel, ylabel)
    df = select(df, where)
    xc, yc = column(df, x), column(df, y)
    numeric(df, yc)
    rc, cc = fg.facet_columns(df, row, col, facet)
    hues = hue_columns(df, hue, [xc, *(c for c in (rc, cc) if c)])
    xs, texts = _x_positions(df, xc, logx)
    slots = not pd.api.types.is_numeric_dtype(df[xc])  # text values at 0, 1, ...
    data = df.assign(_x=xs, _hue=hue_labels(df, hues) if hues else "", _failed=failed(df))
    order = list(dict.fromkeys(data["_hue"]))
    with fg.styled(style):
        p = fg.panels(data, ax, rc, cc, figsize=figsize, style=style, sharex=sharex, sharey=sharey)
        colours = colour_map(order, palette)
        for part, panel in zip(p.parts, p.axes, strict=True):
            ok = part[~part["_failed"]]
            if hues:
                sns.lineplot(
                    ok, x="_x", y=yc, hue="_hue", style="_hue", hue_order=order,
                    style_order=order, palette=colours, markers=True, errorbar=SPREADS[spread],
                    markersize=5, ax=panel,
                )  # fmt: skip
            else:
                sns.lineplot(
                    ok, x="_x", y=yc, marker="o", errorbar=SPREADS[spread], markersize=5, ax=panel
                )
            _mark_failed(panel, part, "_x", yc, "_hue")
            baseline_line(panel, df, yc)
            if logx:
                panel.set_xscale("log")
            if logy:
                panel.set_yscale("log")
            panel.grid(True, alpha=0.3)
        if logx or len(texts) <= VALUE_TICKS or "unbounded" in texts.values() or slots:
            at = sorted(texts)
            for panel in p.axes:  # once every panel is drawn: shared limits are final
                fg.value_ticks(panel, at, [texts[a] for a in at])
        fg.label_axes(
            p, xlabel if xlabel is not None else axis_label(xc),
            ylabel if ylabel is not None else value_label(df, yc),
        )  # fmt: skip
        for panel in p.axes:
            fg.label_log_axis(panel, "y")
            fg.label_log_axis(panel, "x")
        text = title or f"{value_label(df, yc)} vs {short_name(xc)}"
        fg.finish(p, text, subtitle(df, where, yc))
    return p.axes if p.faceted else p.axes[0]


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


def _bar_table(part: pd.DataFrame, xc: str, yc: str, names: list[str], gmean: bool) -> pd.DataFrame:
    """One row per bar: its category, configuration, mean and whisker ends
    (the replicates' min and max; for a gmean bar the lowest and highest bar)."""
    ok = part[~part["_failed"]]
    stats = ok.groupby([xc, "_hue"], sort=False)[yc].agg(["mean", "min", "max"])
    fails = part.groupby([xc, "_hue"], sort=False)["_failed"].agg(["sum", "size"])
    rows = []
    for key, f in fails.iterrows():
        c, h = cast(tuple[Any, Any], key)
        s = stats.loc[(c, h)] if (c, h) in stats.index else None
        mean = math.nan if s is None else float(s["mean"])
        low, high = (mean, mean) if s is None else (float(s["min"]), float(s["max"]))
        mark = f"{f['sum']}/{f['size']} failed" if f["sum"] else ""
        rows.append((tick_text(c), h, mean, low, high, mark))
    table = pd.DataFrame(rows, columns=["_cat", "_hue", "mean", "low", "high", "mark"])
    if gmean:
        for h, mine in table.groupby("_hue", sort=False):
            mine = mine.set_index("_cat").reindex(names[:-1])
            g, low, high = _gmean(mine["mean"].to_numpy(dtype=float), yc, str(h), names)
            table.loc[len(table)] = ["gmean", h, g, low, high, ""]
    return table


def bar(
    df: pd.DataFrame,
    x: str,
    y: str = "speedup",
    hue: Hue = "auto",
    *,
    facet: str | None = None,
    row: str | None = None,
    col: str | None = None,
    sharex: bool = True,
    sharey: bool = True,
    ax: Axes | None = None,
    logy: bool = False,
    title: str | None = None,
    summary: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    figsize: Sequence[float] | None = None,
    style: str | None = None,
    where: dict[str, Any] | None = None,
    palette: Palette = None,
) -> Axes | list[Axes]:
    """Grouped bars (seaborn ``barplot``): mean ``y`` per ``x`` category, one
    bar per configuration (``hue`` as for :func:`line`), whiskers from the
    replicates' min to max.  Numeric categories are in value order
    ('unbounded', then names, last); names keep their order.  Many or long
    category names are rotated; more than 24 categories turn the bars
    horizontal.  The legend sits outside the bars.

    ``summary='gmean'`` adds a 'gmean' group after the categories, as papers
    do: per configuration the geometric mean of its bars, with whiskers from
    the lowest to the highest of them (the values must be positive).  A
    speed-up axis names the baseline and draws it as a dashed line at 1.
    ``row``, ``col``/``facet``, ``sharex``/``sharey``, ``where``, ``palette``, ``xlabel``,
    ``ylabel``, ``figsize`` and ``style`` as for :func:`line`.
    """
    if summary is not None and summary not in SUMMARIES:
        raise ConfigError(
            f"summary must be one of {', '.join(SUMMARIES)}; got {excerpt(summary)}"
            f"{suggest(str(summary), SUMMARIES)}"
        )
    gmean = summary == "gmean"
    fg.check_figure(figsize, style, xlabel, ylabel)
    df = select(df, where)
    xc, yc = column(df, x), column(df, y)
    numeric(df, yc)
    rc, cc = fg.facet_columns(df, row, col, facet)
    hues = hue_columns(df, hue, [xc, *(c for c in (rc, cc) if c)])
    data = df.assign(_hue=hue_labels(df, hues) if hues else "", _failed=failed(df))
    order = list(dict.fromkeys(data["_hue"]))
    names = [tick_text(c) for c in in_order(df[xc])] + (["gmean"] if gmean else [])
    horizontal = len(names) - gmean > 24
    with fg.styled(style):
        p = fg.panels(data, ax, rc, cc, figsize=figsize, style=style, sharex=sharex, sharey=sharey)
        colours = colour_map(order, palette)
        for part, panel in zip(p.parts, p.axes, strict=True):
            table = _bar_table(part, xc, yc, names, gmean)
            axes = {"y": "_cat", "x": "mean"} if horizontal else {"x": "_cat", "y": "mean"}
            sns.barplot(
                table, **axes, hue="_hue" if hues else None, order=names,
                hue_order=order if hues else None, palette=colours if hues else None,
                errorbar=None, legend=bool(hues), ax=panel, gap=0.0, dodge=bool(hues),
                orient="h" if horizontal else "v",
            )  # fmt: skip
            _whiskers(panel, table, names, order, horizontal)
            if gmean:
                (panel.axhline if horizontal else panel.axvline)(
                    len(names) - 1.5, color="0.6", lw=0.8, ls=":", gid="summary"
                )
            baseline_line(panel, df, yc, horizontal)
            if logy:
                (panel.set_xscale if horizontal else panel.set_yscale)("log")
            long_names = max((len(n) for n in names), default=0) > 8
            if not horizontal and (len(names) > 6 or (long_names and len(names) > 3)):
                # Slanted labels overlap once categories are closer than about
                # 1.5 line heights; upright ones need one.
                upright = len(names) > 12
                panel.tick_params(axis="x", labelrotation=90 if upright else 45)
                for label in panel.get_xticklabels():
                    label.set_horizontalalignment("center" if upright else "right")
            panel.grid(True, axis="x" if horizontal else "y", alpha=0.3)
        x_text = xlabel if xlabel is not None else axis_label(xc)
        y_text = ylabel if ylabel is not None else value_label(df, yc)
        fg.label_axes(p, *((y_text, x_text) if horizontal else (x_text, y_text)))
        for panel in p.axes:
            fg.label_log_axis(panel, "x" if horizontal else "y")
        notes = [subtitle(df, where, yc)] if subtitle(df, where, yc) else []
        notes.append("whiskers: min to max over replicates")
        if gmean:
            notes.append(f"gmean: min to max over {xc}")
        fg.finish(p, title or f"{value_label(df, yc)} by {short_name(xc)}", "; ".join(notes),
                  legend_out=True)  # fmt: skip
    return p.axes if p.faceted else p.axes[0]


def _whiskers(
    ax: Axes, table: pd.DataFrame, names: list[str], order: list[str], horizontal: bool
) -> None:
    """Min-to-max whiskers at each bar (seaborn dodges ``len(order)`` bars
    evenly over 0.8 of a category), and the failed-run marks."""
    width = 0.8 / max(1, len(order))
    slot = {n: i for i, n in enumerate(names)}
    for _, r in table.iterrows():
        if not np.isfinite(r["mean"]):
            continue
        k = order.index(r["_hue"]) if r["_hue"] in order and len(order) > 1 else 0
        pos = slot[r["_cat"]] + (-0.4 + width * (k + 0.5) if len(order) > 1 else 0.0)
        low, high = max(0.0, r["mean"] - r["low"]), max(0.0, r["high"] - r["mean"])
        err = [[low], [high]]
        xs, ys = ([r["mean"]], [pos]) if horizontal else ([pos], [r["mean"]])
        ax.errorbar(
            xs, ys, xerr=err if horizontal else None, yerr=None if horizontal else err,
            fmt="none", ecolor="0.2", elinewidth=0.9, capsize=2, gid="whiskers",
        )  # fmt: skip
        if r["mark"]:
            ax.annotate(
                r["mark"], (pos, r["mean"]) if not horizontal else (r["mean"], pos),
                fontsize=6, color=FAILED_COLOUR, ha="center", va="bottom",
            )  # fmt: skip
