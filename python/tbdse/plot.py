"""Figures from sweep results: a metric against a parameter, heatmaps, grouped bars.

Every function takes the DataFrame :func:`tbdse.sweep` returns, resolves bare
column names as sweeps do (``sms`` -> ``gpu.sms``), labels axes with units and
returns the matplotlib Axes.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from tbdse.errors import ConfigError
from tbdse.results import column, units

__all__ = ["axis_label", "bar", "heatmap", "line"]


def _hue(df: pd.DataFrame, hue: str | None, x: str) -> tuple[pd.DataFrame, str | None]:
    """The column to split lines or bars by.  'auto': the scheme label, plus the
    swept scheme parameters other than the one on the x axis (a sweep's frame
    names them in ``attrs['scheme_axes']``), so different configurations are
    never averaged together."""
    if hue != "auto":
        return df, column(df, hue) if hue else None
    if "label" not in df.columns:
        return df, None
    axes = [a for a in df.attrs.get("scheme_axes", []) if a != x and a in df.columns]
    if not axes:
        return df, "label"
    parts = df["label"].astype(str)
    for a in axes:
        parts = parts + np.where(df[a].isna(), "", f" {a}=" + df[a].astype(str))
    return df.assign(_hue=parts), "_hue"


def axis_label(name: str) -> str:
    """'makespan_us' -> 'makespan_us (us)'; columns without a unit stay as they are."""
    unit = units().get(name)
    return f"{name} ({unit})" if unit and unit not in ("fraction",) else name


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    _, ax = plt.subplots(figsize=(6.4, 4.2))
    return ax


def _numeric(df: pd.DataFrame, name: str) -> None:
    if not pd.api.types.is_numeric_dtype(df[name]):
        raise ConfigError(f"column '{name}' is not numeric; it cannot be plotted as a value")


def line(
    df: pd.DataFrame,
    x: str,
    y: str = "makespan_us",
    hue: str | None = "auto",
    *,
    spread: str = "minmax",
    ax: Axes | None = None,
    logx: bool = False,
    logy: bool = False,
    title: str | None = None,
) -> Axes:
    """``y`` against ``x``, one line per ``hue`` value (mean over the rows at each x).

    ``hue='auto'`` draws a line per scheme label and value of every other swept
    scheme parameter.  ``spread`` shades the replicate spread at each point:
    'minmax', 'std' or 'none'.
    """
    if spread not in ("minmax", "std", "none"):
        raise ConfigError(f"spread must be 'minmax', 'std' or 'none'; got {spread!r}")
    xc, yc = column(df, x), column(df, y)
    df, hc = _hue(df, hue, xc)
    _numeric(df, yc)
    ax = _axes(ax)
    groups = df.groupby(hc, sort=False, dropna=False) if hc else [(None, df)]
    for key, part in groups:
        stats = part.groupby(xc, sort=True)[yc].agg(["mean", "min", "max", "std"]).reset_index()
        xs = stats[xc].to_numpy()
        ax.plot(
            xs, stats["mean"], marker="o", markersize=4, label=None if key is None else str(key)
        )
        if spread == "minmax" and (stats["max"] > stats["min"]).any():
            ax.fill_between(xs, stats["min"], stats["max"], alpha=0.2)
        elif spread == "std" and stats["std"].fillna(0).gt(0).any():
            sd = stats["std"].fillna(0)
            ax.fill_between(xs, stats["mean"] - sd, stats["mean"] + sd, alpha=0.2)
    ax.set_xlabel(axis_label(xc))
    ax.set_ylabel(axis_label(yc))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    if hc:
        ax.legend(title=None if hc == "_hue" else hc, fontsize="small")
    ax.grid(True, alpha=0.3)
    ax.set_title(title or f"{yc} vs {xc}")
    return ax


def heatmap(
    df: pd.DataFrame,
    x: str,
    y: str,
    value: str,
    *,
    agg: str = "mean",
    ax: Axes | None = None,
    cmap: str = "viridis",
    annotate: bool = True,
    title: str | None = None,
) -> Axes:
    """``value`` over two parameters (``agg`` over replicates and other rows per cell)."""
    xc, yc, vc = column(df, x), column(df, y), column(df, value)
    _numeric(df, vc)
    if agg not in ("mean", "median", "min", "max"):
        raise ConfigError(f"agg must be mean, median, min or max; got {agg!r}")
    table = df.pivot_table(index=yc, columns=xc, values=vc, aggfunc=agg)  # type: ignore[arg-type]
    grid = table.sort_index().sort_index(axis=1)
    ax = _axes(ax)
    image = ax.imshow(grid.to_numpy(dtype=float), origin="lower", aspect="auto", cmap=cmap)
    ax.set_xticks(range(grid.shape[1]), [str(v) for v in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(v) for v in grid.index])
    ax.set_xlabel(axis_label(xc))
    ax.set_ylabel(axis_label(yc))
    bar_ = ax.figure.colorbar(image, ax=ax)
    bar_.set_label(f"{axis_label(vc)}, {agg}")
    if annotate and grid.size <= 400:
        values = grid.to_numpy(dtype=float)
        middle = np.nanmean(values) if np.isfinite(values).any() else 0.0
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                ax.text(
                    j,
                    i,
                    f"{v:.3g}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if v < middle else "black",
                )
    ax.set_title(title or f"{vc} over {xc} x {yc}")
    return ax


def bar(
    df: pd.DataFrame,
    x: str,
    y: str = "speedup",
    hue: str | None = "auto",
    *,
    ax: Axes | None = None,
    logy: bool = False,
    title: str | None = None,
) -> Axes:
    """Grouped bars: mean ``y`` per ``x`` category, one bar per ``hue``, min-max whiskers."""
    xc, yc = column(df, x), column(df, y)
    df, hc = _hue(df, hue, xc)
    _numeric(df, yc)
    keys: list[Any] = [xc] + ([hc] if hc else [])
    stats = df.groupby(keys, sort=False)[yc].agg(["mean", "min", "max"])
    categories = list(dict.fromkeys(df[xc]))
    series = list(dict.fromkeys(df[hc])) if hc else [None]
    ax = _axes(ax)
    width = 0.8 / len(series)
    for k, s in enumerate(series):
        means, lows, highs = [], [], []
        for c in categories:
            row = stats.loc[(c, s) if hc else c] if ((c, s) if hc else c) in stats.index else None
            means.append(np.nan if row is None else row["mean"])
            # max(0, ...): rounding can put a mean of equal values a hair outside them
            lows.append(0 if row is None else max(0.0, row["mean"] - row["min"]))
            highs.append(0 if row is None else max(0.0, row["max"] - row["mean"]))
        pos = np.arange(len(categories)) - 0.4 + width * (k + 0.5)
        ax.bar(
            pos, means, width, yerr=[lows, highs], capsize=2, label=None if s is None else str(s)
        )
    ax.set_xticks(
        range(len(categories)),
        [str(c) for c in categories],
        rotation=30 if len(categories) > 6 else 0,
    )
    ax.set_xlabel(axis_label(xc))
    ax.set_ylabel(axis_label(yc))
    if logy:
        ax.set_yscale("log")
    if hc:
        ax.legend(title=None if hc == "_hue" else hc, fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_title(title or f"{yc} by {xc}")
    return ax
