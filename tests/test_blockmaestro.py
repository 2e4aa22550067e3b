"""BlockMaestro and its baselines through the public API: golden scenarios
(the paper's Fig. 5 command queue and Fig. 6 scheduling example), dependency
extraction for each Table I pattern, buffer limits, errors, and Hypothesis
properties on generated multi-kernel applications."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import make_gpu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.workloads import Application, bx, by, dependency_report

W = td.workloads
APP_SCHEMES = ("baseline", "ideal_baseline", "prelaunch", "blockmaestro")


# ------------------------------------------------------------------ Fig. 6
def fig6_workload() -> td.Workload:
    # Three kernels in the spirit of Fig. 6: K1 = TBs 0-4, K2 = 5-8, K3 = 9-10.
    # K2:5 <- K1:0; K2:6 <- K1:0, K1:1; K2:7 <- K1:2; K2:8 <- K1:3;
    # K3:9 <- K2:5, K2:6; K3:10 <- K2:7, K2:8.  K1:4 has no children.
    edges = [(0, 5), (0, 6), (1, 6), (2, 7), (3, 8), (5, 9), (6, 9), (7, 10), (8, 10)]
    costs = [10, 20, 20, 20, 30, 20, 20, 20, 10, 10, 10]
    groups = [0] * 5 + [1] * 4 + [2] * 2
    return W.from_edges(edges, 11, costs=costs, launch_groups=groups)


def starts(r: td.Result) -> list[int]:
    return list(r.timeline().set_index("task").sort_index()["start"])


def test_fig6_blockmaestro_resolves_dependencies_tb_by_tb() -> None:
    # A GPU that runs 4 TBs at once, no launch overhead; producer priority,
    # one kernel pre-launched (K3 is launched once K1 has completed).
    #   t=0   K1:0-3 start; K1:4 waits for a slot; K2's TBs may not go before
    #         every K1 TB is scheduled (producer priority).
    #   t=10  K1:0 ends: K2:5 is ready; K1:4 takes the free slot (ends 40).
    #   t=20  K1:1-3 end: K2:6, 7, 8 ready; three slots: K2:5, 6, 7 start.
    #   t=40  K1:4 ends: K1 completes, K3 is launched; K2:5-7 end: K3:9 ready.
    #         K2:8 (ready since 20) and K3:9 start.
    #   t=50  K2:8 ends: K2 completes, K3:10 ready and starts; ends at 60.
    wl = fig6_workload()
    r = td.simulate(wl, make_gpu(1, 4), td.Scheme("blockmaestro"), timeline=True)
    assert starts(r) == [0, 0, 0, 0, 10, 20, 20, 20, 40, 40, 50]
    assert r.makespan_cycles == 60
    assert r.stats["max_resident_kernels"] == 2
    # K2:8's data was there at 20 (K1:3 ended) but it waited to 40: a stall of
    # twice its 10-cycle run (Fig. 11's measure).
    tl = r.timeline().set_index("task")
    assert tl.loc[8, "deps_met"] == 20
    assert r.dependency_stalls()[8] == 2.0


def test_fig6_baselines_wait_for_whole_kernels() -> None:
    # Kernel-level: K2 starts when K1 completes (40), K3 when K2 does (60).
    wl = fig6_workload()
    for scheme in ("ideal_baseline", "prelaunch"):
        r = td.simulate(wl, make_gpu(1, 4), td.Scheme(scheme), timeline=True)
        assert starts(r) == [0, 0, 0, 0, 10, 40, 40, 40, 40, 60, 60], scheme
        assert r.makespan_cycles == 70
    # With a 1 us (100-cycle) launch: the baseline pays three launches in a
    # row, 3 x 100 + 70 = 370; pre-launching hides K2's and K3's launches
    # behind K1 (K1 runs 100-140, K2 is resident at 200 and runs to 220, K3
    # at 300 to 310).
    gpu = make_gpu(1, 4, host_launch_us=1.0)
    assert td.simulate(wl, gpu, "baseline").makespan_cycles == 370
    assert td.simulate(wl, gpu, "prelaunch").makespan_cycles == 310
    assert td.simulate(wl, gpu, "blockmaestro").makespan_cycles == 310


def test_consumer_priority_runs_the_newest_kernel_first() -> None:
    # Same example, consumer priority: at t=10 K2:5 (ready) goes before K1:4,
    # and at t=20 K2:6-8 take the three free slots; K1:4 starts only at 30
    # when K2:5 ends.  K1 completes at 60, so K3 (pre-launched only then, depth
    # 1) runs 60-70: the greedy consumer order delays the producer's last TB
    # and costs 10 cycles here.
    wl = fig6_workload()
    r = td.simulate(
        wl, make_gpu(1, 4), td.Scheme("blockmaestro", priority="consumer"), timeline=True
    )
    assert starts(r) == [0, 0, 0, 0, 30, 10, 20, 20, 20, 60, 60]
    assert r.makespan_cycles == 70


# ------------------------------------------------------------------ Fig. 5
def fig5_application() -> td.Workload:
    # cudaMalloc(A); cudaMemcpy(A); K1(A); cudaMalloc(B); cudaMemcpy(B);
    # K2(A, B); cudaMemcpy(B -> host).  16-element buffers of 4 bytes.
    app = Application("fig5")
    a = app.malloc("A", 16)
    app.memcpy_h2d(a)
    app.launch("K1", 1, reads=[a[:]], writes=[a[:]], cost=1000)
    b = app.malloc("B", 16)
    app.memcpy_h2d(b)
    app.launch("K2", 1, reads=[a[:], b[:]], writes=[b[:]], cost=1000)
    app.memcpy_d2h(b)
    return app.build()


def test_fig5_reordering_lets_the_second_launch_overlap_the_first_kernel() -> None:
    # 100 MHz; a launch 100 cycles, an allocation 50, a copy 64 (64 bytes at 1 B/cycle).
    gpu = make_gpu(1, 1, host_launch_us=1.0, malloc_us=0.5, copy_latency_us=0.0, copy_gbps=0.1)
    wl = fig5_application()
    # Stream order: malloc A 0-50, copy A 50-114, K1 launched 114-214 and run
    # to 1214; copy B waits for K1 (1214-1278); K2 launched 1278-1378, run to
    # 2378; copy B back 2378-2442.  Pre-launching cannot help (Fig. 5b).
    for scheme in ("baseline", "prelaunch", "blockmaestro"):
        assert td.simulate(wl, gpu, scheme).makespan_cycles == 2442, scheme
    # Reordered (Fig. 5c; tbdse keeps K1 ahead of malloc B and copy B, which
    # it does not need, and the calls no longer block the host): copy B
    # (114-178) overlaps K1's launch, K2 is launched 214-314
    # while K1 runs, and starts when K1 completes at 1214: 2214, then the copy
    # back: 2278.
    for scheme in ("prelaunch", "blockmaestro"):
        r = td.simulate(wl, gpu, td.Scheme(scheme, reorder_queue=True))
        assert r.makespan_cycles == 2278, scheme
        assert r.stats["copy_cycles"] == 3 * 64


# ------------------------------------------------------------------ extraction
def two_kernels(parent: Any, child: Any, n_parent: int, n_child: int, size: int) -> td.Workload:
    app = Application("pair")
    a = app.malloc("A", size)
    app.launch("producer", n_parent, writes=[parent(a)], cost=100)
    app.launch("consumer", n_child, reads=[child(a)], cost=100)
    return app.build()


@pytest.mark.parametrize(
    ("parent", "child", "n_parent", "n_child", "pattern", "edges"),
    [
        # 1-to-1: each consumer TB reads what one producer TB wrote.
        (
            lambda a: a[256 * bx : 256 * bx + 256],
            lambda a: a[256 * bx : 256 * bx + 256],
            8,
            8,
            "1_to_1",
            8,
        ),
        # 1-to-n: producer TBs write 256 elements, consumer TBs read 128: two children each.
        (
            lambda a: a[256 * bx : 256 * bx + 256],
            lambda a: a[128 * bx : 128 * bx + 128],
            4,
            8,
            "1_to_n",
            8,
        ),
        # n-to-1: consumer TBs read 512 elements written by four producer TBs.
        (
            lambda a: a[128 * bx : 128 * bx + 128],
            lambda a: a[512 * bx : 512 * bx + 512],
            8,
            2,
            "n_to_1",
            8,
        ),
        # overlapped: a halo of one element each side.
        (
            lambda a: a[256 * bx : 256 * bx + 256],
            lambda a: a[256 * bx - 1 : 256 * bx + 257],
            8,
            8,
            "overlapped",
            22,
        ),
        # fully connected: every consumer TB reads the whole buffer.
        (lambda a: a[256 * bx : 256 * bx + 256], lambda a: a[:], 8, 4, "fully_connected", 32),
        # indirect: the addresses are unknown, so every producer TB counts.
        (
            lambda a: a[256 * bx : 256 * bx + 256],
            lambda a: a.indirect(),
            8,
            4,
            "fully_connected",
            32,
        ),
    ],
)
def test_each_table_i_pattern_from_affine_ranges(
    parent: Any, child: Any, n_parent: int, n_child: int, pattern: str, edges: int
) -> None:
    wl = two_kernels(parent, child, n_parent, n_child, 2048)
    report = dependency_report(wl)
    assert report.loc[1, "pattern"] == pattern
    assert report.loc[1, "edges"] == edges == wl.edges


def test_n_group_and_independent_patterns_on_2d_tiles() -> None:
    # Producer tiles (bx, by) write C[by, bx]; consumer tile (bx, by) reads row
    # block by of C: each consumer depends on the 4 producer tiles of its row,
    # and the tiles of a row share them — 4 complete groups (n-group, P#2).
    app = Application("tiles")
    c = app.malloc("C", (64, 64))
    d = app.malloc("D", (64, 64))
    app.launch("mm", (4, 4), writes=[c[16 * by : 16 * by + 16, 16 * bx : 16 * bx + 16]], cost=100)
    app.launch(
        "rows",
        (4, 4),
        reads=[c[16 * by : 16 * by + 16, :]],
        writes=[d[16 * by : 16 * by + 16, 16 * bx : 16 * bx + 16]],
        cost=100,
    )
    app.launch("other", 4, writes=[app.malloc("E", 64)[16 * bx : 16 * bx + 16]], cost=100)
    report = dependency_report(app.build())
    assert list(report["pattern"]) == ["none", "n_group", "independent"]
    assert report.loc[1, "edges"] == 64
    # Storage (Table I): plain 4 (N + E) = 4 (16 + 64); n-group 4 (N + M) = 128.
    assert report.loc[1, "plain_bytes"] == 320 and report.loc[1, "encoded_bytes"] == 128


# ------------------------------------------------------------------ hardware buffers
def test_buffer_storage_is_about_22_kb_at_the_papers_sizes() -> None:
    # §IV-C: 896 list entries (34-bit index + 4 x 32-bit children) and 896
    # counters (34-bit index + 6 bits) with 2 kernel-id bits = 22,624 B
    # ("about 22KB"); prelaunch_depth 3 needs those 2 bits (4 kernels).
    gpu = td.gpus.titanx_pascal()
    wl = fig6_workload()
    r = td.simulate(wl, gpu, td.Scheme("blockmaestro", prelaunch_depth=3))
    assert r.stats["buffer_bytes"] == 22624
    # One kernel pre-launched: two kernels, one id bit: 896 x (33 + 128 + 33 + 6) / 8.
    assert td.simulate(wl, gpu, "blockmaestro").stats["buffer_bytes"] == 22400
    assert np.isnan(td.simulate(wl, gpu, "baseline").stats["buffer_bytes"])


def test_a_counter_too_narrow_falls_back_to_fully_connected() -> None:
    # Consumer TBs of 8 parents each (n-to-1): a 3-bit counter (at most 7)
    # cannot count them, so the pair is tracked per kernel.
    wl = two_kernels(
        lambda a: a[64 * bx : 64 * bx + 64], lambda a: a[512 * bx : 512 * bx + 512], 16, 2, 1024
    )
    assert dependency_report(wl, parent_counter_bits=3).loc[1, "counter_overflow"]
    wide = td.simulate(wl, make_gpu(1, 4), td.Scheme("blockmaestro"))
    narrow = td.simulate(wl, make_gpu(1, 4), td.Scheme("blockmaestro", parent_counter_bits=3))
    assert (wide.stats["overflow_pairs"], narrow.stats["overflow_pairs"]) == (0, 1)
    assert (wide.stats["barrier_pairs"], narrow.stats["barrier_pairs"]) == (0, 1)


def test_tbs_wait_for_buffer_entries_and_peaks_stay_within_the_buffers() -> None:
    # Overlapped (halo) pair: each producer TB has up to 3 children, taking one
    # list entry of 4 children; a 2-entry Parent Counter Buffer lets only a few
    # producer TBs in at a time.
    wl = two_kernels(
        lambda a: a[64 * bx : 64 * bx + 64], lambda a: a[64 * bx - 1 : 64 * bx + 65], 16, 16, 1024
    )
    gpu = make_gpu(2, 4)
    # Strict waiting (when_full 'wait').  The default sizing (one entry per TB
    # slot, 8 here) already stalls: 8 running producer TBs have 9 children;
    # 64 entries never stall.
    auto = td.simulate(wl, gpu, td.Scheme("blockmaestro", when_full="wait"))
    assert auto.stats["entry_stalls"] > 0 and auto.stats["pc_peak"] <= 8
    free = td.simulate(
        wl,
        gpu,
        td.Scheme(
            "blockmaestro", parent_counter_entries=64, dependency_list_entries=64, when_full="wait"
        ),
    )
    tight_scheme = td.Scheme(
        "blockmaestro", parent_counter_entries=3, dependency_list_entries=2, when_full="wait"
    )
    tight = td.simulate(wl, gpu, tight_scheme)
    assert free.stats["entry_stalls"] == 0
    assert tight.stats["entry_stalls"] > 0
    assert tight.stats["pc_peak"] <= 3 and tight.stats["dl_peak"] <= 2
    assert tight.makespan_cycles >= free.makespan_cycles
    # The default ('bypass') never waits for entries: those TBs go unbuffered.
    bypass = td.simulate(wl, gpu, tight_scheme.replace(when_full="bypass"))
    assert bypass.stats["entry_stalls"] == 0 and bypass.stats["entry_bypasses"] > 0
    assert bypass.stats["pc_peak"] <= 3 and bypass.stats["dl_peak"] <= 2


def test_a_tb_goes_unbuffered_when_nothing_could_free_an_entry() -> None:
    # K1 = TBs 0-2, K2 = TBs 3-4; 1 -> 3, 0 -> 4, 2 -> 4; one TB slot, a
    # one-entry Parent Counter Buffer, 10-cycle TBs.
    #   t=0   TB0 runs, taking TB4's counter (1 of 1).
    #   t=10  TB1 needs TB3's counter: the buffer is full, and its only entry
    #         belongs to TB4, which waits for TB2 -- behind TB1.  Nothing runs,
    #         so nothing would ever free it: TB1 goes unbuffered (TB3's
    #         counter is updated in memory).
    #   t=20  TB2 (TB4 has its counter already), t=30 TB3, t=40 TB4; ends 50.
    wl = W.from_edges([(1, 3), (0, 4), (2, 4)], 5, costs=[10] * 5, launch_groups=[0, 0, 0, 1, 1])
    scheme = td.Scheme("blockmaestro", parent_counter_entries=1, dependency_list_entries=8)
    for when_full in ("bypass", "wait"):  # the slot is free and nothing runs: both agree
        r = td.simulate(wl, make_gpu(1, 1), scheme.replace(when_full=when_full), timeline=True)
        assert starts(r) == [0, 10, 20, 30, 40]
        # Under 'wait' TB1 is held by the full buffer from t=0 (the slot was
        # taken too); under 'bypass' it never waits for entries, only for the slot.
        stalls = 1 if when_full == "wait" else 0
        assert r.stats["entry_bypasses"] == 1 and r.stats["entry_stalls"] == stalls
        assert r.stats["pc_peak"] == 1


def test_strict_waiting_for_entries_serialises_a_stencil() -> None:
    # Hotspot (10 overlapped 43 x 43 stencils) with 3 kernels pre-launched
    # fills the 896-entry Parent Counter Buffer.  'bypass' schedules a TB
    # that finds it full unbuffered (more memory requests, no lost time);
    # 'wait' holds it while anything runs, which serialises the run whenever
    # the buffer is full: several times slower (6.4x measured with the TBs'
    # reads overlapping their compute, 10x+ when they were added to it).
    wl = W.blockmaestro_app("hotspot")
    gpu = td.gpus.titanx_pascal(copy_latency_us=0, malloc_us=0, copy_gbps=1e6)
    runs = {
        w: td.simulate(
            gpu=gpu,
            workload=wl,
            scheme=td.Scheme("blockmaestro", priority="consumer", prelaunch_depth=3, when_full=w),
        )
        for w in ("bypass", "wait")
    }
    assert runs["bypass"].stats["pc_peak"] == runs["wait"].stats["pc_peak"] == 896
    assert runs["bypass"].stats["entry_bypasses"] > 0
    assert runs["wait"].makespan_cycles > 4 * runs["bypass"].makespan_cycles
    base = td.simulate(wl, gpu, "baseline").makespan_cycles
    assert runs["bypass"].makespan_cycles < base < runs["wait"].makespan_cycles


def test_a_tb_that_could_never_get_its_entries_is_refused_up_front() -> None:
    # 1-to-16 (two producer TBs, so the pair is not fully connected): a
    # producer TB needs 16 parent counters, more than the buffer's 8.
    wl = two_kernels(
        lambda a: a[512 * bx : 512 * bx + 512], lambda a: a[32 * bx : 32 * bx + 32], 2, 32, 1024
    )
    with pytest.raises(
        td.ConfigError, match=r"parent_counter_entries is 8, but task 0 .* needs 16"
    ):
        td.simulate(wl, make_gpu(1, 4), td.Scheme("blockmaestro", parent_counter_entries=8))


# ------------------------------------------------------------------ errors
def test_application_errors_name_the_call_and_what_is_valid() -> None:
    app = Application("bad")
    a = app.malloc("A", 64)
    with pytest.raises(td.ConfigError, match="allocated twice"):
        app.malloc("A", 8)
    with pytest.raises(td.ConfigError, match="has 1 dimension"):
        a[0:1, 0:1]
    with pytest.raises(td.ConfigError, match="not allocated here"):
        app.memcpy_h2d("B")
    with pytest.raises(td.ConfigError, match="must be affine"):
        a[bx * by : 4]  # type: ignore[operator]
    with pytest.raises(td.ConfigError, match="launches no kernel"):
        app.build()
    with pytest.raises(td.ConfigError, match="grid"):
        app.launch("k", (1, 2, 3, 4))
    app.launch("k", 4, reads=[a[16 * bx : 16 * bx + 16]])
    with pytest.raises(td.ConfigError, match="hazards"):
        app.build(hazards="war")


def test_yaml_application_errors_name_the_command() -> None:
    spec = {
        "name": "y",
        "commands": [
            {"malloc": {"buffer": "A", "shape": 64}},
            {"launch": {"kernel": "k", "grid": 4, "reads": {"B": "0 : 4"}}},
        ],
    }
    with pytest.raises(td.ConfigError, match=r"commands\[1\] \(launch\).*'B'"):
        W.application_from_spec(spec)
    spec["commands"][1] = {"launch": {"kernel": "k", "grid": 4, "reads": {"A": "0 : 4 : 8"}}}
    with pytest.raises(td.ConfigError, match="lo : hi"):
        W.application_from_spec(spec)
    spec["commands"][1] = {"lunch": {}}
    with pytest.raises(td.ConfigError, match="did you mean 'launch'"):
        W.application_from_spec(spec)


def test_yaml_application_matches_the_python_one(tmp_path: Any) -> None:
    (tmp_path / "app.yaml").write_text(
        "name: fig5\n"
        "commands:\n"
        "  - malloc: {buffer: A, shape: 16}\n"
        "  - memcpy_h2d: A\n"
        "  - launch: {kernel: K1, grid: 1, cost: 1000, reads: {A: all}, writes: {A: all}}\n"
        "  - malloc: {buffer: B, shape: 16}\n"
        "  - memcpy_h2d: B\n"
        "  - launch: {kernel: K2, grid: 1, cost: 1000, reads: {A: ':', B: ':'},\n"
        "             writes: {B: '0 : 16'}}\n"
        "  - memcpy_d2h: B\n"
    )
    wl = W.application_file(str(tmp_path / "app.yaml"))
    assert wl.key()[1:] == fig5_application().key()[1:]


# ------------------------------------------------------------------ properties
@st.composite
def applications(draw: Any) -> tuple[td.Workload, list[int], list[tuple[int, int]], list[int]]:
    """A multi-kernel task graph: launches of 1-6 TBs, random edges between
    consecutive launches and a few to the launch before (skipping one)."""
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    first = np.concatenate([[0], np.cumsum(sizes)])
    edges = []
    for i in range(1, len(sizes)):
        for back in (1, 2):
            if i - back < 0 or (back == 2 and not draw(st.booleans())):
                continue
            for c in range(first[i], first[i + 1]):
                for p_ in range(first[i - back], first[i - back + 1]):
                    if draw(st.integers(0, 3)) == 0:
                        edges.append((int(p_), int(c)))
    n = int(first[-1])
    costs = draw(st.lists(st.integers(1, 40), min_size=n, max_size=n))
    groups = [i for i, size in enumerate(sizes) for _ in range(size)]
    wl = W.from_edges(edges, n, costs=costs, launch_groups=groups)
    return wl, groups, edges, costs


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    app=applications(),
    scheme=st.sampled_from(APP_SCHEMES),
    depth=st.integers(0, 3),
    priority=st.sampled_from(["producer", "consumer"]),
    entries=st.one_of(st.integers(1, 12), st.just("auto")),
    when_full=st.sampled_from(["bypass", "wait"]),
    sms=st.integers(1, 3),
    slots=st.integers(1, 4),
    launch_us=st.sampled_from([0.0, 0.3, 2.0]),
    api_us=st.sampled_from([0.0, 0.1, 5.0]),
)
def test_every_run_keeps_the_invariants(
    app: Any,
    scheme: str,
    depth: int,
    priority: str,
    entries: Any,
    when_full: str,
    sms: int,
    slots: int,
    launch_us: float,
    api_us: float,
) -> None:
    wl, groups, edges, costs = app
    params: dict[str, Any] = {}
    if scheme in ("prelaunch", "blockmaestro"):
        params.update(prelaunch_depth=depth)
    if scheme == "blockmaestro":
        params.update(
            priority=priority,
            parent_counter_entries=entries,
            dependency_list_entries=entries,
            when_full=when_full,
        )
    d = params.get("prelaunch_depth", 0)
    gpu = make_gpu(sms, slots, host_launch_us=launch_us, launch_api_us=api_us)
    try:
        r = td.simulate(wl, gpu, td.Scheme(scheme, **params), timeline=True)
    except td.ConfigError as exc:  # only a TB needing more entries than a buffer has
        assert scheme == "blockmaestro" and "could never be scheduled" in str(exc)
        return
    tl = r.timeline().set_index("task").sort_index()
    assert (tl["end"] - tl["start"] == costs).all()  # every TB once, for its cost
    for a, b in edges:
        assert tl.loc[b, "start"] >= tl.loc[a, "end"]
    assert (tl["deps_met"] <= tl["start"]).all()
    for _, runs in tl.groupby("sm"):
        moments = sorted([(s, 1) for s in runs["start"]] + [(e, -1) for e in runs["end"]])
        assert max(np.cumsum([m[1] for m in moments])) <= slots
    tl["launch"] = groups
    needs = {(groups[a], groups[b]) for a, b in edges}  # launch pairs with a dependency
    first = tl.groupby("launch")["start"].min()
    last_start = tl.groupby("launch")["start"].max()
    done = tl.groupby("launch")["end"].max().cummax()  # in-order completion times
    for i in first.index:
        if i - 1 - d >= 0:  # at most d + 1 kernels resident
            assert first[i] >= done[i - 1 - d]
        # Whole kernels: the baselines after the previous one; prelaunch
        # after each kernel it depends on (an independent one may start before).
        waited = [j for j in range(i) if (j, i) in needs] if scheme == "prelaunch" else [i - 1]
        if i > 0 and scheme != "blockmaestro":
            assert all(first[i] >= done[j] for j in waited)
        # Producer priority: a kernel's TBs after every TB of the one before,
        # unless a producer TB waited for buffer entries.
        strict = scheme == "blockmaestro" and priority == "producer"
        if i > 0 and strict and r.stats["entry_stalls"] == 0:
            assert first[i] >= last_start[i - 1]
    assert r.stats["max_resident_kernels"] <= d + 1
    # Fig. 11's stall: the statistic and the timeline agree.
    assert r.stats["dep_stall_mean"] == pytest.approx(r.dependency_stalls().mean())
    if scheme == "blockmaestro" and entries != "auto":
        assert r.stats["pc_peak"] <= entries and r.stats["dl_peak"] <= entries
    assert r.makespan_cycles >= max(
        r.metrics["critical_path_cycles"], r.metrics["work_bound_cycles"]
    )
    again = td.simulate(wl, gpu, td.Scheme(scheme, **params), timeline=True)
    assert again.timeline().equals(r.timeline())  # deterministic


def test_graph_only_schemes_refuse_kernel_level_waits() -> None:
    # K3 reads what K1 wrote, skipping K2: a kernel-level wait the TB graph
    # (edges between consecutive launches only) does not list.
    app = Application("skip")
    a, b = app.malloc("A", 64), app.malloc("B", 64)
    app.launch("k1", 4, writes=[a[16 * bx : 16 * bx + 16]], cost=10)
    app.launch("k2", 4, writes=[b[16 * bx : 16 * bx + 16]], cost=10)
    app.launch("k3", 4, reads=[a[16 * bx : 16 * bx + 16]], cost=10)
    wl = app.build()
    assert dependency_report(wl)["waits_for"].tolist() == [-1, -1, 0]
    for scheme in ("dataflow_ideal", "wireframe"):
        with pytest.raises(td.ConfigError, match="launch 2 waits for the whole of launch 0"):
            td.simulate(wl, make_gpu(1, 4), scheme)
    # The barrier schemes and the application schemes honour it.
    for scheme in ("global_barrier", "deplinks", *APP_SCHEMES):
        tl = td.simulate(wl, make_gpu(1, 4), scheme, timeline=True).timeline()
        k1_end = tl[tl["task"] < 4]["end"].max()
        assert tl[tl["task"] >= 8]["start"].min() >= k1_end, scheme


def test_bad_application_input_is_a_config_error() -> None:
    # Found by review: each of these used to escape as TypeError / ValueError
    # or corrupt the simulated time.
    app = Application("bad")
    app.malloc("A", 64)
    for grid in (2.5, "4", None):
        with pytest.raises(td.ConfigError, match="grid"):
            app.launch("k", grid)  # type: ignore[arg-type]
    with pytest.raises(td.ConfigError, match="name"):
        app.malloc(["A"], 8)  # type: ignore[arg-type]
    for shape in (None, 10.0, "10"):
        with pytest.raises(td.ConfigError, match="shape"):
            app.malloc(f"S{shape}", shape)  # type: ignore[arg-type]
    with pytest.raises(td.ConfigError, match="out of range"):
        (bx * 2**62) * 4
    with pytest.raises(td.ConfigError, match="out of range"):
        bx * 2**62 + bx * 2**62
    with pytest.raises(td.ConfigError, match="too large"):
        td.workloads.Affine.of("1" + "0" * 5000 + "*bx")
    big = app.malloc("BIG", 2**61, element_bytes=8)
    with pytest.raises(td.ConfigError, match="bytes"):
        app.memcpy_h2d(big)
    app.launch("k1", 2**30)
    with pytest.raises(td.ConfigError, match="max_pair_edges"):
        app.build(max_pair_edges=2**40)
    with pytest.raises(td.ConfigError, match="over all launches"):
        app.launch("k2", 2**30)
    # A copy that would outlast the simulator's clock.
    slow = Application("slow")
    s = slow.malloc("A", 2**50)
    slow.memcpy_h2d(s)
    slow.launch("k", 1, reads=[s[0:1]])
    gpu = make_gpu(1, 1, copy_gbps=1e-3, clock_mhz=1000.0)
    with pytest.raises(td.ConfigError, match="2\\^60 cycles"):
        td.simulate(slow.build(), gpu, "baseline")


def test_stats_count_only_real_waits_and_overflows() -> None:
    # Four 1-to-1 parents on 8 slots with one-entry buffers: the first takes
    # the entries, the others go unbuffered at once (no slot stays idle) —
    # none of them waited.
    wl = W.from_edges(
        [(i, 4 + i) for i in range(4)], 8, costs=[10] * 8, launch_groups=[0] * 4 + [1] * 4
    )
    tiny = td.Scheme("blockmaestro", dependency_list_entries=1, parent_counter_entries=1)
    r = td.simulate(wl, make_gpu(1, 8), tiny, timeline=True)
    assert starts(r)[:4] == [0, 0, 0, 0]
    assert r.stats["entry_stalls"] == 0 and r.stats["entry_bypasses"] == 3
    # A fully connected pair is tracked per kernel as such, not as a counter overflow.
    full = W.vector_add_pair(256, 256)
    fr = td.simulate(full, "titanx_pascal", "blockmaestro")
    assert (fr.stats["barrier_pairs"], fr.stats["overflow_pairs"]) == (1, 0)
