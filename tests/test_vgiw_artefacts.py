"""Issue 29: model artefacts that decided VGIW's rankings, each pinned by a
test that failed on the code before the fix (docs/models/vgiw.md, "Memory",
"sgmf")."""

from __future__ import annotations

import pytest

import tbdse as td

BB = td.workloads.BasicBlock


def test_blocks_hot_lines_do_not_share_one_l1_set() -> None:
    # Eight blocks in a row, each re-reading its own hot line (no streaming):
    # eight lines fit a 16 KB L1 easily.  Before, op 0's hot line of every
    # block fell in one set of the 4-way L1, so simt, which runs the eight
    # blocks warp by warp, missed on every access.
    def latency(n: int) -> float:
        blocks = [BB(alu=1, ldst=1, mem_intensity=0.0, succ=[i + 1]) for i in range(n - 1)]
        blocks.append(BB(alu=1, ldst=1, mem_intensity=0.0))
        wl = td.workloads.cfg_kernel(blocks, 2048, name=f"hot{n}")
        return float(td.simulate(wl, "gtx480", "simt").metrics["load_latency"])

    # As fast as one block's hot line (L1 hits after the first warp).
    assert latency(8) == pytest.approx(latency(1), rel=0.2)


def _two_paths(order: str) -> td.Workload:
    # 0 -> 1 -> 3 (path A) or 0 -> 2 -> 1 -> 3 (path B); only blocks 0 and 3
    # touch memory, and every thread runs each of them once.
    blocks = [
        BB(alu=2, ldst=2, mem_intensity=1.0, succ=[1, 2], branch="paths"),
        BB(alu=2, succ=[3]),
        BB(alu=2, succ=[1]),
        BB(alu=2, ldst=2, mem_intensity=1.0),
    ]
    a, b = [0, 1, 3], [0, 2, 1, 3]
    # "warps": 32 threads of A then 32 of B (no warp diverges); "threads":
    # A and B alternate, so every warp diverges.
    paths = [a] * 32 + [b] * 32 if order == "warps" else [a, b]
    return td.workloads.cfg_kernel(blocks, 2048, paths=paths, name=f"paths_{order}")


@pytest.mark.parametrize("scheme", ["simt", "vgiw", "sgmf"])
def test_divergence_changes_paths_not_addresses(scheme: str) -> None:
    # The same per-thread visits of the memory blocks, different divergence:
    # the same data, so the same DRAM traffic.  Before, a thread's address
    # was keyed on its path step (2 on path A, 3 on B at block 3), so the
    # divergent kernel read other elements and moved more DRAM bytes.
    uniform = td.simulate(_two_paths("warps"), "gtx480", scheme).metrics
    divergent = td.simulate(_two_paths("threads"), "gtx480", scheme).metrics
    assert divergent["thread_ops"] == uniform["thread_ops"]
    assert divergent["dram_bytes"] == pytest.approx(uniform["dram_bytes"], rel=0.02)


def _chain(n: int) -> td.Workload:
    # Six ALU operations a block: four or five blocks map one replica.
    blocks = [
        BB(
            alu=6,
            ldst=1,
            mem_intensity=0.3,
            succ=[i + 1],
            defs=[f"v{i}"],
            uses=[f"v{i - 1}"] if i else [],
        )
        for i in range(n - 1)
    ]
    blocks.append(BB(alu=6, ldst=1, mem_intensity=0.3, uses=[f"v{n - 2}"]))
    return td.workloads.cfg_kernel(blocks, 16384, name=f"chain{n}")


def test_sgmf_blocks_load_store_units_run_concurrently() -> None:
    # A fifth block of the same kind (the same single replica) costs SGMF at
    # most its share of the shared L1 and DRAM (5/4), not another token-buffer
    # bound: each block's LD/ST units run alongside the others' (before, their
    # token-buffer bounds were summed: 1.66x).
    four = td.simulate(_chain(4), "gtx480", "sgmf")
    five = td.simulate(_chain(5), "gtx480", "sgmf")
    assert four.metrics["replicas"] == five.metrics["replicas"] == 1
    assert five.makespan_cycles / four.makespan_cycles <= 1.3


def test_sgmf_has_no_live_value_units() -> None:
    # Live values pass between SGMF's units as tokens (VGIW §1, §5 Fig. 11);
    # the LVC and its units are VGIW's (§3.4, Fig. 4).  A kernel with more
    # live values than the fabric has LVUs still maps on SGMF.
    defs = [f"x{i}" for i in range(20)]
    wl = td.workloads.cfg_kernel(
        [BB(alu=4, defs=defs, succ=[1]), BB(alu=4, uses=defs)], 4096, name="lv20"
    )
    assert td.simulate(wl, "gtx480", "sgmf").metrics["maps"] == 1


def test_sgmf_beats_vgiw_on_a_small_kernel() -> None:
    # §5: "SGMF excels with kernels characterized by small basic blocks and a
    # small amount of branch divergence" (Fig. 8: down to 0.4x): four small
    # blocks in a row, no divergence; VGIW configures the fabric per block
    # and passes the live values through the LVC.  Before, SGMF was charged
    # the summed token-buffer bound and lost (4.3x slower).
    sgmf = td.simulate(_small_chain(), "gtx480", "sgmf").makespan_cycles
    vgiw = td.simulate(_small_chain(), "gtx480", "vgiw").makespan_cycles
    assert sgmf < vgiw


def _small_chain() -> td.Workload:
    blocks = [
        BB(
            alu=2,
            ldst=1,
            mem_intensity=0.3,
            succ=[i + 1],
            defs=[f"v{i}"],
            uses=[f"v{i - 1}"] if i else [],
        )
        for i in range(3)
    ]
    blocks.append(BB(alu=2, ldst=1, mem_intensity=0.3, uses=["v2"]))
    return td.workloads.cfg_kernel(blocks, 16384, name="small4")
