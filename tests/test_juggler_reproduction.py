"""The Juggler paper's results that tbdse's calibrated model reproduces
(docs/MODELS.md §9; notebooks/juggler.ipynb has the full table, misses
included).  The p100 preset and the juggler defaults were fitted to Fig. 4's
GRR figures (best 1.31x, JACOBI 0.94x); the other assertions are predictions.
Each states the paper's claim and the tolerance beside it.  Run on their own:
pytest -m reproduction."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import run_experiment

pytestmark = pytest.mark.reproduction

HEAVY = ["DT-WARP", "INT-HIST", "SM-W"]  # Observation 3's extra array accesses


@pytest.fixture(scope="module")
def fig4(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_experiment("juggler_fig4", tmp_path_factory.mktemp("fig4"))


def speedups(df: pd.DataFrame) -> pd.DataFrame:
    return df.pivot_table(index="workload", columns="label", values="speedup")


@pytest.mark.xfail(reason="issue 18: the GRR fix, amo_cycles and host-inclusive times move Fig. 4; recalibrated with the claims ledger", strict=False)
def test_fig4_calibration_holds(fig4: pd.DataFrame) -> None:
    # Calibrated: GRR up to 1.31x (tolerance 0.05), 0.94x on JACOBI (0.02).
    grr = speedups(fig4)["GRR"]
    assert abs(grr.drop("JACOBI").max() - 1.31) <= 0.05
    assert abs(grr["JACOBI"] - 0.94) <= 0.02


@pytest.mark.xfail(reason="issue 18: the GRR fix, amo_cycles and host-inclusive times move Fig. 4; recalibrated with the claims ledger", strict=False)
def test_fig4_lrr_and_lf_lose_where_the_traffic_is(fig4: pd.DataFrame) -> None:
    # Paper (Observation 3): LRR and LF below global barriers on DT-WARP,
    # INT-HIST and SM-W, while GRR stays above.  LF predicted.  LRR (fitted)
    # is on par on DT-WARP and SM-W (0.999): at most 1.005 is accepted.
    s = speedups(fig4)
    assert (s.loc[HEAVY, "LRR"] <= 1.005).all() and (s.loc[HEAVY, "LF"] < 1).all()
    assert (s.loc[HEAVY, "GRR"] > 1).all()


def test_fig4_lf_far_below_on_lud(fig4: pd.DataFrame) -> None:
    # Paper: LF "significantly" slower on LU-D (over-assignment).  Predicted:
    # below 0.8x.  (JACOBI is a miss: docs/models/juggler.md.)
    assert speedups(fig4).loc["LU-D", "LF"] < 0.8


def test_fig5_grr_balances_best(fig4: pd.DataFrame) -> None:
    # Paper: the spread of tasks per worker is smallest under GRR, then LRR,
    # then LF.  Predicted: GRR's is the smallest on every kernel, and LRR's
    # below LF's on the six kernels other than JACOBI.
    j = fig4[fig4["scheme"] == "juggler"]
    spread = j.pivot_table(index="workload", columns="label", values="worker_task_spread")
    assert (spread["GRR"] < spread[["LRR", "LF"]].min(axis=1)).all()
    assert (spread.drop("JACOBI")["LRR"] < spread.drop("JACOBI")["LF"]).all()


@pytest.mark.xfail(reason="issue 18: the GRR fix, amo_cycles and host-inclusive times move Fig. 4; recalibrated with the claims ledger", strict=False)
def test_fig7_round_robin_tracks_global_barriers(tmp_path: pytest.TempPathFactory) -> None:
    # Paper: from 3,600 to 32,400 JACOBI tasks LRR and GRR are on par with
    # global barriers, at a linear slope.  Predicted: within 15% at every
    # size, and the barriers' time grows linearly (18 iterations within 5%
    # of 9x 2 iterations).
    df = run_experiment("juggler_fig7", tmp_path)  # type: ignore[arg-type]
    t = df.pivot_table(index="workload.iterations", columns="label", values="makespan_us")
    ratio = t[["LRR", "GRR"]].div(t["global barriers"], axis=0)
    assert ((ratio - 1).abs() <= 0.15).all().all(), ratio
    assert abs(t["global barriers"].loc[18] / (9 * t["global barriers"].loc[2]) - 1) <= 0.05
