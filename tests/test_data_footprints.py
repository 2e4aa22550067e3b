"""Data footprints of task-graph workloads (docs/simulation.md "Data
footprints"): the Python API, its validation, and a golden case of L2 reuse
between a producer and its consumer."""

from __future__ import annotations

import numpy as np
import pytest

import tbdse as td
from tbdse.errors import ConfigError

W = td.workloads
# One TB per SM at a time matters not here; 'fixed' so a TB's time is its own.
GPU = td.gpus.gtx480(sm_model="fixed", host_launch_us=0)
KERNEL = W.Kernel("k", mem_fraction=0.5)


def consumer_time(edges: list[tuple[int, int]], n: int, rows: list) -> int:
    """Duration of task 1's TB (the consumer) under dataflow_ideal."""
    w = W.from_edges(np.array(edges), n, name="g", cost=10_000, kernels=[KERNEL])
    r = td.simulate(
        w.with_data(W.DataFootprints.from_rows(rows)),
        GPU,
        td.schemes.DataflowIdeal(),
        timeline=True,
    )
    tl = r.timeline().set_index("task")
    return int(tl.loc[1, "end"] - tl.loc[1, "start"])


def test_a_consumer_right_after_its_producer_hits_l2() -> None:
    # Every TB costs 10,000 cycles, half of it memory (mem_fraction 0.5): the
    # 5,000-cycle memory part is replaced by what the reads take, and they
    # overlap the 5,000 cycles of compute, which start when the first line is
    # there (docs/simulation.md "Data footprints").  Task 0 writes 4 KB (32
    # lines) at its end; task 1 reads them at its start.  The reads take
    # ~230-440 cycles, so each case is compute-bound: 5,000 + the first line.
    producer, read = (0, "write", 0, 4096), (1, "read", 0, 4096)
    # (a) issued at once: its first line misses L1 (write-evict) and hits in
    # L2 200 cycles later.
    hit = consumer_time([(0, 1)], 2, [producer, read])
    # (b) task 2 runs between them and reads 1 MB elsewhere: the 768 KB L2
    # evicts the producer's lines, so the consumer goes to DRAM (+200).
    evicted = consumer_time([(0, 2), (2, 1)], 3, [producer, (2, "read", 1 << 30, 1 << 20), read])
    # (c) nobody wrote the lines: a cold miss.
    cold = consumer_time([(0, 1)], 2, [read])
    assert hit == 5_201  # 5,000 compute + 200 (L2 hit) + 1 (an L2 bank wait behind the write)
    assert cold == 5_404  # + 200 DRAM latency and the first line's 4 sector transfers
    assert evicted == cold  # its first line misses like (c)
    assert hit + 200 <= evicted


def test_without_footprints_the_run_is_unchanged() -> None:
    w = W.wireframe_benchmark("SW", "1K", footprints=False)
    assert w.data is None
    bare = td.simulate(w, td.gpus.gtx480(), td.schemes.Wireframe(policy="lvl"))
    again = td.simulate(w.with_data(None), td.gpus.gtx480(), td.schemes.Wireframe(policy="lvl"))
    assert bare.makespan_cycles == again.makespan_cycles


def test_footprints_are_per_input_task_and_travel_with_copies() -> None:
    w = W.wireframe_benchmark("HIST", "1K")
    assert w.data is not None and len(w.data) > 0
    assert w.renamed("h").data is w.data and w.with_cost(1000).data is w.data
    assert w.key() != w.with_data(None).key()


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([(0, "read", -1, 4)], "task 0 (row 0) has 'base' = -1"),
        ([(1, "write", 0, -5)], "task 1 (row 0) has 'bytes' = -5"),
        ([(0, "read", 0, 2**41)], "'bytes' = 2199023255552"),
        ([(0, "load", 0, 4)], "(task, 'read' | 'write', base, bytes)"),
        ([(-2, "read", 0, 4)], "task -2 (row 0) has 'task' = -2"),
    ],
)
def test_bad_rows_name_the_task_and_field(rows: list, message: str) -> None:
    with pytest.raises(
        ConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("|", r"\|")
    ):
        W.DataFootprints.from_rows(rows)


def test_bad_footprints_for_a_workload() -> None:
    w = W.wavefront(2, 2)
    with pytest.raises(
        ConfigError, match=r"data footprints name task 9 \(row 0\); 'task' must be in \[0, 4\)"
    ):
        w.with_data(W.DataFootprints.from_rows([(9, "read", 0, 4)]))
    with pytest.raises(ConfigError, match=r"'data' must be tbdse\.workloads\.DataFootprints"):
        w.with_data([(0, "read", 0, 4)])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="columns of different lengths"):
        W.DataFootprints([0, 1], [0], [4], [False])
    with pytest.raises(ConfigError, match="'write' must hold booleans"):
        W.DataFootprints([0], [0], [4], [1])


def test_memory_fields_are_sweep_axes_only_with_footprints() -> None:
    assert "l2_bytes" not in td.schemes.gpu_fields_read("wireframe")
    assert "l2_bytes" in td.schemes.gpu_fields_read("wireframe", footprints=True)
    w = W.wireframe_benchmark("SW", "1K")
    df = td.sweep(
        w, td.gpus.gtx480(), td.schemes.Wireframe(), grid={"gpu.l2_bytes": [393216, 786432]}
    )
    assert len(df) == 2
    with pytest.raises(ConfigError, match="reads the GPU field 'l2_bytes'"):
        td.sweep(
            w.with_data(None),
            td.gpus.gtx480(),
            td.schemes.Wireframe(),
            grid={"gpu.l2_bytes": [393216]},
        )
