"""Mechanisms that never acted in a run, read from its counters (issue 31): a
scheme option that was on but did nothing is a finding the user should see,
not a quiet zero in a table.  One documented table (docs/experiments.md,
"Mechanisms that never acted"); each run's row says which held for it in its
``warnings`` column, and `tbdse run` prints a warning per entry that holds in
some rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["NEVER_ACTED", "never_acted", "run_warnings"]


def _col(frame: pd.DataFrame, name: str) -> pd.Series:
    if name in frame:
        return frame[name]
    return pd.Series(np.nan, index=frame.index)


def _num(frame: pd.DataFrame, name: str) -> np.ndarray:
    return pd.to_numeric(_col(frame, name), errors="coerce").to_numpy(dtype=np.float64)


@dataclass(frozen=True)
class Mechanism:
    scheme: str
    what: str  # the finding, for the warning
    holds: Callable[[pd.DataFrame], np.ndarray]  # per row of that scheme: it never acted


def _hwwl_no_moves(f: pd.DataFrame) -> np.ndarray:
    moved = _num(f, "transfers") + _num(f, "inter_core_transfers")
    return (_num(f, "redistributions") > 0) & (moved == 0)


def _hwwl_never_planned(f: pd.DataFrame) -> np.ndarray:
    on = _col(f, "redistribution").astype(object).isin(["threshold", "lsorting", "gsorting"])
    return on.to_numpy() & (_num(f, "redistributions") == 0)


def _juggler_no_locality(f: pd.DataFrame) -> np.ndarray:
    return (_num(f, "locality_speedup") > 0) & (_num(f, "local_tasks") == 0)


NEVER_ACTED: tuple[Mechanism, ...] = (
    Mechanism(
        "hwwl",
        "redistributions were planned but no id moved (transfers and inter_core_transfers "
        "0; skipped_port_busy and skipped_nothing_to_move count the dropped moves by cause)",
        _hwwl_no_moves,
    ),
    Mechanism(
        "hwwl",
        "redistribution is on but none was planned (redistributions 0: no interval tick or "
        "trigger before the run ended)",
        _hwwl_never_planned,
    ),
    Mechanism(
        "juggler",
        "locality_speedup is set but no task ran on the SM of the parent that freed it "
        "(local_tasks 0)",
        _juggler_no_locality,
    ),
)


def _finished(frame: pd.DataFrame) -> np.ndarray:
    if "status" not in frame:
        return np.ones(len(frame), dtype=bool)
    return frame["status"].isin(["ok"]).to_numpy()


def run_warnings(frame: pd.DataFrame) -> pd.Series:
    """Per row: what never acted in that run ('never acted: ...', several
    joined by '; '), or None; a run that did not finish has none."""
    said: list[list[str]] = [[] for _ in range(len(frame))]
    if len(frame) and "scheme" in frame:
        ok = _finished(frame)
        for m in NEVER_ACTED:
            mine = (frame["scheme"] == m.scheme).to_numpy() & ok
            if mine.any():
                for i in np.flatnonzero(mine)[m.holds(frame[mine])]:
                    said[i].append(f"never acted: {m.what}")
    return pd.Series(["; ".join(s) or None for s in said], index=frame.index, dtype=object)


def never_acted(frame: pd.DataFrame) -> list[str]:
    """One line per table entry that holds in some of ``frame``'s rows (runs
    that finished): which scheme, in how many runs, and what never happened."""
    if frame.empty or "scheme" not in frame:
        return []
    ok = _finished(frame)
    lines = []
    for m in NEVER_ACTED:
        mine = frame[(frame["scheme"] == m.scheme).to_numpy() & ok]
        if mine.empty:
            continue
        hits = int(np.count_nonzero(m.holds(mine)))
        if hits:
            lines.append(f"{m.scheme}: in {hits} of {len(mine)} runs {m.what}")
    return lines
