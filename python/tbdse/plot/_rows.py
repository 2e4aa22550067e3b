"""Which rows a figure draws and how they split: the configuration columns,
the hue that keeps configurations apart (nothing is averaged but
replicates), failed runs, a ``where`` filter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbdse._util.excerpts import excerpt
from tbdse.errors import ConfigError
from tbdse.plot._labels import tick_text
from tbdse.simulation.results import SIZE_UNITS, column

Hue = str | Sequence[str] | None
# Columns that describe a run rather than measure it, besides the scheme parameters.
RUN_COLUMNS = ("label", "workload", "gpu")
_DERIVED = tuple(f"workload.{k}" for k in SIZE_UNITS)


def parameter_columns(df: pd.DataFrame) -> list[str]:
    """The columns that say which configuration a row ran (not its results)."""
    named = df.attrs.get("parameters")
    if named is None:  # a frame not made by tbdse.sweep: go by the naming rules
        named = [*RUN_COLUMNS, *(c for c in df.columns if str(c).startswith(("gpu.", "cost.")))]
        named += [c for c in df.columns if str(c).startswith("workload.")]
    return [c for c in named if c in df.columns and c not in _DERIVED]


def select(df: pd.DataFrame, where: dict[str, Any] | None) -> pd.DataFrame:
    """The rows whose column holds the value (or one of a list of values)."""
    if where is None:
        return df
    if not isinstance(where, dict):
        raise ConfigError(f"where must map result columns to values; got {excerpt(where)}")
    for name, wanted in where.items():
        values = wanted if isinstance(wanted, list) else [wanted]
        df = df[df[column(df, name)].isin(values)]
    return df


def _varying(df: pd.DataFrame, keys: list[str], c: str) -> bool:
    """Whether ``c`` takes more than one value among rows sharing ``keys``."""
    if df.empty:
        return False
    counts = df.groupby(keys, dropna=False, sort=False)[c].nunique(dropna=False) if keys else None
    return int(np.max(counts) if counts is not None else df[c].nunique()) > 1


def _splitting(df: pd.DataFrame, fixed: list[str], params: list[str]) -> list[str]:
    """The fewest of ``params`` (preferring the scheme label, workload, GPU and
    swept axes) that make every group of rows sharing ``fixed`` one configuration."""
    swept = [c for c in df.attrs.get("scheme_axes", []) if c in params]
    order = [c for c in RUN_COLUMNS if c in params]
    order += swept + [c for c in params if c not in order and c not in swept]
    chosen: list[str] = []
    for c in order:
        chosen += [c] if _varying(df, fixed + chosen, c) else []
    return chosen


def hue_columns(df: pd.DataFrame, hue: Hue, fixed: list[str]) -> list[str]:
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
            "per value (row=/col=/facet=...)"
        )
    return chosen


def hue_labels(df: pd.DataFrame, cols: list[str]) -> pd.Series:
    """Legend text per row: the label/workload/gpu values, name=value for the
    rest (left out where the parameter does not apply to the row); a GPU or
    workload column by its bare name, as a sweep's grid takes it (tbs=256)."""
    names = {c: c.split(".", 1)[1] if c.startswith(("gpu.", "workload.")) else c for c in cols}

    def text(row: tuple[Any, ...]) -> str:
        parts = []
        for c, v in zip(cols, row, strict=True):
            if c in RUN_COLUMNS or c == "variant":
                parts.append(tick_text(v))
            elif not pd.isna(v):
                parts.append(f"{names[c]}={tick_text(v)}")
        return ", ".join(parts)

    return pd.Series([text(r) for r in df[cols].itertuples(index=False)], index=df.index)


def numeric(df: pd.DataFrame, name: str) -> None:
    """Refuses a column that cannot be drawn as a value."""
    if not pd.api.types.is_numeric_dtype(df[name]):
        raise ConfigError(f"column '{name}' is not numeric; it cannot be plotted as a value")


def failed(df: pd.DataFrame) -> pd.Series:
    if "status" not in df.columns:
        return pd.Series(False, index=df.index)
    return df["status"].astype(str) != "ok"
