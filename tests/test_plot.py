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


def test_line_one_line_per_configuration_with_units(frame: pd.DataFrame) -> None:
    # tb_slots varies at every x: it splits lines rather than being averaged over
    ax = td.plot.line(frame, x="sms", y="makespan_us")
    assert ax.get_xlabel() == "streaming multiprocessors (SMs)"  # the GPU field's doc
    assert ax.get_ylabel() == "makespan (us)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "global_barrier, tb_slots=1",  # the bare name, as a sweep's grid takes it
        "global_barrier, tb_slots=2",
        "dataflow_ideal, tb_slots=1",
        "dataflow_ideal, tb_slots=2",
    ]
    # each point is the mean over the replicates of one configuration
    xs, ys = ax.get_lines()[3].get_data()
    mine = frame[(frame.scheme == "dataflow_ideal") & (frame["gpu.tb_slots"] == 2)]
    expected = mine.groupby("gpu.sms")["makespan_us"].mean()
    assert list(xs) == [1, 2, 4]
    assert np.allclose(ys, expected.to_numpy())
    assert len(ax.collections) == 4  # replicate spread shaded per line
    plt.close(ax.figure)


def test_line_refuses_to_average_over_a_parameter_it_does_not_show(frame: pd.DataFrame) -> None:
    with pytest.raises(td.ConfigError, match=r"differ in gpu\.tb_slots \(gpu\.tb_slots: 1, 2\)"):
        td.plot.line(frame, x="sms", y="makespan_us", hue="label")
    ax = td.plot.line(frame, x="sms", y="makespan_us", hue=["label", "tb_slots"])
    assert len(ax.get_lines()) == 4
    plt.close(ax.figure)
    panels = td.plot.line(frame, x="sms", y="makespan_us", hue="label", facet="tb_slots")
    assert isinstance(panels, list) and len(panels) == 2
    assert panels[1].get_title().endswith("gpu.tb_slots = 2")
    plt.close(panels[0].figure)


def test_heatmap_cells_hold_the_aggregated_values(frame: pd.DataFrame) -> None:
    part = frame[frame.scheme == "dataflow_ideal"]
    ax = td.plot.heatmap(part, x="sms", y="tb_slots", value="speedup", agg="max")
    data = ax.collections[0].get_array()
    expected = part.pivot_table(
        index="gpu.tb_slots", columns="gpu.sms", values="speedup", aggfunc="max"
    )
    assert np.allclose(np.asarray(data).reshape(expected.shape), expected.to_numpy())
    assert ax.get_xlabel() == "streaming multiprocessors (SMs)"
    assert ax.get_ylabel() == "tb slots (TBs)"
    plt.close(ax.figure)


def test_bar_and_bad_columns(frame: pd.DataFrame) -> None:
    ax = td.plot.bar(frame, x="sms", y="speedup")
    assert len(ax.patches) == 12  # 3 sms values x 2 schemes x 2 tb_slots
    plt.close(ax.figure)
    with pytest.raises(td.ConfigError, match="did you mean 'speedup'"):
        td.plot.line(frame, x="sms", y="sppedup")
    with pytest.raises(td.ConfigError, match="not numeric"):
        td.plot.line(frame, x="sms", y="scheme")
