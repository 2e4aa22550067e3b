"""A real Ctrl-C (SIGINT) stops a running sweep promptly and keeps the finished rows."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import default_sigint

CHILD = textwrap.dedent(
    """
    import sys, time
    import tbdse as td
    wl = td.workloads.wavefront(150, 150, cost=td.cost.lognormal(2000, 0.2))
    print("ready", flush=True)
    try:
        td.sweep(wl, "gtx480", "dataflow_ideal", replicates=20000, progress=False)
        print("finished", flush=True)
    except td.SweepInterrupted as exc:
        rows = exc.results
        ok = len(rows) > 0 and rows["makespan_cycles"].notna().all()
        print("interrupted", len(rows), ok, time.monotonic(), flush=True)
    """
)


@pytest.mark.slow
def test_sigint_stops_a_sweep_and_keeps_finished_rows() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.5)  # let it get well into the sweep (20,000 runs take far longer)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    words = out.split()
    assert words[:1] == ["interrupted"], (out, err)
    rows, ok, stopped = int(words[1]), words[2] == "True", float(words[3])
    assert 0 < rows < 20000 and ok
    # Chunks last about a quarter of a second, so the sweep stops well within a second.
    assert stopped - sent < 1.0


# ---------------------------------------------------------------------------
# Killed (SIGKILL, no clean-up at all) at any point, `tbdse run` again
# finishes with exactly the table of an uninterrupted run.

EXPERIMENT = textwrap.dedent(
    """\
    name: killed
    gpu: {preset: gtx480, host_launch_us: 2}
    workload:
      generator: wavefront
      rows: 8
      cols: 8
      cost: {model: lognormal, mean: 800, sigma: 0.4}
    schemes: [global_barrier, dataflow_ideal, {name: wireframe, node_buffer: 32}]
    baseline: global_barrier
    grid: {gpu.sms: [2, 4, 8], cost.sigma: [0.1, 0.4]}
    replicates: 4
    seed: 11
    outputs:
      tables: [parquet, csv]
      plots: [{kind: line, x: gpu.sms, y: speedup, file: speedup.png}]
    """
)

# The child runs `tbdse run` one run per store chunk, and kills itself with
# SIGKILL at the chosen point: after store chunk N, or inside the write of
# output FILE (half a temporary file written), or just after FILE took its new
# content but before the manifest recorded it, or never (the parent kills it
# after a delay).
CHILD_RUN = textwrap.dedent(
    """
    import os, signal, sys
    import tbdse.simulation.runner as runner, tbdse.experiment.outdir as outdir
    import tbdse.simulation.store as store
    from tbdse.experiment import cli
    kind, arg, path, out = sys.argv[1:5]
    runner.FIRST_CHUNK_WEIGHT, runner.CHUNK_SECONDS, runner.MIN_CHUNK_RUNS = 1, 1e-9, 1
    if kind == "chunk":
        write, count = store.ResultsStore.write, [0]
        def killing_write(self, *a, **k):
            write(self, *a, **k)
            count[0] += 1
            if count[0] == int(arg):
                os.kill(os.getpid(), signal.SIGKILL)
        store.ResultsStore.write = killing_write
    elif kind in ("file", "renamed"):
        atomic = outdir.atomic_write
        def killing_atomic(target, write, **kw):
            if target.name != arg:
                return atomic(target, write, **kw)
            if kind == "renamed":
                digest = atomic(target, write, **kw)
                os.kill(os.getpid(), signal.SIGKILL)
            def half(tmp):
                write(tmp)
                data = tmp.read_bytes()
                tmp.write_bytes(data[: len(data) // 2])
                os.kill(os.getpid(), signal.SIGKILL)
            return atomic(target, half, **kw)
        outdir.atomic_write = killing_atomic
    sys.exit(cli.main(["run", path, "-o", out, "--no-progress", *sys.argv[5:]]))
    """
)


def _run_child(kind: str, arg: str, path: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD_RUN, kind, arg, str(path), str(out), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(child: subprocess.Popen[str]) -> tuple[int, str]:
    """Waits for the child and closes its pipes; its exit status and stderr."""
    _, err = child.communicate(timeout=120)
    return child.returncode, err


@pytest.mark.slow
def test_killed_anywhere_a_resumed_run_gives_the_uninterrupted_table(tmp_path: Path) -> None:
    import random

    import pandas as pd

    path = tmp_path / "killed.yaml"
    path.write_text(EXPERIMENT)
    reference = tmp_path / "reference"
    status, err = _finish(_run_child("none", "", path, reference))
    assert status == 0, err
    expected = pd.read_parquet(reference / "results.parquet")

    rng = random.Random(5)
    points = [("chunk", "1"), ("chunk", "7"), ("chunk", str(len(expected) - 1))]
    points += [("file", "results.parquet"), ("file", "results.csv"), ("file", "speedup.png")]
    points += [("file", "tbdse-run.json"), ("renamed", "results.csv"), ("renamed", "speedup.png")]
    points += [("time", f"{rng.uniform(0.3, 2.5):.2f}") for _ in range(3)]

    def kill_and_resume(n: int, kind: str, arg: str) -> None:
        out = tmp_path / f"out{n}"
        child = _run_child("none" if kind == "time" else kind, arg, path, out)
        if kind == "time":
            time.sleep(float(arg))
            child.kill()
        status, err = _finish(child)
        if kind != "time":
            assert status == -signal.SIGKILL, (kind, arg, err)
        # Whatever the kill left, no table is ever half written.
        for table in ("results.parquet", "results.csv"):
            if (out / table).exists():
                assert (out / table).stat().st_size > 0
        status, err = _finish(_run_child("none", "", path, out))
        assert status == 0, (kind, arg, err)
        got = pd.read_parquet(out / "results.parquet")
        pd.testing.assert_frame_equal(got, expected, obj=f"killed at {kind} {arg}")
        csv = pd.read_csv(out / "results.csv")
        assert len(csv) == len(expected) and list(csv.columns) == list(expected.columns)
        assert (out / "store" / "tbdse-store.json").exists()  # kept for the next run
        assert not [p.name for p in out.rglob("*") if p.name.endswith(".tmp")]

    # Two points at a time, each in its own folder: a child is mostly imports
    # on one core (25 children in sequence took 140 s in CI).
    with ThreadPoolExecutor(max_workers=2) as pool:
        for done in [pool.submit(kill_and_resume, n, *p) for n, p in enumerate(points)]:
            done.result()  # re-raises a point's failure
