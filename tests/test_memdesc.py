"""A kernel's memory description (tbdse.workloads.KernelMemory): each field
reaches the run and moves a metric, fields that could not are refused, and
what it builds survives the networkx round trip."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tbdse as td
from tbdse.workloads import KernelMemory, wavefront, with_memory

GRAPH = wavefront(6, 6, cost=20_000)
BASE = KernelMemory(8192, 4096)


def run(memory: KernelMemory) -> dict[str, Any]:
    return td.simulate(with_memory(GRAPH, memory), "gtx480", "dataflow_ideal").metrics


def test_the_description_builds_the_kernel_fields_and_the_ranges() -> None:
    m = KernelMemory(10_000, 3_000, reuse=3, shared_bytes=2_000, memory_share=0.4)
    w = with_memory(GRAPH, m)
    k = w.kernels[0]
    # 79 lines read per pass (10,000 / 128 rounded up), 24 written
    assert (k.reuse, k.mem_requests, k.mem_fraction) == (3, 3 * 79 + 24, 0.4)
    assert w.data is not None
    # every TB reads its working set once in the footprint (passes re-read it)
    # and writes its output: 36 TBs
    assert w.data.bytes_read() == 36 * 10_000
    assert w.data.bytes_written() == 36 * 3_000
    # the shared bytes come from the producers' output regions, split evenly:
    # an interior tile (two producers) reads 1,000 of each producer's output
    data, tile = w.data, 7  # (1, 1)
    outputs = {
        int(t): int(b) for t, b, wr in zip(data.task, data.base, data.write, strict=True) if wr
    }
    reads = {
        int(b): int(n)
        for t, b, n, wr in zip(data.task, data.base, data.bytes, data.write, strict=True)
        if t == tile and not wr
    }
    assert reads[outputs[1]] == 1_000 and reads[outputs[6]] == 1_000
    assert sum(reads.values()) == 10_000


def test_coalescing_spreads_the_used_bytes_over_lines() -> None:
    w = with_memory(GRAPH, KernelMemory(1024, 256, line_bytes=32))
    assert w.data is not None
    reads = ~w.data.write & (w.data.task == 0)
    # 32 lines of 32 used bytes, 128 bytes apart
    assert reads.sum() == 32 and set(w.data.bytes[reads]) == {32}
    assert set(np.diff(np.sort(w.data.base[reads]))) == {128}
    assert w.kernels[0].mem_requests == 32 + 8


@pytest.mark.parametrize(
    ("changed", "metric", "direction"),
    [
        (KernelMemory(16_384, 4096), "dram_bytes", 1),  # more bytes read from DRAM
        (KernelMemory(8192, 8192), "dram_bytes", 1),  # writes evicted to DRAM
        (KernelMemory(8192, 4096, reuse=3), "l1_miss_rate", -1),  # passes hit in L1
        (KernelMemory(8192, 4096, shared_bytes=4096), "l2_hit_rate", 1),  # producers' lines
        (KernelMemory(8192, 4096, line_bytes=32), "avg_load_latency", 1),  # 4x the requests
        (KernelMemory(8192, 4096, memory_share=0.9), "makespan_cycles", -1),  # less compute
    ],
    ids=["read_bytes", "write_bytes", "reuse", "shared_bytes", "line_bytes", "memory_share"],
)
def test_each_field_moves_a_metric(changed: KernelMemory, metric: str, direction: int) -> None:
    before, after = run(BASE)[metric], run(changed)[metric]
    assert (after - before) * direction > 0, (metric, before, after)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"read_bytes": 0, "write_bytes": 0}, "describes nothing"),
        ({"read_bytes": 0, "write_bytes": 64, "reuse": 2}, "'reuse' 2 .* would change nothing"),
        ({"read_bytes": 0, "write_bytes": 64, "memory_share": 0.5}, "nothing would time it"),
        ({"read_bytes": 64, "shared_bytes": 128}, "cannot exceed"),
        ({"read_bytes": 64, "line_bytes": 48}, "32, 64, 96 or 128"),
        ({"read_bytes": 64, "reuse": 0}, "'reuse'"),
        ({"read_bytes": -1}, "'read_bytes'"),
        ({"read_bytes": 64, "memory_share": 1.5}, "'memory_share'"),
    ],
)
def test_fields_that_could_not_act_are_refused(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(td.ConfigError, match=match):
        KernelMemory(**kwargs)


def test_shared_bytes_without_producers_are_refused() -> None:
    alone = td.workloads.independent(8, cost=1000)
    with pytest.raises(
        td.ConfigError, match="'shared_bytes' 64 but none of its TBs has a producer"
    ):
        with_memory(alone, KernelMemory(128, 64, shared_bytes=64))


def test_a_workload_is_described_once_and_kernels_by_name() -> None:
    described = with_memory(GRAPH, BASE)
    with pytest.raises(td.ConfigError, match="already carries data footprints"):
        with_memory(described, BASE)
    with pytest.raises(td.ConfigError, match="names kernel 'nope'"):
        with_memory(GRAPH, {"nope": BASE})
    with pytest.raises(td.ConfigError, match="must be a KernelMemory"):
        with_memory(GRAPH, {"kernel": 3})  # type: ignore[dict-item]


def rows_by_task(data: td.workloads.DataFootprints) -> dict[int, list[tuple[int, int, bool]]]:
    out: dict[int, list[tuple[int, int, bool]]] = {}
    for t, b, n, wr in zip(data.task, data.base, data.bytes, data.write, strict=True):
        out.setdefault(int(t), []).append((int(b), int(n), bool(wr)))
    return out


def test_the_description_survives_the_networkx_round_trip() -> None:
    w = with_memory(GRAPH, KernelMemory(8192, 4096, reuse=2, shared_bytes=1024, line_bytes=64))
    back = td.workloads.from_networkx(w.to_networkx())
    assert back.kernels == w.kernels
    assert back.data is not None and w.data is not None
    assert rows_by_task(back.data) == rows_by_task(w.data)
    assert td.simulate(back, "gtx480", "dataflow_ideal").metrics == run(
        KernelMemory(8192, 4096, reuse=2, shared_bytes=1024, line_bytes=64)
    )


def test_footprints_read_back_in_the_descriptions_terms() -> None:
    m = KernelMemory(10_000, 3_000, reuse=2, shared_bytes=2_000, line_bytes=64, memory_share=0.3)
    row = td.workloads.footprint_memory(with_memory(GRAPH, m)).iloc[0]
    assert (row["tbs"], row["read_bytes"], row["write_bytes"]) == (36, 10_000, 3_000)
    assert (row["reuse"], row["memory_share"]) == (2, 0.3)
    # every TB but the source (0, 0) reads 2,000 bytes its producers wrote
    assert row["shared_bytes"] == pytest.approx(2_000 * 35 / 36)
    # 64 used bytes per line, but a range's last line holds the remainder
    assert 60 < row["line_bytes"] <= 64


def test_juggler_kernels_read_back() -> None:
    """LU-D's bmod reads its three depend-section tiles and writes one; every
    tile a producer wrote except at the first step."""
    table = td.workloads.footprint_memory(td.workloads.juggler_app("lu-d")).set_index("kernel")
    assert table.loc["bmod", "read_bytes"] == 3 * 64 * 64 * 4
    assert table.loc["bmod", "write_bytes"] == 64 * 64 * 4
    assert table.loc["bmod", "line_bytes"] == 128
    with pytest.raises(td.ConfigError, match="carries no data footprints"):
        td.workloads.footprint_memory(GRAPH)


def test_a_regenerated_workload_is_described_again() -> None:
    """A sweep varies a generator's parameters (Workload.with_params): the
    description must come along, not be dropped with the footprints."""
    m = KernelMemory(2048, 1024, reuse=2, shared_bytes=512)
    bigger = with_memory(GRAPH, m).with_params(rows=8)
    assert bigger.tasks == 48 and bigger.data is not None and bigger.memory is m
    assert bigger.data.bytes_read() == 48 * 2048
    assert bigger.kernels[0] == m.kernel("kernel")
