"""The hardware-worklist paper's claims ledger (docs/MODELS.md §9): every
evaluative claim of Kim & Batten (MICRO-47 2014) §II-D, §IV, §V and Tables
II-IV, each with the quantity tbdse measures, its tolerance, whether it was
calibrated or is predicted, and whether it holds.

This module runs the experiments and reads their tables; the checks are
tests/hwwl_checks.py, the claims tests/hwwl_claims.py.  One source for the
test (tests/test_hwwl_reproduction.py: every claim's
outcome must match the recorded one) and the documentation
(scripts/hwwl_ledger.py writes docs/models/hwwl_ledger.md).  The experiments
are experiments/hwwl_*.yaml; Fig. 8's traces come from td.simulate(record=True).
Claims the model cannot test say why (``check=None``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import tbdse as td

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ("hwwl_fig5", "hwwl_fig6", "hwwl_fig7", "hwwl_tuning", "hwwl_scaling", "hwwl_fig8")
B = ["BFS", "BH", "DMR", "MST", "SP", "SSSP"]
EVEN = ["BH", "DMR", "SP"]
SW = ["topology", "data", "data_wdo"]

Bundle = dict[str, Any]
Outcome = tuple[bool, str]


@dataclass(frozen=True)
class Claim:
    id: str
    where: str
    claim: str  # the testable statement, with its tolerance
    kind: str  # "calibrated" or "predicted"
    check: Callable[[Bundle], Outcome] | None  # None: not testable in tbdse (why says)
    why: str = ""  # what tbdse's result means, or why it cannot be tested


def run_bundle(folder: Path, echo: Callable[[str], None] = lambda _: None) -> Bundle:
    """Runs every ledger experiment (the packaged copies) into ``folder``/NAME
    -- a folder run before keeps its results store, so only what it lacks is
    simulated -- and returns their tables and Fig. 8's traces."""
    out: Bundle = {}
    for name in EXPERIMENTS:
        echo(f"running {name}")
        out[name] = td.examples.run(name, out=folder / name)
    wl = td.workloads.bfs(graph="road", nodes=1048576, name="BFS")  # as hwwl_fig8.yaml
    for buffering in ("single", "double"):
        scheme = td.Scheme("hwwl", buffering=buffering, sample_every=5000)
        r = td.simulate(wl, "gpgpusim_hwwl", scheme, timeline=True)
        out[f"trace_{buffering}"] = r.trace()
    return out


# --- what the checks read -------------------------------------------------


def times(df: pd.DataFrame) -> pd.DataFrame:
    """makespan per workload x label."""
    return df.pivot_table(index="workload", columns="label", values="makespan_cycles")


def best_sw(b: Bundle) -> pd.Series:
    t = times(b["hwwl_fig5"])
    return t[SW].min(axis=1)


def s5(b: Bundle, label: str) -> pd.Series:
    """Fig. 5 speed-up of an idealised worklist over the best software version."""
    return best_sw(b) / times(b["hwwl_fig5"])[label]


def s6(b: Bundle, label: str) -> pd.Series:
    return best_sw(b) / times(b["hwwl_fig6"])[label]


def stat(b: Bundle, exp: str, label: str, column: str) -> pd.Series:
    df = b[exp]
    return df[df["label"] == label].set_index("workload")[column]


def s7(b: Bundle, refill: str, entries: float) -> pd.Series:
    df = b["hwwl_fig7"]
    rows = df[(df["refill"] == refill) & (df["bank_entries"] == entries)].set_index("workload")
    return best_sw(b) / rows["makespan_cycles"]


def w7(b: Bundle, refill: str, entries: float) -> pd.Series:
    df = b["hwwl_fig7"]
    rows = df[(df["refill"] == refill) & (df["bank_entries"] == entries)].set_index("workload")
    return rows["wait_pulls"]


def fmt(values: pd.Series | dict[str, float], digits: int = 2) -> str:
    items = values.items() if isinstance(values, dict) else values.to_dict().items()
    return ", ".join(f"{k} {v:.{digits}f}" for k, v in items)


def count(mask: pd.Series) -> int:
    return int(mask.sum())


def winner(b: Bundle) -> pd.Series:
    t = times(b["hwwl_fig5"])
    data = t[["data", "data_wdo"]].min(axis=1)
    return pd.Series(np.where(data < t["topology"], "data", "topo"), index=t.index)


def ratio(b: Bundle, exp: str, column: str, a: str, c: str) -> pd.Series:
    return stat(b, exp, a, column) / stat(b, exp, c, column)


def best_data_label(b: Bundle) -> pd.Series:
    t = times(b["hwwl_fig5"])
    return t[["data", "data_wdo"]].idxmin(axis=1)


def sw_stat(b: Bundle, column: str, which: str) -> pd.Series:
    """A Table II statistic of the best topology (topology) or best data version."""
    df = b["hwwl_fig5"]
    if which == "topo":
        return stat(b, "hwwl_fig5", "topology", column)
    best = best_data_label(b)
    return pd.Series(
        {
            w: df[(df["workload"] == w) & (df["label"] == best[w])][column].iloc[0]
            for w in best.index
        }
    )


def scaling(b: Bundle) -> pd.Series:
    """§V-A: the realistic worklist's speed-up over the better software version per core count."""
    return b["hwwl_scaling"].set_index("gpu.sms")["speedup"].sort_index()


def fig8(b: Bundle) -> pd.DataFrame:
    df = b["hwwl_fig8"].copy()
    df["memory"] = np.where(df["gpu.dram_latency"] == 0, "magic", "realistic")
    return df.pivot_table(index="buffering", columns="memory", values="makespan_cycles")


def active(b: Bundle, buffering: str) -> np.ndarray:
    return np.asarray(b[f"trace_{buffering}"]["active_threads"], dtype=float)
