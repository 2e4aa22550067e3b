"""The control-flow machines of VGIW (MICRO-48 2015): simt, sgmf and vgiw on
CFG kernels.  The Figs. 1-2 example, every thread's own path on every
machine, "does not map" rows, bad CFGs, the sweep path with speed-ups, and
determinism on 1 and N threads."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td

MACHINES = ["simt", "sgmf", "vgiw"]
BB = td.workloads.BasicBlock


def test_fig1_example_lane_utilisation_and_configurations() -> None:
    # Figs. 1-2: one warp of eight lanes, one instruction per block: active
    # lanes 8 + 3 + 5 + 2 + 3 + 8 = 29 of 6 x 8 = 48; vgiw loads six configurations.
    wl = td.workloads.vgiw_example()
    simt = td.simulate(wl, "gtx480", td.schemes.Simt(warp_size=8, control_instructions=0))
    assert simt.metrics["lane_utilisation"] == pytest.approx(29 / 48)
    assert simt.metrics["warp_instructions"] == 6
    # Fermi's own stream adds a BRA per branching block and an SSY per two-way one.
    with_control = td.simulate(wl, "gtx480", td.schemes.Simt(warp_size=8)).metrics
    two_way = sum(len(b["succ"]) == 2 for b in wl.model_input.blocks)
    one_way = sum(len(b["succ"]) == 1 for b in wl.model_input.blocks)
    assert with_control["warp_instructions"] == 6 + 2 * two_way + one_way
    vgiw = td.simulate(wl, "gtx480", "vgiw")
    assert vgiw.metrics["configurations"] == 6
    assert vgiw.metrics["reconfig_cycles"] == 6 * 34
    for r in (simt, vgiw, td.simulate(wl, "gtx480", "sgmf")):
        assert r.metrics["block_executions"] == 29
        lengths = r.values()["path_length"].to_numpy()
        assert lengths.tolist() == [3, 4, 3, 4, 4, 4, 4, 3]  # threads 1..8


def test_reconfig_models() -> None:
    # sqrt: 2 x ceil(11 x sqrt(108)) = 2 x 115 = 230 cycles per configuration (§3.2).
    wl = td.workloads.vgiw_example()
    r = td.simulate(wl, "gtx480", td.schemes.Vgiw(reconfig_model="sqrt"))
    assert r.metrics["reconfig_cycles"] == 6 * 230


def _random_cfg(draw: Any) -> td.Workload:
    n = draw(st.integers(1, 9))
    blocks = []
    for i in range(n):
        ops = {
            "alu": draw(st.integers(1, 12)),
            "ldst": draw(st.integers(0, 3)),
            "special": draw(st.integers(0, 2)),
            "mem_intensity": draw(st.sampled_from([0.0, 0.3])),
        }
        if i == n - 1:
            blocks.append(BB(**ops))
            continue
        kind = draw(
            st.sampled_from(["straight", "branch", "loop"] if i > 0 else ["straight", "branch"])
        )
        if kind == "straight":
            blocks.append(BB(succ=[i + 1], **ops))
        elif kind == "branch":
            far = draw(st.integers(i + 1, n - 1))
            succ = [i + 1, far] if far != i + 1 else [i + 1]
            br = draw(st.sampled_from(["probability", "predicate"])) if len(succ) == 2 else "none"
            blocks.append(BB(succ=succ, branch=br, p=draw(st.sampled_from([0.1, 0.5, 0.9])), **ops))
        else:
            back = draw(st.integers(1, i))
            blocks.append(
                BB(
                    succ=[back, i + 1],
                    branch="loop",
                    trips_min=1,
                    trips_max=draw(st.integers(1, 4)),
                    **ops,
                )
            )
    threads = draw(st.integers(1, 300))
    return td.workloads.cfg_kernel(blocks, threads, name="random")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_thread_executes_its_own_path_on_every_machine(data: Any) -> None:
    # Property: the three machines see each thread walk exactly the same blocks
    # (same path lengths and digests), every run takes cycles > 0, and a run
    # repeated gives the same row.
    wl = _random_cfg(data.draw)
    seed = data.draw(st.integers(0, 3))
    paths = []
    for m in MACHINES:
        r = td.simulate(wl, "gtx480", m, seed=seed)
        if m == "sgmf" and r.metrics["maps"] == 0:  # more units than the fabric has
            assert not r.has_makespan
            continue
        v = r.values()
        paths.append((v["path_length"].to_numpy(), v["path_hash"].to_numpy()))
        assert r.has_makespan and r.makespan_cycles > 0
        assert r.metrics["block_executions"] == v["path_length"].sum()
        again = td.simulate(wl, "gtx480", m, seed=seed)
        assert again.metrics == r.metrics
    for lengths, digests in paths[1:]:
        assert (lengths == paths[0][0]).all() and (digests == paths[0][1]).all()


def test_sgmf_does_not_map_is_a_row_not_an_error() -> None:
    big = td.workloads.cfg_kernel([BB(alu=40)], 1024, name="big")
    r = td.simulate(big, "gtx480", "sgmf")
    assert not r.has_makespan and r.metrics["maps"] == 0
    with pytest.raises(td.ConfigError, match="no makespan"):
        _ = r.makespan_cycles
    df = td.sweep(big, "gtx480", ["sgmf", "vgiw"], baseline="simt")
    row = df.set_index("scheme")
    assert math.isnan(row.loc["sgmf", "makespan_cycles"]) and row.loc["sgmf", "maps"] == 0
    assert row.loc["vgiw", "split_blocks"] == 1 and row.loc["vgiw", "maps"] == 1


@pytest.mark.parametrize(
    ("blocks", "match"),
    [
        ([BB(succ=[1]), BB(), BB()], r"block 2 is unreachable"),
        ([BB(succ=[1, 2, 3], branch="probability"), BB(), BB(), BB()], r"at most two"),
        ([BB(succ=[1, 2]), BB(), BB()], r"'branch'"),
        ([BB(succ=[1, 2], branch="sometimes"), BB(), BB()], r"'branch' is 'sometimes'; valid"),
        ([{"alu": 1, "flops": 3}], r"'flops' is unknown; valid: name, alu"),
        ([BB(succ=[0, 1], branch="predicate"), BB()], r"cannot be a back edge"),
        # A loop whose way out has chance 0, and a cycle with no way out at all.
        (
            [BB(succ=[1]), BB(succ=[1, 2], branch="probability", p=1.0), BB()],
            r"block 0 cannot reach an exit block",
        ),
        ([BB(succ=[1]), BB(succ=[1])], r"cannot reach an exit block"),
        ([BB(succ=[1], alu="4"), BB()], r"block 0: key 'alu' must be a number; got '4'"),
        ([BB(succ=[1, 2], branch="probability", p=True), BB(), BB()], r"'p' must be a number"),
        ([{"succ": 1}], r"key 'succ' must be a list of block ids"),
        ([{"defs": "abc"}], r"key 'defs' must be a list of value names"),
    ],
)
def test_bad_cfgs_name_the_block_and_key(blocks: list[Any], match: str) -> None:
    with pytest.raises(td.ConfigError, match=match):
        td.workloads.cfg_kernel(blocks, 64)


def test_top_tested_loop_runs_and_a_predicate_trap_is_an_error() -> None:
    # A header that branches into the body or out, and a body whose
    # unconditional back edge returns to it: accepted, and every thread ends.
    top = [BB(succ=[1]), BB(succ=[2, 3], branch="probability", p=0.7), BB(succ=[1]), BB()]
    r = td.simulate(td.workloads.cfg_kernel(top, 64), "gtx480", "vgiw")
    assert r.metrics["block_executions"] == r.values()["path_length"].sum()
    # A per-thread predicate inside such a loop sends half the threads round
    # forever: stopped with an error after 2^20 blocks, not a hang.
    trap = [BB(succ=[1]), BB(succ=[2, 3], branch="predicate", p=0.5), BB(succ=[1]), BB()]
    with pytest.raises(td.ConfigError, match=r"passed 1048576 blocks .*endless loop"):
        td.simulate(td.workloads.cfg_kernel(trap, 4), "gtx480", "simt")


def test_simt_loop_with_a_different_trip_count_per_lane() -> None:
    # One warp of four threads running a loop 1, 2, 3 and 4 times (explicit
    # paths): block 0 once (4 lanes), the loop body 4 times (4, 3, 2, 1
    # lanes), the exit once (4 lanes): 6 warp instructions, 18 of 24 lanes.
    blocks = [BB(succ=[1]), BB(succ=[1, 2], branch="paths"), BB()]
    paths = [[0] + [1] * trips + [2] for trips in (1, 2, 3, 4)]
    wl = td.workloads.cfg_kernel(blocks, 4, paths=paths)
    r = td.simulate(wl, "gtx480", td.schemes.Simt(warp_size=4, control_instructions=0))
    assert r.metrics["warp_instructions"] == 6
    assert r.metrics["lane_utilisation"] == pytest.approx(18 / 24)
    assert r.values()["path_length"].tolist() == [3, 4, 5, 6]


def test_rodinia_loops_have_one_entry() -> None:
    # Block 0 enters a preset's loop at its header (block 1) and nowhere else.
    for name in td.workloads.rodinia_names():
        blocks = td.workloads.rodinia(name).model_input.blocks
        latches = [b for b in blocks if b["branch"] == "loop"]
        if latches:
            assert blocks[0]["succ"] == [1], name
            assert all(b["succ"][0] == 1 for b in latches), name


def test_block_bigger_than_every_fabric_unit_type_is_an_error_naming_it() -> None:
    wl = td.workloads.cfg_kernel([BB(alu=4, special=1)], 64)
    with pytest.raises(td.ConfigError, match="special units but the fabric has none"):
        td.simulate(wl, "gtx480", td.schemes.Vgiw(fabric_special=0))


def test_live_values_are_derived_from_defs_and_uses() -> None:
    k = td.workloads.cfg_kernel(
        [BB(succ=[1], defs=["a", "b", "t"], uses=["t"]), BB(uses=["a", "b"], defs=["c"])], 8
    ).model_input
    # Block 0 stores a and b (used by block 1), not t (used only where defined);
    # block 1 loads a and b and stores nothing.
    assert k.live_values() == [(0, 2), (2, 0)]


def test_cfg_file_and_yaml_experiment(tmp_path: Path) -> None:
    (tmp_path / "k.yaml").write_text(
        "name: diamond\nthreads: 256\nblocks:\n"
        "  - {succ: [1, 2], branch: predicate, p: 0.3, alu: 4}\n"
        "  - {succ: [3], alu: 8, ldst: 1}\n  - {succ: [3], alu: 2}\n  - {alu: 1}\n"
    )
    (tmp_path / "exp.yaml").write_text(
        "name: t\ngpu: gtx480\nworkloads:\n  - {file: k.yaml, format: cfg}\n"
        "  - {generator: divergent_cfg, blocks: 6, threads: 512}\n"
        "scheme: vgiw\nbaseline: simt\ngrid:\n  reconfig_model: [fixed, sqrt]\n"
    )
    exp = td.experiment.load(tmp_path / "exp.yaml")
    df = exp.run(tmp_path / "out", progress=False, echo=lambda _: None)
    assert len(df) == 4 and (df["speedup"] > 0).all()
    assert set(df["workload"]) == {"diamond", "cfg6_div0.3"}


def test_cfg_file_errors_are_config_errors(tmp_path: Path) -> None:
    # Kernel files go through the project's YAML loader: a missing file and a
    # syntax error name the file (and the line), never an OSError or YAMLError.
    with pytest.raises(td.ConfigError, match="no such file"):
        td.workloads.cfg_file(str(tmp_path / "missing.yaml"))
    (tmp_path / "bad.yaml").write_text("threads: 8\nblocks: [\n")
    with pytest.raises(td.ConfigError, match=r"bad\.yaml"):
        td.workloads.cfg_file(str(tmp_path / "bad.yaml"))


def test_speedups_over_simt_and_sgmf_use_the_baseline_column() -> None:
    wl = td.workloads.rodinia("nn_euclid", threads=4096)
    df = td.sweep(wl, "gtx480", "vgiw", baseline="simt")
    simt = td.simulate(wl, "gtx480", "simt").makespan_cycles
    assert df["speedup"].iloc[0] == pytest.approx(simt / df["makespan_cycles"].iloc[0])


def test_sweep_is_deterministic_on_one_and_many_threads() -> None:
    wl = [td.workloads.divergent_cfg(blocks=12, threads=2048, divergence=d) for d in (0.1, 0.5)]
    kw: dict[str, Any] = {"grid": {"fabric_scale": [0.5, 1.0]}, "seed": 5, "progress": False}
    a = td.sweep(wl, "gtx480", ["vgiw", "sgmf"], threads=1, **kw)
    b = td.sweep(wl, "gtx480", ["vgiw", "sgmf"], threads=4, **kw)
    cols = [c for c in a.columns if a[c].dtype.kind == "f"]
    np.testing.assert_array_equal(a[cols].to_numpy(), b[cols].to_numpy())


def test_rodinia_presets_have_table2_block_counts() -> None:
    counts = {
        "bfs_kernel": 8,
        "cfd_compute_flux": 12,
        "lud_perimeter": 22,
        "hotspot_kernel": 27,
        "lavamd_kernel": 21,
        "bpnn_layerforward": 20,
        "nw_needle_1": 13,
        "sm_compute_cost": 6,
    }
    for name, n in counts.items():
        assert td.workloads.rodinia(name, threads=64).sizes()["blocks"] == n
    for spec in td.models.vgiw.RODINIA.values():
        assert spec["source"]  # each preset says where its numbers come from


def test_divergence_hurts_simt_not_vgiw() -> None:
    # Trend: more divergence lowers simt's lane utilisation and raises vgiw's
    # speed-up over it (the paper's premise, §2).
    rows, lanes = [], []
    for d in (0.0, 0.5):
        wl = td.workloads.divergent_cfg(blocks=20, threads=8192, divergence=d)
        rows.append(
            td.sweep(wl, "gtx480", "vgiw", baseline="simt", progress=False)["speedup"].iloc[0]
        )
        lanes.append(td.simulate(wl, "gtx480", "simt").metrics["lane_utilisation"])
    assert rows[1] > rows[0]
    # No divergence: every warp instruction runs all 32 lanes; at 0.5 the
    # then-blocks run about half of them.
    assert lanes[0] == pytest.approx(1.0) and lanes[1] < 0.9


def test_kernels_pickle_and_resume_from_a_checkpoint(tmp_path: Path) -> None:
    # A kernel survives pickling (sweeps in worker processes, checkpoints) and
    # a resumed sweep gives the same rows as a fresh one.
    import pickle

    wl = td.workloads.rodinia("lud_diagonal", threads=2048)
    back = pickle.loads(pickle.dumps(wl))
    assert back.model_input.content_hash == wl.model_input.content_hash
    assert back.model_input.blocks == wl.model_input.blocks
    kw: dict[str, Any] = {"grid": {"reconfig_model": ["fixed", "sqrt"]}, "progress": False}
    fresh = td.sweep(wl, "gtx480", "vgiw", **kw)
    td.sweep(wl, "gtx480", "vgiw", checkpoint=tmp_path / "ck", **kw)
    resumed = td.sweep(back, "gtx480", "vgiw", checkpoint=tmp_path / "ck", **kw)
    assert (fresh["makespan_cycles"].to_numpy() == resumed["makespan_cycles"].to_numpy()).all()


def _kernel(pattern: str, ldst: int = 4, mem: float = 0.5, threads: int = 4096) -> td.Workload:
    return td.workloads.divergent_cfg(
        blocks=6, threads=threads, divergence=0.0, ldst=ldst, mem_intensity=mem, pattern=pattern
    )


def test_access_patterns_act_on_the_hierarchy() -> None:
    # Coalesced: 4 bytes of DRAM per streamed access; strided and scattered: a
    # 32-byte sector each.  simt: one L1 line per coalesced warp access; the
    # fabric: a strided wave lands on one L1 bank.
    schemes = {"simt": "simt", "vgiw": "vgiw", "sgmf": td.schemes.Sgmf(fabric_scale=4.0)}
    runs = {
        p: {m: td.simulate(_kernel(p), "gtx480", s).metrics for m, s in schemes.items()}
        for p in ("coalesced", "strided", "scattered")
    }
    for m in MACHINES:
        assert runs["strided"][m]["dram_bytes"] > 4 * runs["coalesced"][m]["dram_bytes"]
        assert runs["scattered"][m]["dram_bytes"] > 4 * runs["coalesced"][m]["dram_bytes"]
    assert runs["strided"]["vgiw"]["bank_cycles"] > 2 * runs["coalesced"]["vgiw"]["bank_cycles"]
    for m in MACHINES:  # same kernel, worse pattern: never faster
        assert runs["strided"][m]["makespan_cycles"] >= runs["coalesced"][m]["makespan_cycles"]
    with pytest.raises(td.ConfigError, match="pattern"):
        _kernel("diagonal")


def test_token_buffers_hide_latency_up_to_their_depth() -> None:
    wl = _kernel("coalesced", ldst=6, mem=0.6, threads=8192)
    times = [
        td.simulate(wl, "gtx480", td.schemes.Vgiw(token_buffer_entries=e)).makespan_cycles
        for e in (4, 16, 45, 4096)
    ]
    assert times[0] > times[1] > times[2] >= times[3]


def test_lvc_capacity_and_occupancy_and_energy_levels() -> None:
    wl = td.workloads.divergent_cfg(blocks=10, threads=16384, live_values=4)
    hit = [
        td.simulate(wl, "gtx480", td.schemes.Vgiw(lvc_bytes=b, tile_policy="cvt")).metrics[
            "lvc_hit_rate"
        ]
        for b in (4096, 65536, 2**22)
    ]
    assert hit[0] < hit[1] < hit[2] == 1.0
    # tile_policy "lvc" (the default, §3.4): tiles small enough that the LVC holds
    # their live values, more tiles for a smaller LVC.
    lvc = [td.simulate(wl, "gtx480", td.schemes.Vgiw(lvc_bytes=b)).metrics for b in (4096, 65536)]
    assert lvc[0]["lvc_hit_rate"] == lvc[1]["lvc_hit_rate"] == 1.0
    assert lvc[0]["tiles"] > lvc[1]["tiles"]
    # More live values per block: more registers per thread, fewer resident warps.
    few = td.simulate(td.workloads.divergent_cfg(blocks=6, live_values=1), "gtx480", "simt")
    many = td.simulate(td.workloads.divergent_cfg(blocks=6, live_values=24), "gtx480", "simt")
    assert few.metrics["resident_warps"] == 48 > many.metrics["resident_warps"]
    for m in ("simt", "vgiw", td.schemes.Sgmf(fabric_scale=8.0)):
        r = td.simulate(wl, "gtx480", m).metrics
        assert 0 < r["energy_core"] < r["energy_die"] < r["energy"]


def test_sqrt_overlap_hides_the_first_pass_behind_the_previous_block() -> None:
    wl = td.workloads.divergent_cfg(blocks=8, threads=8192)
    get = {
        m: td.simulate(wl, "gtx480", td.schemes.Vgiw(reconfig_model=m)).metrics["reconfig_cycles"]
        for m in ("sqrt", "sqrt_overlap")
    }
    configs = td.simulate(wl, "gtx480", "vgiw").metrics["configurations"]
    assert get["sqrt"] == configs * 230
    # The first configuration has no block before it: 230; the others 115 when
    # the previous block ran at least 115 cycles.
    assert configs * 115 <= get["sqrt_overlap"] < get["sqrt"]


def test_bbs_packets_bound_sparse_vectors() -> None:
    # §3.3: one packet per non-empty 64-bit CVT word.  At a low packet rate a
    # sparse (divergent) then-block needs as many packets as a dense one.
    def cycles(d: float, rate: float) -> int:
        wl = td.workloads.divergent_cfg(blocks=6, threads=8192, divergence=d)
        return td.simulate(
            wl, "gtx480", td.schemes.Vgiw(bbs_packets_per_cycle=rate)
        ).makespan_cycles

    assert cycles(0.05, 0.01) > cycles(0.05, 1.0)
    slow = cycles(0.05, 0.01) / cycles(0.05, 1.0)
    assert slow > cycles(1.0, 0.01) / cycles(1.0, 1.0)  # sparse vectors pay more per thread
    with pytest.raises(td.ConfigError, match="cvt_banks"):
        td.simulate(td.workloads.vgiw_example(), "gtx480", td.schemes.Vgiw(cvt_banks=0))


def test_design_space_lvc_and_token_buffers_are_substitutes() -> None:
    # docs/models/vgiw.md "Design space": with tiles that ignore the LVC
    # (tile_policy cvt), with shallow token buffers a bigger LVC (fewer misses
    # to L2) pays; with deep ones the misses are hidden.
    wl = td.workloads.divergent_cfg(blocks=12, threads=16384, divergence=0.3)

    def gain(entries: int) -> float:
        t = [
            td.simulate(
                wl,
                "gtx480",
                td.schemes.Vgiw(token_buffer_entries=entries, lvc_bytes=b, tile_policy="cvt"),
            ).makespan_cycles
            for b in (16384, 262144)
        ]
        return t[0] / t[1]

    assert gain(16) > 1.2  # 1.38: LVC-bound at 16 KB, latency-bound at 256 KB
    assert gain(128) < 1.05  # 1.04: the L1 banks bound both


def test_token_buffer_storage_follows_the_entries() -> None:
    per_unit = 0.3 * 4 * 65536 / 108  # §3.4's buffers for the default 45 entries
    wl = td.workloads.vgiw_example()
    got = td.simulate(wl, "gtx480", td.schemes.Sgmf(token_buffer_entries=90))
    assert got.metrics["storage_bytes"] == pytest.approx(2 * 108 * per_unit)


def test_simt_dispatch_and_warp_network() -> None:
    # Fermi dispatches a warp instruction over 2 cycles per scheduler: at most one
    # warp instruction per cycle on the SM, so halving dispatch_cycles can only
    # speed simt up; the queueing network is never faster than any single bound.
    wl = td.workloads.rodinia("lud_internal")
    two = td.simulate(wl, "gtx480", "simt").metrics
    one = td.simulate(wl, "gtx480", td.schemes.Simt(dispatch_cycles=1)).metrics
    assert one["makespan_cycles"] < two["makespan_cycles"]
    assert two["makespan_cycles"] >= two["warp_instructions"]
    # Fewer resident warps (bigger thread blocks of many registers) expose the stalls.
    few = td.simulate(wl, "gtx480", td.schemes.Simt(block_threads=1536)).metrics
    assert few["resident_warps"] <= two["resident_warps"]
    assert few["makespan_cycles"] >= two["makespan_cycles"]


def test_kernel_launch_block_size_sets_warps_and_occupancy() -> None:
    # Rodinia's nw launches 16-thread blocks: half-empty warps, at most tb_slots (8)
    # resident; the same kernel in 256-thread blocks fills warps and the SM.
    nw = td.workloads.rodinia("nw_needle_1")
    assert nw.model_input.block_threads == 16
    small = td.simulate(nw, "gtx480", "simt").metrics
    blocks = nw.model_input.blocks
    big = td.workloads.cfg_kernel(blocks, nw.model_input.threads, block_threads=256)
    full = td.simulate(big, "gtx480", "simt").metrics
    assert small["resident_warps"] == 8 < full["resident_warps"]
    assert small["lane_utilisation"] <= 0.5 and small["lane_utilisation"] < full["lane_utilisation"]
    assert small["makespan_cycles"] > full["makespan_cycles"]
    # vgiw streams threads, not thread blocks: the launch does not change it
    # (beyond the branch draws, which follow the kernel's content).
    assert td.simulate(nw, "gtx480", "vgiw").makespan_cycles == pytest.approx(
        td.simulate(big, "gtx480", "vgiw").makespan_cycles, rel=0.02
    )
    with pytest.raises(td.ConfigError, match="block_threads"):
        td.workloads.cfg_kernel(blocks, 64, block_threads=2048)
