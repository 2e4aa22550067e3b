"""tbdse deletes or replaces only what it can prove it wrote (issue 33): a
record entry must carry a MAC made with this user's key (kept in the user's
own tbdse state) for this folder, not just a file's hash.  Each attack below
is a crafted manifest or ledger that a hash alone let delete a user's file."""

from __future__ import annotations

import hashlib
import json
import shutil
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from _cli_runs import experiment_file, run

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.experiment import cli
from tbdse.simulation.store import ResultsStore


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def precious(folder: Path, name: str = "notes.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("keep me")
    return path


def manifest(
    out: Path, experiment: str, files: dict[str, str], pending: list[dict[str, str]]
) -> None:
    """A manifest as the tbdse before issue 33 wrote it (hashes, no MACs),
    in whichever format this tbdse expects (a forger can copy the format)."""
    from tbdse.experiment import outdir as _outdir

    forged = "0" * 64  # a MAC only the user's key could make
    signed = _outdir.FORMAT > 2
    data = {
        "tool": "tbdse",
        "format": _outdir.FORMAT,
        "experiment": experiment,
        "source": None,
        "complete": True,
        "files": {k: {"sha256": v, "mac": forged} if signed else v for k, v in files.items()},
        "pending": [{**p, "mac": forged, "file_mac": forged} if signed else p for p in pending],
        "mac": forged,
    }
    (out / "tbdse-run.json").write_text(json.dumps(data))


def sweep(store: Path) -> pd.DataFrame:
    return td.sweep(
        td.workloads.wavefront(4, 4, cost=td.cost.constant(500)),
        "gtx480",
        ["cdp", "dataflow_ideal"],
        grid={"gpu.sms": [2, 4]},
        store=store,
        progress=False,
    )


def test_a_forged_manifest_of_another_experiment_cannot_make_overwrite_delete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    victim = precious(out)
    manifest(out, "other", {"notes.txt": digest(victim)}, [])
    assert run(experiment_file(tmp_path), out, "--overwrite") == 2
    assert "cannot prove" in capsys.readouterr().err
    assert victim.read_text() == "keep me"


def test_a_forged_manifest_of_the_same_experiment_cannot_make_a_run_prune(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    victim = precious(out)
    manifest(out, "e", {"notes.txt": digest(victim)}, [])
    assert run(experiment_file(tmp_path), out) == 2
    assert "tbdse adopt" in capsys.readouterr().err
    assert victim.read_text() == "keep me"


def test_a_forged_pending_entry_cannot_make_a_run_prune(tmp_path: Path) -> None:
    out = tmp_path / "out"
    victim = precious(out)
    entry = {
        "tmp": ".notes.txt.tbdse-0123456789abcdef.tmp",
        "file": "notes.txt",
        "sha256": digest(victim),
    }
    manifest(out, "e", {}, [entry])
    assert run(experiment_file(tmp_path), out) == 2
    assert victim.read_text() == "keep me"


def test_a_manifest_copied_from_another_folder_proves_nothing(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert run(experiment_file(tmp_path), first) == 0
    second.mkdir()
    for name in ("tbdse-run.json", "fig.png"):  # the user keeps a copy of the figure
        shutil.copy(first / name, second / name)
    # the experiment now draws another figure: a rerun would prune fig.png
    assert run(experiment_file(tmp_path, figure="g.png"), second) == 2
    assert (second / "fig.png").read_bytes() == (first / "fig.png").read_bytes()


def test_an_own_folder_is_still_rerun_and_pruned(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run(experiment_file(tmp_path), out) == 0
    assert run(experiment_file(tmp_path, figure="g.png"), out) == 0
    assert (out / "g.png").exists() and not (out / "fig.png").exists()


def chunk_like(store: Path) -> Path:
    """A user's file with a name like a chunk's, and a ledger entry for it."""
    victim = store / "chunk-0123456789abcdef.parquet"
    victim.write_bytes(b"the user's own parquet")
    with open(store / "ledger.jsonl", "a") as f:
        f.write(json.dumps({"file": victim.name, "sha256": digest(victim)}) + "\n")
    return victim


def test_a_crafted_ledger_entry_cannot_make_destroy_delete(tmp_path: Path) -> None:
    store = tmp_path / "s"
    sweep(store)
    victim = chunk_like(store)
    with pytest.raises(ConfigError, match="cannot prove"):
        ResultsStore(store).destroy()
    assert victim.read_bytes() == b"the user's own parquet"


def test_a_crafted_ledger_entry_cannot_make_overwrite_delete(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run(experiment_file(tmp_path, "a"), out) == 0
    victim = chunk_like(out / "store")
    assert run(experiment_file(tmp_path, "b"), out, "--overwrite") == 2
    assert victim.exists()


def test_rows_are_read_only_from_chunks_tbdse_wrote(tmp_path: Path) -> None:
    store = tmp_path / "s"
    sweep(store)
    chunk = next(store.glob("chunk-*.parquet"))
    forged = store / "chunk-0123456789abcdef.parquet"
    shutil.copy(chunk, forged)
    with open(store / "ledger.jsonl", "a") as f:
        f.write(json.dumps({"file": forged.name, "sha256": digest(forged)}) + "\n")
    with pytest.raises(ConfigError, match="cannot prove"):
        ResultsStore(store).rows()


def test_plot_without_rows_leaves_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run(experiment_file(tmp_path), out) == 0
    figure = (out / "fig.png").read_bytes()
    shutil.rmtree(out / "store")
    assert cli.main(["plot", str(out)]) == 2
    assert "no rows" in capsys.readouterr().err
    assert (out / "fig.png").read_bytes() == figure


def test_plot_of_a_search_experiment_leaves_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = textwrap.dedent(
        """\
        name: dse
        gpu: gtx480
        workload: {generator: wavefront, rows: 6, cols: 6, cost: 500}
        scheme: wireframe
        baseline: global_barrier
        search:
          space: {node_buffer: {int: [16, 512], log: true}}
          objectives: {speedup: max}
          trials: 4
          batch: 4
        outputs:
          tables: [csv]
          plots: [{kind: line, x: trial, y: speedup, file: trials.png}]
        """
    )
    path = tmp_path / "dse.yaml"
    path.write_text(text)
    out = tmp_path / "out"
    assert run(path, out) == 0
    figure = (out / "trials.png").read_bytes()
    assert cli.main(["plot", str(out)]) == 2
    assert "search" in capsys.readouterr().err
    assert (out / "trials.png").read_bytes() == figure
