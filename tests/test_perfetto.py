"""Result.to_perfetto (Chrome trace-event JSON for ui.perfetto.dev) and the
timeline figures plot.gantt / plot.counters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest

import tbdse as td
import tbdse.plot.perfetto as perfetto

matplotlib.use("Agg")
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

SMS, SLOTS = 2, 3


@pytest.fixture(scope="module")
def tb_run() -> td.Result:
    wl = td.workloads.wavefront(8, 8, cost=td.cost.lognormal(1000, 0.5))
    gpu = td.gpus.gtx480(sms=SMS, tb_slots=SLOTS)
    return td.simulate(wl, gpu, td.Scheme("wireframe"), seed=3, timeline=True)


@pytest.fixture(scope="module")
def wl_run() -> td.Result:
    wl = td.workloads.bfs(graph="grid", rows=12, cols=12)
    return td.simulate(wl, td.gpus.gpgpusim_hwwl(sms=2), "hwwl", timeline=True)


def load(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    assert data["otherData"]["tool"] == "tbdse"
    events: list[dict[str, Any]] = data["traceEvents"]
    return events


def test_one_slice_per_task_on_its_sm_slot_track(tb_run: td.Result, tmp_path: Path) -> None:
    path = tb_run.to_perfetto(tmp_path / "run.json")
    events = load(path)
    tl = tb_run.timeline().set_index("task")
    us = 1.0 / tb_run.gpu.clock_mhz
    assert np.isclose(tb_run.makespan_cycles * us, tb_run.makespan_us)
    names = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert len(names) == SMS * SLOTS
    assert names[1] == "SM 0 slot 0" and names[SMS * SLOTS] == f"SM {SMS - 1} slot {SLOTS - 1}"
    process = [e for e in events if e["name"] == "process_name"]
    assert process[0]["args"]["name"] == "wireframe on wavefront(rows=8, cols=8), gtx480"
    slices = [e for e in events if e["ph"] == "X"]
    assert sorted(e["args"]["task"] for e in slices) == sorted(tl.index)
    for e in slices:
        row = tl.loc[e["args"]["task"]]
        task = e["args"]["task"]
        assert e["name"] == f"task {task} ({row['kernel']})"  # issue 31: was "kernel" alone
        assert e["args"]["kernel"] == row["kernel"] and e["args"]["sm"] == row["sm"]
        assert e["args"]["cost_cycles"] == row["end"] - row["start"]
        assert names[e["tid"]] == f"SM {row['sm']} slot {row['slot']}"
        assert e["ts"] == pytest.approx(row["start"] * us, rel=1e-12)
        assert e["dur"] == pytest.approx((row["end"] - row["start"]) * us, rel=1e-12, abs=1e-12)
        args = e["args"]
        assert (args["level"], args["ready_cycle"], args["start_cycle"], args["end_cycle"]) == (
            row["level"],
            row["ready"],
            row["start"],
            row["end"],
        )
    # no two slices overlap on one slot's track
    for _, part in pd.DataFrame([(e["tid"], e["ts"], e["dur"]) for e in slices]).groupby(0):
        part = part.sort_values(1)
        assert (part[1].to_numpy()[1:] >= (part[1] + part[2]).to_numpy()[:-1] - 1e-9).all()


def test_slices_are_named_by_the_tasks_label(tmp_path: Path) -> None:
    """A graph with node names: each TB's slice carries its node's name."""
    import networkx as nx

    g = nx.DiGraph([("load", "factor"), ("factor", "solve_a"), ("factor", "solve_b")])
    wl = td.workloads.from_networkx(g, kernel=td.Kernel("chol"), cost=500)
    run = td.simulate(wl, td.gpus.gtx480(sms=2), "dataflow_ideal", timeline=True)
    slices = [e for e in load(run.to_perfetto(tmp_path / "t.json")) if e["ph"] == "X"]
    assert sorted(e["name"] for e in slices) == [
        "factor (chol)",
        "load (chol)",
        "solve_a (chol)",
        "solve_b (chol)",
    ]
    level = {e["args"]["label"]: e["args"]["level"] for e in slices}
    assert level == {"load": 0, "factor": 1, "solve_a": 2, "solve_b": 2}


def test_counters_follow_the_timeline(tb_run: td.Result, tmp_path: Path) -> None:
    events = load(tb_run.to_perfetto(tmp_path / "run.json"))
    tl = tb_run.timeline()
    us = 1.0 / tb_run.gpu.clock_mhz
    running = [(e["ts"], e["args"]["running"]) for e in events if e["name"] == "running"]
    ready = [(e["ts"], e["args"]["ready"]) for e in events if e["name"] == "ready"]
    assert running and ready
    assert all(e["ph"] == "C" for e in events if e["name"] in ("running", "ready"))
    peak = max(v for _, v in running)
    assert 1 <= peak <= SMS * SLOTS
    assert running[-1][1] == 0 and ready[-1][1] == 0
    assert min(v for _, v in ready) >= 0
    # the count at each change equals the TBs whose [start, end) holds that time
    starts, ends = tl["start"].to_numpy() * us, tl["end"].to_numpy() * us
    for ts, value in running:
        assert value == int(((starts <= ts + 1e-9) & (ends > ts + 1e-9)).sum())


def test_held_instants_only_above_the_threshold(tb_run: td.Result, tmp_path: Path) -> None:
    tl = tb_run.timeline()
    wait = tl["start"] - tl["ready"]
    threshold = max(1, int(wait.quantile(0.5)))
    path = tb_run.to_perfetto(tmp_path / "run.json", held_min_cycles=threshold)
    held = [e for e in load(path) if e["ph"] == "i"]
    assert len(held) == int((wait >= threshold).sum())
    for e in held:
        assert e["name"] == "held" and e["args"]["wait_cycles"] >= threshold
    with pytest.raises(td.ConfigError, match="held_min_cycles must be"):
        tb_run.to_perfetto(tmp_path / "other.json", held_min_cycles=0)


def test_worklist_trace_series_are_counters(wl_run: td.Result, tmp_path: Path) -> None:
    events = load(wl_run.to_perfetto(tmp_path / "wl.json"))
    trace = wl_run.trace()
    us = 1.0 / wl_run.gpu.clock_mhz
    assert not [e for e in events if e["ph"] == "X"]
    for name in trace.columns.drop("cycle"):
        samples = [e for e in events if e["name"] == name]
        assert all(e["ph"] == "C" for e in samples)
        assert [e["ts"] for e in samples] == pytest.approx(list(trace["cycle"] * us))
        assert [e["args"][name] for e in samples] == pytest.approx(list(trace[name]))


def test_refuses_to_overwrite_and_writes_atomically(tb_run: td.Result, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text("not tbdse's")
    with pytest.raises(td.ConfigError, match=r"mine\.json exists.*overwrite=True"):
        tb_run.to_perfetto(path)
    assert path.read_text() == "not tbdse's"
    tb_run.to_perfetto(path, overwrite=True)
    assert load(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]  # no temporary left
    with pytest.raises(td.ConfigError, match="is a folder"):
        tb_run.to_perfetto(tmp_path)
    with pytest.raises(td.ConfigError, match="does not exist"):
        tb_run.to_perfetto(tmp_path / "missing" / "run.json")


def test_event_cap_refuses_before_writing(
    tb_run: td.Result, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perfetto, "MAX_EVENTS", 50)
    monkeypatch.setattr(perfetto, "_CHUNK", 7)
    with pytest.raises(td.ConfigError, match=r"more than the 50 .*smaller run"):
        tb_run.to_perfetto(tmp_path / "big.json")
    assert not list(tmp_path.iterdir())
    # small chunks still give one valid file
    monkeypatch.setattr(perfetto, "MAX_EVENTS", 10_000)
    assert len([e for e in load(tb_run.to_perfetto(tmp_path / "ok.json")) if e["ph"] == "X"]) == 64


def test_no_timeline_is_refused(tmp_path: Path) -> None:
    wl = td.workloads.wavefront(3, 3)
    r = td.simulate(wl, td.gpus.gtx480(), "wireframe")
    with pytest.raises(td.ConfigError, match="timeline=True"):
        r.to_perfetto(tmp_path / "x.json")
    vgiw = td.simulate(td.workloads.vgiw_example(), "gtx480", "vgiw", timeline=True)
    with pytest.raises(td.ConfigError, match="vgiw run has no trace to export"):
        vgiw.to_perfetto(tmp_path / "x.json")
    assert not list(tmp_path.iterdir())


def test_gantt_one_bar_per_tb(tb_run: td.Result) -> None:
    ax = Figure().subplots()
    assert td.plot.gantt(tb_run, ax=ax) is ax
    bars = [c for c in ax.collections if isinstance(c, PolyCollection) and c.get_gid() == "tb"]
    assert sum(len(c.get_paths()) for c in bars) == len(tb_run.timeline()) == 64
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"SM {s} slot {j}" for s in range(SMS) for j in range(SLOTS)]
    ax = Figure().subplots()
    td.plot.gantt(tb_run, ax=ax, cycles=(0, 1))
    assert sum(len(c.get_paths()) for c in ax.collections) < 64
    with pytest.raises(td.ConfigError, match="simulate"):
        td.plot.gantt(tb_run.timeline())


def test_counters_plot(tb_run: td.Result, wl_run: td.Result) -> None:
    ax = Figure().subplots()
    td.plot.counters(tb_run, ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["running TBs", "ready TBs"]
    assert max(ax.get_lines()[0].get_ydata()) <= SMS * SLOTS
    ax = Figure().subplots()
    td.plot.counters(wl_run, ax=ax, columns=["bank_occupancy"])
    assert len(ax.get_lines()) == 1
    with pytest.raises(td.ConfigError, match="no series 'bank'"):
        td.plot.counters(wl_run, ax=Figure().subplots(), columns=["bank"])
