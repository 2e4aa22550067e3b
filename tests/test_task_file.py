"""Task graphs in YAML (format: tasks): the same graph as the Python builder,
an experiment that reads one, and bad files reported with file, line and key."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import EXPERIMENTS, run_experiment

import tbdse as td
from tbdse.workloads import TaskBuilder, tasks_file, tasks_from_spec

LU_FILE = EXPERIMENTS / "data" / "lu_3x3.tasks.yaml"


def lu_builder(n: int = 3) -> TaskBuilder:
    """experiments/data/lu_3x3.tasks.yaml's loop nest, in Python."""
    b = TaskBuilder("lu-3x3")
    a = b.array("a", n * n)
    for kind, cost, requests in (
        ("lu0", 79680, 256),
        ("fwd", 39840, 384),
        ("bdiv", 39840, 384),
        ("bmod", 33200, 512),
    ):
        b.kind(kind, cost=cost, threads=256, mem_requests=requests)
    for kk in range(n):
        b.task("lu0", inout=a[kk * n + kk])
        for jj in range(kk + 1, n):
            b.task("fwd", in_=a[kk * n + kk], inout=a[kk * n + jj])
        for ii in range(kk + 1, n):
            b.task("bdiv", in_=a[kk * n + kk], inout=a[ii * n + kk])
        for ii in range(kk + 1, n):
            for jj in range(kk + 1, n):
                b.task("bmod", in_=[a[ii * n + kk], a[kk * n + jj]], inout=a[ii * n + jj])
    return b


def test_file_gives_the_builders_graph_kernels_and_costs() -> None:
    from_file, built = tasks_file(str(LU_FILE)), lu_builder().build()
    assert from_file.graph.content_hash == built.graph.content_hash
    assert from_file.kernels == built.kernels
    assert from_file.cost == built.cost
    assert (from_file.tasks, from_file.edges) == (14, 21)
    assert from_file.name == "lu-3x3" and from_file.params == {"path": str(LU_FILE)}


def test_spec_round_trip_from_a_builder() -> None:
    # Write a builder's declarations back out as a spec: the same graph.
    b = lu_builder(4)
    table = b.section_table()
    spec: dict[str, Any] = {
        "name": "lu-4x4",
        "match": "overlap",
        "arrays": {"a": 16},
        "kinds": {k: {"cost": c, "threads": 256} for k, (_, c) in b.kinds.items()},
        "tasks": [
            {
                "kind": str(rows.kind.iloc[0]),
                **{
                    m: [f"{r.array}[{r.lo}:{r.hi}]" for r in rows.itertuples() if r.mode == m]
                    for m in ("in", "inout")
                },
            }
            for _, rows in table.groupby("task")
        ],
    }
    again = tasks_from_spec(spec)
    assert again.graph.content_hash == b.build().graph.content_hash


def test_experiment_reads_a_task_file() -> None:
    exp = td.experiment.load(EXPERIMENTS / "juggler_lu_tasks.yaml")
    assert exp.workloads[0].generator == "tasks_file"
    frame = run_experiment("juggler_lu_tasks")
    barrier = frame[frame.scheme == "global_barrier"]
    assert set(barrier.launches) == {9}  # 3 lu0 + 2 x (fwd, bdiv, bmod)
    # 4 SMs: 3 x (lu0 60 + fwd 30 + bdiv 30 + bmod 25 us) less the last
    # three = 350 us, plus 9 synchronous launches of 15 us (the p100 preset)
    # = 485 us; dataflow: the critical path lu0 fwd bmod lu0 fwd bmod lu0 =
    # 290 us plus one launch.  One TB per SM runs at full speed (shared model).
    by_sms = barrier.set_index("gpu.sms").makespan_us
    assert by_sms[4] == pytest.approx(485.0)
    ideal = frame[frame.scheme == "dataflow_ideal"].set_index("gpu.sms").makespan_us
    assert ideal[4] == pytest.approx(305.0)


def test_format_by_suffix_or_explicit(tmp_path: Path) -> None:
    plain = tmp_path / "lu.yaml"
    plain.write_text(LU_FILE.read_text())
    exp = tmp_path / "exp.yaml"
    exp.write_text(
        "gpu: p100\nschemes: [global_barrier]\n"
        f"workloads:\n  - {{file: {LU_FILE}}}\n  - {{file: lu.yaml, format: tasks, name: again}}\n"
    )
    loaded = td.experiment.load(exp)
    assert [w.tasks for w in loaded.workloads] == [14, 14]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.tasks.yaml"
    path.write_text(textwrap.dedent(text))
    return str(path)


GOOD = textwrap.dedent("""\
    arrays: {a: 4}
    kinds: {k: {cost: 10}}
    tasks:
      - {kind: k, out: "a[0:2]"}
""")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD + "colour: red\n",
            r"bad.tasks.yaml:\d+:\d+: task file: colour: unknown key 'colour'",
        ),
        (GOOD.replace("a[0:2]", "a[3:2]"), r"tasks\[0\].out\[0\]: .*lo > hi"),
        (GOOD.replace("a[0:2]", "a[0:9]"), r"tasks\[0\].out\[0\]: .*ends past"),
        (
            GOOD.replace("a[0:2]", "b[0:2]"),
            r"tasks\[0\].out\[0\]: section 'b\[0:2\]': unknown array 'b'",
        ),
        (GOOD.replace("a[0:2]", "a(0:2)"), r"tasks\[0\].out\[0\]: .*is not a section"),
        (GOOD.replace("kind: k,", "kind: q,"), r"tasks\[0\].kind: unknown kind 'q'"),
        (GOOD.replace("out:", "outs:"), r"tasks\[0\].outs: unknown key 'outs' \(did you mean"),
        (GOOD.replace("{cost: 10}", "{cost: 10, thread: 3}"), r"kinds.k.thread: unknown key"),
        (GOOD.replace("{cost: 10}", "{cost: -1}"), r"kinds.k: .*cost of kind 'k'"),
        (GOOD.replace("{a: 4}", "{a: -4}"), r"arrays.a: .*size of array 'a'"),
        (GOOD.replace("arrays: {a: 4}\n", ""), r"missing 'arrays'"),
        (GOOD + "match: fuzzy\n", r"match: .*unknown section match 'fuzzy'"),
        (GOOD + "  - {kind: k, in: a, launch: 2}\n", r"task 0 has no launch group but others do"),
        (GOOD + "  - [k]\n", r"tasks\[1\]: must be a mapping"),
    ],
)
def test_bad_files_name_the_line_and_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(td.ConfigError, match=message):
        tasks_file(write(tmp_path, text))


def test_bad_file_in_an_experiment_is_reported_there(tmp_path: Path) -> None:
    write(tmp_path, GOOD.replace("a[0:2]", "a[0:9]"))
    exp = tmp_path / "exp.yaml"
    exp.write_text("gpu: p100\nscheme: global_barrier\nworkload: {file: bad.tasks.yaml}\n")
    with pytest.raises(td.ConfigError, match=r"exp.yaml:\d+:\d+: workload: .*ends past"):
        td.experiment.load(exp)
