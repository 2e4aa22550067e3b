"""Issue 33, "names are names": an experiment's name cannot choose where a run
writes, and every write of tbdse's goes to a regular file it creates (a link,
FIFO, device or folder in the way is refused, never replaced)."""

from __future__ import annotations

import errno
import os
import stat
import textwrap
from pathlib import Path

import pytest

import tbdse as td
from tbdse.experiment import cli
from tbdse.io.files import atomic_write

EXPERIMENT = textwrap.dedent(
    """\
    name: {name}
    gpu: gtx480
    workload: {{generator: wavefront, rows: 4, cols: 4}}
    scheme: global_barrier
    outputs: {{tables: [csv]}}
    """
)


def _file(folder: Path, name: str = "safe", file: str = "exp.yaml") -> Path:
    path = folder / file
    path.write_text(EXPERIMENT.format(name=name), encoding="utf-8")
    return path


def _everything(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize(
    "name",
    ["../../x", "/tmp/elsewhere", "a/b", "..", ".hidden", "-rf", "a b", "x" * 101, "caf\u00e9"],
)
def test_a_name_that_is_not_one_safe_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    path = _file(tmp_path, "placeholder")
    data = path.read_text().replace("placeholder", repr(name).replace("'", '"'))
    path.write_text(data, encoding="utf-8")
    with pytest.raises(td.ConfigError, match=r"name: must be one folder name .*letters, digits"):
        td.experiment.load(path)


@pytest.mark.parametrize("name", ["../../x", "/abs/x", "a/b"])
def test_a_name_override_is_checked_like_the_file(tmp_path: Path, name: str) -> None:
    path = _file(tmp_path)
    with pytest.raises(td.ConfigError, match="name: must be one folder name"):
        td.experiment.load(path, overrides=[f"name={name}"])
    assert td.experiment.load(path, overrides=["name=ok-1.2_b"]).name == "ok-1.2_b"


def test_from_dict_refuses_a_bad_default_name() -> None:
    data = {"gpu": "gtx480", "workload": {"generator": "wavefront", "rows": 2, "cols": 2}}
    data["scheme"] = "global_barrier"
    with pytest.raises(td.ConfigError, match="name: must be one folder name"):
        td.experiment.from_dict(data, name="../up")


def test_a_default_name_from_the_file_name_is_made_safe(tmp_path: Path) -> None:
    path = _file(tmp_path, "x", file="my exp (1).yaml")
    path.write_text(path.read_text().replace("name: x\n", ""), encoding="utf-8")
    assert td.experiment.load(path).name == "my_exp__1_"
    dots = _file(tmp_path, "x", file="...yaml")  # its stem is '..'
    dots.write_text(dots.read_text().replace("name: x\n", ""), encoding="utf-8")
    assert td.experiment.load(dots).name == "experiment"


def test_run_without_out_writes_below_results_and_refuses_a_name_that_escapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work" / "deep"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    path = _file(tmp_path)
    before = _everything(tmp_path)
    assert cli.main(["run", str(path), "name=../../escaped", "--no-progress"]) == 2
    assert "name: must be one folder name" in capsys.readouterr().err
    assert _everything(tmp_path) == before  # nothing written anywhere
    assert cli.main(["run", str(path), "--no-progress", "-q"]) == 0
    (stamp,) = (work / "results" / "safe").iterdir()
    assert (stamp / "results.csv").is_file()
    assert _everything(tmp_path) - before == {
        str(p.relative_to(tmp_path)) for p in [work / "results", *(work / "results").rglob("*")]
    }


def test_the_cli_default_folder_refuses_an_unsafe_name_given_through_the_api() -> None:
    with pytest.raises(td.ConfigError, match="pass -o"):
        cli._default_out("../x")


# -- writes: only regular files tbdse creates ---------------------------------------


@pytest.fixture(scope="module")
def run() -> td.Result:
    wl = td.workloads.wavefront(4, 4, cost=td.cost.lognormal(1000, 0.5))
    return td.simulate(wl, td.gpus.gtx480(sms=2), "global_barrier", seed=1, timeline=True)


def test_to_perfetto_never_replaces_a_fifo(run: td.Result, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for overwrite in (False, True):
        with pytest.raises(td.ConfigError, match=r"pipe\.json: it is a FIFO"):
            run.to_perfetto(fifo, overwrite=overwrite)
    assert fifo.is_fifo()
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.json"]  # no temporary left


def test_to_perfetto_never_replaces_or_follows_a_symlink(run: td.Result, tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("the user's", encoding="utf-8")
    link = tmp_path / "trace.json"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    for path in (link, dangling):
        with pytest.raises(td.ConfigError, match="it is a symbolic link"):
            run.to_perfetto(path, overwrite=True)
    assert link.is_symlink() and dangling.is_symlink()
    assert target.read_text(encoding="utf-8") == "the user's"
    assert not (tmp_path / "nowhere.json").exists()


def test_to_perfetto_on_a_device_node_is_refused(run: td.Result, tmp_path: Path) -> None:
    # A node of its own (never /dev/null itself: code without the check would
    # replace it, as root, with a regular file).
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:
        pytest.skip("making a device node needs root")
    with pytest.raises(td.ConfigError, match="null: it is a character device"):
        run.to_perfetto(node, overwrite=True)
    assert node.is_char_device()


def test_atomic_write_refuses_a_target_that_became_a_fifo(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"

    def write(tmp: Path) -> None:
        tmp.write_text("x", encoding="utf-8")
        os.mkfifo(path)  # appears while the content is written

    with pytest.raises(td.ConfigError, match="it is a FIFO"):
        atomic_write(path, write)
    assert path.is_fifo()
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_atomic_write_leaves_a_temporary_replaced_by_a_link_alone(tmp_path: Path) -> None:
    path, elsewhere = tmp_path / "out.csv", tmp_path / "elsewhere.txt"
    elsewhere.write_text("the user's", encoding="utf-8")

    def write(tmp: Path) -> None:
        tmp.unlink()
        tmp.symlink_to(elsewhere)  # swapped for a link before tbdse reads it back

    with pytest.raises(td.ConfigError, match=r"cannot write .*out\.csv"):
        atomic_write(path, write)
    assert not path.exists() and elsewhere.read_text(encoding="utf-8") == "the user's"


def test_a_full_disk_is_a_config_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"

    def write(tmp: Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp))

    with pytest.raises(td.ConfigError, match=r"cannot write .*out\.csv: No space left"):
        atomic_write(path, write)
    assert list(tmp_path.iterdir()) == []  # the temporary is removed


def test_an_os_error_reaching_the_cli_is_an_error_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "out"))

    monkeypatch.setattr(td.experiment.Experiment, "run", full)
    assert cli.main(["run", str(_file(tmp_path)), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "No space left on device" in err and "out" in err
