"""The physics bench: canonical scenarios a TB-level model of a GPU must
reproduce from its mechanisms alone (issue "Scheduling policies must be able
to win"), each with the direction it must go and why.  No scenario sets a
per-policy or per-paper constant: the kernels state their memory behaviour
(bytes per TB, working set, passes over it) and the GPU preset its caches,
MSHRs and DRAM channels (docs/memory.md); the outcome comes from there.

(a) cache-sensitive kernel: an interior optimum of makespan over TBs per SM;
(b) bandwidth-bound kernel: no gain from concurrency once DRAM saturates;
(c) a consumer soon after its producer hits in the caches, one after the
    data is evicted does not, and runs longer;
(d) oldest-first issue (GTO's stand-in) finishes the oldest TB earlier than
    even sharing does;
and the §1 invariants on runs with passes over footprints (Hypothesis).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td

W = td.workloads


def independent(
    n: int, cost: int, f: float, ws: int, reuse: int = 1, stride: int = 1 << 20
) -> td.Workload:
    """``n`` independent TBs of ``cost`` cycles (``f`` of it memory time),
    TB t reading its own ``ws`` bytes at ``t x stride`` ``reuse`` times."""
    kernel = W.Kernel("k", mem_fraction=f, reuse=reuse)
    wl = W.independent(n, cost=cost, kernel=kernel)
    reads = W.DataFootprints(np.arange(n), np.arange(n) * stride, np.full(n, ws), np.zeros(n, bool))
    return wl.with_data(reads)


def makespans(wl: td.Workload, slots: list[int], **gpu: Any) -> list[float]:
    """Makespan (us) of ``wl`` on a GTX480 with each TB-slot limit per SM.

    Under even SM sharing unless ``sm_share`` is given: (a) and (b) are about
    the caches' and DRAM's mechanisms, and the preset's default became GTO's
    stand-in (oldest_first, Wireframe §5.1); (a) checks it separately."""
    gpu.setdefault("sm_share", "even")
    return [
        td.simulate(wl, td.gpus.gtx480(tb_slots=s, **gpu), "dataflow_ideal").makespan_us
        for s in slots
    ]


def test_a_cache_sensitive_kernel_has_an_interior_optimum_of_tbs_per_sm() -> None:
    """Each TB sweeps its own 4 KiB tile of one array (TB t at t x 4 KiB, as
    a tiled stencil or blocked GEMM lays its data) 8 times.  Four TBs' tiles
    fit a GTX480 SM's 16 KiB L1, so passes after the first mostly hit (miss
    rate 0.18: an arriving TB evicts some of a neighbour's lines); six or
    eight evict one another between passes and every pass misses to L2.
    Those misses cost what they cost on a GPU: each waits for one of the
    SM's 32 MSHRs, so the SM's memory-level parallelism, not its TB count,
    bounds throughput.  Up to four TBs more concurrency hides latency; beyond,
    the misses' queueing costs more than it gains: the curve cache-conscious
    TB throttling exploits (Rogers et al., MICRO 2012; Kayiran et al., PACT
    2013).  Controls: read once, no optimum; with 512 MSHRs the same misses
    queue far less and the curve is nearly flat — the cost is the misses'
    queueing, as traced in docs/simulation.md "Reuse"."""
    wl = independent(15 * 48, 20000, 0.8, 4096, reuse=8, stride=4096)
    slots = [1, 2, 4, 6, 8]
    times = dict(zip(slots, makespans(wl, slots), strict=True))
    best = min(times, key=times.__getitem__)
    assert 1 < best < 8, times  # interior
    assert times[8] > 1.3 * times[best], times  # the maximum costs throughput
    miss = {
        s: td.simulate(wl, td.gpus.gtx480(tb_slots=s, sm_share="even"), "dataflow_ideal").metrics[
            "l1_miss_rate"
        ]
        for s in (4, 8)
    }
    assert miss[4] < 0.25 < 0.9 < miss[8], miss  # the mechanism: L1 thrash between passes
    # The same kernel reading its tile once has no such optimum.
    once = makespans(independent(15 * 48, 20000, 0.8, 4096, reuse=1, stride=4096), [4, 8])
    assert once[1] <= once[0] * 1.01
    # With 16x the MSHRs the thrash costs little: the penalty is the misses' queueing.
    wide = makespans(wl, [4, 8], l1_mshrs=512)
    assert wide[1] < 1.15 * wide[0]
    # Under oldest-first issue (GTO's stand-in) the optimum stays: TBs whose
    # time is mostly memory leave their issue slots to younger ones (as GTO
    # issues from the oldest warp that is ready), so all eight still sweep
    # their tiles concurrently and evict one another.
    gto = makespans(wl, [4, 8], sm_share="oldest_first")
    assert gto[1] > 1.3 * gto[0] and gto[0] == pytest.approx(times[4], rel=0.01)


def test_b_a_bandwidth_bound_kernel_stops_gaining_once_dram_saturates() -> None:
    """Each TB streams 8 KiB once with little compute.  With 128 MSHRs per
    SM (so the SMs can keep DRAM busy), one and two TBs per SM leave DRAM
    idle part of the time and more TBs help; from four on the six DRAM
    channels are saturated and more TBs change nothing.  Control: with twelve
    channels the same eight TBs per SM do gain — DRAM was the limit."""
    wl = independent(15 * 64, 4000, 0.8, 8192)
    t1, t2, t4, t8 = makespans(wl, [1, 2, 4, 8], l1_mshrs=128)
    assert t1 > 1.3 * t2 > 1.3 * 1.05 * t4  # concurrency hides DRAM latency ...
    assert t8 == pytest.approx(t4, rel=0.02)  # ... until the channels are full
    wide4, wide8 = makespans(wl, [4, 8], l1_mshrs=128, dram_channels=12)
    assert wide8 < 0.95 * t8 and wide4 < t4


def test_b_the_gtx480s_own_mshrs_cannot_saturate_its_dram() -> None:
    """Why (b) sets 128 MSHRs: by Little's law an SM keeps at most its MSHRs'
    lines in flight, so 15 SMs x 32 MSHRs x 128 B over an unloaded miss of
    200 + 200 cycles (L2, then DRAM latency) move at most 154 B/cycle,
    under the six channels' 253 B/cycle: with the preset's 32 MSHRs the
    MSHRs, not DRAM, bound a streaming kernel (on a GPU too), however its
    reads are spread over its TBs' lifetime.  More channels then change
    nothing, and the makespan stays above the MSHR bound."""
    wl = independent(15 * 64, 4000, 0.8, 8192)
    t8 = makespans(wl, [8])[0]
    wide8 = makespans(wl, [8], dram_channels=12)[0]
    bound_cycles = 15 * 64 * 8192 / (15 * 32 * 128 / (200 + 200))
    assert t8 >= bound_cycles / 700.0  # us at 700 MHz
    assert wide8 == pytest.approx(t8, rel=0.02)


def streaming_tb(threads: int, sms: int = 1, slots: int = 1, n: int = 1) -> td.Result:
    """``n`` TBs of ``threads`` threads, each streaming 8 KiB (64 lines) of its
    own, with 100 cycles of compute, on a GTX480 of ``sms`` SMs."""
    kernel = W.Kernel("k", mem_fraction=0.95, threads=threads)
    wl = W.independent(n, cost=2000, kernel=kernel)
    reads = W.DataFootprints(
        np.arange(n), np.arange(n) * (1 << 20), np.full(n, 8192), np.zeros(n, bool)
    )
    gpu = td.gpus.gtx480(sms=sms, tb_slots=slots, host_launch_us=0.0)
    return td.simulate(wl.with_data(reads), gpu, "dataflow_ideal", timeline=True)


def test_e_reads_go_out_as_the_warps_reach_them_not_in_one_burst() -> None:
    """A TB of 8 warps issues its loads as its warps execute: each warp has
    one coalesced line in flight and uses it before its next load (no ILP
    assumed), so 64 lines go in ceil(64 / 8) = 8 load phases, each exposing
    a miss latency (200 + 200 cycles at least: L2, then DRAM): the TB alone takes more
    than 8 x 400 cycles.  A kernel that states no threads keeps the burst
    (every line at issue: one exposed latency and the 64 lines' transfers, under
    1,000 cycles)."""
    spread = streaming_tb(256)
    burst = streaming_tb(0)
    d_spread = int(spread.timeline()["duration"].iloc[0])
    d_burst = int(burst.timeline()["duration"].iloc[0])
    assert d_spread > 8 * 400 > 1000 > d_burst
    # the same bytes reach DRAM either way
    assert spread.metrics["dram_bytes"] == burst.metrics["dram_bytes"] == 8192


def test_e_a_tbs_latency_grows_with_queueing_from_its_co_resident_tbs() -> None:
    """Six TBs of 8 warps on one SM have 48 lines in flight for its 32 MSHRs
    and share its DRAM channels: their misses queue, so each TB takes longer
    than it does alone (the average load latency grows), and the six finish
    later than one but far sooner than six one after another — concurrency
    hides latency until the MSHRs are full."""
    alone = streaming_tb(256)
    six = streaming_tb(256, slots=6, n=6)
    d_alone = int(alone.timeline()["duration"].iloc[0])
    d_six = six.timeline()["duration"].to_numpy()
    assert d_six.min() > d_alone
    assert six.metrics["avg_load_latency"] > alone.metrics["avg_load_latency"]
    assert d_alone < six.makespan_cycles < 6 * d_alone


def chain_with_evictor(evict_bytes: int) -> td.Workload:
    """producer -> evictor -> consumer on one SM: the producer writes 16 KiB,
    the evictor reads ``evict_bytes`` of other data, the consumer reads the
    producer's 16 KiB.  Costs are compute-bound except for the reads."""
    wl = W.chain(3, cost=2000, kernel=W.Kernel("k", mem_fraction=0.5))
    rows = [
        (0, "write", 0, 16384),
        (1, "read", 64 << 20, max(evict_bytes, 128)),
        (2, "read", 0, 16384),
    ]
    return wl.with_data(W.DataFootprints.from_rows(rows))


def consumer_time(evict_bytes: int) -> int:
    gpu = td.gpus.gtx480(sms=1, tb_slots=1)
    r = td.simulate(chain_with_evictor(evict_bytes), gpu, "dataflow_ideal", timeline=True)
    tl = r.timeline().set_index("task")
    return int(tl.at[2, "duration"])


def test_c_a_consumer_soon_after_its_producer_hits_one_after_eviction_misses() -> None:
    """The producer's stores drain to L2 (docs/memory.md).  A consumer issued
    right after (the evictor between them reads only one line) finds them
    there; after an evictor that streams 2 MiB through the 768 KiB L2 they
    are gone, and the consumer waits for DRAM: it runs longer, from the
    order alone."""
    soon, late = consumer_time(128), consumer_time(2 << 20)
    assert soon < late
    # and the difference is the memory part's: the compute (1000) is the same
    assert soon >= 1000 and late - soon > 100


def test_d_oldest_first_finishes_the_oldest_tb_earlier_than_even_sharing() -> None:
    """Two TBs of 10,000 cycles on one SM that runs one at full speed
    (sm_saturation 1).  Even sharing runs both at half speed: both end at
    20,000.  Oldest first (a GTO warp scheduler's preference for old warps)
    gives the older one the SM: it ends at 10,000, the younger at 20,000 —
    the same total, the critical older TB first."""
    wl = W.independent(2, cost=10000)
    ends = {}
    for share in ("even", "oldest_first"):
        gpu = td.gpus.custom(
            "one",
            sms=1,
            tb_slots=2,
            sm_model="shared",
            sm_saturation=1,
            sm_share=share,
            host_launch_us=0.0,
        )
        tl = td.simulate(wl, gpu, "dataflow_ideal", timeline=True).timeline()
        ends[share] = sorted(int(e) for e in tl.sort_values("start")["end"])
    assert ends["even"] == [20000, 20000]
    assert ends["oldest_first"] == [10000, 20000]


@st.composite
def reuse_scenarios(
    draw: st.DrawFn,
) -> tuple[td.Workload, td.Gpu, list[tuple[int, int]], list[int]]:
    n = draw(st.integers(1, 24))
    edges = sorted(
        {
            (s, d)
            for s, d in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
            if s < d
        }
    )
    f = draw(st.sampled_from([0.0, 0.5, 0.9]))
    # two kernels in one graph: passes and load phases of different counts
    # (threads 0: one burst per pass; 64 or 256: one line per warp per phase)
    kernels = [
        W.Kernel(
            f"k{i}",
            mem_fraction=f,
            reuse=draw(st.integers(1, 8)),
            threads=draw(st.sampled_from([0, 64, 256])),
        )
        for i in range(2)
    ]
    kernel_ids = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    costs = draw(st.lists(st.integers(0, 5000), min_size=n, max_size=n))
    wl = W.from_edges(edges, n, cost=td.cost.array(costs), kernel_ids=kernel_ids, kernels=kernels)
    sizes = draw(st.lists(st.sampled_from([0, 128, 4096, 20000]), min_size=n, max_size=n))
    bases = draw(st.lists(st.integers(0, 64), min_size=n, max_size=n))
    wl = wl.with_data(
        W.DataFootprints(np.arange(n), np.array(bases) * 4096, np.array(sizes), np.zeros(n, bool))
    )
    model = draw(st.sampled_from(["fixed", "shared"]))
    sharing = (
        {"sm_share": draw(st.sampled_from(["even", "oldest_first", "earliest_start"]))}
        if model == "shared"
        else {}
    )
    gpu = td.gpus.gtx480(
        sms=draw(st.integers(1, 3)),
        tb_slots=draw(st.integers(1, 4)),
        sm_model=model,
        host_launch_us=0.0,
        **sharing,
    )
    return wl, gpu, edges, [c - round(f * c) for c in costs]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reuse_scenarios())
def test_run_invariants_hold_with_passes_over_footprints(
    scenario: tuple[td.Workload, td.Gpu, list[tuple[int, int]], list[int]],
) -> None:
    """docs/MODELS.md §1 on runs whose TBs sweep their footprints: every task
    once, never before its parents end, never more TBs on an SM than its
    slots, at least its compute part long, the makespan the last end and
    at least the work and critical-path bounds; the same result on one and
    two threads.  Two kernels of different passes and warps share a graph,
    under both SM models and both sharing rules."""
    wl, gpu, edges, compute = scenario
    check_invariants(wl, gpu, edges, compute)


def check_invariants(
    wl: td.Workload, gpu: td.Gpu, edges: list[tuple[int, int]], compute: list[int]
) -> None:
    r = td.simulate(wl, gpu, "dataflow_ideal", timeline=True)
    tl = r.timeline().set_index("task").sort_index()
    n = wl.graph.size
    assert list(tl.index) == list(range(n))
    # -1: Python's round (halves to even) against the engine's llround
    assert (tl["duration"].to_numpy() >= np.array(compute) - 1).all()
    for s, d in edges:
        assert tl.at[d, "start"] >= tl.at[s, "end"]
    for sm, on in tl.groupby("sm"):
        times = np.concatenate([on["start"], on["end"]])
        delta = np.concatenate([np.ones(len(on)), -np.ones(len(on))])
        order = np.lexsort((delta, times))
        assert np.cumsum(delta[order]).max() <= gpu.tb_slots, sm
    assert r.makespan_cycles == tl["end"].max()
    assert r.makespan_cycles >= r.metrics["critical_path_cycles"]
    assert r.makespan_cycles >= r.metrics["work_bound_cycles"]
    df = td.sweep(wl, gpu, "dataflow_ideal", replicates=2, threads=1)
    df2 = td.sweep(wl, gpu, "dataflow_ideal", replicates=2, threads=2)
    assert list(df["makespan_cycles"]) == list(df2["makespan_cycles"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["a", "b", "c", "e"]),
    st.integers(1, 8),
    st.sampled_from(["fixed", "shared"]),
    st.sampled_from(["even", "oldest_first", "earliest_start"]),
    st.sampled_from([0, 256]),
)
def test_run_invariants_hold_on_the_physics_bench_graphs(
    bench: str, slots: int, model: str, share: str, threads: int
) -> None:
    """The same §1 invariants on small versions of the bench's own
    scenarios, over TB slots, SM models, sharing rules and stated warps."""
    if bench == "c":
        wl, edges, f, cost = chain_with_evictor(2 << 20), [(0, 1), (1, 2)], 0.5, 2000
    else:
        reuse, ws, stride, f, cost = {
            "a": (8, 4096, 4096, 0.8, 20000),
            "b": (1, 8192, 1 << 20, 0.8, 4000),
            "e": (1, 8192, 1 << 20, 0.95, 2000),
        }[bench]
        wl, edges = independent(30, cost, f, ws, reuse=reuse, stride=stride), []
    wl = wl.with_kernels(
        [W.Kernel("k", mem_fraction=f, threads=threads, reuse=reuse if bench != "c" else 1)]
    )
    sharing = {"sm_share": share} if model == "shared" else {}
    gpu = td.gpus.gtx480(sms=2, tb_slots=slots, sm_model=model, host_launch_us=0.0, **sharing)
    check_invariants(wl, gpu, edges, [cost - round(f * cost)] * wl.graph.size)
