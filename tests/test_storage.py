"""Hardware cost (issue 16, docs/MODELS.md §8): every scheme reports
``storage_bytes``, the hardware storage its mechanism adds to the GPU, by its
paper's formula (docs/models/*.md, "Hardware storage"); software schemes 0."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import tbdse as td
from tbdse.experiment import cli

TASKS = td.workloads.wavefront(6, 6)  # 36 tasks
WORKLOADS = {
    "task_graph": (TASKS, td.gpus.gtx480()),  # 15 SMs x 8 TB slots
    "worklist": (td.workloads.bfs(graph="grid", rows=8, cols=8), td.gpus.gpgpusim_hwwl()),
    "cfg": (td.workloads.divergent_cfg(blocks=6, threads=256), td.gpus.gtx480()),
}
# Software schemes and machines that add nothing to the GPU they run on.
NO_HARDWARE = {
    "global_barrier",
    "cdp",
    "deplinks",
    "baseline",
    "ideal_baseline",
    "prelaunch",
    "juggler",
    "topology",
    "data",
    "simt",
}


def storage(df: pd.DataFrame) -> dict[str, float]:
    return dict(zip(df["label"], df["storage_bytes"], strict=True))


def test_every_scheme_reports_storage_bytes() -> None:
    kinds: dict[str, list[str]] = {}
    for name in td.schemes.names():
        kinds.setdefault(td.schemes.info(name)["workload_kind"], []).append(name)
    assert set(kinds) == set(WORKLOADS), "a new workload kind needs a workload here"
    seen: dict[str, float] = {}
    for kind, names in kinds.items():
        workload, gpu = WORKLOADS[kind]
        df = td.sweep(workload, gpu, names, on_error="record")
        assert (df["status"] == "ok").all(), df["error"].dropna().tolist()
        seen.update(storage(df))
    assert set(seen) == set(td.schemes.names())
    for name, value in seen.items():
        assert value >= 0, name  # never NaN
        # dataflow_ideal's scheduler buffers are unlimited: +inf, like
        # wireframe's with unbounded buffers (docs/models/baselines.md); user_policy
        # runs on dataflow_ideal's (docs/policies.md).
        assert math.isfinite(value) == (name not in ("dataflow_ideal", "user_policy")), name
        assert (value == 0) == (name in NO_HARDWARE), name
    # Hand computations (the per-formula tests below spell them out):
    assert seen["wireframe"] == 128 * 8 + 512 * 2 + 64 * 4 + 16 * 8  # 2432
    assert seen["blockmaestro"] == 120 * ((32 + 1 + 4 * 32) + (32 + 1 + 6)) / 8  # 3000
    assert seen["hwwl"] == 4 * 16 * 32 * 3  # 6144
    assert seen["sgmf"] == pytest.approx(0.3 * 4 * 65536)
    assert seen["vgiw"] == pytest.approx(0.3 * 4 * 65536 + 65536 + 2**20 / 8)


def test_storage_is_a_common_metric_listed_with_its_unit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    info = td.results.metric_info()["storage_bytes"]
    assert info["unit"] == "bytes" and "0 for software schemes" in info["doc"]
    assert cli.main(["list", "metrics"]) == 0
    assert "storage_bytes" in capsys.readouterr().out
    r = td.simulate(TASKS, "gtx480", "global_barrier")
    assert r.metrics["storage_bytes"] == 0 and "storage_bytes" not in r.stats


def test_wireframe_storage_is_the_dgb_and_grows_with_its_buffers() -> None:
    # Wireframe §5.4: 8 B per node entry (node array and insertion buffer),
    # 2 B per edge entry, 4 B per PUB entry.  lvl's auto sizes 128 / 512;
    # PUB 64 (§5.1), insertion buffer 16.
    df = td.sweep(
        TASKS,
        "gtx480",
        "wireframe",
        grid={"node_buffer": [128, 256], "edge_buffer": [512, 1024], "pending_updates": [32, 64]},
    )
    assert (df["storage_bytes"] == df["dgb_bytes"]).all()
    want = df["node_buffer"] * 8 + df["edge_buffer"] * 2 + df["pending_updates"] * 4 + 16 * 8
    assert (df["storage_bytes"] == want.astype(float)).all()
    paper = df[(df["node_buffer"] == 128) & (df["edge_buffer"] == 512)]
    assert paper.loc[paper["pending_updates"] == 32, "storage_bytes"].item() == 2304  # §5.4
    by = df.set_index(["node_buffer", "edge_buffer", "pending_updates"])["storage_bytes"]
    assert by[256, 512, 32] - by[128, 512, 32] == 128 * 8
    assert by[128, 1024, 32] - by[128, 512, 32] == 512 * 2
    unbounded = td.simulate(TASKS, "gtx480", td.schemes.Wireframe(node_buffer="unbounded"))
    assert math.isinf(unbounded.metrics["storage_bytes"])


def test_blockmaestro_storage_is_its_buffers_at_the_papers_sizes() -> None:
    # §IV-C: 896 = 28 x 32 entries each; a list entry is a 32-bit TB id plus
    # the kernel-id bits and 4 x 32-bit children, a counter entry the same
    # index plus 6 bits.  Depth 3 (four kernels resident): 2 id bits,
    # 896 x (34 + 128 + 34 + 6) / 8 = 22,624 B ("about 22KB"); depth 1: 1 bit,
    # 896 x 200 / 8 = 22,400 B.
    gpu = td.gpus.titanx_pascal()
    df = td.sweep(TASKS, gpu, "blockmaestro", grid={"prelaunch_depth": [1, 3]})
    assert df["storage_bytes"].tolist() == [22400, 22624]
    assert (df["storage_bytes"] == df["buffer_bytes"]).all()
    # It grows with the buffers: 1000 more list entries of 161 bits.
    sized = td.sweep(
        TASKS,
        gpu,
        "blockmaestro",
        grid={"dependency_list_entries": [1000, 2000], "parent_counter_entries": [1000]},
    )
    assert np.diff(sized["storage_bytes"]).item() == 1000 * (33 + 128) / 8
    others = td.sweep(TASKS, gpu, ["baseline", "ideal_baseline", "prelaunch"])
    assert (others["storage_bytes"] == 0).all() and others["buffer_bytes"].isna().all()


def test_hwwl_storage_is_every_cores_banks_and_grows_with_bank_entries() -> None:
    # §V-B: 16 lanes x 32 entries x 24 bit = 1536 B per core ("approximately
    # 1.6 KB"); the gpgpusim_hwwl preset has 4 cores: 6144 B.
    wl, gpu = WORKLOADS["worklist"]
    df = td.sweep(wl, gpu, "hwwl", grid={"bank_entries": [32, 64], "gpu.sms": [4, 8]})
    want = df["gpu.sms"] * 16 * df["bank_entries"] * 3
    assert (df["storage_bytes"] == want.astype(float)).all()
    assert (df["storage_bytes"] == df["hwwl_bytes"] * df["gpu.sms"]).all()
    assert df.loc[(df["bank_entries"] == 32) & (df["gpu.sms"] == 4), "storage_bytes"].item() == 6144
    # The sorting network's area: 162 um^2 per core at 40 nm (§V-B), lsorting only.
    area = td.sweep(
        wl, gpu, "hwwl", grid={"redistribution": ["lsorting", "threshold", "none", "gsorting"]}
    ).set_index("redistribution")["sort_network_mm2"]
    assert area["lsorting"] == pytest.approx(4 * 162e-6)
    assert area["threshold"] == 0 and area["none"] == 0 and np.isnan(area["gsorting"])
    unbounded = td.simulate(wl, gpu, td.schemes.Hwwl(bank_entries="unbounded"))
    assert math.isinf(unbounded.metrics["storage_bytes"])


def test_fabric_storage_scales_with_the_fabric_and_the_cvt() -> None:
    # VGIW §3.4: token buffers 70% smaller than a register file 4x the 64 KB
    # LVC: 0.3 x 256 KB = 78,643.2 B over Table 1's 108 units, spread evenly;
    # vgiw adds the LVC (64 KB) and the CVT (cvt_bits / 8; 2^20 bits by default).
    wl, gpu = WORKLOADS["cfg"]
    per_unit = 0.3 * 262144 / 108
    sgmf = td.sweep(wl, gpu, "sgmf", grid={"fabric_scale": [1.0, 2.0]})
    assert sgmf["storage_bytes"].tolist() == pytest.approx([108 * per_unit, 216 * per_unit])
    vgiw = td.sweep(wl, gpu, "vgiw", grid={"cvt_bits": [2**20, 2**21], "fabric_scale": [1.0]})
    assert vgiw["storage_bytes"].tolist() == pytest.approx(
        [108 * per_unit + 65536 + 131072, 108 * per_unit + 65536 + 262144]
    )
    assert td.simulate(wl, gpu, "simt").metrics["storage_bytes"] == 0


def test_juggler_is_software_and_reports_its_queues_in_global_memory() -> None:
    # §5.2: queues[] holds workers x tasks 4-byte task indices; IQS[] and
    # queueEndIndex[] one int per worker.  gtx480: 15 SMs x 8 = 120 workers.
    r = td.simulate(TASKS, "gtx480", "juggler")
    assert r.metrics["storage_bytes"] == 0
    workers = r.stats["workers"]
    assert workers == 120
    assert r.stats["runtime_queue_bytes"] == workers * (36 * 4 + 8)
