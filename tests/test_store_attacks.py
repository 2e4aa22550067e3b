"""Attacks on the results store and the output folder found by a review
(issue 21): crafted ledgers and manifests, links below tbdse's folders,
FIFOs where records are read, edited files, same-named experiments from other
files.  Each must end in a ConfigError with every user file untouched."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pandas as pd
import pytest
from _cli_runs import experiment_file, run

import tbdse as td
from tbdse.experiment.outdir import OutputFolder
from tbdse.simulation.store import ResultsStore


def sweep(store: Path) -> pd.DataFrame:
    return td.sweep(
        td.workloads.wavefront(5, 5, cost=td.cost.constant(500)),
        "gtx480",
        ["cdp", "dataflow_ideal"],
        grid={"gpu.sms": [2, 4]},
        store=store,
        progress=False,
    )


def precious(folder: Path, name: str = "precious.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("keep me")
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def append(ledger: Path, entry: object) -> None:
    with open(ledger, "a") as f:
        f.write(json.dumps(entry) + "\n")


def test_an_announced_temporary_reached_through_a_link_is_not_deleted(tmp_path: Path) -> None:
    victim = precious(tmp_path / "home", "thesis.tex")
    store = tmp_path / "s"
    sweep(store)
    (store / ".chunk-x").symlink_to(tmp_path / "home")
    append(store / "ledger.jsonl", {"pending": ".chunk-x/thesis.tex"})
    (store / ".chunk-a").mkdir()
    append(store / "ledger.jsonl", {"pending": ".chunk-a/../../home/thesis.tex"})
    # unsigned entries: the store is refused, nothing in it touched (issue 33)
    with pytest.raises(td.ConfigError, match="cannot prove"):
        sweep(store)
    with pytest.raises(td.ConfigError, match="cannot prove"):
        ResultsStore(store).destroy()
    assert victim.read_text() == "keep me"


@pytest.mark.parametrize("name", ["/abs", "../precious.txt", "sub/chunk-0.parquet"])
def test_a_ledger_naming_other_files_is_refused(tmp_path: Path, name: str) -> None:
    victim = precious(tmp_path)
    store = tmp_path / "s"
    sweep(store)
    entry = name if name != "/abs" else str(victim)
    append(store / "ledger.jsonl", {"file": entry, "sha256": digest(victim)})
    with pytest.raises(td.ConfigError, match="not a chunk tbdse writes"):
        sweep(store)
    with pytest.raises(td.ConfigError, match="not a chunk tbdse writes"):
        ResultsStore(store).destroy()
    assert victim.read_text() == "keep me"


def test_an_overwrite_through_a_crafted_ledger_deletes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = precious(tmp_path)
    out = tmp_path / "o"
    assert run(experiment_file(tmp_path), out) == 0
    append(out / "store" / "ledger.jsonl", {"file": str(victim), "sha256": digest(victim)})
    assert run(experiment_file(tmp_path, "f"), out, "--overwrite") == 2
    assert "not a chunk tbdse writes" in capsys.readouterr().err
    assert victim.read_text() == "keep me" and (out / "results.csv").exists()


def test_an_edited_chunk_is_not_reused(tmp_path: Path) -> None:
    store = tmp_path / "s"
    first = sweep(store)
    (chunk,) = store.glob("chunk-*.parquet")
    frame = pd.read_parquet(chunk)
    frame["makespan_cycles"] = 1.0
    frame.to_parquet(chunk, index=False)
    with pytest.raises(td.ConfigError, match="is not what tbdse wrote there"):
        sweep(store)
    chunk.unlink()
    pd.testing.assert_frame_equal(sweep(store), first)


def test_links_below_the_output_folder_are_never_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    secret = precious(elsewhere, "secret.txt")
    out = tmp_path / "o"
    out.mkdir()
    (out / "figs").symlink_to(elsewhere)
    assert run(experiment_file(tmp_path, figure="figs/a.png"), out) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert sorted(os.listdir(elsewhere)) == ["secret.txt"]
    # a manifest entry below a linked folder is refused, its file kept
    (out / "figs").unlink()
    (out / "sub").symlink_to(elsewhere)
    manifest = {"tool": "tbdse", "experiment": "e", "files": {"sub/secret.txt": digest(secret)}}
    (out / "tbdse-run.json").write_text(json.dumps(manifest))
    assert run(experiment_file(tmp_path), out) == 2
    assert "damaged" in capsys.readouterr().err  # unsigned: refused before any file is looked at
    assert secret.read_text() == "keep me"


@pytest.mark.parametrize(
    "where", ["tbdse-run.json", "store/ledger.jsonl", "store/tbdse-store.json", "tbdse-run.lock"]
)
def test_a_fifo_where_tbdse_reads_a_record_is_refused_at_once(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    path = experiment_file(tmp_path)
    if where.startswith("store/"):
        assert run(path, out) == 0
        (out / where).unlink()
    (out / where).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(out / where)
    assert run(path, out) == 2  # (a blocking read would hang here)
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "manifest",
    [
        "[" * 100_000,
        json.dumps({"tool": "tbdse", "experiment": "e", "files": {"store": "0" * 64}}),
        json.dumps({"tool": "tbdse", "experiment": "e", "files": {"./fig.png": "0" * 64}}),
        json.dumps({"tool": "tbdse", "experiment": "e", "files": {"a\u0000b": "0" * 64}}),
        json.dumps({"tool": "tbdse", "experiment": "e", "files": {"x" * 5000: "0" * 64}}),
        json.dumps(
            {
                "tool": "tbdse",
                "experiment": "e",
                "files": {},
                "pending": [{"tmp": ".", "file": "."}],
            }
        ),
    ],
    ids=["deep", "a folder", "not normal", "NUL", "too long", "dot"],
)
def test_malformed_manifests_are_config_errors(
    tmp_path: Path, manifest: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    assert run(experiment_file(tmp_path), out) == 0
    (out / "tbdse-run.json").write_text(manifest)
    assert run(experiment_file(tmp_path), out) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err


def test_the_same_name_from_another_file_is_another_experiment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    assert run(experiment_file(tmp_path / "a", "run", "a_only.png"), out) == 0
    assert run(experiment_file(tmp_path / "b", "run", "b.png"), out) == 2
    assert "holds the results of experiment 'run'" in capsys.readouterr().err
    assert (out / "a_only.png").exists()


def test_overwrite_checks_everything_before_deleting_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    assert run(experiment_file(tmp_path), out) == 0
    precious(out / "store", "notes.txt")
    before = sorted(p.name for p in out.rglob("*"))
    assert run(experiment_file(tmp_path, "f"), out, "--overwrite") == 2
    assert "files tbdse cannot prove it wrote (notes.txt)" in capsys.readouterr().err
    assert sorted(p.name for p in out.rglob("*")) == before  # nothing went
    (out / "store" / "notes.txt").unlink()
    assert run(experiment_file(tmp_path, "f"), out, "--overwrite") == 0


def test_an_output_edited_during_a_run_is_not_replaced(tmp_path: Path) -> None:
    folder = OutputFolder(tmp_path / "o", "e", None, ["results.csv"], overwrite=False)
    try:
        folder.write("results.csv", lambda p: p.write_text("tbdse's"))
        (tmp_path / "o" / "results.csv").write_text("the user's edit")
        with pytest.raises(td.ConfigError, match="changed while this run went on"):
            folder.write("results.csv", lambda p: p.write_text("tbdse's again"))
    finally:
        folder.close()
    assert (tmp_path / "o" / "results.csv").read_text() == "the user's edit"
    assert not [p for p in (tmp_path / "o").iterdir() if p.name.endswith(".tmp")]


def test_a_search_holds_its_store_from_first_batch_to_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    search_module = importlib.import_module("tbdse.dse.search")  # td.search is the function
    other = ResultsStore(tmp_path / "s")
    taken: list[str] = []
    evaluate = search_module._Evaluator.evaluate

    def between_batches(self: object, points: list[dict[str, object]]) -> object:
        try:
            other.lock()
            other.unlock()
            taken.append("free")
        except td.ConfigError:
            taken.append("held")
        return evaluate(self, points)  # type: ignore[arg-type]

    monkeypatch.setattr(search_module._Evaluator, "evaluate", between_batches)
    td.search(
        td.workloads.wavefront(5, 5),
        "gtx480",
        "wireframe",
        space={"level_bound": [1, 2, 3]},
        objectives={"makespan_us": "min"},
        trials=6,
        batch=2,
        store=tmp_path / "s",
    )
    assert taken == ["held"] * 3


def test_a_refused_run_leaves_no_lock_and_no_folder_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    out.mkdir()
    (out / "results.csv").write_text("mine")
    assert run(experiment_file(tmp_path), out) == 2
    assert sorted(os.listdir(out)) == ["results.csv"]
    capsys.readouterr()
    (tmp_path / "f").write_text("a file")
    assert run(experiment_file(tmp_path), tmp_path / "new" / "deeper") == 0
    assert run(experiment_file(tmp_path, "other"), tmp_path / "new" / "deeper") == 2
    assert sorted(os.listdir(tmp_path / "new" / "deeper"))[:1] == ["fig.png"]
