"""tbdse touches no file it cannot prove it wrote (issue 21, "Files tbdse must
never touch"): links inside its folders are not followed, a user's files that
look like tbdse's are left alone, a copied or crafted manifest cannot make it
delete anything, and a folder or store in use is refused with the name of the
run that holds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.experiment import cli
from tbdse.simulation.store import ResultsStore

EXPERIMENT = textwrap.dedent(
    """\
    name: {name}
    gpu: {{preset: gtx480, host_launch_us: 2}}
    workload: {{generator: wavefront, rows: 6, cols: 6, cost: 500}}
    schemes: [global_barrier, dataflow_ideal]
    grid: {{gpu.sms: [2, 4]}}
    outputs:
      tables: [parquet, csv]
      plots: [{{kind: line, x: gpu.sms, y: makespan_us, file: fig.png}}]
    """
)


def experiment_file(folder: Path, name: str = "exp") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(EXPERIMENT.format(name=name))
    return path


def run(path: Path, out: Path, *extra: str) -> int:
    return cli.main(["run", str(path), "-o", str(out), "--no-progress", *extra])


def user_files(folder: Path) -> dict[str, bytes]:
    """What a user keeps in ``folder``, with names tbdse itself uses."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "meta.json": b'{"seed": 0}',
        "chunk-000001.parquet": b"mine",
        "ledger.jsonl": b"my notes\n",
        "notes.txt": b"keep",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def unchanged(folder: Path, files: dict[str, bytes]) -> bool:
    return all((folder / n).read_bytes() == data for n, data in files.items())


def test_a_symlinked_checkpoint_folder_is_never_followed(tmp_path: Path) -> None:
    # An older tbdse deleted meta.json and chunk-*.parquet in the link's target.
    elsewhere = tmp_path / "elsewhere"
    files = user_files(elsewhere)
    out = tmp_path / "out"
    out.mkdir()
    (out / "checkpoint").symlink_to(elsewhere)
    path = experiment_file(tmp_path)
    assert run(path, out) == 0
    assert run(path, out) == 0  # and when rerun
    assert unchanged(elsewhere, files)


def test_a_symlinked_store_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    files = user_files(elsewhere)
    out = tmp_path / "out"
    out.mkdir()
    (out / "store").symlink_to(elsewhere)
    assert run(experiment_file(tmp_path), out) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and "store" in err
    assert unchanged(elsewhere, files) and sorted(os.listdir(elsewhere)) == sorted(files)


def test_a_symlinked_output_folder_is_used_and_nothing_beside_it_touched(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    neighbour = user_files(tmp_path / "neighbour")
    link = tmp_path / "link"
    link.symlink_to(real)
    path = experiment_file(tmp_path)
    assert run(path, link) == 0 and (real / "results.csv").exists()
    assert run(experiment_file(tmp_path, "other"), link, "--overwrite") == 0
    assert unchanged(tmp_path / "neighbour", neighbour)


def test_files_with_tbdse_names_in_its_folders_are_the_users(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    in_checkpoint = user_files(out / "checkpoint")
    in_store = user_files(out / "store")
    path = experiment_file(tmp_path)
    assert run(path, out) == 2  # a store is made only in a new or empty folder
    assert "older tbdse" in capsys.readouterr().err
    (out / "store" / "meta.json").unlink()
    del in_store["meta.json"]
    assert run(path, out) == 2
    assert "is not a results store" in capsys.readouterr().err
    assert unchanged(out / "store", in_store)
    os.rename(out / "store", tmp_path / "moved")
    assert run(path, out) == 0
    assert run(path, out) == 0
    # --overwrite by another experiment removes the first one's files only
    assert run(experiment_file(tmp_path, "other"), out, "--overwrite") == 0
    assert unchanged(out / "checkpoint", in_checkpoint)
    assert unchanged(tmp_path / "moved", in_store)


def test_a_copied_manifest_cannot_make_tbdse_delete_a_users_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first"
    path = experiment_file(tmp_path)
    assert run(path, first) == 0
    # A user's folder holding the same names, with a manifest copied from the first
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "fig.png").write_bytes(b"my figure")
    (mine / "tbdse-run.json").write_bytes((first / "tbdse-run.json").read_bytes())
    assert run(experiment_file(tmp_path, "other"), mine, "--overwrite") == 2
    assert "cannot prove" in capsys.readouterr().err  # signed for the first folder only
    assert (mine / "fig.png").read_bytes() == b"my figure"


def test_a_crafted_manifest_cannot_make_tbdse_delete_a_users_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "precious.txt").write_text("keep")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep too")
    for files, pending in [
        ({"precious.txt": "0" * 64}, []),
        ({"../outside.txt": "0" * 64}, []),
        ({}, [{"tmp": "precious.txt", "file": "results.csv"}]),
        ({}, [{"tmp": "../outside.txt", "file": "results.csv"}]),
    ]:
        manifest = {"tool": "tbdse", "experiment": "x", "files": files, "pending": pending}
        (out / "tbdse-run.json").write_text(json.dumps(manifest))
        assert run(experiment_file(tmp_path), out, "--overwrite") == 2
        err = capsys.readouterr().err
        assert "changed since" in err or "damaged" in err, err
        assert (out / "precious.txt").read_text() == "keep" and outside.read_text() == "keep too"


def test_a_file_changed_after_tbdse_wrote_it_is_neither_replaced_nor_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    path = experiment_file(tmp_path)
    assert run(path, out) == 0
    (out / "results.csv").write_text("my edits")
    assert run(path, out) == 2
    assert "results.csv changed since tbdse wrote it" in capsys.readouterr().err
    assert (out / "results.csv").read_text() == "my edits"


def test_a_rerun_reuses_the_store_and_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    path = experiment_file(tmp_path)
    assert run(path, out) == 0
    first = pd.read_parquet(out / "results.parquet")
    stored = ResultsStore(out / "store").rows()
    assert len(stored) == len(first) and (stored["_status"] == 0).all()
    capsys.readouterr()
    assert run(path, out) == 0
    assert f"simulated 0, reused {len(first)}, failed 0" in capsys.readouterr().out
    pd.testing.assert_frame_equal(pd.read_parquet(out / "results.parquet"), first)
    assert len(ResultsStore(out / "store").rows()) == len(first)  # nothing simulated again


# -- two processes at once -------------------------------------------------------------
HOLD = textwrap.dedent(
    """
    import os, sys, time
    import tbdse as td
    from tbdse import store
    write = store.ResultsStore.write
    def held_write(self, frame):  # after its first chunk, wait until the test says go
        write(self, frame)
        while not os.path.exists(sys.argv[-1]):
            time.sleep(0.01)
    store.ResultsStore.write = held_write
    import tbdse.simulation.runner as runner
    runner.FIRST_CHUNK_WEIGHT, runner.CHUNK_SECONDS, runner.MIN_CHUNK_RUNS = 1, 1e-9, 1
    from tbdse import cli
    mode, target = sys.argv[1:3]
    print("started", flush=True)
    if mode == "cli":
        sys.exit(cli.main(["run", sys.argv[3], "-o", target, "--no-progress"]))
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    wl = td.workloads.wavefront(6, 6, cost=td.cost.constant(300))
    try:
        df = td.sweep(wl, "gtx480", ["cdp", "dataflow_ideal"], grid={"gpu.sms": [1, 2, 4]},
                      replicates=10, store=target, progress=False)
        print("rows", len(df), flush=True)
    except td.ConfigError as exc:
        print("refused", exc, flush=True)
    """
)


def _start(*args: str) -> subprocess.Popen[str]:
    """A child running HOLD that stops after its first chunk until ``args[-1]`` exists."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "started"
    return child


def _wait_for(path: Path, child: subprocess.Popen[str]) -> None:
    """Waits until ``child`` has written ``path``; fails with its output if it stops first."""
    deadline = time.monotonic() + 60
    while not (path.exists() and path.stat().st_size > 0):
        if child.poll() is not None:
            out, err = child.communicate()
            raise AssertionError(f"the child stopped ({child.returncode}): {out}{err}")
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


@pytest.mark.slow
def test_a_second_run_into_the_same_folder_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = experiment_file(tmp_path)
    go = tmp_path / "go"
    first = _start("cli", str(out), str(path), str(go))
    _wait_for(out / "store" / "ledger.jsonl", first)  # the first is writing its store
    second = _start("cli", str(out), str(path), str(go))
    _, err = second.communicate(timeout=120)
    go.touch()
    assert second.returncode == 2, err
    assert "in use by another tbdse run" in err and f"pid {first.pid}" in err
    _, err1 = first.communicate(timeout=120)
    assert first.returncode == 0, err1
    table = pd.read_parquet(out / "results.parquet")
    assert len(table) == 4 and table["makespan_cycles"].notna().all()


@pytest.mark.slow
def test_two_sweeps_on_one_store_lose_nothing(tmp_path: Path) -> None:
    # Today two writers kept 60 of 120 rows, silently.
    store = tmp_path / "store"
    go = tmp_path / "go"
    first = _start("sweep", str(store), str(go))
    _wait_for(store / "ledger.jsonl", first)
    second = _start("sweep", str(store), str(go))
    out2, _ = second.communicate(timeout=120)
    go.touch()
    out1, err1 = first.communicate(timeout=120)
    assert out1.split()[-2:] == ["rows", "60"], err1
    assert "refused" in out2 and f"pid {first.pid}" in out2
    rows = ResultsStore(store).rows()
    assert len(rows) == 60 and len(rows.drop_duplicates(["_hash", "_replicate"])) == 60
    # the store is free again: a third sweep reuses every row
    wl = td.workloads.wavefront(6, 6, cost=td.cost.constant(300))
    df = td.sweep(
        wl,
        "gtx480",
        ["cdp", "dataflow_ideal"],
        grid={"gpu.sms": [1, 2, 4]},
        replicates=10,
        store=store,
        progress=False,
    )
    assert len(df) == 60 and len(ResultsStore(store).rows()) == 60


def test_a_store_in_use_in_this_process_is_refused(tmp_path: Path) -> None:
    held = ResultsStore(tmp_path / "s")
    held.lock()
    try:
        with pytest.raises(ConfigError, match=f"in use by another tbdse run: pid {os.getpid()}"):
            td.sweep(td.workloads.wavefront(3, 3), "gtx480", "cdp", store=tmp_path / "s")
    finally:
        held.unlock()
    td.sweep(td.workloads.wavefront(3, 3), "gtx480", "cdp", store=tmp_path / "s")


def test_a_store_deletes_only_chunks_its_ledger_proves(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    wl = td.workloads.wavefront(3, 3)
    td.sweep(wl, "gtx480", ["cdp", "dataflow_ideal"], store=folder, progress=False)
    (folder / "chunk-feedfacefeedface.parquet").write_bytes(b"mine, named like a chunk")
    ours = [p for p in folder.glob("chunk-*.parquet") if p.name != "chunk-feedfacefeedface.parquet"]
    assert ours
    ours[0].write_bytes(b"a chunk the user replaced")
    assert ResultsStore(folder).destroy() is False  # the user's files keep the folder
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted(["chunk-feedfacefeedface.parquet", ours[0].name])


def test_an_older_checkpoint_is_neither_read_nor_deleted(tmp_path: Path) -> None:
    files = user_files(tmp_path / "old")
    with pytest.raises(ConfigError, match="older tbdse"):
        td.sweep(td.workloads.wavefront(3, 3), "gtx480", "cdp", checkpoint=tmp_path / "old")
    assert unchanged(tmp_path / "old", files)


# -- redrawing from the store ----------------------------------------------------------
def test_plot_redraws_figures_from_the_store_without_simulating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    path = experiment_file(tmp_path)
    assert run(path, out) == 0
    (out / "fig.png").unlink()
    table = (out / "results.csv").read_bytes()
    from tbdse.simulation import runner

    def no_simulation(*args: object, **kwargs: object) -> None:
        raise AssertionError("tbdse plot simulated")

    monkeypatch.setattr(runner.Runner, "run", no_simulation)
    assert cli.main(["plot", str(out)]) == 0  # from the folder's resolved.yaml
    assert (out / "fig.png").stat().st_size > 0 and (out / "results.csv").read_bytes() == table
    # another plot section, from a file
    other = path.read_text().replace("file: fig.png", "file: again.svg")
    (tmp_path / "replot.yaml").write_text(other)
    assert cli.main(["plot", str(out), "-f", str(tmp_path / "replot.yaml")]) == 0
    assert (out / "again.svg").exists() and (out / "fig.png").exists()
    manifest = json.loads((out / "tbdse-run.json").read_text())
    assert {"again.svg", "fig.png", "results.csv"} <= set(manifest["files"])
    capsys.readouterr()
    assert cli.main(["plot", str(tmp_path / "nothing")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()
    assert cli.main(["plot", str(tmp_path), "-f", str(path)]) == 2
    assert "holds no results of experiment 'exp'" in capsys.readouterr().err
