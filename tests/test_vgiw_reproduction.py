"""The VGIW paper's trends that tbdse's calibrated model predicts
(docs/MODELS.md §9; notebooks/vgiw.ipynb has the full table, misses included).
Each assertion states the paper's claim and the tolerance beside it.
Run on their own: pytest -m reproduction."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import run_experiment

pytestmark = pytest.mark.reproduction


@pytest.fixture(scope="module")
def fig7(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_experiment("vgiw_fig7", tmp_path_factory.mktemp("fig7"))


@pytest.fixture(scope="module")
def fig8(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_experiment("vgiw_fig8", tmp_path_factory.mktemp("fig8"))


def _machine(frame: pd.DataFrame, scheme: str) -> pd.DataFrame:
    return frame[frame["scheme"] == scheme].set_index("workload")


def test_fig7_calibration_holds(fig7: pd.DataFrame) -> None:
    # Calibrated (issue_efficiency 0.23): mean vgiw/simt 3x, tolerance +-0.1.
    sp = _machine(fig7, "vgiw")["speedup"]
    assert len(sp) == 21 and sp.mean() == pytest.approx(3.0, abs=0.1)


def test_fig7_memory_bound_kernels_sit_near_one(fig7: pd.DataFrame) -> None:
    # Predicted: kernels DRAM-bound on both machines are near 1x (paper: CFD3
    # 0.9x); tolerance 0.85-1.15, and every kernel at least 0.85x (paper's
    # minimum 0.9x), and the compute kernels well above (max >= 4x; paper 11x).
    v, s = _machine(fig7, "vgiw"), _machine(fig7, "simt")
    both = (v["memory_bound_share"] > 0.5) & (s["memory_bound_share"] == 1)
    assert both["cfd_time_step"]  # the paper's CFD3, which "simply moves data"
    assert v["speedup"][both].between(0.85, 1.15).all()
    assert v["speedup"].min() >= 0.85 and v["speedup"].max() >= 4.0


def test_fig3_lvc_is_accessed_several_times_less_than_the_register_file(
    fig7: pd.DataFrame,
) -> None:
    # Predicted: paper ~10x fewer LVC than RF accesses; tbdse at least 3x fewer
    # on average and fewer on every kernel.
    ratio = _machine(fig7, "vgiw")["lvc_accesses"] / _machine(fig7, "simt")["rf_accesses"]
    assert ratio.mean() < 1 / 3 and (ratio < 1).all()


def test_reconfiguration_is_a_small_share(fig7: pd.DataFrame) -> None:
    # Predicted: paper 0.18% mean, median < 0.1%; tbdse below 1% on average.
    share = _machine(fig7, "vgiw")["reconfig_share"]
    assert share.mean() < 0.01


def test_fig8_sgmf_maps_a_subset_and_wins_on_a_small_kernel(fig8: pd.DataFrame) -> None:
    # Predicted: SGMF maps only the small kernels (tbdse: 10 of 21, none above
    # 5 blocks), SGMF ahead on a small low-divergence kernel (some speed-up
    # < 1), and vgiw ahead on average over the mapped ones (paper > 1.45x;
    # tbdse > 1: a partial miss, see the notebook).
    sp = fig8.set_index("workload")["speedup"].dropna()
    assert 5 <= len(sp) < 21
    assert sp.min() < 0.9 and sp.mean() > 1.0
    assert fig8.set_index("workload").loc[sp.index, "workload.blocks"].max() <= 5
