"""Juggler's tasks with data footprints from their depend sections
(TaskBuilder.data_footprints; juggler_app's default, locality=True)."""

from __future__ import annotations

import numpy as np
import pytest

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.models.juggler.apps import juggler_app, juggler_tasks


def _builder() -> td.workloads.TaskBuilder:
    b = td.workloads.TaskBuilder("fp", match="exact")
    a = b.array("a", 10)  # 40 B -> padded to one 4 KiB page
    c = b.array("c", 4)
    b.kind("k", cost=1000, threads=64)
    b.task("k", out=[a[0:5]])
    b.task("k", in_=[a[0:5]], inout=[c[1:3]])
    return b


def test_sections_become_reads_and_writes_at_the_layouts_addresses() -> None:
    fp = _builder().data_footprints(element_bytes=8, align=4096)
    rows = sorted(
        zip(fp.task.tolist(), fp.write.tolist(), fp.base.tolist(), fp.bytes.tolist(), strict=True)
    )
    # task 0 writes a[0:5]; task 1 reads a[0:5] and c[1:3], writes c[1:3]
    # (c starts at the next 4 KiB boundary: 4096 + 1 x 8).
    assert rows == [(0, True, 0, 40), (1, False, 0, 40), (1, False, 4104, 16), (1, True, 4104, 16)]


def test_bad_layout_names_the_key() -> None:
    with pytest.raises(ConfigError, match="element_bytes"):
        _builder().data_footprints(element_bytes=0)


def test_juggler_app_locality_is_the_default() -> None:
    off = juggler_app("lu-d", locality=False)
    assert off.data is None and off.params["locality"] is False
    made = juggler_app("lu-d")
    fp = made.data
    assert fp is not None and "locality" not in made.params
    b = juggler_tasks("lu-d")
    table = b.section_table()
    # one read per in/inout section, one write per out/inout section, whole
    # 64 x 64 tiles of 4-byte elements
    assert int((~fp.write).sum()) == int(table["mode"].isin(["in", "inout"]).sum())
    assert int(fp.write.sum()) == int(table["mode"].isin(["out", "inout"]).sum())
    assert set(np.unique(fp.bytes).tolist()) == {64 * 64 * 4}


def test_footprints_change_the_run_and_it_stays_deterministic() -> None:
    wl = juggler_app("lu-d")
    lf = td.schemes.Scheme("juggler", policy="lf")
    a = td.simulate(wl, "p100", lf)
    b = td.simulate(wl, "p100", lf)
    off = td.simulate(juggler_app("lu-d", locality=False), "p100", lf)
    assert a.row["makespan_cycles"] == b.row["makespan_cycles"] != off.row["makespan_cycles"]


def _child_cycles(evict: bool) -> int:
    """LF runs a child on the worker that ran its parent; its 16 KB read of
    the parent's output tile hits the lines the parent's writes left, unless
    a task between them streamed 8 MB (twice the P100's 4 MB L2)."""
    b = td.workloads.TaskBuilder("golden", match="exact")
    x, junk, tok = b.array("x", 64 * 64), b.array("junk", 2 << 20), b.array("tok", 1)
    b.kind("k", cost=20000, threads=256)
    b.task("k", out=[x[:], tok[0:1]])
    if evict:
        b.task("k", inout=[tok[0:1]], in_=[junk[:]])
    b.task("k", in_=[x[:], tok[0:1]])
    wl = b.build().with_data(b.data_footprints())
    t = td.simulate(wl, "p100", td.schemes.Scheme("juggler", policy="lf"), timeline=True)
    line = t.timeline().iloc[-1]
    assert line["sm"] == t.timeline().iloc[0]["sm"]  # same worker / SM as the parent
    return int(line["duration"])


def test_golden_a_child_run_right_after_its_parent_hits_its_lines() -> None:
    # Golden numbers (P100 preset): the task's 256 threads are 8 warps, so its
    # 128-line tile (16 KB; the token's one line rides in the last phase) goes
    # in ceil(128 / 8) = 16 load phases, one line per warp each
    # (docs/simulation.md "Load phases"), each exposing its first line's
    # latency before its 1/16 of the 20,000 cycles of compute: 20,000 + 16 x
    # 216 = 23,456 with the parent's lines still in L2 (216-cycle hit), 27,328 after
    # the 8 MB stream evicted them to DRAM (16 x ~458: +234 latency and the
    # transfers): the same task, the same policy, no per-policy term; only
    # the order differs.  (Before the load phases all reads went at issue:
    # 20,216 and 20,458.)
    assert _child_cycles(False) == 20000 + 16 * 216
    assert _child_cycles(True) == 27328


def test_wavefront_tasks_read_their_neighbours_edges_not_whole_tiles() -> None:
    """Issue 28: footprints are the bytes a kernel moves.  DT-WARP's tile
    (1, 1) declares its W, N and NW tiles but its DP recurrence reads the
    north tile's south row (256 B), the west tile's east column (64 x 4 B,
    256 B apart) and the north-west corner (4 B), plus its two 256 B
    sequence segments; it writes its own 16 KiB tile."""
    fp = juggler_app("dt-warp").data
    assert fp is not None
    task = 73  # tile (1, 1) of the 72 x 72 wavefront
    mine = fp.task == task
    reads = np.sort(fp.bytes[mine & ~fp.write])
    assert reads.tolist() == [4] * 65 + [256] * 3
    assert fp.bytes[mine & fp.write].tolist() == [64 * 64 * 4]
    own = int(fp.base[mine & fp.write][0])
    west = own - 64 * 64 * 4
    column = fp.base[mine & ~fp.write & (fp.bytes == 4)]
    assert set((column - west) % 256) == {63 * 4} and len(set(column // 128)) == 65
    # JACOBI and LU-D read what they declare: whole tiles
    lud = juggler_app("lu-d").data
    assert lud is not None and set(np.unique(lud.bytes).tolist()) == {64 * 64 * 4}
