"""Sweeps: axes, collapsing, baselines, replicates, checkpoints, interruption, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import make_gpu

import tbdse as td
import tbdse.simulation.plan
import tbdse.simulation.runner
from tbdse.simulation.results import column, metric_info, units

W = td.workloads


def sweep(*args: Any, **kwargs: Any) -> pd.DataFrame:
    kwargs.setdefault("progress", False)
    return td.sweep(*args, **kwargs)


class CoreSpy:
    """Wraps the compiled sweep object; records the size of every chunk it runs."""

    def __init__(self, core: Any, interrupt_on_call: int | None = None) -> None:
        self._core = core
        self.chunks: list[list[int]] = []
        self.interrupt_on_call = interrupt_on_call

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def run(self, runs: np.ndarray, threads: int, timeout_s: float = 0.0) -> Any:
        if self.interrupt_on_call is not None and len(self.chunks) + 1 == self.interrupt_on_call:
            raise KeyboardInterrupt
        if len(runs):
            self.chunks.append([int(r) for r in runs])
        return self._core.run(runs, threads, timeout_s)


class Spies(list):
    """The CoreSpy of every compiled sweep made while the fixture is active."""

    interrupt_on_call: int | None = None  # given to spies made from now on


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spies:
    """Every compiled sweep object created from now on is wrapped in a CoreSpy."""
    made = Spies()
    real_core = tbdse.simulation.plan.Plan.core

    def core(self: tbdse.simulation.plan.Plan) -> CoreSpy:
        made.append(CoreSpy(real_core(self), made.interrupt_on_call))
        return made[-1]

    monkeypatch.setattr(tbdse.simulation.plan.Plan, "core", core)
    return made


def simulated_runs(spies: Spies) -> int:
    return sum(len(c) for s in spies for c in s.chunks)


# ------------------------------------------------------------------------- axes
def test_grid_is_a_product() -> None:
    wl = W.wavefront(3, 3, cost=100)
    df = sweep(wl, make_gpu(), "dataflow_ideal", grid={"sms": [1, 2, 3], "tb_slots": [1, 8]})
    assert len(df) == 6
    # The first axis varies slowest.
    assert list(zip(df["gpu.sms"], df["gpu.tb_slots"], strict=True)) == [
        (1, 1),
        (1, 8),
        (2, 1),
        (2, 8),
        (3, 1),
        (3, 8),
    ]
    # 1 SM x 1 slot is serial (900); 8 slots on one SM gives the critical path (500);
    # more SMs with one slot each: 2 SMs -> levels 1,2,3,2,1 need 1,1,2,1,1 rounds = 600.
    points = zip(df["gpu.sms"], df["gpu.tb_slots"], strict=True)
    assert dict(zip(points, df["makespan_cycles"], strict=True)) == {
        (1, 1): 900,
        (1, 8): 500,
        (2, 1): 600,
        (2, 8): 500,
        (3, 1): 500,
        (3, 8): 500,
    }
    with_reps = sweep(
        wl, make_gpu(), "dataflow_ideal", grid={"sms": [1, 2, 3], "tb_slots": [1, 8]}, replicates=2
    )
    assert len(with_reps) == 12
    assert list(with_reps["replicate"]) == [0, 1] * 6


def test_zip_varies_axes_together() -> None:
    wl = W.wavefront(3, 3, cost=100)
    df = sweep(wl, make_gpu(), "dataflow_ideal", zip={"sms": [1, 2, 3], "tb_slots": [1, 1, 2]})
    assert len(df) == 3
    assert list(zip(df["gpu.sms"], df["gpu.tb_slots"], strict=True)) == [(1, 1), (2, 1), (3, 2)]
    assert list(df["makespan_cycles"]) == [900, 600, 500]
    # grid x zip: 2 x 3 points, per scheme.
    both = sweep(
        wl,
        make_gpu(),
        "dataflow_ideal",
        grid={"policy": ["lrr", "fifo"]},
        zip={"sms": [1, 2, 3], "tb_slots": [1, 1, 2]},
    )
    assert len(both) == 6
    assert list(both["policy"]) == ["lrr"] * 3 + ["fifo"] * 3


def test_scheme_axes_collapse_for_schemes_without_the_parameter() -> None:
    wl = W.wavefront(3, 3, cost=100)
    df = sweep(
        wl,
        make_gpu(),
        ["global_barrier", "dataflow_ideal"],
        grid={"policy": ["lrr", "fifo"], "sms": [1, 2]},
    )
    # global_barrier has no 'policy': it runs once per sms value, not twice.
    counts = df["scheme"].value_counts().to_dict()
    assert counts == {"dataflow_ideal": 4, "global_barrier": 2}
    gb = df[df["scheme"] == "global_barrier"]
    assert list(gb["gpu.sms"]) == [1, 2]
    assert gb["policy"].isna().all()
    assert list(gb["grouping"]) == ["auto", "auto"]
    dfi = df[df["scheme"] == "dataflow_ideal"]
    assert sorted(zip(dfi["policy"], dfi["gpu.sms"], strict=True)) == [
        ("fifo", 1),
        ("fifo", 2),
        ("lrr", 1),
        ("lrr", 2),
    ]
    assert dfi["grouping"].isna().all()
    # Stats of other schemes are NaN.
    assert gb["peak_ready_tasks"].isna().all() and dfi["launches"].isna().all()
    assert (gb["launches"] == 5).all()


def test_scheme_axis_by_qualified_name() -> None:
    wl = W.from_edges([], n=4, launch_groups=[0, 0, 1, 1], cost=100)
    gpu = make_gpu(4, 2, host_launch_us=1.0)
    df = sweep(wl, gpu, "global_barrier", grid={"scheme.grouping": ["level", "launch_group"]})
    # One wave by level: 100 + 100; two launch groups: 2 x (100 + 100).
    assert list(df["grouping"]) == ["level", "launch_group"]
    assert list(df["makespan_cycles"]) == [200, 400]


def test_workload_parameter_axes() -> None:
    wl = W.wavefront(2, 3, cost=100)
    df = sweep(wl, make_gpu(8, 8), "dataflow_ideal", grid={"workload.rows": [1, 2, 4]})
    assert list(df["workload.rows"]) == [1, 2, 4]
    assert list(df["workload.cols"]) == [3, 3, 3]
    assert list(df["workload.tasks"]) == [3, 6, 12]
    assert list(df["workload.levels"]) == [3, 4, 6]
    assert list(df["workload"]) == [f"wavefront(rows={r}, cols=3)" for r in (1, 2, 4)]
    # Ample slots: the critical path, levels x 100.
    assert list(df["makespan_cycles"]) == [300, 400, 600]
    # A bare name works when unique, and a named workload keeps its name.
    named = sweep(
        W.chain(2, name="line", cost=10), make_gpu(), "dataflow_ideal", grid={"n": [2, 5]}
    )
    assert list(named["workload"]) == ["line", "line"]
    assert list(named["makespan_cycles"]) == [20, 50]


def test_stg_cycles_per_unit_axis(stg_dir: Path) -> None:
    wl = W.read_stg(stg_dir / "proto_small.stg")
    df = sweep(wl, make_gpu(2, 2), "dataflow_ideal", grid={"cycles_per_unit": [1, 10]})
    assert list(df["workload.cycles_per_unit"]) == [1, 10]
    assert list(df["makespan_cycles"]) == [12, 120]  # critical path 3 + 5 + 4 units


def test_cost_axes() -> None:
    wl = W.chain(3, cost=10)
    df = sweep(wl, make_gpu(), "dataflow_ideal", grid={"cost.cycles": [10, 20, 35]})
    assert list(df["cost.cycles"]) == [10.0, 20.0, 35.0]
    assert list(df["makespan_cycles"]) == [30, 60, 105]
    assert (df["cost.model"] == "constant").all()
    # cost.mean of a lognormal: the mean task cost moves with it.
    ln = W.independent(400, cost=td.cost.lognormal(100, 0.3))
    df = sweep(ln, make_gpu(1, 1), "dataflow_ideal", grid={"mean": [100.0, 1000.0]}, seed=2)
    assert list(df["cost.mean"]) == [100.0, 1000.0]
    assert list(df["cost.sigma"]) == [0.3, 0.3]
    per_task = df["makespan_cycles"] / 400  # one slot: the sum of the costs
    assert per_task[0] == pytest.approx(100, rel=0.05)
    assert per_task[1] == pytest.approx(1000, rel=0.05)


def test_gpu_list_and_mapping() -> None:
    wl = W.independent(30, cost=10)
    gpus = [make_gpu(1, 2), {"preset": "gtx480", "host_launch_us": 0, "name": "fermi"}]
    df = sweep(wl, gpus, "dataflow_ideal")
    assert list(df["gpu"]) == ["test", "fermi"]
    assert list(df["gpu.sms"]) == [1, 15]
    assert list(df["makespan_cycles"]) == [150, 10]  # 15 rounds of 2; 120 slots: one round


# ---------------------------------------------------------------------- baselines
def test_baseline_speedup() -> None:
    wl = W.wavefront(3, 3, cost=100)
    gpu = make_gpu(4, 8, host_launch_us=10.0, device_launch_us=2.0)
    df = sweep(wl, gpu, td.schemes.names_for_kind("task_graph"), baseline="global_barrier")
    by = df.set_index("scheme")
    # Golden makespans (test_golden): 5500, 2500, 1500, 1500.
    assert by.loc["global_barrier", "speedup"] == 1.0
    assert (df["baseline_makespan_cycles"] == 5500).all()
    assert by.loc["cdp", "speedup"] == pytest.approx(5500 / 2500)
    assert by.loc["deplinks", "speedup"] == pytest.approx(5500 / 1500)
    assert (df["speedup"] == df["baseline_makespan_cycles"] / df["makespan_cycles"]).all()


def test_baseline_not_among_the_schemes_and_gpu_cost_axes(spy: Spies) -> None:
    wl = W.wavefront(3, 3, cost=100)
    gpu = make_gpu(4, 8, host_launch_us=10.0)
    df = sweep(
        wl,
        gpu,
        "dataflow_ideal",
        baseline="global_barrier",
        grid={"cycles": [100, 200], "sms": [1, 4]},
    )
    assert list(df["scheme"]) == ["dataflow_ideal"] * 4  # baseline runs are not rows
    # The baseline runs in the same GPU and cost configuration as each row:
    # with ample slots, global_barrier = 5 x (1000 + c) and dataflow_ideal = 1000 + 5 c.
    ample = df[df["gpu.sms"] == 4].set_index("cost.cycles")
    assert ample.loc[100.0, "baseline_makespan_cycles"] == 5500
    assert ample.loc[200.0, "baseline_makespan_cycles"] == 6000
    assert ample.loc[200.0, "speedup"] == pytest.approx(6000 / 2000)
    assert (df["speedup"] == df["baseline_makespan_cycles"] / df["makespan_cycles"]).all()
    # 4 rows + 4 baseline runs were simulated.
    assert simulated_runs(spy) == 8


def test_baseline_keeps_its_own_parameters() -> None:
    # 4 independent tasks in launch groups {0,1} {2,3}; host 1 us = 100, device 0.5 us = 50.
    wl = W.from_edges([], n=4, launch_groups=[0, 0, 1, 1], cost=100)
    gpu = make_gpu(4, 2, host_launch_us=1.0, device_launch_us=0.5)
    df = sweep(
        wl,
        gpu,
        ["global_barrier", "cdp"],
        grid={"grouping": ["level", "launch_group"]},
        baseline="global_barrier",
    )
    got = {
        (r["scheme"], r["grouping"]): (r["makespan_cycles"], r["speedup"]) for _, r in df.iterrows()
    }
    # The baseline is global_barrier with its default grouping 'auto' = launch groups: 400.
    assert (df["baseline_makespan_cycles"] == 400).all()
    assert got == {
        ("global_barrier", "level"): (200, 2.0),  # one wave: 100 + 100
        ("global_barrier", "launch_group"): (400, 1.0),
        ("cdp", "level"): (250, 1.6),  # 100 + 50 + 100
        ("cdp", "launch_group"): (400, 1.0),  # 100 + 50 + 100 + 50 + 100
    }


def test_baseline_per_replicate_and_workload_axis() -> None:
    wl = W.wavefront(3, 3, cost=td.cost.lognormal(100, 0.5))
    gpu = make_gpu(2, 2, host_launch_us=1.0)
    df = sweep(
        wl,
        gpu,
        ["global_barrier", "dataflow_ideal"],
        baseline="global_barrier",
        grid={"rows": [2, 3]},
        replicates=3,
        seed=4,
    )
    assert len(df) == 2 * 2 * 3
    for (rows, rep), group in df.groupby(["workload.rows", "replicate"]):
        gb = group[group["scheme"] == "global_barrier"]["makespan_cycles"].item()
        assert (group["baseline_makespan_cycles"] == gb).all(), (rows, rep)
    assert df[df["scheme"] == "global_barrier"]["speedup"].eq(1.0).all()


# --------------------------------------------------------------------- replicates
def test_replicates_differ_but_share_costs_across_schemes() -> None:
    wl = W.wavefront(4, 4, cost=td.cost.lognormal(1000, 0.5))
    gpu = make_gpu(2, 2, host_launch_us=0.5, device_launch_us=0.5)
    df = sweep(wl, gpu, td.schemes.names_for_kind("task_graph"), replicates=4, seed=21)
    assert len(df) == len(td.schemes.names_for_kind("task_graph")) * 4
    for _, group in df.groupby("scheme"):
        # Different replicates draw different costs.
        assert group["critical_path_cycles"].nunique() == 4
        assert group["makespan_cycles"].nunique() > 1
    for _, group in df.groupby("replicate"):
        # Common random numbers: every scheme sees the same task costs, so
        # the same critical path and the same total work.
        assert group["critical_path_cycles"].nunique() == 1
        assert group["work_bound_cycles"].nunique() == 1
        work = group["avg_tb_concurrency"] * group["makespan_cycles"]
        assert np.allclose(work, work.iloc[0])
    # The seed keys the draws: another seed, other costs; the same seed, the same.
    again = sweep(wl, gpu, td.schemes.names_for_kind("task_graph"), replicates=4, seed=21)
    pd.testing.assert_frame_equal(df, again)
    other = sweep(wl, gpu, td.schemes.names_for_kind("task_graph"), replicates=4, seed=22)
    assert not np.array_equal(df["critical_path_cycles"], other["critical_path_cycles"])
    assert (other["seed"] == 22).all()


def test_deterministic_costs_give_identical_replicates() -> None:
    wl = W.wavefront(3, 3, cost=100)
    df = sweep(wl, make_gpu(2, 2), "dataflow_ideal", replicates=3)
    assert df["makespan_cycles"].nunique() == 1
    assert (
        df["config_hash"].nunique() == 1
    )  # the hash identifies the configuration, not the replicate


# --------------------------------------------------------------------- checkpoints
def test_checkpoint_resume_runs_nothing_new(tmp_path: Path, spy: Spies) -> None:
    wl = W.wavefront(4, 4, cost=td.cost.lognormal(100, 0.4))
    kw = {"grid": {"sms": [1, 2, 3]}, "replicates": 2, "seed": 5, "baseline": "global_barrier"}
    first = sweep(
        wl, make_gpu(1, 2), ["global_barrier", "dataflow_ideal"], checkpoint=tmp_path, **kw
    )
    chunks = sorted(p.name for p in tmp_path.glob("chunk-*.parquet"))
    assert len(chunks) == 1  # one chunk, recorded in the store's ledger
    assert json.loads((tmp_path / "tbdse-store.json").read_text())["kind"] == "results-store"
    assert td.ResultsStore(tmp_path).rows()["_seed"].unique().tolist() == [5]
    assert simulated_runs(spy) == 12
    second = sweep(
        wl, make_gpu(1, 2), ["global_barrier", "dataflow_ideal"], checkpoint=tmp_path, **kw
    )
    pd.testing.assert_frame_equal(first, second)
    assert simulated_runs(spy) == 12  # nothing new
    assert sorted(p.name for p in tmp_path.glob("chunk-*.parquet")) == chunks
    # Without a checkpoint the same frame comes back.
    pd.testing.assert_frame_equal(
        first, sweep(wl, make_gpu(1, 2), ["global_barrier", "dataflow_ideal"], **kw)
    )


def test_checkpoint_simulates_only_what_is_missing(tmp_path: Path, spy: Spies) -> None:
    wl = W.wavefront(3, 3, cost=100)
    sweep(wl, make_gpu(1, 2), "dataflow_ideal", grid={"sms": [1, 2]}, checkpoint=tmp_path)
    assert simulated_runs(spy) == 2
    more = sweep(wl, make_gpu(1, 2), "dataflow_ideal", grid={"sms": [1, 2, 3]}, checkpoint=tmp_path)
    assert simulated_runs(spy) == 3  # only sms=3 is new
    assert list(more["makespan_cycles"]) == [600, 500, 500]
    assert len(list(tmp_path.glob("chunk-*.parquet"))) == 2


def test_a_store_keeps_the_rows_of_each_seed_apart(tmp_path: Path, spy: Spies) -> None:
    wl = W.chain(2, cost=td.cost.lognormal(100, 0.5))
    one = sweep(wl, make_gpu(), "dataflow_ideal", checkpoint=tmp_path, seed=1, replicates=3)
    two = sweep(wl, make_gpu(), "dataflow_ideal", checkpoint=tmp_path, seed=2, replicates=3)
    assert simulated_runs(spy) == 6 and not one["makespan_cycles"].equals(two["makespan_cycles"])
    again = sweep(wl, make_gpu(), "dataflow_ideal", checkpoint=tmp_path, seed=1, replicates=3)
    pd.testing.assert_frame_equal(again, one)
    assert simulated_runs(spy) == 6


def test_checkpoint_resume_with_an_added_scheme(tmp_path: Path) -> None:
    wl = W.wavefront(3, 3, cost=100)
    gpu = make_gpu(4, 8, host_launch_us=10.0)
    sweep(wl, gpu, "dataflow_ideal", checkpoint=tmp_path)
    df = sweep(wl, gpu, ["dataflow_ideal", "global_barrier"], checkpoint=tmp_path)
    assert list(df["makespan_cycles"]) == [1500, 5500]


def test_checkpoint_resume_with_identical_configurations(tmp_path: Path, spy: Spies) -> None:
    wl = W.wavefront(3, 3, cost=100)
    # h100 and h200 have identical fields, so today their runs share a configuration hash.
    first = sweep(wl, ["h100", "h200"], "dataflow_ideal", checkpoint=tmp_path)
    again = sweep(wl, ["h100", "h200"], "dataflow_ideal", checkpoint=tmp_path)
    pd.testing.assert_frame_equal(first, again)
    assert simulated_runs(spy) == 2  # fails: 3, one run simulated again
    assert len(list(tmp_path.glob("chunk-*.parquet"))) == 1


# -------------------------------------------------------------------- interruption
@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 2 runs first, then 1: every run weighs 1e5 against a first budget of 2e5,
    and CHUNK_SECONDS is so small that later budgets fall to one run."""
    monkeypatch.setattr(tbdse.simulation.plan.Plan, "weights", lambda self: np.full(self.runs, 1e5))
    monkeypatch.setattr(tbdse.simulation.runner, "FIRST_CHUNK_WEIGHT", 2e5)
    monkeypatch.setattr(tbdse.simulation.runner, "CHUNK_SECONDS", 1e-12)
    monkeypatch.setattr(tbdse.simulation.runner, "MIN_CHUNK_RUNS", 1)


@pytest.mark.usefixtures("small_chunks")
def test_interrupted_sweep_keeps_finished_rows(tmp_path: Path, spy: Spies) -> None:
    wl = W.wavefront(3, 4, cost=td.cost.uniform(50, 150))
    kw = {"grid": {"sms": [1, 2, 3]}, "replicates": 2, "seed": 3}
    full = sweep(wl, make_gpu(1, 2), "dataflow_ideal", **kw)
    assert [len(c) for c in spy[-1].chunks] == [2, 1, 1, 1, 1]  # the seam works as intended

    spy.interrupt_on_call = 2  # Ctrl-C during the second chunk
    with pytest.raises(td.SweepInterrupted, match="2 of 6 runs finished") as info:
        sweep(wl, make_gpu(1, 2), "dataflow_ideal", checkpoint=tmp_path, **kw)
    partial = info.value.results
    assert isinstance(partial, pd.DataFrame) and len(partial) == 2
    pd.testing.assert_frame_equal(partial, full.iloc[:2])
    assert isinstance(info.value, KeyboardInterrupt)
    # The finished chunk is on disk; resuming simulates the other 4 and gives the full frame.
    assert len(list(tmp_path.glob("chunk-*.parquet"))) == 1
    spy.interrupt_on_call = None
    spy.clear()
    resumed = sweep(wl, make_gpu(1, 2), "dataflow_ideal", checkpoint=tmp_path, **kw)
    pd.testing.assert_frame_equal(resumed, full)
    assert simulated_runs(spy) == 4


def test_interrupt_before_any_chunk_gives_an_empty_frame(spy: Spies) -> None:
    spy.interrupt_on_call = 1
    with pytest.raises(td.SweepInterrupted, match="0 of 1 runs finished") as info:
        sweep(W.chain(3, cost=10), make_gpu(), "dataflow_ideal")
    assert len(info.value.results) == 0
    assert "makespan_cycles" in info.value.results.columns


@pytest.mark.usefixtures("small_chunks")
def test_interrupted_sweep_with_a_baseline(spy: Spies) -> None:
    # Main rows finish before baseline runs; an interrupted frame has NaN speedups
    # where the baseline run had not finished.
    spy.interrupt_on_call = 2
    wl = W.independent(3, cost=10)
    with pytest.raises(td.SweepInterrupted) as info:
        sweep(wl, make_gpu(), "dataflow_ideal", grid={"sms": [1, 2]}, baseline="global_barrier")
    partial = info.value.results
    assert len(partial) == 2  # both main runs
    assert partial["speedup"].isna().all()
    assert list(partial["makespan_cycles"]) == [30, 20]


# --------------------------------------------------------------------- determinism
SUBPROCESS_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import tbdse as td
    wl = td.workloads.layered_random(5, 6, 0.3, 2, 7, cost=td.cost.lognormal(200, 0.6))
    gpu = td.gpus.custom("x", sms=3, tb_slots=2, host_launch_us=0.5, clock_mhz=100.0)
    tb = td.schemes.names_for_kind("task_graph")
    df = td.sweep(wl, gpu, tb, grid={"sms": [1, 3]}, replicates=3,
                  seed=1234, threads=int(sys.argv[1]), progress=False)
    print(json.dumps({c: df[c].tolist() for c in
                      ("scheme", "gpu.sms", "replicate", "makespan_cycles",
                       "critical_path_cycles", "config_hash")}))
    """
)


def _run_elsewhere(threads: int, hashseed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run(
        [sys.executable, "-c", SUBPROCESS_SCRIPT, str(threads)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


def test_results_are_identical_across_processes() -> None:
    wl = W.layered_random(5, 6, 0.3, 2, 7, cost=td.cost.lognormal(200, 0.6))
    gpu = td.gpus.custom("x", sms=3, tb_slots=2, host_launch_us=0.5, clock_mhz=100.0)
    tb = td.schemes.names_for_kind("task_graph")
    df = sweep(wl, gpu, tb, grid={"sms": [1, 3]}, replicates=3, seed=1234)
    here = {
        c: df[c].tolist()
        for c in (
            "scheme",
            "gpu.sms",
            "replicate",
            "makespan_cycles",
            "critical_path_cycles",
            "config_hash",
        )
    }
    assert len(here["makespan_cycles"]) == len(td.schemes.names_for_kind("task_graph")) * 2 * 3
    assert len(set(here["critical_path_cycles"])) == 3  # one per replicate
    one = _run_elsewhere(1, "1")
    two = _run_elsewhere(2, "2")
    assert one == here
    assert two == here


# ---------------------------------------------------------------- result columns
def test_result_columns_and_helpers() -> None:
    df = sweep(W.wavefront(2, 2, cost=10), make_gpu(), "dataflow_ideal", grid={"sms": [1, 2]})
    assert column(df, "sms") == "gpu.sms"
    assert column(df, "policy") == "policy"
    with pytest.raises(td.ConfigError, match="did you mean 'makespan_cycles'"):
        column(df, "makespan_cycle")
    assert units()["gpu.sms"] == "SMs" and units()["makespan_cycles"] == "cycles"
    assert metric_info()["speedup"]["unit"] == "x"
    # Provenance on every row.
    assert (df["tbdse_version"] == td.__version__).all()
    assert (df["seed"] == 0).all()
    assert df["config_hash"].str.fullmatch(r"[0-9a-f]{16}").all()
    assert df["config_hash"].nunique() == 2
    assert df["makespan_cycles"].dtype == np.int64


def test_progress_bar_does_not_change_results(capsys: pytest.CaptureFixture[str]) -> None:
    wl = W.wavefront(3, 3, cost=100)
    quiet = sweep(wl, make_gpu(), "dataflow_ideal", grid={"sms": [1, 2]}, progress=False)
    shown = td.sweep(wl, make_gpu(), "dataflow_ideal", grid={"sms": [1, 2]}, progress=True)
    pd.testing.assert_frame_equal(quiet, shown)


def test_several_baselines_the_best_one_serves() -> None:
    # Speed-ups against the better of two implementations (the worklist paper
    # normalises to the better of its topology- and data-driven codes): per
    # configuration the baseline with the shorter makespan is used, and named.
    wl = td.workloads.wavefront(6, 6, cost=td.cost.lognormal(800, 0.3))
    gpu = td.gpus.gtx480(sms=2)
    grid = {"gpu.host_launch_us": [1, 40]}
    df = td.sweep(wl, gpu, "dataflow_ideal", baseline=["global_barrier", "cdp"], grid=grid)
    alone = td.sweep(wl, gpu, ["global_barrier", "cdp"], grid=grid).pivot_table(
        index="gpu.host_launch_us", columns="label", values="makespan_cycles"
    )
    best = alone.min(axis=1)
    assert list(df["baseline"]) == list(alone.idxmin(axis=1))  # global_barrier, then cdp
    assert list(df["baseline_makespan_cycles"]) == list(best)
    assert np.allclose(df["speedup"], best.to_numpy() / df["makespan_cycles"].to_numpy())
    with pytest.raises(td.ConfigError, match="same baseline scheme twice"):
        td.sweep(wl, gpu, "dataflow_ideal", baseline=["cdp", "cdp"])
