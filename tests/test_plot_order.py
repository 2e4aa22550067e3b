"""An axis mixing numbers with 'auto' / 'unbounded' is ordered by value with
those last (issue 20: it was sorted as text, 256 < 64 < auto, and a line
drew a false spike)."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

import tbdse as td
from tbdse.plot import value_order


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    wl = td.workloads.wavefront(6, 6, cost=td.cost.constant(100))
    return td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=1),
        "wireframe",
        grid={"node_buffer": [256, 64, "auto", 16], "edge_buffer": [512, "unbounded", 128]},
    )


def test_value_order() -> None:
    values = ["auto", "256", "64", "unbounded", 16.0, "lvl", float("inf")]
    assert sorted(values, key=value_order) == [
        16.0,
        "64",
        "256",
        "unbounded",
        float("inf"),
        "auto",
        "lvl",
    ]


def test_a_line_over_mixed_values_is_in_value_order(frame: pd.DataFrame) -> None:
    ax = Figure().subplots()
    td.plot.line(frame, x="node_buffer", y="makespan_us", hue="edge_buffer", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["16", "64", "256", "auto"]
    for drawn in ax.get_lines():
        xs = list(drawn.get_xdata())
        assert xs == sorted(xs)  # left to right: no line doubles back


def test_a_heatmap_over_mixed_values_is_in_value_order(frame: pd.DataFrame) -> None:
    ax = Figure().subplots()
    td.plot.heatmap(frame, x="edge_buffer", y="node_buffer", value="makespan_us", ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["16", "64", "256", "auto"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["128", "512", "unbounded"]
