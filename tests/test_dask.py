"""Sweeps on a Dask cluster (issue 16, "Beyond one machine"): a LocalCluster of
worker processes gives exactly the rows of a local run, writes them to the
results store as chunks arrive, and loses nothing when a worker is killed."""

from __future__ import annotations

import os
import signal
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import tbdse as td
from tbdse.experiment import cli
from tbdse.simulation import executors
from tbdse.simulation.store import ResultsStore

distributed = pytest.importorskip("distributed")

pytestmark = [
    pytest.mark.slow,
    # Dask's own shutdown chatter is not tbdse's concern.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=50,
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def sweep(**kwargs: Any) -> pd.DataFrame:
    wl = td.workloads.wavefront(12, 12, cost=td.cost.lognormal(800, 0.3))
    return td.sweep(
        wl,
        "gtx480",
        ["global_barrier", "dataflow_ideal", td.Scheme("wireframe", node_buffer=32)],
        grid={"gpu.sms": [2, 4, 8], "cost.sigma": [0.1, 0.4]},
        baseline="global_barrier",
        replicates=6,
        seed=3,
        progress=False,
        **kwargs,
    )


def test_a_cluster_gives_the_rows_of_a_local_run(client: Any, tmp_path: Path) -> None:
    local = sweep()
    on_cluster = sweep(executor=client, threads=1, store=tmp_path / "store")
    pd.testing.assert_frame_equal(on_cluster, local)
    stored = ResultsStore(tmp_path / "store").rows()
    assert len(stored) == len(local) and (stored["_status"] == 0).all()  # one row per run
    # a second run finds everything in the store and submits nothing
    submitted: list[int] = []
    real = executors._submit_and_collect
    executors._submit_and_collect = (  # type: ignore[assignment]
        lambda r, c, todo: submitted.append(len(todo))
    )
    try:
        again = sweep(executor=client, store=tmp_path / "store")
    finally:
        executors._submit_and_collect = real
    assert submitted == [] and again.equals(local)


def test_a_killed_worker_loses_nothing(client: Any, tmp_path: Path) -> None:
    local = sweep()
    pids = client.run(os.getpid)
    runner_module = td.runner
    finish = runner_module.Runner.finish_chunk
    killed: list[int] = []

    def kill_after_first(self: Any, chunk: Any, res: Any) -> None:
        finish(self, chunk, res)
        if not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    runner_module.Runner.finish_chunk = kill_after_first  # type: ignore[method-assign]
    try:
        got = sweep(executor=client, threads=1, store=tmp_path / "store")
    finally:
        runner_module.Runner.finish_chunk = finish  # type: ignore[method-assign]
    assert killed
    pd.testing.assert_frame_equal(got, local)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it


EXPERIMENT = textwrap.dedent(
    """\
    name: on_cluster
    gpu: gtx480
    workload: {generator: wavefront, rows: 8, cols: 8, cost: {model: lognormal, mean: 500}}
    schemes: [global_barrier, dataflow_ideal]
    grid: {gpu.sms: [2, 4, 8]}
    replicates: 4
    outputs: {tables: [parquet]}
    """
)


def test_tbdse_run_scheduler(client: Any, tmp_path: Path) -> None:
    path = tmp_path / "exp.yaml"
    path.write_text(EXPERIMENT)
    address = client.scheduler.address
    assert cli.main(["run", str(path), "-o", str(tmp_path / "a"), "--no-progress"]) == 0
    assert (
        cli.main(
            ["run", str(path), "-o", str(tmp_path / "b"), "--no-progress", "--scheduler", address]
        )
        == 0
    )
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "b" / "results.parquet"),
        pd.read_parquet(tmp_path / "a" / "results.parquet"),
    )


def test_a_bad_executor_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(td.ConfigError, match=r"executor must be a distributed\.Client"):
        sweep(executor=42)
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(td.ConfigError, match="cannot reach the Dask scheduler"):
        executors.as_client("tcp://127.0.0.1:1")


def test_a_worker_of_another_tbdse_is_refused_naming_both(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The driver pretends to be another build; the workers keep their own.
    theirs = td.__version__
    monkeypatch.setattr(executors._core, "__version__", "0.0.0-other")
    with pytest.raises(td.ConfigError) as caught:
        sweep(executor=client)
    message = str(caught.value)
    assert "(tbdse 0.0.0-other)" in message and f"runs tbdse {theirs}" in message
