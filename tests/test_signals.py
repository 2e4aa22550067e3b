"""Issue 33, item 7: SIGTERM and SIGHUP stop `tbdse` as Ctrl-C does: temporary
files (a ``.gz`` input's decompressed copy) are removed, finished runs are kept,
and the exit status is the shells' 128 + signal number, without a traceback."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tbdse.experiment import cli

DATA = Path(__file__).parent / "data"
STOPS = [signal.SIGTERM, signal.SIGHUP]


def _default_signals() -> None:
    """preexec_fn: a suite started under nohup or in the background would hand
    its children these signals ignored, and tbdse rightly leaves them so."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


# The child holds the decompressed copy of a .gz graph open, then gets the
# signal: tbdse's own reading of the input goes on as in any run.
CHILD_GZ = textwrap.dedent(
    """
    import contextlib, os, sys, time
    from tbdse import cli
    from tbdse.workloads import graphs
    real, number = graphs.input_path, int(sys.argv[2])

    @contextlib.contextmanager
    def signalled(*args, **kwargs):
        with real(*args, **kwargs) as local:
            print("temporary", local, flush=True)
            os.kill(os.getpid(), number)
            time.sleep(60)  # the signal stops this
            yield local

    graphs.input_path = signalled
    sys.exit(cli.main(["validate", sys.argv[1]]))
    """
)


@pytest.mark.parametrize("number", STOPS, ids=lambda s: signal.Signals(s).name)
def test_a_stop_signal_removes_a_gz_inputs_decompressed_copy(tmp_path: Path, number: int) -> None:
    (tmp_path / "g.gr.gz").write_bytes(gzip.compress((DATA / "graphs/rome99.gr").read_bytes()))
    exp = tmp_path / "gz.yaml"
    exp.write_text(
        "name: gz\ngpu: gpgpusim_hwwl\nscheme: hwwl\n"
        "workload: {generator: bfs, graph: file, path: g.gr.gz}\n",
        encoding="utf-8",
    )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", CHILD_GZ, str(exp), str(number)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TMPDIR": str(scratch)},
        preexec_fn=_default_signals,
        check=False,
    )
    assert done.stdout.startswith("temporary "), (done.stdout, done.stderr)
    assert Path(done.stdout.split(maxsplit=1)[1].strip()).is_relative_to(scratch)
    assert done.returncode == 128 + number, done.stderr
    assert f"interrupted by {signal.Signals(number).name}" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(scratch.iterdir()) == []  # the decompressed copy and its folder are gone


EXPERIMENT = textwrap.dedent(
    """\
    name: long
    gpu: gtx480
    workload:
      generator: wavefront
      rows: 60
      cols: 60
      cost: {model: lognormal, mean: 2000, sigma: 0.2}
    scheme: dataflow_ideal
    replicates: 20000
    outputs: {tables: [csv]}
    """
)


@pytest.mark.slow
def test_sigterm_stops_a_run_and_keeps_its_finished_rows(tmp_path: Path) -> None:
    exp, out = tmp_path / "long.yaml", tmp_path / "out"
    exp.write_text(EXPERIMENT, encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "tbdse", "run", str(exp), "-o", str(out), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_signals,
    )
    deadline = time.monotonic() + 60
    while not list((out / "store").glob("*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)  # until the first chunk is in the store
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM, err
    assert "by SIGTERM" in err and "Traceback" not in err
    assert "finished runs are in the results store" in err
    kept = (out / "results.partial.csv").read_text(encoding="utf-8").splitlines()
    assert 1 < len(kept) < 20001


def test_an_ignored_hangup_stays_ignored() -> None:
    # Under nohup SIGHUP is ignored: tbdse must not take it back.
    hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with cli._stop_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, hup)
        signal.signal(signal.SIGTERM, term)
