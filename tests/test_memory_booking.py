"""Gap-filling booking of the memory hierarchy (docs/memory.md "Booking")
through ``td.memory.Hierarchy``: goldens against in-order booking."""

from __future__ import annotations

import numpy as np
import pytest

import tbdse as td
from tbdse.errors import ConfigError


def _eight_sms(booking: str) -> list[int]:
    # 512 line reads at cycle 0 from each of SMs 0..7 in turn, own lines each.
    h = td.memory.Hierarchy("titanx_pascal", l1_mshrs=32, booking=booking)
    ends = []
    for sm in range(8):
        address = (sm << 24) + 128 * np.arange(512)
        done = h.replay(np.full(512, sm), np.zeros(512, np.int64), address, bytes=128)
        ends.append(int(done.max()))
    return ends


def test_eight_sms_at_cycle_zero_each_take_one_sms_time() -> None:
    # One SM: 512 lines through 32 MSHRs, 16 rounds of a ~455-cycle DRAM miss
    # (1 L2 port cycle, 4 sectors x 1.13 cycles, 234 DRAM + 216 L2 cycles):
    # 7,361 cycles.  Eight SMs move 16,384 sectors over 12 channels, ~1,550
    # cycles of transfer: bandwidth is no limit, so each SM should take about
    # that; in order, the k-th queues behind the others (~k x 7,361).
    gap = _eight_sms("gap_filling")
    old = _eight_sms("in_order")
    assert gap[0] == old[0] == 7361
    assert all(gap[0] <= t <= gap[0] * 1.05 for t in gap)
    assert all(old[k] > k * gap[0] for k in range(1, 8))


def test_an_earlier_request_fills_a_gap() -> None:
    # One L2 bank and one DRAM channel: SM 0 reads 64 lines from cycle 10,000,
    # then SM 1 reads one line at cycle 0.  In order it queues behind all 64;
    # gap-filling gives it the time it takes on an idle hierarchy.
    one = {"l2_bytes": 1 << 19, "l2_banks": 1, "dram_channels": 1, "sample_cycles": 0}
    cold = td.memory.Hierarchy("gtx480", **one).replay([1], [0], [1 << 20])[0]
    assert cold < 1000
    done = {}
    for booking in ("in_order", "gap_filling"):
        h = td.memory.Hierarchy("gtx480", booking=booking, **one)
        h.replay([0], [10_000], [0], bytes=128 * 64)
        done[booking] = h.replay([1], [0], [1 << 20])[0]
    assert done["gap_filling"] == cold
    assert done["in_order"] > 10_000


def test_in_order_trace_gives_in_order_times() -> None:
    # One SM with MSHRs to spare keeps every shared resource's requests in
    # non-decreasing cycles: both bookings must agree exactly.
    rng = np.random.default_rng(7)
    n = 5000
    cycle = np.cumsum(rng.integers(0, 4, n))
    address = rng.integers(0, 1 << 22, n)
    writes = rng.random(n) < 0.25
    done = {}
    for booking in ("in_order", "gap_filling"):
        h = td.memory.Hierarchy("p100", booking=booking, l1_mshrs=4096, sample_cycles=0)
        done[booking] = h.replay(np.zeros(n, np.int64), cycle, address, writes, bytes=64)
    np.testing.assert_array_equal(done["in_order"], done["gap_filling"])


def test_write_queue_and_bad_options() -> None:
    h = td.memory.Hierarchy("gtx480", booking="gap_filling", dram_write_queue=32)
    h.replay([0, 0], [0, 0], [0, 4096], [True, False])
    h.advance(100_000)
    assert h.stats()["dram_read_bytes"] == 32
    with pytest.raises(ConfigError, match="booking"):
        td.memory.Hierarchy("gtx480", booking="fifo")
    with pytest.raises(ConfigError, match="dram_write_queue"):
        td.memory.Hierarchy("gtx480", dram_write_queue=8)
    with pytest.raises(ConfigError, match="dram_write_queue"):
        td.memory.Hierarchy("gtx480", booking="gap_filling", dram_write_queue=-1)
