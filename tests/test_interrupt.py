"""A real Ctrl-C (SIGINT) stops a running sweep promptly and keeps the finished rows."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

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
        [sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
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
