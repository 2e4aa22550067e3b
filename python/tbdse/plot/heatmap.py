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
from tbdse.plot._labels import axis_label, short_name, subtitle, tick_text, value_label, value_order
from tbdse.plot._rows import failed, hue_columns, numeric, select
from tbdse.plot.sweep import FAILED_COLOUR
from tbdse.simulation.results import column

AGGREGATES = ("mean", "median", "min", "max")


def _by_value(index: pd.Index) -> pd.Index:
    return pd.Index([value_order(v) for v in index])


def _grids(part: pd.DataFrame, xc: str, yc: str, vc: str, agg: str) -> tuple[pd.DataFrame, ...]:
    """The cell values, and per cell the failed and total run counts."""
    bad = failed(part)
    table = part[~bad].pivot_table(index=yc, columns=xc, values=vc, aggfunc=agg)  # type: ignore[arg-type]
    counts = part.assign(_f=bad).pivot_table(
        index=yc, columns=xc, values="_f", aggfunc=["sum", "size"]
    )
    grid = table.reindex(index=counts.index, columns=counts["sum"].columns)
    grid = grid.sort_index(key=_by_value).sort_index(axis=1, key=_by_value)
    n_failed, n_runs = (
        pd.DataFrame(counts[k]).reindex(index=grid.index, columns=grid.columns).fillna(0)
        for k in ("sum", "size")
    )
    return grid.astype(float), n_failed.astype(int), n_runs.astype(int)


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
    fg.check_figure(figsize, style, xlabel, ylabel)
    if agg not in AGGREGATES:
        raise ConfigError(f"agg must be mean, median, min or max; got {excerpt(agg)}")
    if not isinstance(cmap, str) or cmap not in matplotlib.colormaps:
        raise ConfigError(
            f"cmap must name a matplotlib colour map (e.g. 'viridis'); got {excerpt(cmap)}"
            f"{suggest(str(cmap), list(matplotlib.colormaps)) if isinstance(cmap, str) else ''}"
        )
    df = select(df, where)
    xc, yc, vc = column(df, x), column(df, y), column(df, value)
    numeric(df, vc)
    facets = [column(df, c) for c in (row, col, facet) if c is not None]
    hue_columns(df, None, [xc, yc, *facets])  # refuses cells that mix configurations
    label = f"{agg} {value_label(df, vc)}"  # 'mean speed-up over best of a, b'
    cells = df[~failed(df)].groupby([xc, yc, *facets], dropna=False)[vc].agg(agg)
    finite = cells.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    norm = Normalize(*(finite.min(), finite.max()) if finite.size else (0, 1))
    with fg.styled(style):
        p = fg.panels(df, ax, row, col, facet, figsize=figsize, style=style, sharex=False,
                      sharey=False)  # fmt: skip
        shared = {"vmin": norm.vmin, "vmax": norm.vmax} if p.faceted else {}
        for part, panel in zip(p.parts, p.axes, strict=True):
            grid, n_failed, n_runs = _grids(part, xc, yc, vc, agg)
            sns.heatmap(
                grid, ax=panel, cmap=cmap, cbar=not p.faceted, cbar_kws={"label": label},
                fmt="", annot_kws={"fontsize": 7}, **shared,
                annot=_cells(grid) if annotate and grid.size <= 400 else False,
                xticklabels=[tick_text(v) for v in grid.columns],
                yticklabels=[tick_text(v) for v in grid.index],
            )  # fmt: skip
            panel.tick_params(axis="y", labelrotation=0)
            _mark_cells(panel, grid, n_failed.to_numpy(), n_runs.to_numpy())
        fg.label_axes(p, axis_label(xc) if xlabel is None else xlabel,
                      axis_label(yc) if ylabel is None else ylabel)  # fmt: skip
        if p.faceted:
            bar = p.figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=p.axes)
            text = fg.wrap(f"{label} (shared\xa0scale)", p.figure.get_size_inches()[1])
            bar.set_label(text.replace("\xa0", " "))  # wrapped to its height, not in 'shared scale'
        text = title or f"{value_label(df, vc)} by {short_name(xc)} and {short_name(yc)}"
        fg.finish(p, text, subtitle(df, where, vc))
    return p.axes if p.faceted else p.axes[0]


def _cells(grid: pd.DataFrame) -> np.ndarray:
    return np.vectorize(_cell_text, otypes=[object])(grid.to_numpy(dtype=float))


def _cell_text(v: float) -> str:
    """A cell's number: 6690, not 6.69e+03; 1.47; '' for no value."""
    if not np.isfinite(v):
        return ""
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.3g}"


def _mark_cells(ax: Axes, grid: pd.DataFrame, n_failed: np.ndarray, n_runs: np.ndarray) -> None:
    """The failed-run count over a cell some of whose runs failed; 'failed'
    (hatched) where all did."""
    values = grid.to_numpy()
    for (i, j), v in np.ndenumerate(values):
        if not n_failed[i, j]:
            continue
        for text in [t for t in ax.texts if t.get_position() == (j + 0.5, i + 0.5)]:
            text.remove()  # seaborn's number, replaced by the mark
        if not np.isfinite(v):
            ax.add_patch(Rectangle((j, i), 1, 1, fill=False, hatch="xx", color=FAILED_COLOUR))
            ax.text(j + 0.5, i + 0.5, "failed", ha="center", va="center", fontsize=7,
                    color=FAILED_COLOUR)  # fmt: skip
        else:
            ax.text(j + 0.5, i + 0.5, f"{_cell_text(v)}\n{n_failed[i, j]}/{n_runs[i, j]} failed",
                    ha="center", va="center", fontsize=6, color=FAILED_COLOUR)  # fmt: skip
