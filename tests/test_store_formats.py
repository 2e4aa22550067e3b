"""Stores and output folders of earlier tbdse formats (adopted with `tbdse
adopt`), the user key that signs tbdse's records, and store inputs that were
tracebacks or wrongly accepted (issue 33)."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.experiment import cli
from tbdse.io import files as _files
from tbdse.io.files import FolderLock
from tbdse.simulation.store import ResultsStore, key_frame

LEGACY = Path(__file__).parent / "data" / "legacy"


def legacy(tmp_path: Path, which: str) -> Path:
    shutil.copy(LEGACY / "legacy.yaml", tmp_path / "legacy.yaml")
    out = tmp_path / which
    shutil.copytree(LEGACY / which, out)
    return out


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("which", ["out", "out-no-timeout"])
def test_an_earlier_format_is_refused_with_the_command_that_adopts_it(
    tmp_path: Path, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = legacy(tmp_path, which)
    before = snapshot(out)
    file = str(tmp_path / "legacy.yaml")
    for argv in (["run", file, "-o", str(out)], ["run", file, "-o", str(out), "--overwrite"]):
        assert cli.main([*argv, "--no-progress"]) == 2
        assert f"tbdse adopt {out}" in capsys.readouterr().err
    assert cli.main(["plot", str(out)]) == 2
    assert f"tbdse adopt {out}" in capsys.readouterr().err
    assert snapshot(out) == before


@pytest.mark.parametrize("which", ["out", "out-no-timeout"])
def test_an_adopted_folder_is_read_rerun_and_plotted(
    tmp_path: Path, which: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the manifest names its source as legacy.yaml
    out = legacy(tmp_path, which)
    assert cli.main(["adopt", str(out)]) == 0
    rows = ResultsStore(out / "store").rows()
    assert len(rows) == 4 and (rows["_timeout_s"] == np.inf).all()
    assert cli.main(["run", "legacy.yaml", "-o", str(out), "--no-progress"]) == 0
    assert cli.main(["plot", str(out)]) == 0
    assert len(ResultsStore(out / "store").rows()) >= 4


def test_adopt_signs_only_files_that_still_match_their_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = legacy(tmp_path, "out")
    (out / "results.csv").write_text("edited by the user\n")
    assert cli.main(["adopt", str(out)]) == 0
    # the edited file is not tbdse's any more: a rerun refuses to replace it
    assert cli.main(["run", str(tmp_path / "legacy.yaml"), "-o", str(out), "--no-progress"]) == 2
    assert (out / "results.csv").read_text() == "edited by the user\n"


def test_adopt_refuses_a_folder_that_is_not_tbdses(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    assert cli.main(["adopt", str(tmp_path / "x")]) == 2


# -- the user key -----------------------------------------------------------------------
@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("TBDSE_STATE_DIR", str(folder))
    return folder


def test_the_key_is_made_once_private(state: Path) -> None:
    from tbdse.io import ownership as _ownership

    first = _ownership.user_key()
    assert _ownership.user_key() == first and len(first) == 32
    assert (state / "key").stat().st_mode & 0o777 == 0o600
    assert state.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("attack", ["others_read", "link", "folder", "short"])
def test_a_key_tbdse_cannot_trust_is_refused(state: Path, tmp_path: Path, attack: str) -> None:
    from tbdse.io import ownership as _ownership

    state.mkdir(mode=0o700)
    key = state / "key"
    if attack == "others_read":
        key.write_bytes(os.urandom(32))
        key.chmod(0o644)
    elif attack == "link":
        (tmp_path / "k").write_bytes(os.urandom(32))
        key.symlink_to(tmp_path / "k")
    elif attack == "folder":
        key.mkdir()
    else:
        key.write_bytes(b"x")
        key.chmod(0o600)
    with pytest.raises(ConfigError, match=str(key)):
        _ownership.user_key()


def test_another_users_key_proves_nothing(state: Path, tmp_path: Path) -> None:
    store = tmp_path / "s"
    store_rows(store)
    from tbdse.io import ownership as _ownership

    (state / "key").unlink()  # another key from now on
    _ownership.forget_keys()
    with pytest.raises(ConfigError, match="cannot prove"):
        ResultsStore(store).rows()


# -- store inputs -------------------------------------------------------------------------
@pytest.mark.parametrize("path", [0, None, "a\0b"])
def test_a_store_path_that_is_not_a_path(path: object) -> None:
    with pytest.raises(ConfigError, match="store"):
        ResultsStore(path)  # type: ignore[arg-type]


def test_store_and_checkpoint_both_given(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="checkpoint"):
        td.sweep(
            td.workloads.wavefront(3, 3, cost=td.cost.constant(500)),
            "gtx480",
            "cdp",
            store=tmp_path / "a",
            checkpoint=tmp_path / "b",
            progress=False,
        )


def frame(seed: int = 0, value: object = 1.0, drop: str | None = None) -> pd.DataFrame:
    """One stored row, as a sweep writes it (``drop``: without that metric)."""
    res = {
        "metrics": np.array([[100.0, 1.0]]),
        "columns": ["makespan_cycles", "makespan_us"],
        "status": np.array([0]),
        "errors": [""],
    }
    out = key_frame(seed, np.array([7], dtype=np.uint64), np.array([0]), res)
    out["makespan_us"] = [value]
    return out.drop(columns=drop) if drop else out


def store_rows(path: Path, *frames: pd.DataFrame) -> ResultsStore:
    store = ResultsStore(path)
    store.lock()
    for f in frames or (frame(),):
        store.write(f)
    store.unlock()
    return store


def test_a_status_tbdse_does_not_write(tmp_path: Path) -> None:
    bad = frame()
    bad["_status"] = np.int8(99)
    store = store_rows(tmp_path / "s", bad)
    with pytest.raises(ConfigError, match=r"chunk-.*_status"):
        store.rows()


def test_a_text_metric(tmp_path: Path) -> None:
    store = store_rows(tmp_path / "s", frame(value="fast"))
    with pytest.raises(ConfigError, match=r"chunk-.*makespan_us"):
        store.rows()


def test_a_chunk_missing_a_metric_others_have(tmp_path: Path) -> None:
    store = store_rows(tmp_path / "s", frame(), frame(seed=1, drop="makespan_cycles"))
    with pytest.raises(ConfigError, match="makespan_cycles"):
        store.rows()


def test_two_chunks_disagreeing_on_one_key(tmp_path: Path) -> None:
    store = store_rows(tmp_path / "s", frame(value=1.0), frame(value=2.0))
    with pytest.raises(ConfigError, match="disagree"):
        store.rows()


def test_two_chunks_agreeing_on_one_key_are_one_row(tmp_path: Path) -> None:
    store = store_rows(tmp_path / "s", frame(), frame())
    assert len(store.rows()) == 1


# -- the folder lock ----------------------------------------------------------------------
def test_a_lock_file_of_deep_json(tmp_path: Path) -> None:
    (tmp_path / "x.lock").write_text("[" * 4000)
    with pytest.raises(ConfigError, match="not a lock file"):
        FolderLock(tmp_path, "x.lock", "test folder")


@pytest.mark.parametrize("call", ["ftruncate", "pwrite"])
def test_a_full_disk_while_locking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(_files.os, call, full)
    with pytest.raises(ConfigError, match=r"x\.lock.*No space"):
        FolderLock(tmp_path, "x.lock", "test folder")
