"""The hardware-worklist paper's trends that tbdse's calibrated model predicts
(docs/MODELS.md §9; notebooks/hwwl.ipynb has the full table, misses included).
Each assertion states the paper's claim and the tolerance beside it.
Run on their own: pytest -m reproduction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import run_experiment

pytestmark = pytest.mark.reproduction
EVEN = ["BH (16384)", "DMR (16384)", "MST (16384)", "SP (16384)"]


@pytest.fixture(scope="module")
def fig6(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_experiment("hwwl_fig6", tmp_path_factory.mktemp("fig6"))


@pytest.fixture(scope="module")
def fig7(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_experiment("hwwl_fig7", tmp_path_factory.mktemp("fig7"))


def test_fig5_calibration_holds(fig6: pd.DataFrame) -> None:
    # Calibrated (not predicted): the idealised worklist against the better
    # software implementation lies in the paper's 1.2-2.8x for five of six
    # benchmarks with the preset's fitted values (BH is the known miss).
    ideal = fig6[fig6["label"] == "ideal"].set_index("workload")["speedup"]
    inside = ideal[(ideal >= 1.2) & (ideal <= 2.8)]
    assert len(inside) == 5 and "BH (16384)" not in inside.index, ideal.round(3).to_dict()


def test_fig6_no_redistribution_loses_on_sssp_with_spinning(fig6: pd.DataFrame) -> None:
    s = fig6.pivot_table(index="workload", columns="label", values="speedup")
    d = fig6.pivot_table(index="workload", columns="label", values="dynamic_instructions")
    # Paper: BFS/SSSP lose without redistribution, with ~10x the dynamic
    # instructions.  tbdse: SSSP below 1 (tolerance: < 0.8) with at least 5x.
    assert s.loc["sssp(grid 128x128)", "none"] < 0.8
    assert d.loc["sssp(grid 128x128)", "none"] >= 5 * d.loc["sssp(grid 128x128)", "lsorting"]
    # Paper: BH, DMR, MST, SP still gain without redistribution (even load).
    assert (s.loc[EVEN, "none"] >= 1.0).all()
    # Redistribution recovers BFS and SSSP (any redistributing scheme beats none).
    for wl in ("bfs(grid 128x128)", "sssp(grid 128x128)"):
        for scheme in ("threshold", "lsorting", "gsorting", "magic"):
            assert s.loc[wl, scheme] > s.loc[wl, "none"], (wl, scheme)


def test_fig6_sorting_schemes_near_magic(fig6: pd.DataFrame) -> None:
    # Paper: lsorting and gsorting come closest to magic (tolerance: within 20%).
    s = fig6.pivot_table(index="workload", columns="label", values="speedup")
    assert ((s["lsorting"] / s["magic"]) > 0.8).all()
    assert ((s["gsorting"] / s["magic"]) > 0.8).all()


def test_fig7_32_entries_reach_infinite_capacity(fig7: pd.DataFrame) -> None:
    s = fig7.pivot_table(index="workload", columns=["refill", "bank_entries"], values="speedup")
    # Paper: 32 entries per bank get most of the infinite-capacity speed-up
    # (tolerance: at least 90% of it, interval refill).
    assert ((s[("interval", 32)] / s[("interval", np.inf)]) >= 0.9).all()
    # Small banks cost: 4 entries are slower than 32 for every benchmark but DMR,
    # whose 4-entry run is within 5% (tolerance).
    assert ((s[("interval", 4)] / s[("interval", 32)]) <= 1.0).sum() >= 5


def test_fig7_interval_refill_helps_short_operators(fig7: pd.DataFrame) -> None:
    # Paper: interval refill hides the refill latency that on-demand exposes
    # for BH and MST.  tbdse: interval at least as fast for BH, >= 5% for MST.
    s = fig7.pivot_table(index="workload", columns=["refill", "bank_entries"], values="speedup")
    assert s.loc["BH (16384)", ("interval", 32)] >= s.loc["BH (16384)", ("on_demand", 32)]
    assert s.loc["MST (16384)", ("interval", 32)] >= 1.05 * s.loc["MST (16384)", ("on_demand", 32)]
