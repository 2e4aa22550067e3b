"""Figures: axes labelled with units, one line per scheme, replicate spread, heatmaps."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

import tbdse as td

matplotlib.use("Agg")
import matplotlib.pyplot as plt


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    wl = td.workloads.wavefront(6, 6, cost=td.cost.lognormal(1000, 0.3))
    return td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=2),
        ["global_barrier", "dataflow_ideal"],
        grid={"sms": [1, 2, 4], "tb_slots": [1, 2]},
        baseline="global_barrier",
        replicates=3,
        seed=5,
    )


def test_line_one_line_per_scheme_with_units(frame: pd.DataFrame) -> None:
    ax = td.plot.line(frame, x="sms", y="makespan_us")
    assert ax.get_xlabel() == "gpu.sms (SMs)"
    assert ax.get_ylabel() == "makespan_us (us)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "global_barrier",
        "dataflow_ideal",
    ]
    # each line has one point per x value, at the mean over replicates and tb_slots
    xs, ys = ax.get_lines()[1].get_data()
    expected = frame[frame.scheme == "dataflow_ideal"].groupby("gpu.sms")["makespan_us"].mean()
    assert list(xs) == [1, 2, 4]
    assert np.allclose(ys, expected.to_numpy())
    assert len(ax.collections) == 2  # replicate spread shaded per line
    plt.close(ax.figure)


def test_heatmap_cells_hold_the_aggregated_values(frame: pd.DataFrame) -> None:
    part = frame[frame.scheme == "dataflow_ideal"]
    ax = td.plot.heatmap(part, x="sms", y="tb_slots", value="speedup", agg="max")
    data = ax.images[0].get_array()
    expected = part.pivot_table(
        index="gpu.tb_slots", columns="gpu.sms", values="speedup", aggfunc="max"
    )
    assert np.allclose(np.asarray(data), expected.to_numpy())
    assert ax.get_xlabel() == "gpu.sms (SMs)" and ax.get_ylabel() == "gpu.tb_slots (TBs)"
    plt.close(ax.figure)


def test_bar_and_bad_columns(frame: pd.DataFrame) -> None:
    ax = td.plot.bar(frame, x="sms", y="speedup")
    assert len(ax.patches) == 6  # 3 sms values x 2 schemes
    plt.close(ax.figure)
    with pytest.raises(td.ConfigError, match="did you mean 'speedup'"):
        td.plot.line(frame, x="sms", y="sppedup")
    with pytest.raises(td.ConfigError, match="not numeric"):
        td.plot.line(frame, x="sms", y="scheme")
