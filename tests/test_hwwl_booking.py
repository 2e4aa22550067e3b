"""The worklist machine sends a memory instruction to the hierarchy when it
leaves its core and its load-store queue entries are free (warp_memory.cpp),
so every hierarchy call is made at the cycle it happens.  Before (the audit of
2026-11-29, docs/models/hwwl_audit.md), an instruction waiting for entries was
booked at once for the future cycle they freed up, and the in-order L1 ports,
MSHRs, L2 banks and DRAM channels made every request made later for an
earlier cycle wait behind it: on BH at 32 entries, interval refill ran 1.69x
the time of infinite banks (H4b), against §IV-E.  The C++ golden
(warp_memory_test.cpp) checks the mechanism on one core."""

from __future__ import annotations

import pytest

import tbdse as td


@pytest.fixture(scope="module")
def bh() -> td.Workload:
    return td.workloads.lonestar("bh", 16384)


def makespan(wl: td.Workload, **params: object) -> float:
    scheme = td.Scheme("hwwl", redistribution="lsorting", **params)
    return td.simulate(wl, td.gpus.gpgpusim_hwwl(), scheme).makespan_cycles


def test_interval_refill_keeps_finite_banks_near_infinite_ones(bh: td.Workload) -> None:
    # §IV-E: with interval refill, 32 entries per bank lose little against
    # infinite banks (BH pushes nothing: every body but the first 1,024 is
    # spilled and refilled).  Before the fix: 84.7K vs 50.0K cycles (1.69x).
    finite = makespan(bh, bank_entries=32, refill="interval")
    infinite = makespan(bh, bank_entries="unbounded")
    assert finite < 1.10 * infinite, (finite, infinite)


def test_refill_interval_no_longer_decides_the_run(bh: td.Workload) -> None:
    # Before the fix a shorter interval put more refills behind the loads booked
    # ahead: 87.6K cycles at interval 5, 63.2K at 100 (hwwl_audit.md's one-change
    # table).  Refills of 32 ids at a time now cost their own latency only.
    runs = [makespan(bh, bank_entries=32, interval=i) for i in (5, 100)]
    assert max(runs) < 1.10 * min(runs), runs
