"""Runs as points: two objectives with their Pareto front, or any two
columns against each other (seaborn ``scatterplot``)."""

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
from tbdse.plot._labels import short_name, subtitle, tick_text, value_label
from tbdse.plot._rows import numeric, select
from tbdse.simulation.results import column

DOMINATED_COLOUR = "#b0b0b0"


def _directions(df: pd.DataFrame, xc: str, yc: str, given: Any) -> tuple[str, str]:
    """Which way is better for x and y, from a pair or a mapping; ConfigError else."""
    from tbdse.dse.pareto import DIRECTIONS

    if xc == yc:
        raise ConfigError(f"pareto needs two different columns; x and y are both '{xc}'")
    if isinstance(given, dict):
        named = {column(df, k): v for k, v in given.items()}
        if set(named) != {xc, yc}:
            raise ConfigError(
                f"directions must give 'min' or 'max' for exactly '{xc}' and '{yc}'; got "
                f"{excerpt(given)}"
            )
        given = (named[xc], named[yc])
    if not isinstance(given, (list, tuple)) or len(given) != 2:
        raise ConfigError(
            "directions must be a pair such as ('max', 'min') or a mapping "
            f"{{x: 'max', y: 'min'}}; got {excerpt(given)}"
        )
    for name, d in zip((xc, yc), given, strict=True):
        if d not in DIRECTIONS:
            hint = suggest(d, DIRECTIONS) if isinstance(d, str) else ""
            raise ConfigError(
                f"direction of '{name}' must be 'min' or 'max'; got {excerpt(d)}{hint}"
            )
    return (str(given[0]), str(given[1]))


def pareto(
    df: pd.DataFrame, x: str, y: str, directions: Sequence[str] | dict[str, str] = ("min", "min"),
    *, hue: str | None = None, ax: Axes | None = None, title: str | None = None,
    logx: bool = False, logy: bool = False, xlabel: str | None = None, ylabel: str | None = None,
    figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, legend: bool = True,
) -> Axes:  # fmt: skip
    """Two objectives, every run a point: dominated runs grey, the Pareto
    front (:func:`tbdse.dse.pareto`) coloured and joined by a step line that
    bounds the dominated region.  ``directions`` says which way is better:
    a pair such as ``("max", "min")`` or ``{x: "max", y: "min"}`` (the axis
    labels say it too).  With ``hue`` (a column) each value gets its own
    front and colour.  Rows are runs, not means (average first for a front
    of means); runs without both values are left out and counted in the
    subtitle.  Other options as for :func:`tbdse.plot.line`."""
    from tbdse.dse.pareto import front_mask

    df = select(df, where)
    xc, yc = column(df, x), column(df, y)
    pair = _directions(df, xc, yc, directions)
    values = df[[xc, yc]].to_numpy(dtype=float, na_value=np.nan)
    shown = np.isfinite(values).all(axis=1)
    codes, names = np.zeros(len(df), dtype=int), ["Pareto front"]
    hc = column(df, hue) if hue is not None else None
    if hc is not None:
        codes, uniques = pd.factorize(df[hc], use_na_sentinel=False)
        names = [tick_text(v) for v in uniques]
    on_front = np.zeros(len(df), dtype=bool)
    for i in range(len(names)):
        on_front[codes == i] = front_mask(df[codes == i], {xc: pair[0], yc: pair[1]})
    with fg.panels(df, ax, figsize=figsize, style=style, labels=(xlabel, ylabel)) as p:
        ax = p.axes[0]
        grey = values[shown & ~on_front]
        ax.scatter(grey[:, 0], grey[:, 1], s=14, color=DOMINATED_COLOUR, label="dominated",
                   zorder=1, gid="dominated")  # fmt: skip
        # The corner between neighbours is their worse combination: right of a
        # point when lower x is better, left of it when higher x is.
        step: Any = "post" if pair[0] == "min" else "pre"
        for i, (label, colour) in enumerate(fg.colour_map(names).items()):
            points = values[(codes == i) & on_front & shown]
            points = points[np.lexsort((points[:, 1], points[:, 0]))]
            ax.step(points[:, 0], points[:, 1], where=step, color=colour, lw=1.2, zorder=2)
            ax.scatter(points[:, 0], points[:, 1], s=28, color=colour, label=label, zorder=3,
                       gid="front")  # fmt: skip
        ax.grid(True, alpha=0.3)
        better = {"min": "lower is better", "max": "higher is better"}
        hidden = int((~shown).sum())
        note = [subtitle(df, where, xc, yc)]
        note += [f"{hidden} run(s) without both values not shown"] if hidden else []
        xtext, ytext = (
            f"{value_label(df, c)}, {better[d]}" for c, d in zip((xc, yc), pair, strict=True)
        )
        text = title or f"Pareto front: {short_name(yc)} vs {short_name(xc)}"
        return fg.finish(p, xtext, ytext, text, "; ".join(n for n in note if n), logx=logx,
                         logy=logy, legend=legend, legend_title=hc)  # fmt: skip


def scatter(
    df: pd.DataFrame, x: str, y: str, hue: str | None = None, *, facet: str | None = None,
    row: str | None = None, col: str | None = None, sharex: bool = True, sharey: bool = True,
    ax: Axes | None = None, logx: bool = False, logy: bool = False, title: str | None = None,
    xlabel: str | None = None, ylabel: str | None = None,
    figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None, legend: bool = True,
) -> Axes | list[Axes]:  # fmt: skip
    """Every run a point, ``y`` against ``x`` (seaborn ``scatterplot``), its
    colour and marker by ``hue`` (a column; one colour per value in every
    panel).  Nothing is averaged.  Facets (not with ``ax``), ``where``, log
    axes and the figure options as for :func:`tbdse.plot.line`."""
    df = select(df, where)
    xc, yc = column(df, x), column(df, y)
    numeric(df, xc)
    numeric(df, yc)
    hc = column(df, hue) if hue is not None else None
    data = df.assign(_hue=df[hc].map(tick_text) if hc else "")
    order = list(dict.fromkeys(data["_hue"]))
    split = dict(hue="_hue", style="_hue", hue_order=order, style_order=order,
                 palette=fg.colour_map(order)) if hc else {}  # fmt: skip
    with fg.panels(data, ax, row, col, facet, figsize=figsize, style=style,
                   labels=(xlabel, ylabel), sharex=sharex, sharey=sharey) as p:  # fmt: skip
        for part, panel in p:
            sns.scatterplot(part, x=xc, y=yc, ax=panel, s=24, **split)
            panel.grid(True, alpha=0.3)
        text = title or f"{value_label(df, yc)} vs {value_label(df, xc)}"
        return fg.finish(p, value_label(df, xc), value_label(df, yc), text,
                         subtitle(df, where, xc, yc), logx=logx, logy=logy, legend=legend,
                         legend_title=hc)  # fmt: skip
