"""The hardware worklist (HWWL, MICRO-47 2014) and its software baselines:
real BFS/SSSP results, conservation of work ids, bank limits, the sweep path,
bad inputs and determinism."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import read_scheme
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td

DATA = Path(__file__).parent / "data"
ROME = DATA / "graphs" / "rome99.gr"
SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]


def gpu(**fields: object) -> td.Gpu:
    return td.gpus.gpgpusim_hwwl(**fields)


def distances(r: td.Result) -> np.ndarray:
    return r.values()["distance"].fillna(-1).to_numpy(dtype=np.int64)


@pytest.fixture(scope="module")
def rome_sssp() -> td.Workload:
    return td.workloads.sssp(graph="file", path=str(ROME))


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("buffering", ["double", "single"])
def test_sssp_on_rome99_matches_dijkstra(
    rome_sssp: td.Workload, scheme: str, buffering: str
) -> None:
    # Real relaxations on the DIMACS road network of Rome (3353 nodes, 8870
    # arcs): the distances equal Dijkstra's under every scheme.
    r = td.simulate(
        rome_sssp,
        gpu(),
        td.schemes.Hwwl(redistribution=scheme, buffering=buffering, bank_entries=16),
    )
    ref = rome_sssp.model_input.reference_distances()
    assert (distances(r) == ref).all()
    assert (ref >= 0).sum() == 3353  # every node is reachable from node 0
    s = r.stats
    assert s["peak_bank_ids"] <= 8 if buffering == "double" else 16
    # Conservation: every id pushed (or initial) is pulled exactly once.
    assert r.metrics["items"] == 1 + s["pushed_ids"]


@pytest.mark.parametrize("scheme", ["topology", "data"])
def test_software_baselines_compute_the_same_distances(rome_sssp: td.Workload, scheme: str) -> None:
    r = td.simulate(rome_sssp, gpu(), scheme)
    assert (distances(r) == rome_sssp.model_input.reference_distances()).all()
    assert r.metrics["supersteps"] > 10  # a road network is deep


def test_bfs_levels_on_a_grid() -> None:
    wl = td.workloads.bfs(graph="grid", rows=20, cols=30)
    r = td.simulate(wl, gpu(), "hwwl")
    d = distances(r).reshape(20, 30)
    rows, cols = np.indices((20, 30))
    assert (d == rows + cols).all()  # Manhattan distance from the corner


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    nodes=st.integers(8, 300),
    degree=st.floats(0.5, 6),
    seed=st.integers(0, 10**6),
    scheme=st.sampled_from(SCHEMES),
    refill=st.sampled_from(["interval", "on_demand"]),
    buffering=st.sampled_from(["double", "single"]),
    entries=st.sampled_from([2, 4, 8, "unbounded"]),
    operator=st.sampled_from(["bfs", "sssp"]),
)
def test_generated_graphs_conserve_work_and_respect_banks(
    nodes: int,
    degree: float,
    seed: int,
    scheme: str,
    refill: str,
    buffering: str,
    entries: object,
    operator: str,
) -> None:
    make = td.workloads.bfs if operator == "bfs" else td.workloads.sssp
    wl = make(graph="uniform", nodes=nodes, degree=degree, seed=seed, symmetric=True)
    hw = read_scheme(  # refill is unread with unbounded banks: dropped there
        "hwwl", redistribution=scheme, refill=refill, buffering=buffering, bank_entries=entries
    )
    r = td.simulate(wl, gpu(sms=2, threads_per_sm=256), hw)  # results checked inside
    s = r.stats
    assert r.metrics["items"] == 1 + s["pushed_ids"]  # none lost in spills, moves, swaps
    if entries != "unbounded":
        per_partition = int(entries) // 2 if buffering == "double" else int(entries)
        assert s["peak_bank_ids"] <= per_partition
        assert s["spilled_ids"] >= 0
    else:
        assert s["spilled_ids"] == 0 and s["virt_loads"] == 0
    assert (distances(r) == wl.model_input.reference_distances()).all()
    # A pull returns an id, WAIT or DONE, or (on demand) stalls for a refill.
    assert s["pulls"] >= r.metrics["items"] + s["wait_pulls"] + s["done_pulls"]
    if refill == "interval" or entries == "unbounded":
        assert s["pulls"] == r.metrics["items"] + s["wait_pulls"] + s["done_pulls"]


def test_synthetic_operator_conserves_work() -> None:
    for bench in td.workloads.lonestar_names():
        wl = td.workloads.lonestar(bench, nodes=2048)
        r = td.simulate(wl, gpu(), td.schemes.Hwwl(bank_entries=8))
        initial = len(wl.model_input.initial_items())
        assert r.metrics["items"] == initial + r.stats["pushed_ids"], bench


def test_no_redistribution_spins_on_wait() -> None:
    # §IV-C: without redistribution the threads of empty banks spin on WAIT
    # while other banks hold the frontier: an order of magnitude more dynamic
    # instructions for BFS and SSSP, and a slower run; with lsorting the
    # spinning mostly disappears.
    for make in (td.workloads.bfs, td.workloads.sssp):
        wl = make(graph="rmat", nodes=4096, degree=8, seed=3)
        none = td.simulate(
            wl, gpu(), td.schemes.Hwwl(redistribution="none", bank_entries="unbounded")
        )
        ls = td.simulate(wl, gpu(), td.schemes.Hwwl(bank_entries="unbounded"))
        assert none.metrics["dynamic_instructions"] > 5 * ls.metrics["dynamic_instructions"]
        assert none.stats["wait_pulls"] > 5 * ls.stats["wait_pulls"]
        assert none.stats["wait_instructions"] > none.metrics["useful_instructions"]
        assert ls.makespan_cycles < none.makespan_cycles


def test_storage_bytes_and_trace() -> None:
    wl = td.workloads.bfs(graph="grid", rows=16, cols=16)
    r = td.simulate(wl, gpu(), td.schemes.Hwwl(bank_entries=32, sample_every=100), timeline=True)
    assert r.stats["hwwl_bytes"] == 16 * 32 * 3  # 1536 B, the paper's "about 1.6 KB"
    trace = r.trace()
    assert list(trace.columns) == [
        "cycle",
        "active_threads",
        "waiting_threads",
        "bank_occupancy",
        "overflow_ids",
    ]
    assert trace["cycle"].is_monotonic_increasing
    assert ((trace["active_threads"] >= 0) & (trace["active_threads"] <= 1)).all()
    unbounded = td.simulate(wl, gpu(), td.schemes.Hwwl(bank_entries="unbounded"))
    assert math.isinf(unbounded.stats["hwwl_bytes"])
    with pytest.raises(td.ConfigError, match="no per-task timeline"):
        r.timeline()


def test_sweep_path_speedup_over_the_better_software_baseline() -> None:
    wl = td.workloads.bfs(graph="rmat", nodes=2048, degree=8, seed=1)

    def run(**options: Any) -> pd.DataFrame:
        return td.sweep(
            wl,
            gpu(),
            td.schemes.Hwwl(bank_entries="unbounded"),
            grid={"redistribution": ["none", "lsorting"], "gpu.sms": [2, 4]},
            baseline=["topology", "data"],
            replicates=2,
            **options,
        )

    df = run()
    assert len(df) == 8
    assert set(df["baseline"]) <= {"topology", "data"}
    assert (df["speedup"] > 0).all()
    assert {"workload.nodes", "workload.edges", "wait_pulls", "items"} <= set(df.columns)
    # deterministic: a replicate is a repeat (nothing random in BFS)
    by_rep = df.pivot_table(
        index=["redistribution", "gpu.sms"], columns="replicate", values="makespan_cycles"
    )
    assert (by_rep[0] == by_rep[1]).all()
    pd.testing.assert_frame_equal(df, run(threads=1))  # same on one thread and on two


def test_bad_inputs() -> None:
    wl = td.workloads.bfs(graph="grid", rows=8, cols=8)
    with pytest.raises(td.ConfigError, match="redistribution"):
        td.Scheme("hwwl", redistribution="random")
    with pytest.raises(td.ConfigError, match="lanes"):
        td.simulate(wl, gpu(lanes=3), "hwwl")
    with pytest.raises(td.ConfigError, match="lanes"):
        gpu(lanes=0)
    with pytest.raises(td.ConfigError, match="simulates worklist workloads"):
        td.simulate(td.workloads.wavefront(4, 4), gpu(), "hwwl")
    with pytest.raises(td.ConfigError, match="simulates task_graph workloads"):
        td.simulate(wl, gpu(), "cdp")
    with pytest.raises(td.ConfigError, match="source"):
        td.workloads.bfs(graph="grid", rows=4, cols=4, source=16)
    with pytest.raises(td.ConfigError, match="graph kind"):
        td.workloads.bfs(graph="ring")
    with pytest.raises(td.ConfigError, match="benchmark"):
        td.workloads.lonestar("bfs")
    with pytest.raises(td.ConfigError, match="no cost parameter 'mean'"):
        td.sweep(wl, gpu(), "hwwl", grid={"cost.mean": [1, 2]})
    # An overflow buffer too small for what spills: a clear simulation error.
    big = td.workloads.bfs(graph="rmat", nodes=4096, degree=16, seed=2)
    with pytest.raises(td.SimulationError, match=r"overflow buffer of core \d+ is full"):
        td.simulate(big, gpu(), td.schemes.Hwwl(bank_entries=2, overflow_entries=4))


def test_workloads_pickle_and_travel() -> None:
    import pickle

    wl = td.workloads.sssp(graph="rmat", nodes=512, degree=4, seed=5)
    copy = pickle.loads(pickle.dumps(wl))
    assert copy.key() == wl.key()
    a = td.simulate(wl, gpu(), "hwwl")
    b = td.simulate(copy, gpu(), "hwwl")
    assert a.metrics == b.metrics and a.config_hash == b.config_hash


def test_experiment_file_with_worklist_workloads(tmp_path: Path) -> None:
    import shutil

    from tbdse.experiment import cli

    shutil.copy(ROME, tmp_path / "rome99.gr")
    path = tmp_path / "hw.yaml"
    path.write_text(
        "gpu: gpgpusim_hwwl\n"
        "workloads:\n"
        "  - {generator: sssp, graph: file, path: rome99.gr}\n"  # beside the file
        "  - {generator: lonestar, benchmark: mst, nodes: 1024}\n"
        "schemes: [{name: hwwl, bank_entries: 16}]\n"
        "grid: {redistribution: [none, lsorting]}\n"
        "baseline: [topology, data]\n"
        "outputs:\n"
        "  tables: [parquet]\n"
        "  plots: [{kind: bar, x: workload, y: speedup, file: speedup.png}]\n"
    )
    assert cli.main(["run", str(path), "-o", str(tmp_path / "out"), "--no-progress"]) == 0
    df = pd.read_parquet(tmp_path / "out" / "results.parquet")
    assert len(df) == 4
    rome = df[df["workload"] == "sssp(rome99.gr)"]
    assert (rome["workload.nodes"] == 3353).all() and (rome["workload.edges"] == 8870).all()
    assert set(df["baseline"]) <= {"topology", "data"}
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text().replace("path: rome99.gr}", "path: rome99.gr, cost: 5}"))
    assert cli.main(["validate", str(bad)]) == 2
