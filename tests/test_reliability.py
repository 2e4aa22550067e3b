"""Reliability suite: the run invariants at scale, thread-count independence, kill and resume.

* 1,000 seeded generated DAGs (layered random DAGs, wavefronts, barrier
  patterns, chains, independent tasks; 1 to 4 SMs of 1 to 4 slots, varied
  clocks and launch overheads) x every TB-engine scheme (those whose workload
  kind is ``task_graph``), each run with ``timeline=True`` and checked for the
  invariants of docs/MODELS.md §1 (tests/_invariants.py ``check_timeline``):
  every task runs exactly once for exactly its cost, dependencies are
  respected, no SM slot holds two TBs at once and no SM more TBs than its
  slots, the makespan is at least the critical path and the total work over
  the total slots.
* A sweep over a slice of those DAGs gives the identical table on 1 and 2
  threads.
* A sweep with ``checkpoint=`` in a subprocess, SIGKILLed at random points
  (and resumed and killed again), resumes to the table of an uninterrupted run.

About a minute on two cores.  ``pytest tests/test_reliability.py --full`` (or
``TBDSE_RELIABILITY_FULL=1``) runs it at 10x the size: 10,000 DAGs, a 10x
larger thread-comparison sweep and 10x the kills.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _invariants import check_timeline, critical_path_of, task_graph_edges

import tbdse as td

SCHEMES = td.schemes.names_for_kind("task_graph")
DAGS = 1000
CLOCKS = [1.0, 10.0, 100.0, 700.0]
LAUNCH_US = [0.0, 0.0, 0.5, 1.0, 2.0]  # exact in cycles at every clock above
SEED = 20261124


@pytest.fixture(scope="module")
def scale(request: pytest.FixtureRequest) -> int:
    full = request.config.getoption("--full") or os.environ.get("TBDSE_RELIABILITY_FULL") == "1"
    return 10 if full else 1


def dag_spec(rng: np.random.Generator) -> tuple[str, dict[str, Any]]:
    """A generator name and its arguments, drawn from rng (2 to about 60 tasks)."""
    kind = rng.choice(
        ["layered_random"] * 4
        + ["wavefront"] * 2
        + ["barrier", "global_barrier", "pairwise_barrier", "chain", "independent"]
    )
    i = lambda lo, hi: int(rng.integers(lo, hi + 1))  # noqa: E731
    if kind == "layered_random":
        args = {
            "layers": i(1, 8),
            "width": i(1, 8),
            "edge_prob": float(rng.choice([0.0, 0.2, 0.5, 1.0])),
            "span": i(1, 3),
            "seed": i(0, 2**31),
        }
    elif kind == "wavefront":
        args = {"rows": i(1, 8), "cols": i(1, 8)}
    elif kind == "barrier":
        width = i(1, 8)
        args = {"width": width, "stages": i(1, 5), "group": i(1, width)}
    elif kind in ("global_barrier", "pairwise_barrier"):
        args = {"width": i(1, 8), "stages": i(1, 5)}
    else:
        args = {"n": i(1, 24)}
    return str(kind), args


def make_case(index: int) -> dict[str, Any]:
    """DAG number ``index``: its workload with integer costs, its GPU, edges and critical path."""
    rng = np.random.default_rng([SEED, index])
    kind, args = dag_spec(rng)
    n = getattr(td.workloads, kind)(**args).graph.size
    costs = rng.integers(1, 200, size=n)
    wl = getattr(td.workloads, kind)(**args, cost=td.cost.array(costs.tolist()))
    sms = int(rng.integers(1, 5))
    # cdp's parent kernel holds one slot of SM 0 for the whole run.
    slots = int(rng.integers(2 if sms == 1 else 1, 5))
    gpu = td.gpus.custom(
        "rel",
        sms=sms,
        tb_slots=slots,
        host_launch_us=float(rng.choice(LAUNCH_US)),
        device_launch_us=float(rng.choice(LAUNCH_US)),
        clock_mhz=float(rng.choice(CLOCKS)),
    )
    edges = task_graph_edges(wl)
    return {
        "kind": kind,
        "args": args,
        "workload": wl,
        "gpu": gpu,
        "costs": costs,
        "edges": edges,
        "critical": critical_path_of(n, *edges, costs),
    }


@pytest.fixture(scope="module")
def cases(scale: int) -> list[dict[str, Any]]:
    return [make_case(i) for i in range(DAGS * scale)]


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
def test_invariants_on_generated_dags(scheme: str, cases: list[dict[str, Any]]) -> None:
    for i, c in enumerate(cases):
        r = td.simulate(c["workload"], c["gpu"], scheme, seed=i, timeline=True)
        try:
            check_timeline(scheme, r, c["gpu"], c["edges"], c["costs"], c["critical"])
        except AssertionError as exc:
            raise AssertionError(
                f"DAG {i}: {c['kind']}({c['args']}) on {c['gpu'].sms} SMs x "
                f"{c['gpu'].tb_slots} slots, scheme {scheme}: {exc}"
            ) from exc


@pytest.mark.slow
def test_one_and_two_threads_give_identical_tables(cases: list[dict[str, Any]], scale: int) -> None:
    # Lognormal costs, so that the draws (keyed by configuration and replicate) take part.
    workloads = [
        getattr(td.workloads, c["kind"])(
            **c["args"], name=f"dag{i}", cost=td.cost.lognormal(100, 0.6)
        )
        for i, c in enumerate(cases[: 40 * scale])
    ]
    gpu = td.gpus.custom("rel", sms=2, tb_slots=2, host_launch_us=0.5, clock_mhz=100.0)
    kw: dict[str, Any] = {
        "grid": {"sms": [1, 3], "tb_slots": [2, 4]},
        "baseline": "global_barrier",
        "replicates": 2,
        "seed": 5,
        "progress": False,
    }
    one = td.sweep(workloads, gpu, SCHEMES, threads=1, **kw)
    two = td.sweep(workloads, gpu, SCHEMES, threads=2, **kw)
    assert len(one) == len(workloads) * len(SCHEMES) * 4 * 2
    assert one["makespan_cycles"].notna().all()
    pd.testing.assert_frame_equal(one, two)


# --------------------------------------------------------------- kill and resume
# The sweep, as code both the children and this process run: big enough for
# several seconds and a few dozen checkpoint chunks.
SWEEP = textwrap.dedent(
    """
    import tbdse as td
    wls = [td.workloads.layered_random(20, 20, 0.3, 2, s, name=f"lr{s}",
                                       cost=td.cost.lognormal(800, 0.5)) for s in range(4)]
    wls.append(td.workloads.wavefront(24, 24, cost=td.cost.lognormal(800, 0.3)))
    def run(checkpoint=None, threads=2):
        return td.sweep(wls, "gtx480", ["dataflow_ideal", "wireframe", "global_barrier"],
                        grid={"sms": [4, 8, 15]}, replicates=150, seed=3, threads=threads,
                        progress=False, checkpoint=checkpoint)
    """
)
CHILD = SWEEP + textwrap.dedent(
    """
    import sys
    print("ready", flush=True)
    run(sys.argv[1])
    print("finished", flush=True)
    """
)


def _killed_child(checkpoint: Path, delay: float) -> str:
    """Starts a child sweeping into checkpoint, SIGKILLs it ``delay`` seconds
    after it starts sweeping; what it printed ('ready', or 'finished' if it
    was done before the signal)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(checkpoint)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        line = child.stdout.readline().strip()
        assert line == "ready", (line, child.stderr.read() if child.stderr else "")
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode in (0, -signal.SIGKILL), err
    return out.strip() or line


@pytest.mark.slow
def test_killed_sweeps_resume_to_the_uninterrupted_table(tmp_path: Path, scale: int) -> None:
    space: dict[str, Any] = {}
    exec(SWEEP, space)
    started = time.monotonic()
    expected = space["run"]()
    seconds = time.monotonic() - started
    rng = np.random.default_rng(SEED)
    for n in range(2 * scale):
        checkpoint = tmp_path / f"checkpoint{n}"
        # One to three kills in a row, each at a random point of the sweep
        # (the last may come after it finished), then a resume in this process.
        for _ in range(int(rng.integers(1, 4))):
            _killed_child(checkpoint, float(rng.uniform(0.0, 1.2 * seconds)))
        resumed = space["run"](checkpoint)
        pd.testing.assert_frame_equal(resumed, expected)
    # A resume of a finished checkpoint on another thread count: the same table.
    pd.testing.assert_frame_equal(space["run"](tmp_path / "checkpoint0", threads=1), expected)
