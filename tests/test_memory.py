"""The memory hierarchy through td.memory (docs/memory.md): hit/miss decisions
and DRAM bytes against a straightforward pure-Python reference cache on random
address streams (Hypothesis), and hand-computed goldens of coalescing, bandwidth
and latency.  The C++ goldens are in cpp/core/mem_hierarchy_test.cpp."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbdse as td

MASK64 = (1 << 64) - 1


def sector_span(offset: int, size: int) -> int:
    first, last = offset // 32, (offset + size - 1) // 32
    return sum(1 << s for s in range(first, last + 1))


def bank_of(line: int, banks: int) -> int:
    x = (line * 0xC2B2AE3D27D4EB4F) & MASK64
    x ^= x >> 31
    return x % banks


class RefCache:
    """Sets as lists of [line, valid, dirty], least recently used first."""

    def __init__(self, sets: int, ways: int) -> None:
        self.sets: list[list[list[int]]] = [[] for _ in range(sets)]
        self.ways = ways

    def find(self, line: int) -> list[int] | None:
        s = self.sets[line % len(self.sets)]
        for e in s:
            if e[0] == line:
                s.remove(e)
                s.append(e)
                return e
        return None

    def install(self, line: int) -> tuple[list[int], list[int] | None]:
        s = self.sets[line % len(self.sets)]
        evicted = s.pop(0) if len(s) == self.ways else None
        e = [line, 0, 0]
        s.append(e)
        return e, evicted

    def invalidate(self, line: int) -> None:
        s = self.sets[line % len(self.sets)]
        s[:] = [e for e in s if e[0] != line]


class RefHierarchy:
    def __init__(self, sms: int, l1: tuple[int, int], l2: tuple[int, int, int], policy: dict):
        self.l1 = [RefCache(*l1) for _ in range(sms)]
        banks, sets, ways = l2
        self.l2 = [RefCache(sets, ways) for _ in range(banks)]
        self.l1_through = policy["l1_write"] == "write_through"
        self.l2_back = policy["l2_write"] == "write_back"
        self.c = dict.fromkeys(
            ["l1_reads", "l1_read_hits", "l1_line_misses", "l1_writes", "l2_reads",
             "l2_read_hits", "l2_writes", "dram_read_bytes", "dram_write_bytes"], 0)  # fmt: skip

    def l2_access(self, line: int, sectors: int, write: bool) -> None:
        cache = self.l2[bank_of(line, len(self.l2))]
        e = cache.find(line)
        n = bin(sectors).count("1")
        if write:
            self.c["l2_writes"] += n
            if self.l2_back:
                if e is None:
                    e, gone = cache.install(line)
                    if gone is not None:
                        self.c["dram_write_bytes"] += 32 * bin(gone[2]).count("1")
                e[1] |= sectors
                e[2] |= sectors
            else:
                if e is not None:
                    e[1] |= sectors
                self.c["dram_write_bytes"] += 32 * n
            return
        self.c["l2_reads"] += n
        present = e[1] & sectors if e is not None else 0
        missing = sectors & ~present
        self.c["l2_read_hits"] += bin(present).count("1")
        if not missing:
            return
        self.c["dram_read_bytes"] += 32 * bin(missing).count("1")
        if e is None:
            e, gone = cache.install(line)
            if gone is not None:
                self.c["dram_write_bytes"] += 32 * bin(gone[2]).count("1")
        e[1] |= missing

    def line(self, sm: int, line: int, sectors: int, write: bool) -> None:
        l1 = self.l1[sm]
        n = bin(sectors).count("1")
        if write:
            self.c["l1_writes"] += n
            if not self.l1_through:
                l1.invalidate(line)
            elif (e := l1.find(line)) is not None:
                e[1] |= sectors
            self.l2_access(line, sectors, True)
            return
        self.c["l1_reads"] += n
        e = l1.find(line)
        present = e[1] & sectors if e is not None else 0
        missing = sectors & ~present
        self.c["l1_read_hits"] += bin(present).count("1")
        if not missing:
            return
        self.l2_access(line, missing, False)
        if e is None:
            self.c["l1_line_misses"] += 1
            e, _ = l1.install(line)
        e[1] |= missing

    def access(self, sm: int, address: int, size: int, write: bool) -> None:
        end = address + size
        line = address // 128
        while line * 128 < end:
            lo, hi = max(address, line * 128), min(end, (line + 1) * 128)
            self.line(sm, line, sector_span(lo % 128, hi - lo), write)
            line += 1


@st.composite
def configs(draw: st.DrawFn) -> dict:
    l1_sets, l1_ways = draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([1, 2, 3]))
    banks = draw(st.sampled_from([1, 2, 3]))
    l2_sets, l2_ways = draw(st.sampled_from([1, 2, 8])), draw(st.sampled_from([1, 2, 4]))
    return {
        "sms": draw(st.sampled_from([1, 2])),
        "l1": (l1_sets, l1_ways),
        "l2": (banks, l2_sets, l2_ways),
        "l1_write": draw(st.sampled_from(["write_evict", "write_through"])),
        "l2_write": draw(st.sampled_from(["write_back", "write_through"])),
        "l1_mshrs": draw(st.sampled_from([1, 4])),
    }


@st.composite
def streams(draw: st.DrawFn) -> list[tuple[int, int, int, bool]]:
    n = draw(st.integers(1, 60))
    return [
        (
            draw(st.integers(0, 1)),
            draw(st.integers(0, 4095)),  # 32 lines: plenty of reuse and conflicts
            draw(st.sampled_from([1, 4, 8, 32, 100, 300])),
            draw(st.booleans()),
        )
        for _ in range(n)
    ]


@settings(max_examples=150, deadline=None)
@given(cfg=configs(), stream=streams())
def test_hits_misses_and_dram_bytes_match_a_reference_cache(cfg: dict, stream: list) -> None:
    (l1_sets, l1_ways), (banks, l2_sets, l2_ways) = cfg["l1"], cfg["l2"]
    h = td.memory.Hierarchy(
        "gtx480",
        sms=cfg["sms"],
        l1_bytes=128 * l1_sets * l1_ways,
        l1_ways=l1_ways,
        l1_mshrs=cfg["l1_mshrs"],
        l1_write=cfg["l1_write"],
        l2_bytes=128 * banks * l2_sets * l2_ways,
        l2_ways=l2_ways,
        l2_banks=banks,
        l2_write=cfg["l2_write"],
    )
    ref = RefHierarchy(cfg["sms"], cfg["l1"], cfg["l2"], cfg)
    cycle = 0
    for sm, address, size, write in stream:
        sm %= cfg["sms"]
        done = h.replay([sm], [cycle], [address], [write], bytes=size)
        assert done[0] >= cycle
        ref.access(sm, address, size, write)
        got = h.stats()
        assert {k: got[k] for k in ref.c} == ref.c, (sm, address, size, write)
        cycle += 7


def coalesce(addresses: list[int], active: int, size: int) -> list[tuple[int, int]]:
    """(line, sector mask) per distinct line, in order of first appearance."""
    lines: dict[int, int] = {}
    for t, a in enumerate(addresses):
        if active >> t & 1:
            end = a + size
            line = a // 128
            while line * 128 < end:
                lo, hi = max(a, line * 128), min(end, (line + 1) * 128)
                lines[line] = lines.get(line, 0) | sector_span(lo % 128, hi - lo)
                line += 1
    return list(lines.items())


@st.composite
def warp_streams(draw: st.DrawFn) -> list[tuple[list[int], int, bool]]:
    n = draw(st.integers(1, 12))
    out = []
    for _ in range(n):
        kind = draw(st.sampled_from(["strided", "scattered"]))
        if kind == "strided":
            base = draw(st.integers(0, 2048))
            stride = draw(st.sampled_from([4, 8, 16, 64, 128, 260]))
            addresses = [base + stride * t for t in range(32)]
        else:
            addresses = draw(st.lists(st.integers(0, 8191), min_size=32, max_size=32))
        out.append((addresses, draw(st.integers(0, 0xFFFFFFFF)), draw(st.booleans())))
    return out


@settings(max_examples=60, deadline=None)
@given(cfg=configs(), stream=warp_streams(), size=st.sampled_from([1, 4, 8, 16]))
def test_coalesced_warps_match_a_reference_cache(cfg: dict, stream: list, size: int) -> None:
    (l1_sets, l1_ways), (banks, l2_sets, l2_ways) = cfg["l1"], cfg["l2"]
    h = td.memory.Hierarchy(
        "gtx480",
        sms=1,
        l1_bytes=128 * l1_sets * l1_ways,
        l1_ways=l1_ways,
        l1_write=cfg["l1_write"],
        l2_bytes=128 * banks * l2_sets * l2_ways,
        l2_ways=l2_ways,
        l2_banks=banks,
        l2_write=cfg["l2_write"],
    )
    ref = RefHierarchy(1, cfg["l1"], cfg["l2"], cfg)
    for i, (addresses, active, write) in enumerate(stream):
        h.replay_warps([0], [100 * i], [addresses], [active], [write], bytes=size)
        for line, sectors in coalesce(addresses, active, size):
            ref.line(0, line, sectors, write)
        got = h.stats()
        assert {k: got[k] for k in ref.c} == ref.c, i


# ------------------------------------------------------------------ goldens
def one_channel(**fields: object) -> td.memory.Hierarchy:
    # 700 MHz: 22.4 GB/s is 32 bytes a cycle, one sector per cycle.
    base = {
        "sms": 1,
        "dram_channels": 1,
        "dram_channel_gbps": 22.4,
        "dram_latency": 200,
        "l1_hit_cycles": 10,
        "l2_hit_cycles": 100,
        "l2_banks": 1,
        "l2_bytes": 65536,
    }
    return td.memory.Hierarchy("gtx480", sample_cycles=0, **{**base, **fields})


def test_coalescing_goldens() -> None:
    h = one_channel()
    words = np.arange(32, dtype=np.uint64) * 4  # 32 consecutive words: one line
    strided = np.arange(32, dtype=np.uint64) * 128 + 65536  # a line each
    done = h.replay_warps([0, 0], [0, 10000], np.stack([words, strided]))
    assert h.stats()["l1_reads"] == 4 + 32
    assert h.stats()["l1_line_misses"] == 1 + 32
    # Four sectors on the one channel in [0, 4): 4 + 200 + 100.
    assert done[0] == 304
    # 32 lines enter L1 one per cycle, one sector each: the last is on the
    # channel in [10031, 10032).
    assert done[1] == 10032 + 300
    # Half a warp, active mask 0xFFFF: two sectors, both now L1 hits.
    done = h.replay_warps([0], [20000], words[None, :], active=[0xFFFF])
    assert done[0] == 20010
    assert h.stats()["l1_read_hits"] == 2


def test_dram_bandwidth_and_latency_golden() -> None:
    # N sector misses on one channel at 8 bytes a cycle (5.6 GB/s at 700 MHz):
    # the k-th (1-based) completes at 4k + 200 + 100.
    h = one_channel(dram_channel_gbps=5.6, l1_mshrs=64)
    n = 16
    addresses = np.arange(n, dtype=np.uint64) * 128  # one sector of each of n lines
    done = h.replay(np.zeros(n, np.int64), np.zeros(n, np.int64), addresses)
    # Line i enters L1 at cycle i (one line per cycle), its sector queues behind
    # the earlier ones: 4 cycles each from cycle 0.
    assert list(done) == [4 * (k + 1) + 300 for k in range(n)]
    assert h.stats()["dram_bytes"] == 32 * n


def test_stats_and_queue_samples() -> None:
    h = td.memory.Hierarchy("p100", sample_cycles=100)
    rng = np.random.default_rng(1)
    n = 5000
    done = h.replay(
        rng.integers(0, 56, n), np.arange(n) // 4, rng.integers(0, 1 << 22, n) * 4, bytes=4
    )
    s = h.stats()
    assert s["requests"] == n
    assert 0 <= s["l1_hit_rate"] <= 1 and 0 <= s["l2_hit_rate"] <= 1
    assert s["average_latency"] == pytest.approx(np.mean(done - np.arange(n) // 4))
    samples = h.dram_queue_samples()
    assert len(samples) == (n - 1) // 4 // 100 + 1 and samples.max() > 0


def test_every_preset_has_memory_figures() -> None:
    for name in td.gpus.preset_names():
        gpu = td.gpus.preset(name)
        assert gpu.l2_bytes > gpu.l1_bytes > 0 and gpu.dram_channels >= 1
        td.memory.Hierarchy(gpu).replay([0], [0], [0])


def test_bad_traces_are_config_errors() -> None:
    h = td.memory.Hierarchy("gtx480")
    with pytest.raises(td.ConfigError, match="SM 15"):
        h.replay([15], [0], [0])
    with pytest.raises(td.ConfigError, match=">= 0"):
        h.replay([0], [0], [-4])
    with pytest.raises(td.ConfigError, match=r"\(n, 32\)"):
        h.replay_warps([0], [0], np.zeros((1, 16), np.int64))
    with pytest.raises(td.ConfigError, match="power-of-two"):
        td.memory.Hierarchy("gtx480", l1_bytes=3 * 4 * 128)


def test_sweeping_a_memory_field_is_refused() -> None:
    wl = td.workloads.wavefront(4, 4, cost=td.cost.constant(100))
    with pytest.raises(td.ConfigError, match="l1_bytes"):
        td.sweep(wl, "gtx480", "dataflow_ideal", grid={"gpu.l1_bytes": [8192, 16384]},
                 progress=False)  # fmt: skip
