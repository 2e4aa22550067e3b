"""Task graphs from OpenMP-style depend clauses (TaskBuilder, the C++
section matcher): hand-checked RAW / WAR / WAW cases, exact versus overlap
matching, launch groups, the 255-children report, errors, and a Hypothesis
property against a brute-force pairing of the declared sections."""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.workloads import TaskBuilder, task_report

Edge = tuple[int, int, str]  # parent, child, hazards ("RAW+WAW")


def edges_of(b: TaskBuilder) -> list[Edge]:
    deps = b.dependencies()
    out = []
    for row in deps.itertuples():
        why = "+".join(h for h, on in (("RAW", row.raw), ("WAR", row.war), ("WAW", row.waw)) if on)
        out.append((int(row.parent), int(row.child), why))
    return out


def builder(match: str = "exact") -> tuple[TaskBuilder, Any]:
    b = TaskBuilder("t", match=match)
    b.kind("k", cost=100)
    return b, b.array("a", 100)


# ------------------------------------------------------------ hand-written cases
def test_raw_waw_war_from_program_order() -> None:
    b, a = builder()
    b.task("k", out=a[0:10])  # 0 writes
    b.task("k", in_=a[0:10])  # 1 reads 0's value                  RAW 0 -> 1
    b.task("k", in_=[a[0:10]])  # 2 reads too (reads never order reads)  RAW 0 -> 2
    b.task("k", out=[a[0:10]])  # 3 overwrites: WAR from 1, 2 and WAW from 0
    b.task("k", in_=[a[0:10]])  # 4 reads 3's value only             RAW 3 -> 4
    assert edges_of(b) == [
        (0, 1, "RAW"),
        (0, 2, "RAW"),
        (0, 3, "WAW"),
        (1, 3, "WAR"),
        (2, 3, "WAR"),
        (3, 4, "RAW"),
    ]


def test_inout_and_depend_mapping_and_strings() -> None:
    b, a = builder()
    b.task("k", inout=a[0:10])
    b.task("k", depend={"inout": ["a[0:10]"]})  # the same as inout=
    b.task("k", depend={"in": "a[0:10]", "out": "a[0:10]"})  # in + out = inout
    b.task("k", in_="a[0:10]")
    assert edges_of(b) == [(0, 1, "RAW+WAW"), (1, 2, "RAW+WAW"), (2, 3, "RAW")]


def test_several_sections_to_one_parent_give_one_edge() -> None:
    b, a = builder()
    c = b.array("c", 10)
    b.task("k", out=[a[0:10], c[:]], in_=[a[20:30]])
    b.task("k", in_=[a[0:10], c[0:10]], out=[a[20:30]])
    assert edges_of(b) == [(0, 1, "RAW+WAR")]
    assert b.build().edges == 1


def test_exact_and_overlap_differ_on_partial_overlap() -> None:
    # 0 writes a[0:10]; 1 reads a[5:15]; 2 writes a[0:10]; 3 reads a[0:5].
    def declare(b: TaskBuilder, a: Any) -> None:
        b.task("k", out=a[0:10])
        b.task("k", in_=a[5:15])
        b.task("k", out=a[0:10])
        b.task("k", in_=a[0:5])

    exact, overlap = builder("exact"), builder("overlap")
    declare(*exact)
    declare(*overlap)
    # Exact (Juggler §4.4): a[5:15] and a[0:5] match no written section.
    assert edges_of(exact[0]) == [(0, 2, "WAW")]
    assert edges_of(overlap[0]) == [(0, 1, "RAW"), (0, 2, "WAW"), (1, 2, "WAR"), (2, 3, "RAW")]


def test_single_element_and_whole_array_sections() -> None:
    b, a = builder("overlap")
    b.task("k", out=a[7])  # a[7:8]
    b.task("k", in_="a")  # the whole array
    b.task("k", in_="a[:]")
    assert edges_of(b) == [(0, 1, "RAW"), (0, 2, "RAW")]


def test_launch_groups_by_kind_change_and_explicit() -> None:
    b, a = builder()
    b.kind("m", cost=200)
    for kind, lo in (("k", 0), ("k", 1), ("m", 0), ("m", 1), ("k", 2)):
        b.task(kind, inout=a[lo : lo + 1])
    # k k | m (reads 0's a[0:1]) m (reads 1's a[1:2]) | k: 3 groups
    assert list(b.build().graph.launch_groups()) == [0, 0, 1, 1, 2]
    b.task("k", inout=a[2:3])  # depends on task 4 of the current group: a new one
    assert list(b.build().graph.launch_groups())[-1] == 3
    explicit, a2 = builder()
    explicit.task("k", out=a2[0:1], launch=5)
    explicit.task("k", in_=a2[0:1], launch=5)
    with pytest.raises(td.ConfigError, match=r"task 1 \('k'\) in launch group 5 depends on task 0"):
        explicit.build()
    mixed, a3 = builder()
    mixed.task("k", out=a3[0:1], launch=0)
    mixed.task("k", in_=a3[0:1])
    with pytest.raises(td.ConfigError, match="task 1 has no launch group but others do"):
        mixed.build()


def test_workload_has_kernels_costs_and_runs() -> None:
    b, a = builder()
    b.kind("big", cost=5000, threads=256, mem_requests=64)
    b.task("big", out=a[0:1])
    b.task("k", in_=a[0:1])
    wl = b.build(cost_jitter=0.0)
    assert [k.name for k in wl.kernels] == ["k", "big"]
    assert wl.kernels[1].threads == 256 and wl.kernels[1].mem_requests == 64
    assert wl.cost is not None and wl.cost.kind == "per_kernel"
    r = td.simulate(wl, td.gpus.p100(sms=1), "dataflow_ideal")
    assert r.makespan_cycles >= 5100


def test_report_counts_tasks_over_255_children() -> None:
    b, a = builder()
    b.kind("reader", cost=10)
    b.task("k", out=a[0:1])
    for _ in range(300):
        b.task("reader", in_=a[0:1])
    report = task_report(b.build()).set_index("kind")
    assert report.loc["k", "max_children"] == 300
    assert report.loc["k", "over_child_limit"] == 1
    assert report.loc["reader", "over_child_limit"] == 0
    assert report.loc["reader", "launch_groups"] == 1


@pytest.mark.parametrize(
    ("declare", "message"),
    [
        (lambda b, a: a[5:3], r"section a\[5:3\]: lo > hi"),
        (lambda b, a: a[-1:3], r"lo must be a whole number >= 0"),
        (lambda b, a: a[90:101], r"a\[90:101\]: ends past the end of array 'a' \(100 elements\)"),
        (lambda b, a: a[0:4:2], "has no step"),
        (
            lambda b, a: b.task("k", in_="z[0:1]"),
            r"task 0 \('k'\): in: section 'z\[0:1\]': unknown array 'z'",
        ),
        (lambda b, a: b.task("k", in_="a[0:1"), r"'a\[0:1' is not a section"),
        (lambda b, a: b.task("k", in_=[3]), "expected a section such as"),
        (lambda b, a: b.task("q"), r"task 0: unknown kind 'q'.*declare kinds with kind\(\) first"),
        (lambda b, a: b.task("k", depend={"input": []}), "unknown depend mode 'input'"),
        (lambda b, a: b.task("k", out=TaskBuilder("other").array("a", 9)[0:1]), "of task builder"),
        (lambda b, a: b.array("a", 4), "array 'a' is declared twice"),
        (lambda b, a: b.kind("k"), "kind 'k' is declared twice"),
        (lambda b, a: TaskBuilder("x", match="exactly"), "unknown section match 'exactly'"),
        (lambda b, a: TaskBuilder("x").build(), "task builder 'x' has no tasks"),
    ],
)
def test_bad_input_is_a_config_error_naming_it(declare: Any, message: str) -> None:
    b, a = builder()
    with pytest.raises(td.ConfigError, match=message):
        declare(b, a)


def test_core_names_the_task_and_section() -> None:
    # The C++ builder checks on its own too (for callers other than TaskBuilder).
    with pytest.raises(td.ConfigError, match=r"task 1 \('k'\), section 0 \(a\[5:3\]\): lo > hi"):
        td._core.task_dependencies(
            ["a"], [10], ["k"], [0, 0], None, [0, 0, 1], [0], [5], [3], [0], "exact"
        )


# ------------------------------------------------------------ brute force
def brute_force(table: pd.DataFrame, match: str) -> set[tuple[int, int, int]]:
    """Edges (parent, child, hazard bits 1 RAW 2 WAR 4 WAW) by pairing every
    two accesses to one piece of data, straight from the definitions: the
    pieces are the distinct sections (exact) or the elementary intervals
    between all section bounds of an array (overlap: every element of one is
    touched by the same sections)."""
    table = table[table.lo < table.hi]
    pieces: dict[Any, list[tuple[int, bool, bool]]] = defaultdict(list)  # piece -> accesses
    if match == "exact":
        for r in table.itertuples():
            pieces[(r.array, r.lo, r.hi)].append((r.task, r.mode != "out", r.mode != "in"))
    else:
        for array, rows in table.groupby("array"):
            cuts = sorted(set(rows.lo) | set(rows.hi))
            for lo, hi in itertools.pairwise(cuts):
                for r in rows.itertuples():
                    if r.lo <= lo and hi <= r.hi:
                        pieces[(array, lo)].append((r.task, r.mode != "out", r.mode != "in"))
    edges: dict[tuple[int, int], int] = defaultdict(int)
    for accesses in pieces.values():
        by_task: dict[int, list[bool]] = {}
        for t, rd, wr in accesses:
            flags = by_task.setdefault(t, [False, False])
            flags[0] |= rd
            flags[1] |= wr
        order = sorted(by_task)
        for x, i in enumerate(order):
            for j in order[x + 1 :]:
                between = [k for k in order if i < k < j and by_task[k][1]]
                if between:
                    continue  # a write in between: i is not the last writer / reader
                ri, wi = by_task[i]
                rj, wj = by_task[j]
                bits = (1 if wi and rj else 0) | (2 if ri and not wi and wj else 0)
                bits |= 4 if wi and wj else 0
                if bits:
                    edges[(i, j)] |= bits
    return {(p, c, bits) for (p, c), bits in edges.items()}


def core_edges(b: TaskBuilder) -> set[tuple[int, int, int]]:
    d = b.dependencies()
    bits = d.raw.astype(int) + 2 * d.war.astype(int) + 4 * d.waw.astype(int)
    return set(zip(d.parent.astype(int), d.child.astype(int), bits.astype(int), strict=True))


@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_lu_loop_nest_edges_match_brute_force(match: str) -> None:
    b = td.workloads.juggler_tasks("lu-d")
    b.match = match
    found = core_edges(b)
    assert found == brute_force(b.section_table(), match)
    assert len(found) == juggler_edges("lu-d")


def juggler_edges(app: str) -> int:
    return td.workloads.juggler_app(app).edges


tasks_strategy = st.lists(
    st.tuples(
        st.integers(0, 1),  # kind
        st.lists(
            st.tuples(
                st.sampled_from(["a", "b"]),
                st.integers(0, 12),
                st.integers(0, 6),  # length
                st.sampled_from(["in", "out", "inout"]),
            ),
            max_size=4,
        ),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=150, deadline=None, database=None)
@given(tasks=tasks_strategy, match=st.sampled_from(["exact", "overlap"]))
def test_property_core_equals_brute_force_and_is_a_dag(tasks: Any, match: str) -> None:
    b = TaskBuilder("random", match=match)
    for k in ("k0", "k1"):
        b.kind(k, cost=10)
    b.array("a", 18)
    b.array("b", 18)
    for kind, sections in tasks:
        b.task(
            f"k{kind}",
            depend={
                m: [f"{x}[{lo}:{lo + n}]" for x, lo, n, mm in sections if mm == m]
                for m in ("in", "out", "inout")
            },
        )
    found = core_edges(b)
    assert found == brute_force(b.section_table(), match)
    assert all(p < c for p, c, _ in found)  # earlier to later: acyclic
    wl = b.build()
    assert wl.tasks == len(tasks) and wl.edges == len(found)
    groups = np.asarray(wl.graph.launch_groups())
    assert all(groups[p] < groups[c] for p, c, _ in found)  # a barrier baseline can run it
