"""BlockMaestro's locality (docs/models/blockmaestro.md "Locality"): the TBs'
data footprints from their access ranges, and the golden scenario in which a
consumer issued right after its producer hits the producer's lines in L2."""

from __future__ import annotations

import numpy as np
import pytest

import tbdse as td
from tbdse.errors import ConfigError
from tbdse.workloads import Application, blockmaestro_app, bx


def footprints(wl: td.Workload) -> tuple[np.ndarray, ...]:
    # The application's pickled state carries the footprint arrays (by input task).
    return tuple(np.asarray(x) for x in wl.application.__getstate__()[5])


def test_box_rows_become_byte_ranges() -> None:
    app = Application("boxes")
    m = app.malloc("M", (8, 16))  # 8 rows of 16 four-byte elements, base 4096
    out = app.malloc("O", (8, 16))  # next 4 KiB page: base 8192
    # TB bx reads rows 2bx, 2bx+1 of columns 4..7 (two ranges), and two whole
    # rows (merged into one range); writes its two whole rows of O.
    app.launch(
        "k",
        4,
        reads=[m[2 * bx : 2 * bx + 2, 4:8], m[2 * bx : 2 * bx + 2, :]],
        writes=[out[2 * bx : 2 * bx + 2, :]],
    )
    start, base, size, write = footprints(app.build(locality=True))
    assert start.tolist() == [0, 4, 8, 12, 16]
    assert base[:4].tolist() == [4096 + 16, 4096 + 64 + 16, 4096, 8192]
    assert size[:4].tolist() == [16, 16, 128, 128]
    assert write[:4].tolist() == [0, 0, 0, 1]
    assert base[4] == 4096 + 2 * 64 + 16  # TB 1 starts two rows down


def test_locality_off_carries_nothing_and_runs_as_before() -> None:
    on, off = blockmaestro_app("hotspot"), blockmaestro_app("hotspot", locality=False)
    assert off.application.data_ranges == 0 and on.application.data_ranges > 0  # on by default
    gpu = td.gpus.titanx_pascal(copy_latency_us=0, malloc_us=0, copy_gbps=1e6)
    plain = blockmaestro_app("hotspot", locality=False, mem_fraction=0.9)  # ignored without
    assert (
        td.simulate(off, gpu, "blockmaestro").makespan_cycles
        == td.simulate(plain, gpu, "blockmaestro").makespan_cycles
    )
    with pytest.raises(ConfigError, match="locality"):
        blockmaestro_app("hotspot", locality="yes")  # type: ignore[arg-type]


def pair(n: int = 1024) -> td.Workload:
    # Producer TB i writes 4 KiB of C, consumer TB i reads it (1-to-1); the
    # producer kernel writes 4 MiB, more than the Titan X's 3 MB L2.
    app = Application("pair", mem_fraction=0.5)
    a, c, e = (app.malloc(x, n * 1024) for x in "ACE")
    app.memcpy_h2d(a)
    t = 1024 * bx
    app.launch("produce", n, reads=[a[t : t + 1024]], writes=[c[t : t + 1024]], cost=1000)
    app.launch("consume", n, reads=[c[t : t + 1024]], writes=[e[t : t + 1024]], cost=1000)
    app.memcpy_d2h(e)
    return app.build(locality=True)


def test_golden_consumer_right_after_its_producer_hits_in_l2() -> None:
    # One SM with one TB slot, fixed timing: a TB is its compute half (500
    # cycles), which starts when its first line of reads is there and hides
    # the other 31 (docs/simulation.md "Data footprints").  The first read
    # enters L1 after the previous TB's 32 write lines (+32).  Baseline:
    # consumer i runs after all 1024 producers wrote 4 MiB through the 3 MB
    # L2, so its lines are gone: L2 miss + DRAM (216 + 234 + 5 transfer
    # cycles) -> 500 + 32 + 455 = 987.  Consumer priority issues consumer i
    # right after producer i: its lines are in L2 -> 500 + 32 + 216 = 748.
    # No per-policy term: only the order differs.
    gpu = td.gpus.titanx_pascal(
        sms=1, tb_slots=1, sm_model="fixed", copy_latency_us=0, malloc_us=0, copy_gbps=1e6
    )
    wl = pair()
    base = td.simulate(wl, gpu, "baseline", timeline=True).timeline().set_index("task")
    cons = (
        td.simulate(wl, gpu, {"name": "blockmaestro", "priority": "consumer"}, timeline=True)
        .timeline()
        .set_index("task")
    )
    consumers = np.arange(1025, 2048)  # consumer 0 follows the first producer either way
    assert (base.loc[consumers, "duration"] == 987).all()
    assert (cons.loc[consumers, "duration"] == 748).all()
    assert cons["end"].max() < base["end"].max()


def test_blockmaestro_schemes_read_the_memory_fields() -> None:
    # With locality the L2 decides the hits: a 6 MB L2 keeps the producers'
    # 4 MiB, so the baseline's consumers hit too and the run is shorter.
    fields = td.schemes.gpu_fields_read("baseline", footprints=True)
    assert {"l2_bytes", "l1_mshrs", "dram_latency"} <= fields
    assert "l2_bytes" in td.schemes.gpu_fields_read("blockmaestro", footprints=True)
    assert "l2_bytes" not in td.schemes.gpu_fields_read("blockmaestro")  # nothing to time
    assert pair().has_footprints
    gpu = td.gpus.titanx_pascal(
        sms=1, tb_slots=1, sm_model="fixed", copy_latency_us=0, malloc_us=0, copy_gbps=1e6
    )
    df = td.sweep(pair(), gpu, "baseline", grid={"gpu.l2_bytes": [3145728, 6291456]})
    small, large = df.sort_values("gpu.l2_bytes")["makespan_cycles"]
    assert large < small
