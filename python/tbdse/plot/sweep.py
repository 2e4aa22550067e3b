"""A metric against a parameter: lines (seaborn ``lineplot``) and grouped bars
(``barplot``), both with their replicates' spread.  tbdse's layers on top:
one line or bar per configuration (nothing averaged but replicates), the
baseline drawn at speed-up 1, the geometric-mean group, failed runs marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot import _figure as fg
from tbdse.plot import _labels as lb
from tbdse.plot._rows import Hue, failed, hue_columns, hue_labels, numeric, select
from tbdse.simulation.results import column

FAILED_COLOUR = "#c0392b"
SUMMARIES = ("none", "gmean")
VALUE_TICKS = 12  # up to this many x values drawn, each is a labelled tick
SPREADS = {"minmax": ("pi", 100), "std": ("sd", 1), "none": None}


def prepare(df: pd.DataFrame, x: Any, y: Any, hue: Hue, where: Any, facets: list[Any]) -> Any:
    """The rows drawn (with their legend text ``_hue``, ``_failed`` and the
    value ``_y`` of the runs that finished), the x and y columns, the hue
    columns and the legend's order; ConfigError where configurations would
    be averaged together."""
    df = select(df, where)
    xc, yc = column(df, str(x)), column(df, str(y))
    numeric(df, yc)
    hues = hue_columns(df, hue, [xc, *(column(df, c) for c in facets if c)])
    bad = failed(df)
    data = df.assign(_hue=hue_labels(df, hues) if hues else "", _failed=bad, _y=df[yc].where(~bad))
    return df, xc, yc, hues, data, list(dict.fromkeys(data["_hue"]))


def _baseline(ax: Axes, df: pd.DataFrame, name: str, horizontal: bool = False) -> None:
    """A dashed reference at speed-up 1 named after the baseline (in the legend)."""
    base = lb.baseline_name(df) if name == "speedup" else None
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
        shown = sorted(set(df[xc].map(lb.tick_text)), key=lb.value_order)
        slot = {t: float(i) for i, t in enumerate(shown)}
        return df[xc].map(lb.tick_text).map(slot).to_numpy(), {p: t for t, p in slot.items()}
    xs = df[xc].to_numpy(dtype=float)
    finite = np.unique(xs[np.isfinite(xs)])
    top = float(finite.max()) if finite.size else 1.0
    step = float(np.diff(finite).max()) if finite.size > 1 else max(1.0, top)
    past = 3.0 * top if log and top > 0 else top + step
    special = {past: "unbounded"} if np.isinf(xs).any() else {}
    xs = np.where(np.isinf(xs), past, xs)
    text = lb.compact if log else lb.tick_text
    return xs, {float(v): special.get(float(v)) or text(float(v)) for v in np.unique(xs)}


def _failed_counts(part: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per point or bar some of whose runs failed: the failed and total run
    counts and the mean of the runs that finished."""
    counts = part.groupby(keys, sort=False).agg(k=("_failed", "sum"), n=("_failed", "size"),
                                                y=("_y", "mean"))  # fmt: skip
    return counts[counts["k"] > 0].reset_index().rename(columns=lambda c: c.strip("_"))


def line(
    df: pd.DataFrame, x: str, y: str = "makespan_us", hue: Hue = "auto", *,
    facet: str | None = None, row: str | None = None, col: str | None = None,
    sharex: bool = True, sharey: bool = True, spread: str = "minmax", ax: Axes | None = None,
    logx: bool = False, logy: bool = False, title: str | None = None, xlabel: str | None = None,
    ylabel: str | None = None, figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, palette: fg.Palette = None, legend: bool = True,
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
    across figures; ``legend=False`` leaves the legend out (another figure
    shows it); ``xlabel``, ``ylabel``, ``figsize`` and ``style`` (one of
    ``plt.style.available``; a passed ``ax`` is remade in its place) as
    named.  See docs/experiments.md, "Figures".  Returns the Axes, or the
    list of panels when faceted.
    """
    if spread not in SPREADS:
        raise ConfigError(f"spread must be 'minmax', 'std' or 'none'; got {excerpt(spread)}")
    df, xc, yc, hues, data, order = prepare(df, x, y, hue, where, [row, col, facet])
    xs, texts = _x_positions(df, xc, logx)
    few = len(texts) <= VALUE_TICKS or "unbounded" in texts.values() or logx
    few = few or not pd.api.types.is_numeric_dtype(df[xc])  # value ticks, else matplotlib's
    split = dict(hue="_hue", style="_hue", hue_order=order, style_order=order, markers=True,
                 palette=fg.colour_map(order, palette)) if hues else {"marker": "o"}  # fmt: skip
    with fg.panels(data.assign(_x=xs), ax, row, col, facet, figsize=figsize, style=style,
                   labels=(xlabel, ylabel), sharex=sharex, sharey=sharey) as p:  # fmt: skip
        for part, panel in p:
            sns.lineplot(part, x="_x", y="_y", errorbar=SPREADS[spread], markersize=5,
                         ax=panel, **split)  # fmt: skip
            marks = _failed_counts(part, ["_hue", "_x"])
            means = part.groupby(["_hue", "_x"])["_y"].mean().groupby(level=0).min()
            marks["y"] = marks["y"].fillna(marks["hue"].map(means)).fillna(0.0)  # at its lowest
            if len(marks):
                panel.scatter(marks["x"], marks["y"], marker="x", color=FAILED_COLOUR, zorder=3,
                              gid="failed", label="some runs failed")  # fmt: skip
            for m in marks.itertuples():
                panel.annotate(f"{m.k}/{m.n} failed", (m.x, m.y), fontsize=6, color=FAILED_COLOUR,
                               xytext=(3, 3), textcoords="offset points")  # fmt: skip
            _baseline(panel, df, yc)
            panel.grid(True, alpha=0.3)
        text = title or f"{lb.value_label(df, yc)} vs {lb.short_name(xc)}"
        return fg.finish(p, lb.axis_label(xc), lb.value_label(df, yc), text,
                         lb.subtitle(df, where, yc), logx=logx, logy=logy,
                         ticks=texts if few else None, legend=legend)  # fmt: skip


def _gmean(values: pd.Series) -> float:
    return float(np.exp(np.log(values).mean()))


def bar(
    df: pd.DataFrame, x: str, y: str = "speedup", hue: Hue = "auto", *,
    facet: str | None = None, row: str | None = None, col: str | None = None,
    sharex: bool = True, sharey: bool = True, ax: Axes | None = None, logy: bool = False,
    title: str | None = None, summary: str | None = None, xlabel: str | None = None,
    ylabel: str | None = None, figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, palette: fg.Palette = None, legend: bool = True,
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
    df, xc, yc, hues, data, order = prepare(df, x, y, hue, where, [row, col, facet])
    names = [lb.tick_text(c) for c in lb.in_order(df[xc])] + (["gmean"] if gmean else [])
    flat = len(names) - gmean > 24  # horizontal bars
    axes = {"y": "_cat", "x": "_y"} if flat else {"x": "_cat", "y": "_y"}
    whiskers = {"color": "0.2", "linewidth": 0.9, "gid": "whiskers"}  # seaborn's error bars
    kw = dict(order=names, hue="_hue", hue_order=order, palette=fg.colour_map(order, palette),
              errorbar=("pi", 100), capsize=0.15, err_kws=whiskers, gap=0.0,
              orient="h" if flat else "v", **axes)  # fmt: skip
    with fg.panels(data.assign(_cat=data[xc].map(lb.tick_text)), ax, row, col, facet,
                   figsize=figsize, style=style, labels=(xlabel, ylabel), sharex=sharex,
                   sharey=sharey) as p:  # fmt: skip
        for part, panel in p:
            sns.barplot(part, ax=panel, legend=bool(hues), **kw)
            if gmean:  # the bars' own means, summarised per configuration
                means = part.groupby(["_hue", "_cat"], sort=False)["_y"].mean().dropna()
                if (means <= 0).any():
                    h, cat = means[means <= 0].index[0]
                    raise ConfigError(
                        f"summary='gmean' needs positive values of '{yc}'; {h or 'the bars'} "
                        f"has {means[h, cat]:g} at {cat}"
                    )
                sns.barplot(means.reset_index().assign(_cat="gmean"), ax=panel, legend=False,
                            estimator=_gmean, **kw)  # fmt: skip
                (panel.axhline if flat else panel.axvline)(len(names) - 1.5, color="0.6", lw=0.8,
                                                           ls=":", gid="summary")  # fmt: skip
            width = 0.8 / len(order)  # seaborn dodges the bars evenly over 0.8 of a category
            for m in _failed_counts(part, ["_cat", "_hue"]).dropna(subset="y").itertuples():
                at = names.index(str(m.cat)) + width * (order.index(str(m.hue)) + 0.5) - 0.4
                panel.annotate(f"{m.k}/{m.n} failed", (m.y, at) if flat else (at, m.y), fontsize=6,
                               color=FAILED_COLOUR, ha="center", va="bottom")  # fmt: skip
            _baseline(panel, df, yc, flat)
            if not flat and (len(names) > 6 or (max(map(len, names)) > 8 and len(names) > 3)):
                # Slanted labels need ~1.5 line heights between categories, upright one.
                upright = len(names) > 12
                panel.tick_params(axis="x", labelrotation=90 if upright else 45)
                for label in panel.get_xticklabels():
                    label.set_horizontalalignment("center" if upright else "right")
            panel.grid(True, axis="x" if flat else "y", alpha=0.3)
        notes = [lb.subtitle(df, where, yc), "whiskers: min to max over replicates"]
        notes += [f"gmean: min to max over {xc}"] if gmean else []
        text = title or f"{lb.value_label(df, yc)} by {lb.short_name(xc)}"
        return fg.finish(p, lb.axis_label(xc), lb.value_label(df, yc), text,
                         "; ".join(n for n in notes if n), flip=flat, logx=logy and flat,
                         logy=logy and not flat, legend=legend, legend_out=True)  # fmt: skip
