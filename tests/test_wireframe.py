"""Wireframe through the public API: golden cases, buffer errors, and Hypothesis
properties on generated DAGs with random buffer sizes.  The paper's Fig. 7
walk-through is replayed step by step in cpp/models/wireframe/wireframe_test.cpp."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from conftest import make_gpu, read_scheme
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.workloads import DepLinks

W = td.workloads


def wireframe(**params: Any) -> td.Scheme:
    return read_scheme("wireframe", **params)  # less the knobs the others leave unread


# ------------------------------------------------------------------------ golden
def test_nothing_runs_before_the_first_chunk_arrives() -> None:
    # A chain of 5 tasks (10..50 cycles): the first chunk (16 nodes, so all 5)
    # arrives mem_latency = 400 cycles after the launch (0 us here); then the
    # chain runs its 150 cycles.  The head-pointer rule never bites: the last
    # node loaded is the chain's end, which has no children.
    wl = W.chain(5, cost=td.cost.array([10, 20, 30, 40, 50]))
    r = td.simulate(wl, make_gpu(4, 4, mem_latency=400), wireframe())
    assert r.makespan_cycles == 400 + 150
    assert r.stats["chunk_fetches"] == 1
    # One request for the node entries, one for the 4 edge entries (4 x 4 B <= 128 B).
    assert r.stats["sched_mem_requests"] == 2
    assert r.stats["dgb_stall_cycles"] == 400  # a slot free, task 0 ready but not loaded


def test_the_head_pointer_rule_and_a_one_node_loader() -> None:
    # Chain 0 -> 1 -> 2 of 10-cycle tasks; chunks of one node (8 B of 8 B),
    # an insertion buffer of one node, a node array of 2, fetches of 100 cycles.
    #   t=0    fetch node 0;               t=100 node 0 loaded: ready, but the newest
    #          node with a child, so held back (its child count is not known yet);
    #          fetch node 1.               t=200 node 1 loaded: node 0 may issue (ends
    #          210); fetch node 2.         t=300 node 2 loaded (slot of node 0, free
    #          since 210): node 1 (ready since 210) issues, ends 310; node 2 is the
    #          newest but childless: it issues at 310 and ends at 320.
    wl = W.chain(3, cost=10)
    scheme = wireframe(node_buffer=2, insertion_buffer=1, chunk_bytes=8, node_entry_bytes=8)
    r = td.simulate(wl, make_gpu(2, 2, mem_latency=100), scheme, timeline=True)
    assert r.makespan_cycles == 320
    tl = r.timeline().set_index("task")
    assert list(tl["start"]) == [200, 300, 310]
    assert list(tl["ready"]) == [100, 210, 310]


def test_level_range_over_time() -> None:
    # Tasks 0 (10 cycles) and 1 (30) at level 0; task 2 (10), child of 0, at
    # level 1; one SM with two slots, no launch cost.  Both roots start at 0;
    # at 10 task 0 ends and 2 starts (levels 0 and 1 run: range 1); at 20
    # task 2 ends; at 30 nothing runs.
    wl = W.from_edges([(0, 2)], 3, cost=td.cost.array([10, 30, 10]))
    r = td.simulate(wl, make_gpu(1, 2), td.Scheme("dataflow_ideal"), timeline=True)
    lr = r.level_range()
    assert list(lr["cycle"]) == [0, 10, 20, 30]
    assert list(lr["running"]) == [2, 2, 1, 0]
    assert list(lr["level_range"].fillna(-1)) == [0, 1, 0, -1]
    assert lr["level_range"].max() == r.stats["max_level_range"] == 1
    with pytest.raises(td.ConfigError, match="timeline=True"):
        td.simulate(wl, make_gpu(1, 2), td.Scheme("dataflow_ideal")).level_range()


def test_storage_by_the_papers_formula() -> None:
    # §5.4: 128 node entries x 8 B + 512 edge entries x 2 B + 32 PUB entries
    # and a 128 B insertion buffer = 2304 B.
    r = td.simulate(W.chain(3, cost=10), make_gpu(), wireframe(pending_updates=32))
    assert r.stats["dgb_bytes"] == 2304
    unbounded = td.simulate(W.chain(3, cost=10), make_gpu(), wireframe(edge_buffer="unbounded"))
    assert math.isinf(unbounded.stats["dgb_bytes"])


def test_auto_buffer_sizes_follow_the_policy() -> None:
    # auto: 128 / 512 entries for lvl, 512 / 2048 for lrr (§5.1).
    lvl = td.simulate(W.chain(3, cost=10), make_gpu(), wireframe(policy="lvl"))
    lrr = td.simulate(W.chain(3, cost=10), make_gpu(), wireframe(policy="lrr"))
    assert lvl.stats["dgb_bytes"] == 128 * 8 + 512 * 2 + 64 * 4 + 16 * 8
    assert lrr.stats["dgb_bytes"] == 512 * 8 + 2048 * 2 + 64 * 4 + 16 * 8
    assert td.Scheme("wireframe").params["node_buffer"] == "auto"


def test_lvl_bounds_the_running_levels_lrr_does_not() -> None:
    # §3.3: under a bound b running TBs are "not more than b levels apart": the
    # range max - min of the running levels is at most b, and with run-time
    # spread and 32 slots it reaches b; the same rule holds in dataflow_ideal.
    # A bound of 0 runs one level at a time.
    wl = W.wavefront(30, 30, cost=td.cost.lognormal(1000, 0.5))
    gpu = make_gpu(4, 8)
    lrr = td.simulate(wl, gpu, wireframe(policy="lrr"), seed=3)
    for bound in (0, 1, 2, 3, 4):
        lvl = td.simulate(wl, gpu, wireframe(policy="lvl", level_bound=bound), seed=3)
        assert lvl.stats["max_level_range"] == bound
        ideal = td.Scheme("dataflow_ideal", policy="lvl", level_bound=bound)
        assert td.simulate(wl, gpu, ideal, seed=3).stats["max_level_range"] == bound
    assert lrr.stats["max_level_range"] > 4


# ------------------------------------------------------------------------ errors
def test_an_edge_array_too_small_for_a_node_is_refused_up_front() -> None:
    wl = W.barrier(4, 2, 4)  # every stage-0 block has 4 children
    with pytest.raises(td.ConfigError, match=re.escape("has 4 children but edge_buffer holds 3")):
        td.simulate(wl, make_gpu(), wireframe(edge_buffer=3))


def test_a_pending_update_buffer_deadlock_names_the_buffer_and_the_tasks() -> None:
    # With when_pub_full 'stall', a node array of 2, chunks of 1 node, no PUB
    # entries: task 0 finishes while its child 3 (the wavefront's (1, 0)) is
    # not loaded; its completion waits for PUB space that never comes, so the
    # tail never moves.  (The default, 'spill', finishes: test_wireframe_spill.py.)
    wl = W.wavefront(3, 3, cost=10)
    scheme = wireframe(
        node_buffer=2, edge_buffer=8, pending_updates=0, chunk_bytes=8, when_pub_full="stall"
    )
    cause = "Cause: the completion of task 0 waits for Pending Update Buffer space"
    with pytest.raises(td.DeadlockError, match=cause) as info:
        td.simulate(wl, make_gpu(2, 2, mem_latency=10), scheme)
    assert isinstance(info.value, RuntimeError)
    # Input task ids, most telling first: 1 and 3, the children of task 0, whose
    # completion is stuck (virtual ids would name 3 as 2).
    assert info.value.stuck_tasks[:2] == [1, 3]
    # In a sweep the same run can be recorded instead.
    df = td.sweep(wl, make_gpu(2, 2, mem_latency=10), scheme, on_error="record")
    assert list(df["status"]) == ["deadlock"]
    assert "Pending Update Buffer" in df["error"].iloc[0]


def test_pub_peak_counts_updates_that_a_load_releases_at_once() -> None:
    # Chain 0 -> 1 -> 2 -> 3 -> 4 plus 0 -> 4; chunks of one node, a node array
    # of 4.  When task 0 finishes, nodes 0-3 are loaded and 4 is not: its
    # update takes a PUB entry, released when node 4 is loaded in the slot task
    # 0 freed.  The peak is that one entry: a PUB of 1 changes nothing; with a
    # PUB of 0, 'stall' deadlocks (the completion waits for a load that waits
    # for it) and 'spill' writes the one update to memory (free here:
    # mem_latency 0).
    wl = W.from_edges([(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)], 5, cost=10)
    gpu = make_gpu(1, 1, mem_latency=0)

    def run(pending: Any, when_full: str = "stall") -> td.Result:
        scheme = wireframe(
            node_buffer=4,
            insertion_buffer=1,
            chunk_bytes=8,
            pending_updates=pending,
            when_pub_full=when_full,
        )
        return td.simulate(wl, gpu, scheme)

    free = run("unbounded")
    assert (free.makespan_cycles, free.stats["pub_peak"]) == (50, 1)
    assert run(1).makespan_cycles == 50
    with pytest.raises(td.DeadlockError, match="Pending Update Buffer space"):
        run(0)
    spilled = run(0, "spill")
    assert (spilled.makespan_cycles, spilled.stats["spilled_updates"]) == (50, 1)
    assert spilled.stats["pub_peak"] == 0


def test_a_node_array_too_small_to_load_without_prefetch_is_refused_up_front() -> None:
    # Without prefetch a chunk (2 nodes here) is fetched only once the node
    # array has room for all of it, but task 1, the newest loaded, keeps its
    # slot until task 2 is loaded (the head-pointer rule): 3 entries needed.
    scheme = wireframe(node_buffer=2, chunk_bytes=16, insertion_buffer=2, prefetch=False)
    with pytest.raises(td.ConfigError, match=r"with prefetch false.*node_buffer >= 3 needed"):
        td.simulate(W.chain(4, cost=10), make_gpu(), scheme)
    assert td.simulate(W.chain(4, cost=10), make_gpu(), scheme.replace(prefetch=True))


# ------------------------------------------------------------------------ DepLinks
def test_deplinks_describes_the_generated_graphs() -> None:
    wave = DepLinks((5, 4)).add_dependency(-1, 0).add_dependency(0, -1).build()
    assert wave.graph.content_hash == W.wavefront(4, 5).graph.content_hash  # x is the column
    assert DepLinks.global_barrier(4, 3).build().graph.content_hash == (
        W.global_barrier(4, 3).graph.content_hash
    )
    assert DepLinks.pairwise_barrier(6, 3).build().graph.content_hash == (
        W.pairwise_barrier(6, 3).graph.content_hash
    )


def test_deplinks_boundaries_conditions_and_3d_grids() -> None:
    # Links leaving the grid are ignored: block (0, 0) has no parent.
    links = DepLinks((3, 3)).add_dependency(-1, -1)
    assert sorted(map(tuple, links.edges().tolist())) == [(0, 4), (1, 5), (3, 7), (4, 8)]
    # 'when' restricts a link: only even columns depend on their west neighbour.
    even = DepLinks(4).add_dependency(-1, when=lambda x, y, z: x % 2 == 0)
    assert sorted(map(tuple, even.edges().tolist())) == [(1, 2)]
    # z links in a 2 x 2 x 2 grid: id = x + 2 (y + 2 z).
    cube = DepLinks((2, 2, 2)).add_dependency(0, 0, -1)
    assert sorted(map(tuple, cube.edges().tolist())) == [(0, 4), (1, 5), (2, 6), (3, 7)]
    with pytest.raises(td.ConfigError, match="depend on itself"):
        DepLinks(3).add_dependency(0)
    with pytest.raises(td.ConfigError, match="one boolean per block"):
        DepLinks(3).add_dependency(-1, when=lambda x, y, z: 1).edges()


def test_wireframe_benchmark_presets() -> None:
    for size, side in (("1K", 32), ("4K", 64), ("9K", 96)):
        wl = W.wireframe_benchmark("HEAT2D", size)
        assert (wl.tasks, wl.levels) == (side * side, 2 * side - 1)
        assert wl.name == f"HEAT2D-{size}"
    # The 9K graph is the paper's HEAT2D graph: 9216 nodes, 191 levels (§3.2.1).
    assert W.wireframe_benchmark("DTW", "9K").levels == 191
    # Defaults follow the size when it is varied; memory traffic per block scales down.
    small = W.wireframe_benchmark("SOR", "1K")
    large = small.with_params(size="9K")
    assert large.cost.params["mean"] < small.cost.params["mean"]
    assert large.kernels[0].mem_requests < small.kernels[0].mem_requests
    with pytest.raises(td.ConfigError, match="did you mean 'HEAT2D'"):
        W.wireframe_benchmark("HEAT2", "4K")


# ------------------------------------------------------------------------ properties
@st.composite
def dags(draw: Any) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, 24))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=48))
    return n, sorted({(min(a, b), max(a, b)) for a, b in pairs if a != b})


size = st.one_of(st.integers(1, 24), st.just("unbounded"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    dag=dags(),
    policy=st.sampled_from(["lrr", "lvl"]),
    bound=st.integers(1, 4),
    node_buffer=size,
    edge_buffer=size,
    pending=st.one_of(st.integers(0, 8), st.just("unbounded")),
    when_full=st.sampled_from(["spill", "stall"]),
    nib=size,
    chunk=st.integers(1, 4),
    prefetch=st.booleans(),
    sms=st.integers(1, 3),
    slots=st.integers(1, 3),
    latency=st.integers(0, 50),
    seed=st.integers(0, 2**16),
)
def test_runs_finish_or_deadlock_and_keep_every_invariant(
    dag: tuple[int, list[tuple[int, int]]],
    policy: str,
    bound: int,
    node_buffer: Any,
    edge_buffer: Any,
    pending: Any,
    when_full: str,
    nib: Any,
    chunk: int,
    prefetch: bool,
    sms: int,
    slots: int,
    latency: int,
    seed: int,
) -> None:
    n, edges = dag
    rng = np.random.default_rng(seed)
    costs = rng.integers(1, 50, n)
    wl = W.from_edges(edges, n, cost=td.cost.array(costs))
    scheme = wireframe(
        policy=policy,
        level_bound=bound,
        node_buffer=node_buffer,
        edge_buffer=edge_buffer,
        pending_updates=pending,
        when_pub_full=when_full,
        insertion_buffer=nib,
        chunk_bytes=8 * chunk,
        prefetch=prefetch,
    )
    gpu = make_gpu(sms, slots, mem_latency=latency)
    try:
        r = td.simulate(wl, gpu, scheme, timeline=True)
    except td.ConfigError as exc:  # only the sizes that can be known to be impossible
        assert re.search("edge_buffer|node_buffer|insertion_buffer", str(exc)), exc
        return
    except td.DeadlockError as exc:
        # Everything else that could wedge is refused up front: only a
        # completion waiting for PUB space can (with 'stall'), and the message
        # says so.
        assert pending != "unbounded" and when_full == "stall", exc
        assert "Pending Update Buffer space" in str(exc), exc
        assert exc.stuck_tasks
        return
    tl = r.timeline().set_index("task").sort_index()
    # Every task ran exactly once, for its cost, never before its parents ended.
    assert (tl["end"] - tl["start"] == costs).all()
    for a, b in edges:
        assert tl.loc[b, "start"] >= tl.loc[a, "end"]
    # No SM ever held more TBs than it has slots.
    for _, runs in tl.groupby("sm"):
        moments = sorted(
            [(s, 1) for s in runs["start"]] + [(e, -1) for e in runs["end"]],
            key=lambda m: (m[0], m[1]),
        )
        level = 0
        for _, step in moments:
            level += step
            assert level <= slots
    assert r.makespan_cycles == tl["end"].max()
    assert r.makespan_cycles >= max(
        r.metrics["critical_path_cycles"], r.metrics["work_bound_cycles"]
    )
    # The PUB never holds more than it has; LVL keeps the running levels inside the bound.
    if pending != "unbounded":
        assert r.stats["pub_peak"] <= pending
    else:  # the peak is the PUB size at which no completion ever waits
        sized = td.simulate(wl, gpu, scheme.replace(pending_updates=int(r.stats["pub_peak"])))
        assert sized.makespan_cycles == r.makespan_cycles
        assert sized.stats["stalled_completions"] == sized.stats["spilled_updates"] == 0
    # The level range over time agrees with the statistic and, under LVL, the bound.
    assert r.level_range()["level_range"].max() == r.stats["max_level_range"]
    if policy == "lvl":
        assert r.stats["max_level_range"] <= bound
        for _, row in tl.iterrows():  # checked from the timeline itself as well
            running = tl[(tl["start"] <= row["start"]) & (tl["end"] > row["start"])]
            assert running["level"].max() - running["level"].min() <= bound
    # A bounded number of events: each task's finish plus the chunk arrivals,
    # the spilled writes' landings and the launch.
    assert r.metrics["events"] <= n + r.stats["chunk_fetches"] + r.stats["spilled_updates"] + 1


@settings(max_examples=60, deadline=None)
@given(
    dag=dags(),
    policy=st.sampled_from(["lrr", "lvl"]),
    bound=st.integers(1, 4),
    sms=st.integers(1, 3),
    slots=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_unbounded_buffers_equal_dataflow_ideal(
    dag: tuple[int, list[tuple[int, int]]],
    policy: str,
    bound: int,
    sms: int,
    slots: int,
    seed: int,
) -> None:
    # Unbounded buffers and no fetch latency: the whole graph is loaded the
    # moment the kernel is launched, so Wireframe is the ideal scheduler.
    n, edges = dag
    costs = np.random.default_rng(seed).integers(1, 50, n)
    wl = W.from_edges(edges, n, cost=td.cost.array(costs))
    gpu = make_gpu(sms, slots, mem_latency=0, host_launch_us=1.0)
    unbounded = "unbounded"
    wf = td.simulate(
        wl,
        gpu,
        wireframe(
            policy=policy,
            level_bound=bound,
            node_buffer=unbounded,
            edge_buffer=unbounded,
            pending_updates=unbounded,
            insertion_buffer=unbounded,
        ),
        timeline=True,
    )
    # dataflow_ideal reads no mem_latency (and refuses a GPU that sets it)
    same_gpu = make_gpu(sms, slots, host_launch_us=1.0)
    ideal = td.simulate(
        wl, same_gpu, read_scheme("dataflow_ideal", policy=policy, level_bound=bound), timeline=True
    )
    assert wf.makespan_cycles == ideal.makespan_cycles
    # Nothing waits for the buffer (tasks LVL holds back are not buffer stalls).
    assert wf.stats["dgb_stall_cycles"] == 0
    cols = ["task", "sm", "slot", "start", "end"]
    assert wf.timeline()[cols].equals(ideal.timeline()[cols])
