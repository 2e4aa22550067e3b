"""Pareto fronts against a brute-force reference (ties, NaN, infinities,
directions), the `dominated` helper, errors, speed, and the front figure."""

from __future__ import annotations

import time
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.dse.pareto import dominated

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

FAST = settings(max_examples=80, deadline=None, database=None)
# Few distinct values so that ties and equal coordinates are common.
VALUES = st.one_of(st.integers(0, 6).map(float), st.just(np.nan), st.just(np.inf), st.just(-np.inf))


def reference(costs: np.ndarray) -> np.ndarray:
    """O(n^2) front of (rows, objectives) to minimise; NaN rows excluded."""
    valid = ~np.isnan(costs).any(axis=1)
    c = costs[valid]
    # beats[j, i]: row j is no worse than row i everywhere and better somewhere
    beats = (c[:, None, :] <= c[None, :, :]).all(axis=2) & (c[:, None, :] < c[None, :, :]).any(
        axis=2
    )
    keep = np.zeros(len(costs), dtype=bool)
    keep[valid] = ~beats.any(axis=0)
    return keep


def frame(rows: list[list[float]], k: int) -> pd.DataFrame:
    data = np.array(rows, dtype=float).reshape(len(rows), k)
    # a shuffled, non-default index: the result keeps it
    return pd.DataFrame(data, columns=[f"o{j}" for j in range(k)], index=np.arange(len(rows))[::-1])


@st.composite
def tables(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, str]]:
    k = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(VALUES, min_size=k, max_size=k), max_size=60))
    directions = draw(st.lists(st.sampled_from(["min", "max"]), min_size=k, max_size=k))
    df = frame(rows, k)
    return df, dict(zip(df.columns, directions, strict=True))


def signed(df: pd.DataFrame, objectives: dict[str, str]) -> np.ndarray:
    return np.column_stack(
        [df[c].to_numpy(float) * (-1 if d == "max" else 1) for c, d in objectives.items()]
    ).reshape(len(df), len(objectives))


@FAST
@given(tables())
def test_front_matches_brute_force(table: tuple[pd.DataFrame, dict[str, str]]) -> None:
    df, objectives = table
    front = td.pareto(df, objectives)
    expected = df[reference(signed(df, objectives))]
    pd.testing.assert_frame_equal(front, expected)  # same rows, order and index


@FAST
@given(tables())
def test_removed_rows_are_dominated_by_kept_rows(
    table: tuple[pd.DataFrame, dict[str, str]],
) -> None:
    df, objectives = table
    costs = signed(df, objectives)
    kept = td.pareto(df, objectives)
    kept_costs = signed(kept, objectives)
    valid = ~np.isnan(costs).any(axis=1)
    on = df.index.isin(kept.index)
    for i in np.flatnonzero(valid & ~on):
        assert any((k <= costs[i]).all() and (k < costs[i]).any() for k in kept_costs)
    for a in kept_costs:  # nothing kept is dominated, ties included
        assert not any((b <= a).all() and (b < a).any() for b in kept_costs)
    flags = dominated(df, objectives)
    assert flags.index.equals(df.index) and flags.dtype == "boolean"
    assert flags.isna().tolist() == (~valid).tolist()
    assert df[~flags].index.equals(kept.index)


def test_ties_nan_and_directions() -> None:
    df = pd.DataFrame(
        {
            "speedup": [2.0, 1.5, 1.0, 2.0, np.nan, 2.0],
            "storage_bytes": pd.array([64, 32, 32, 128, 1, 64], dtype="Int64"),
        },
        index=list("abcdef"),
    )
    front = td.pareto(df, {"speedup": "max", "storage_bytes": "min"})
    assert front.index.tolist() == ["a", "b", "f"]  # a and f tie; e has no speedup
    assert td.pareto(df, {"speedup": "min", "storage_bytes": "min"}).index.tolist() == ["c"]
    assert dominated(df, {"speedup": "max", "storage_bytes": "min"}).tolist() == [
        False,
        False,
        True,
        True,
        pd.NA,
        False,
    ]


def test_bare_names_resolve_like_plots() -> None:
    df = pd.DataFrame({"gpu.sms": [1, 2, 4], "makespan_us": [30.0, 20.0, 20.0]})
    assert td.pareto(df, {"sms": "min", "makespan_us": "min"}).index.tolist() == [0, 1]


@pytest.mark.parametrize(
    ("objectives", "message"),
    [
        ({"speedp": "max"}, r"no column 'speedp' in the results \(did you mean 'speedup'\?\)"),
        ({"speedup": "maximum"}, r"objective 'speedup': the direction must be 'min' or 'max'"),
        ({"speedup": "mx"}, r"got 'mx' \(did you mean 'max'\?\)"),
        ({}, r"objectives map result columns to 'min' or 'max'"),
        (["speedup"], r"objectives map result columns"),
        ({"scheme": "min"}, r"column 'scheme' is not numeric"),
        ({"ok": "min"}, r"column 'ok' is not numeric \(bool\)"),
        ({"sms": "min", "gpu.sms": "max"}, r"names column 'gpu.sms' a second time"),
    ],
)
def test_errors(objectives: Any, message: str) -> None:
    df = pd.DataFrame({"speedup": [1.0], "scheme": ["a"], "ok": [True], "gpu.sms": [1]})
    with pytest.raises(td.ConfigError, match=message):
        td.pareto(df, objectives)


@pytest.mark.parametrize("k", [2, 3])
def test_hundred_thousand_rows_are_quick(k: int) -> None:
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.random((100_000, k)), columns=[f"o{j}" for j in range(k)])
    objectives = {c: "min" for c in df.columns}
    start = time.process_time()  # CPU time: the work, whatever else loads the machine
    front = td.pareto(df, objectives)
    assert time.process_time() - start < 3.0
    sample = df.sample(1500, random_state=1)
    small = reference(sample.to_numpy())
    # a sampled row on the full front is on the sample's front
    assert set(front.index) & set(sample.index) <= set(sample.index[small])


def test_large_three_objective_front_matches_reference() -> None:
    # points on a plane: every one is on the front (the blocked path's worst case)
    rng = np.random.default_rng(2)
    a = rng.random((1200, 2))
    df = pd.DataFrame({"x": a[:, 0], "y": a[:, 1], "z": 2 - a[:, 0] - a[:, 1]})
    df.loc[::7, "z"] += 0.5  # some dominated after all
    objectives = {"x": "min", "y": "min", "z": "min"}
    expected = reference(df.to_numpy())
    assert td.pareto(df, objectives).index.tolist() == df.index[expected].tolist()


@pytest.mark.parametrize("k", [2, 3, 4])
def test_large_tables_with_ties_match_reference(k: int) -> None:
    # beyond one block of the 4-objective path; few distinct values: many ties
    rng = np.random.default_rng(k)
    data = rng.integers(0, 12, (1500, k)).astype(float)
    data[rng.random(data.shape) < 0.01] = np.nan
    df = pd.DataFrame(data, columns=[f"o{j}" for j in range(k)])
    objectives = {c: ("max" if j % 2 else "min") for j, c in enumerate(df.columns)}
    expected = reference(signed(df, objectives))
    assert td.pareto(df, objectives).index.tolist() == df.index[expected].tolist()


# ---- the figure -------------------------------------------------------------


def collections(ax: Any, gid: str) -> list[Any]:
    return [c for c in ax.collections if c.get_gid() == gid]


def test_plot_greys_dominated_points_and_joins_the_front() -> None:
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"speedup": rng.random(60) * 3, "storage_bytes": rng.integers(16, 4096, 60)})
    df.loc[3, "speedup"] = np.nan
    ax = Figure().add_subplot()
    out = td.plot.pareto(df, "speedup", "storage_bytes", ("max", "min"), ax=ax)
    assert out is ax
    front = td.pareto(df, {"speedup": "max", "storage_bytes": "min"})
    (highlighted,) = collections(ax, "front")
    (grey,) = collections(ax, "dominated")
    assert len(highlighted.get_offsets()) == len(front)
    assert len(grey.get_offsets()) == len(df) - len(front) - 1  # the NaN row is not drawn
    assert {to_hex(c) for c in grey.get_facecolors()} == {td.plot.DOMINATED_COLOUR}
    assert to_hex(highlighted.get_facecolors()[0]) != td.plot.DOMINATED_COLOUR
    assert ax.get_xlabel() == "speed-up over the baseline, higher is better"
    assert ax.get_ylabel().endswith(", lower is better")
    # the step line runs through the front in x order, cornering left of each
    # point (higher x is better): drawstyle steps-pre
    (line,) = ax.get_lines()
    xs = np.asarray(line.get_xdata())
    assert np.array_equal(xs, np.sort(front["speedup"].to_numpy()))
    assert line.get_drawstyle() == "steps-pre"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["dominated", "Pareto front"]
    assert "1 run(s) without both values not shown" in ax.get_title()


def test_plot_one_front_per_hue_and_units() -> None:
    wl = td.workloads.wavefront(6, 6, cost=td.cost.lognormal(1000, 0.3))
    df = td.sweep(
        wl,
        td.gpus.gtx480(host_launch_us=2),
        ["global_barrier", "dataflow_ideal"],
        grid={"sms": [1, 2, 4, 8], "tb_slots": [1, 2]},
        seed=5,
    )
    ax = td.plot.pareto(df, "sms", "makespan_us", {"makespan_us": "min", "sms": "min"}, hue="label")
    assert ax.get_xlabel() == "streaming multiprocessors (SMs), lower is better"
    assert ax.get_ylabel() == "makespan (us), lower is better"
    fronts = collections(ax, "front")
    assert [c.get_label() for c in fronts] == ["global_barrier", "dataflow_ideal"]
    for c, (_, part) in zip(fronts, df.groupby("label", sort=False), strict=True):
        assert len(c.get_offsets()) == len(td.pareto(part, {"sms": "min", "makespan_us": "min"}))
    assert all(line.get_drawstyle() == "steps-post" for line in ax.get_lines())
    plt.close(ax.figure)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a", "a", ("min", "min")), r"two different columns"),
        (("a", "b", ("min",)), r"directions must be a pair"),
        (("a", "b", ("min", "best")), r"direction of 'b' must be 'min' or 'max'; got 'best'"),
        (("a", "b", {"a": "min"}), r"directions must give 'min' or 'max' for exactly 'a' and 'b'"),
        (("a", "c", ("min", "min")), r"no column 'c'"),
    ],
)
def test_plot_errors(args: tuple[Any, ...], message: str) -> None:
    df = pd.DataFrame({"a": [1.0, 2.0], "b": [2.0, 1.0]})
    with pytest.raises(td.ConfigError, match=message):
        td.plot.pareto(df, *args, ax=Figure().add_subplot())
