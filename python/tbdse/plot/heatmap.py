"""A value over two parameters (seaborn ``heatmap``): rows and columns in
value order, read top-down like a table; faceted panels on one colour scale
with one colour bar; cells with failed runs marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from tbdse._util.excerpts import excerpt
from tbdse._util.params import suggest
from tbdse.errors import ConfigError
from tbdse.plot import _figure as fg
from tbdse.plot import _labels as lb
from tbdse.plot._rows import failed, hue_columns, numeric, select
from tbdse.plot.sweep import FAILED_COLOUR
from tbdse.simulation.results import column

AGGREGATES = ("mean", "median", "min", "max")


def prepare(df: pd.DataFrame, x: Any, y: Any, value: Any, where: Any, facets: list[Any]) -> Any:
    """The rows drawn (``_v``: the value of the runs that finished), the
    columns named; ConfigError where a cell would mix configurations."""
    df = select(df, where)
    xc, yc, vc = column(df, str(x)), column(df, str(y)), column(df, str(value))
    numeric(df, vc)
    facets = [column(df, c) for c in facets if c]
    hue_columns(df, None, [xc, yc, *facets])  # refuses cells that mix configurations
    bad = failed(df)
    return df.assign(_v=df[vc].where(~bad), _f=bad), xc, yc, vc, facets


def heatmap(
    df: pd.DataFrame, x: str, y: str, value: str, *, agg: str = "mean",
    facet: str | None = None, row: str | None = None, col: str | None = None,
    ax: Axes | None = None, cmap: str = "viridis", annotate: bool = True,
    title: str | None = None, xlabel: str | None = None, ylabel: str | None = None,
    figsize: Sequence[float] | None = None, style: str | None = None,
    where: dict[str, Any] | None = None,
) -> Axes | list[Axes]:  # fmt: skip
    """``value`` over two parameters (seaborn ``heatmap``), ``agg`` over the
    replicates of each cell; rows read top-down and columns left to right in
    value order.  A cell whose rows differ in another parameter is refused
    (select rows, or facet by it with ``row``/``col``).  Cells some of whose
    runs failed are marked with the count, cells whose runs all failed read
    'failed'.  Faceted panels (a FacetGrid: not with ``ax``) share one colour
    scale and one colour bar (labelled 'shared scale').  ``where``,
    ``xlabel``, ``ylabel``, ``figsize`` and ``style`` as for :func:`tbdse.plot.line`.
    """
    if agg not in AGGREGATES:
        raise ConfigError(f"agg must be mean, median, min or max; got {excerpt(agg)}")
    if not isinstance(cmap, str) or cmap not in matplotlib.colormaps:
        raise ConfigError(
            f"cmap must name a matplotlib colour map (e.g. 'viridis'); got {excerpt(cmap)}"
            f"{suggest(str(cmap), list(matplotlib.colormaps)) if isinstance(cmap, str) else ''}"
        )
    data, xc, yc, vc, facets = prepare(df, x, y, value, where, [row, col, facet])
    label = f"{agg} {lb.value_label(data, vc)}"  # 'mean speed-up over best of a, b'
    every = data.groupby([xc, yc, *facets], dropna=False)["_v"].agg(agg).to_numpy(dtype=float)
    finite = every[np.isfinite(every)]  # every panel's cells, for the one colour scale
    norm = Normalize(*(finite.min(), finite.max()) if finite.size else (0, 1))
    with fg.panels(data, ax, row, col, facet, figsize=figsize, style=style,
                   labels=(xlabel, ylabel), sharex=False, sharey=False) as p:  # fmt: skip
        for part, panel in p:
            cells = part.groupby([yc, xc], dropna=False).agg(v=("_v", agg), k=("_f", "sum"),
                                                             n=("_f", "size"))  # fmt: skip
            rows, cols = (sorted(pd.unique(cells.index.get_level_values(c)), key=lb.value_order)
                          for c in (yc, xc))  # fmt: skip
            values, k, n = (cells[s].unstack(xc).reindex(index=rows, columns=cols).to_numpy(float)
                            for s in "vkn")  # fmt: skip
            # A combination that did not run: none of its runs failed.
            k, n = np.nan_to_num(k).astype(int), np.nan_to_num(n).astype(int)
            texts = np.vectorize(_cell_text, otypes=[object])(
                values, k, n, annotate and values.size <= 400
            )
            sns.heatmap(
                values, ax=panel, cmap=cmap, cbar=p.grid is None, annot=texts, fmt="",
                cbar_kws={"label": label}, annot_kws={"fontsize": 7}, vmin=norm.vmin,
                vmax=norm.vmax, xticklabels=list(map(lb.tick_text, cols)),
                yticklabels=list(map(lb.tick_text, rows)),
            )  # fmt: skip
            panel.tick_params(axis="y", labelrotation=0)
            for t in panel.texts:
                if "failed" in t.get_text():
                    t.set(color=FAILED_COLOUR, fontsize=6)
            for i, j in np.argwhere(np.isnan(values) & (k > 0)):  # every run of the cell failed
                panel.add_patch(
                    Rectangle((j, i), 1, 1, fill=False, hatch="xx", color=FAILED_COLOUR)
                )
                panel.text(j + 0.5, i + 0.5, "failed", ha="center", va="center", fontsize=7,
                           color=FAILED_COLOUR)  # fmt: skip
        if p.grid is not None:
            bar = p.figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=p.axes)
            bar.set_label(f"{label} (shared scale)", wrap=True)
        text = title or f"{lb.value_label(data, vc)} by {lb.short_name(xc)} and {lb.short_name(yc)}"
        return fg.finish(
            p, lb.axis_label(xc), lb.axis_label(yc), text, lb.subtitle(data, where, vc)
        )


def _cell_text(v: float, k: int, n: int, numbers: bool) -> str:
    """A cell's number (if ``numbers``) and, when some of its runs failed, the count."""
    said = lb.compact(v) if numbers and np.isfinite(v) else ""
    return f"{said}\n{k}/{n} failed".strip() if k and np.isfinite(v) else said
