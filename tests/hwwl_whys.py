"""Why each HWWL ledger miss misses, traced to the counters that make it
(issue 29: a reason for every miss, not only F6-6).  Measured on the ledger's
runs after the structured inputs (scripts/hwwl_ledger.py --keep DIR);
tests/test_hwwl_ledger_whys.py fails while a recorded miss has no reason, or
a reason names a claim that no longer misses."""

from __future__ import annotations

_COALESCED = (
    "topology reads consecutive nodes (requests/load {t}) where data reads scattered ids "
    "({d}); 32 MSHRs per core make scattered loads the bottleneck on the 4-core machine"
)
_WINNERS = (
    "BH, SP and SSSP pick topology: its coalesced node checks (1.1-11 requests/load) beat "
    "the worklist versions' scattered loads (13-24) behind 32 MSHRs per core; SSSP's data "
    "version also relaxes more items (topology merges activations per super-step)"
)
_LSU = (
    "BH at 32 entries pushes nothing and spills nothing (its 15,360 overflow ids come from "
    "the init kernel in 480 refill loads against 41.4K operator requests); interval refill "
    "keeps 79% of its threads holding items (11% on demand), its load-store queues stay full "
    "(62 of 64 entries; 3,683 cycles' wait per line request, 18 on demand) and loads take "
    "924 cycles after that wait (218); a 256-entry queue leaves the time unchanged, while "
    "4x the L1's 32 MSHRs per core (84.7K -> 46.6K cycles; on demand 53.1K) or 8x its 8 KB "
    "(50.1K) close the gap and 4x the DRAM channels do not: the many warps in flight thrash "
    "the L1 and queue for its MSHRs (miss rate 0.99 vs 0.67); why this costs more than "
    "with infinite banks at a similar activity (50.0K cycles) is open (HWWL audit H4b)"
)

MISS_WHY: dict[str, str] = {
    "T2-W-BH": "BH: " + _COALESCED.format(t="11.5", d="13.4") + "; every body is active, so "
    "topology wastes no check",
    "T2-W-SP": "SP: " + _COALESCED.format(t="2.6", d="23.8") + "; its survey pass after "
    "the first decimation is short (4.1K items in 4 super-steps), so data's 129 push "
    "atomics serialised at 200 cycles (25.8K of its 112.4K cycles) weigh as much as "
    "topology's checks of every clause (65.5K checks, 88.2K cycles)",
    "T2-W-SSSP": "SSSP: " + _COALESCED.format(t="1.2", d="15.7") + "; label-correcting data "
    "relaxes more items than topology's merged flags",
    "T2-W-ALL": _WINNERS,
    "T2-V-6": "work donating gains 10-13% on DMR and MST (SP: 1.00): tbdse's donation balances a "
    "block's items by their drawn cost, which §II-D says LonestarGPU's estimates could "
    "not (tbdse's reading, not traced to a counter)",
    "T2-DI-BH": "every body is active and pushes nothing, so topology's 4-instruction check "
    "per node is cheaper than data's 7-instruction pull",
    "T2-DI-DMR": "topology merges duplicate activations per super-step (14.9K items vs "
    "data's 18.3K at 700 instructions each); the paper's data DMR does not re-process them",
    "T2-DI-SSSP": "the paper's SSSP topology/data are within 1%; tbdse's topology checks "
    "every node of a 262K road graph on each of its ~900 super-steps (3.5e8 vs 5.2e7)",
    "T2-L1-DMR": "DMR's later loads read the mesh neighbours' records, Morton-ordered, so "
    "topology's sparse bad triangles miss as often as data's (0.85 vs 0.85)",
    "T2-L1-MST": "topology visits the few active components of later rounds scattered over "
    "an R-MAT id space (miss rate 0.98); data_wdo's miss rate is 0.75 "
    "(why donating lowers it is not traced)",
    "T2-RL-DMR": "topology's warps read consecutive triangles' records (2.9 requests/load) "
    "while data reads the scattered ids its worklist holds (15.3); the paper measured 4.4 "
    "for both",
    "F5-1": _WINNERS,
    "F5-3": "sorted beats FIFO on BFS, DMR and SSSP only: SP's pass (about 1K items per "
    "super-step) names clauses of a random formula, whose ids carry no locality, so sorting "
    "gathers no shared lines (requests per load 28.6 sorted vs 27.4 FIFO; 0.99); before "
    "the surveys were modelled its 37K items gave 1.06",
    "F5-4": "fewer requests than data on BH, DMR and MST only: on SP the ideal FIFO worklist "
    "makes 6% more (35.9K vs 34.0K) with 1% more items (4,121 vs 4,080: survey "
    "propagation's work depends on the order) and as scattered loads (27.4 requests per "
    "load vs 23.8); BFS and SSSP as in the claim's reason",
    "F5-2": "BH's better software is the coalesced topology kernel (1.04x), SSSP's too "
    "(0.73x): the ideal FIFO worklist's scattered loads are no cheaper than topology's",
    "F6-1": "BH's none is 0.90x of topology: all bodies are active, so topology's coalesced "
    "kernel wastes nothing and the worklist's scattered loads cost more; SP's none is 0.69x: "
    "its survey cascades stay in the banks of the threads that processed the fixed "
    "variables' clauses (the busiest bank pushes 4.19x the mean, 6.7% of threads active, "
    "1.26M WAIT pulls), the imbalance §IV-D ascribes to SP, while §IV-C lists SP among the "
    "even benchmarks; every scheme that moves ids gives 1.09-1.13x",
    "F6-3": "MST's R-MAT hubs push their neighbours into one bank and the cascade (work x1.5 "
    "per generation) stays there: 12% of threads active under none, 2.4M WAIT pulls; "
    "lsorting gives 1.06x",
    "F6-4": "DMR's none makes 6% more requests than data: its pushes stay in the pusher's "
    "bank, so the items a warp pulls are less local than data's per-super-step list; SP's "
    "none 14% more (38.8K line requests vs 34.0K, at 9.0 requests per load against data's "
    "23.8; 4,096 items vs 4,080: survey propagation's work depends on the order); where "
    "the extra requests come from is not traced",
    "F6-8": "under none every id stays in the bank of the thread that pushed it, so all of "
    "BFS and SSSP runs in the source's bank (bank 0 of core 0, at most 96 threads can work: "
    "0.4% and 1.1% of threads active, up to 3,404 and 6,663 ids in that bank) while every "
    "other launched warp spins; the count is a clock, none's makespan (11.5M, 31.9M cycles) "
    "times the spin the cores can issue (utilisation 0.57, 0.69; before the HWWL audit's "
    "fix it exceeded capacity, 1.18 and 1.99, and the ratios were 248x and 313x)",
    "F6-17": "under none SP's survey cascades stay in the banks that started them (push "
    "imbalance 4.19, 1.26M WAIT pulls, 127.2K cycles), which costs far more than any "
    "misdirected donation: threshold (81.3K cycles) is 1.57x faster than none, though the "
    "slowest of the four schemes that move ids (F6-15, F6-16 hold on SP)",
    "F6-20": "gsorting is 0.9% faster than lsorting on SP (78.2K vs 79.0K cycles), inside "
    "the order noise of an asynchronous survey pass (items 4,096-4,159 by scheme); with "
    "input seeds 1 and 2 gsorting is 2.8% and 7.2% behind lsorting "
    "(scripts/hwwl_sp_convergence.py), so the sign is not the mechanism's",
    "F6-22": "SSSP (0.979): magic moves 22,678 ids between cores (lsorting 4,857), raising "
    "the L1 miss rate (0.932 vs 0.925) and requests per load (20.8 vs 19.6): its moves cost "
    "locality, a tbdse effect (the paper's magic ignores bandwidth only); BH (0.991) is "
    "inside its schemes' noise (BH's order flips with the run seed)",
    "F7-1": "SP and BFS lose most: BFS spills half its pushed ids at 8-32 entries (F7-11); "
    "SP at 8 entries (0.67) spills 3.2K of its ~3.6K pushed ids (4 entries per partition "
    "against up to ~2K ids per super-step) in 1.2K stores, refills them in 134 loads that "
    "stall their warps, and its loads take 521 cycles (284 with infinite banks) after a "
    "1,295-cycle wait for a load-store queue entry",
    "F7-3": "BH's on-demand gap is small (0.10): with one thread per id, each bank's refill "
    "is one coalesced load hidden by 96 other threads; SP's and BFS's gaps are larger",
    "F7-4": "MST's on-demand gap is small (0.10): its time is the serial hub cascade (18% of "
    "threads active), not refills",
    "F7-6": "interval refill is 0.635x on-demand on BH at 32 entries: " + _LSU,
    "F7-7": "as F7-6 (BH@32 interval 0.59 of infinite vs on-demand 0.93); banks are not left "
    "empty (79% of threads hold items under interval refill)",
    "F7-8": "BH's interval refill at 8 entries keeps its load-store queues full as at 32 "
    "(55 of 64 entries vs 31 on demand; F7-6)",
    "F7-9": "WAIT pulls are spin rounds (> 99%), charged at the issue slots the cores leave "
    "(BH 30.3 per cycle under interval refill, 40.6 on demand; MST 14.4, 13.0), so the ratio "
    "follows the makespans (BH 84.7K vs 53.8K cycles) and the issue left over; under interval "
    "refill 79% of BH's threads hold work (11% on demand), so banks are not left empty: "
    "F7-9 measures which refill is faster, not how often banks run dry",
    "F7-10": "BFS's 262K-node road frontier spills at 8-32 entries, and interval refill "
    "returns the ids sooner than on-demand at 32 (1.062)",
    "F7-11": "half of BFS's pushed ids spill at 32 entries: the road graph's frontiers "
    "(~5,000 ids per level) exceed 64 banks x 16 entries per partition",
    "F7-12": "not memory traffic from spills: " + _LSU + "; SP (0.83 at 32 entries) spills "
    "2.1K ids in 813 stores and 69 loads against 38.0K requests, and its loads take 388 "
    "cycles (284 with infinite banks) after a 1,910-cycle wait for a load-store queue "
    "entry (BH 0.59 at 32 entries)",
    "F7-13": "interval refill at 8 entries beats 32 on BH, MST and SSSP: with smaller banks "
    "fewer threads hold items (BH 19% vs 79%, MST 4% vs 18%, SSSP 27% vs 58%) and these "
    "runs go faster with fewer loads in flight (load latency BH 368 vs 924, MST 484 vs "
    "1,277 cycles): more concurrency costs them more in the memory system than it gains "
    "(F7-6)",
    "F7-15": "BH, SP and SSSP lose to their coalesced topology kernels (as T2-W-*) and "
    "finite banks lose 41% on BH and 17% on SP through longer loads, not spills (F7-12); "
    "MST's hub cascade caps it at 0.89",
    "F7-16": "as F7-15",
    "F7-17": "MST's realistic worklist (0.89x topology) runs its hub cascades in few banks; "
    "lsorting at 32 entries rebalances only queued ids, and its loads wait longer (1,277 "
    "cycles vs 382 with infinite banks; F7-12)",
    "VA-1": "every scattered load of the worklist versions meets the same six DRAM channels "
    "(queue 6x deeper at 16 cores), while topology's coalesced checks scale with cores",
    "VA-2": "as VA-1: 0.70x at 16 cores",
    "VA-4": "the network latency does grow (2 -> 4 hops); the speed-up falls for VA-1's "
    "reason, not the network's",
    "VC-2": "tbdse's double-buffered kernel launches one thread per id, and the 1M-node "
    "road graph's widest levels fill all 6,144 threads (peak 100%)",
    "VC-3": "single-buffering skips the 10 us relaunch per BFS level (~300 levels), which "
    "outweighs its lost locality (single/double 0.86)",
    "VC-6": "double-buffered BFS is memory-bound here (scattered loads behind 32 MSHRs), "
    "so magic memory gains 5.2x where the paper saw none",
}
