"""Objects that travel: GPUs, workloads (with their C++ task graph and command
queue, or built from depend clauses), schemes, cost models and results can be
copied, pickled and sent to another process, and the copy runs exactly like
the original."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pandas as pd
import pytest

import tbdse as td
from tbdse.workloads import Application, bx


def application_workload() -> td.Workload:
    app = Application("pair")
    a, b = app.malloc("A", 4096), app.malloc("B", 4096)
    app.memcpy_h2d(a)
    app.launch(
        "k1",
        16,
        reads=[a[256 * bx - 1 : 256 * bx + 257]],
        writes=[b[256 * bx : 256 * bx + 256]],
        cost=900,
    )
    app.launch(
        "k2",
        16,
        reads=[b[256 * bx : 256 * bx + 256]],
        writes=[a[256 * bx : 256 * bx + 256]],
        cost=700,
    )
    app.memcpy_d2h(a)
    return app.build(cost_jitter=0.2)


CASES: dict[str, tuple[Any, Any, Any]] = {
    # name: (workload, gpu, scheme)
    "wavefront": (
        td.workloads.wavefront(8, 8, cost=td.cost.lognormal(900, 0.3)),
        td.gpus.gtx480(sms=4),
        td.schemes.Wireframe(node_buffer=32),
    ),
    "layered": (
        td.workloads.layered_random(6, 10, edge_prob=0.3, seed=2, cost=td.cost.uniform(100, 900)),
        td.gpus.p100(sms=3),
        td.Scheme("dataflow_ideal", policy="lvl"),
    ),
    "application": (
        application_workload(),
        td.gpus.titanx_pascal(copy_latency_us=0, sms=2),
        td.schemes.BlockMaestro(prelaunch_depth=2),
    ),
    "tasks": (
        td.workloads.juggler_app("lu-d", cost_jitter=0.2),
        td.gpus.p100(sms=4),
        td.schemes.GlobalBarrier(),
    ),
}


def round_trip(obj: Any) -> Any:
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("name", list(CASES))
def test_each_part_round_trips_and_runs_the_same(name: str) -> None:
    workload, gpu, scheme = CASES[name]
    original = td.simulate(workload, gpu, scheme, seed=4, timeline=True)
    w2, g2, s2 = round_trip(workload), round_trip(gpu), round_trip(scheme)
    assert w2.key() == workload.key() and w2.graph.content_hash == workload.graph.content_hash
    assert g2 == gpu and s2 == scheme
    again = td.simulate(w2, g2, s2, seed=4, timeline=True)
    assert again.config_hash == original.config_hash
    assert again.metrics == original.metrics
    pd.testing.assert_frame_equal(again.timeline(), original.timeline())


@pytest.mark.parametrize(
    "obj",
    [
        td.gpus.gtx480(),
        td.cost.lognormal(100, 0.3),
        td.cost.per_kernel({"k": 10}),
        td.schemes.Cdp(),
        td.Kernel("k", threads=128),
        CASES["wavefront"][0],
    ],
    ids=["gpu", "lognormal", "per_kernel", "scheme", "kernel", "workload"],
)
def test_copy_and_deepcopy(obj: Any) -> None:
    # copy.copy(td.gpus.gtx480()) was a RecursionError
    for made in (copy.copy(obj), copy.deepcopy(obj)):
        if isinstance(obj, td.Workload):
            assert made.key() == obj.key()
        else:
            assert made == obj


def test_results_and_tables_round_trip() -> None:
    workload, gpu, scheme = CASES["application"]
    r = td.simulate(workload, gpu, scheme, timeline=True)
    r2 = round_trip(r)
    assert r2.metrics == r.metrics and r2.config_hash == r.config_hash
    pd.testing.assert_series_equal(r2.row, r.row)
    pd.testing.assert_series_equal(r2.dependency_stalls(), r.dependency_stalls())
    r.timeline()  # built once: a pickle after that carries the table
    pd.testing.assert_frame_equal(round_trip(r).timeline(), r.timeline())
    df = td.sweep(*CASES["wavefront"][:2], ["cdp", "dataflow_ideal"], grid={"sms": [2, 4]})
    back = round_trip(df)
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs == df.attrs


def _simulate_in_child(args: tuple[Any, Any, Any]) -> tuple[str, dict[str, float]]:
    r = td.simulate(*args, seed=9)
    return r.config_hash, r.metrics


def test_another_process_runs_the_same_configuration() -> None:
    # spawn: a fresh interpreter, so everything crosses as a pickle
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        remote = list(pool.map(_simulate_in_child, CASES.values()))
    local = [_simulate_in_child(args) for args in CASES.values()]
    assert remote == local
