"""Juggler's seven kernels (PPoPP 2018, Table 1) as task graphs: task counts,
launch groups, parallelism per level, dependence shapes, cost and memory
profiles, parameters for sweeps, and errors."""

from __future__ import annotations

import time

import numpy as np
import pytest

import tbdse as td
from tbdse.workloads import juggler_app, juggler_app_names, juggler_tasks, task_report

# app: (tasks, launch groups, levels, min width, max width) — Table 1's task
# counts and parallelism; launch groups as in docs/models/juggler.md.
EXPECTED = {
    "dt-warp": (5184, 143, 143, 1, 72),
    "heat-sim": (8100, 179, 179, 1, 90),
    "int-hist": (8100, 179, 179, 1, 90),
    "jacobi": (3600, 4, 4, 900, 900),
    "lu-d": (1240, 57, 43, 1, 196),
    "sa-table": (8100, 90, 90, 90, 90),
    "sm-w": (5184, 143, 143, 1, 72),
}


def widths(wl: td.Workload) -> np.ndarray:
    return np.bincount(np.asarray(wl.graph.levels()))


def test_all_seven_are_registered() -> None:
    assert juggler_app_names() == sorted(EXPECTED)
    assert "juggler_app" in td.workloads.generator_names()


@pytest.mark.parametrize("app", sorted(EXPECTED))
def test_task_counts_launches_and_parallelism(app: str) -> None:
    tasks, launches, levels, low, high = EXPECTED[app]
    wl = juggler_app(app)
    assert wl.tasks == tasks
    assert len(np.unique(wl.graph.launch_groups())) == launches
    assert wl.levels == levels
    assert (widths(wl).min(), widths(wl).max()) == (low, high)
    # Sections line up tile by tile, so overlap matching finds the same edges.
    b = juggler_tasks(app)
    b.match = "overlap"
    assert b.build().graph.content_hash == wl.graph.content_hash
    assert task_report(wl)["over_child_limit"].sum() == 0  # Juggler's char holds them all


@pytest.mark.parametrize(("app", "side"), [("dt-warp", 72), ("sm-w", 72), ("heat-sim", 90)])
def test_wavefronts_grow_then_shrink_one_launch_per_anti_diagonal(app: str, side: int) -> None:
    wl = juggler_app(app)
    # Level l of an n x n wavefront holds min(l + 1, 2n - 1 - l) tiles.
    expected = [min(level + 1, 2 * side - 1 - level) for level in range(2 * side - 1)]
    assert list(widths(wl)) == expected
    # The launch groups are the anti-diagonals, which are the levels.
    assert np.array_equal(wl.graph.launch_groups(), wl.graph.levels())


def test_dp_kernels_declare_the_diagonal_and_edge_counts() -> None:
    # West and north edges of a 72 x 72 grid (2 x 71 x 72) plus the north-west
    # one that the DP recurrence reads (71 x 71); INT-HIST likewise on 90 x 90.
    assert juggler_app("dt-warp").edges == 2 * 71 * 72 + 71 * 71
    assert juggler_app("int-hist").edges == 2 * 89 * 90 + 89 * 89
    # HEAT-SIM: only west and north: the east/south reads give WAR edges that
    # coincide with the RAW edges the other way.
    heat = juggler_tasks("heat-sim").dependencies()
    assert len(heat) == 2 * 89 * 90
    assert heat.war.sum() == len(heat) and heat.raw.sum() == len(heat)


def test_sa_table_is_a_column_sweep_of_exactly_90() -> None:
    wl = juggler_app("sa-table")
    assert list(widths(wl)) == [90] * 90
    # Program order is column by column: task j * 90 + i is tile (i, j), at
    # level j, launched with column j.
    levels = np.asarray(wl.graph.levels())
    assert np.array_equal(levels, np.arange(8100) // 90)
    assert np.array_equal(wl.graph.launch_groups(), levels)
    assert wl.edges == 90 * 89 + 89 * 89  # west tiles, north-west tiles


def test_jacobi_edges_stay_within_a_block_and_scale_with_iterations() -> None:
    wl = juggler_app("jacobi")
    starts, children = np.asarray(wl.graph.edge_starts()), np.asarray(wl.graph.edges())
    parents = np.repeat(np.arange(wl.tasks), np.diff(starts))
    assert np.array_equal(parents % 900, children % 900)  # Observation 2
    assert list(np.asarray(wl.graph.kernels()).reshape(4, 900)[:, 0]) == [0, 1, 0, 1]
    big = wl.with_params(iterations=18)  # Fig. 7: 32,400 tasks
    assert (big.tasks, len(np.unique(big.graph.launch_groups())), big.levels) == (32400, 36, 36)
    assert big.name == "JACOBI(iterations=18)" and big.params["iterations"] == 18


def test_lu_d_kinds_and_launches() -> None:
    wl = juggler_app("lu-d")
    report = task_report(wl).set_index("kind")
    # Per kk: 1 lu0, m fwd, m bdiv, m^2 bmod, m = 14 - kk.
    assert dict(report["tasks"]) == {"lu0": 15, "fwd": 105, "bdiv": 105, "bmod": 1015}
    assert dict(report["launch_groups"]) == {"lu0": 15, "fwd": 14, "bdiv": 14, "bmod": 14}
    r = td.simulate(wl, td.gpus.p100(), td.schemes.GlobalBarrier())
    assert r.stats["launches"] == 57


def test_cost_and_memory_profiles() -> None:
    costs = {}
    requests = {}
    for app in juggler_app_names():
        wl = juggler_app(app, cost_scale=1.0)  # the loop nests' own costs, before calibration
        assert wl.cost is not None and wl.cost.table is not None
        for k in wl.kernels:
            costs[(app, k.name)] = wl.cost.table[k.name]
            requests[(app, k.name)] = k.mem_requests
            assert k.threads == 256
    # Tens of microseconds at the p100's 1328 MHz.
    assert all(20 * 1328 <= c <= 60 * 1328 for c in costs.values())
    assert costs[("lu-d", "lu0")] > costs[("lu-d", "bmod")]
    # Observation 3: the kernels with additional array accesses make clearly
    # more global-memory requests per task than any other, and per cycle.
    extra = ("dt-warp", "int-hist", "sm-w")
    heavy = [k for k in requests if k[0] in extra]
    light = [k for k in requests if k[0] not in extra]
    assert min(requests[k] for k in heavy) > 3 * max(requests[k] for k in light)
    load = {k: requests[k] * 128 / costs[k] for k in requests}  # bytes per cycle
    assert min(load[k] for k in heavy) > 2 * max(load[k] for k in light)


def test_registers_and_memory_time_per_kind() -> None:
    # PROFILE: the streaming kernels (copy, stencils) spend most of their
    # time on memory, LU-D's dense blocks little; registers make Eq. 1 fit
    # 8 (32 registers), 6 (40) or 5 (48) 256-thread workers per P100 SM.
    kinds = {k.name: k for app in juggler_app_names() for k in juggler_app(app).kernels}
    assert all(kinds[k].mem_fraction >= 0.8 for k in ("copy", "compute", "heat"))
    assert all(kinds[k].mem_fraction <= 0.2 for k in ("lu0", "fwd", "bdiv", "bmod"))
    workers = {
        app: td.simulate(juggler_app(app, locality=False), "p100", td.schemes.Juggler()).metrics[
            "workers"
        ]
        for app in ("heat-sim", "dt-warp", "lu-d")
    }
    assert workers == {"heat-sim": 448, "dt-warp": 336, "lu-d": 280}


def test_cost_scale_and_jitter() -> None:
    base = juggler_app("lu-d", cost_scale=1.0)
    scaled = juggler_app("lu-d", cost_scale=2.0, cost_jitter=0.3)
    assert base.cost is not None and scaled.cost is not None
    assert dict(scaled.cost.table) == {k: 2 * v for k, v in dict(base.cost.table).items()}
    assert scaled.cost.params["jitter"] == 0.3
    assert scaled.graph.content_hash == base.graph.content_hash
    # Regenerated with a parameter changed, the preset's costs are derived again.
    assert scaled.with_params(cost_scale=1.0).cost.table == base.cost.table
    # The default is the calibrated scale (Fig. 4), not an uncalibrated 1.
    calibrated = juggler_app("lu-d").cost
    assert calibrated is not None and calibrated.table is not None
    assert dict(calibrated.table) == {k: 20 * v for k, v in dict(base.cost.table).items()}


def test_names_aliases_and_make() -> None:
    assert juggler_app("LUD").name == "LU-D"
    assert juggler_app("SAT", name="sat").name == "sat"
    assert td.workloads.make("juggler_app", app="SM-W").tasks == 5184


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"app": "lu"}, "unknown Juggler kernel 'lu'"),
        ({"app": "lu-d", "iterations": 3}, "'iterations' applies to jacobi only"),
        ({"app": "jacobi", "iterations": 0}, "iterations must be a whole number in"),
        ({"app": "jacobi", "cost_scale": 0}, "cost_scale must be positive"),
        ({"app": "jacobi", "kernel": td.Kernel("k")}, "describes its own kinds"),
    ],
)
def test_bad_parameters(params: dict, message: str) -> None:
    with pytest.raises(td.ConfigError, match=message):
        juggler_app(**params)


def test_sweep_over_iterations_against_the_global_barrier() -> None:
    df = td.sweep(
        juggler_app("jacobi", locality=False),  # the graph's size: no memory needed
        td.gpus.p100(),
        ["global_barrier", "dataflow_ideal"],
        grid={"iterations": [2, 4]},
    )
    assert sorted(df["workload.tasks"].unique()) == [3600, 7200]
    assert (df.groupby("scheme")["makespan_us"].count() == 2).all()


def test_largest_graphs_build_quickly() -> None:
    # JACOBI at Fig. 7's 32,400 tasks; the 8,100-task wavefronts.
    for app, params in (("jacobi", {"iterations": 18}), ("int-hist", {})):
        begin = time.perf_counter()
        juggler_app(app, **params)
        assert time.perf_counter() - begin < 5.0


def test_alu_latency_opts_the_kinds_into_per_kernel_throughput() -> None:
    # issue_interval = alu_latency / ILP (at least 1); off by default.
    assert all(k.issue_interval == 0 for k in juggler_app("lu-d").kernels)
    kinds = {k.name: k.issue_interval for k in juggler_app("lu-d", alu_latency=6).kernels}
    assert kinds == {"lu0": 6.0, "fwd": 3.0, "bdiv": 3.0, "bmod": 1.5}
    with pytest.raises(td.ConfigError, match="alu_latency"):
        juggler_app("lu-d", alu_latency=-1)


@pytest.mark.parametrize("app", ["heat-sim", "lu-d"])
def test_a_kernel_at_any_cost_scale_is_the_one_built_at_that_scale(app: str) -> None:
    # juggler_app builds a kernel's tasks and footprints once and sets each
    # cost_scale's costs on a copy: the same runs as building it afresh.
    from tbdse.models.juggler._edges import edge_footprints
    from tbdse.models.juggler.apps import EDGE_SIDES

    for scale in (3.5, 7.3):
        made = juggler_app(app, cost_scale=scale, cost_jitter=0.02)
        builder = juggler_tasks(app, 2, scale)
        side = EDGE_SIDES.get(app)
        data = builder.data_footprints() if side is None else edge_footprints(builder, side)
        fresh = builder.build(cost_jitter=0.02).with_data(data)
        assert made.task_graph is not fresh.task_graph  # really built apart
        got, want = (td.simulate(w, "p100", "juggler", seed=5) for w in (made, fresh))
        assert (got.makespan_cycles, got.config_hash) == (want.makespan_cycles, want.config_hash)
        assert made.cost.describe() == fresh.cost.describe()
    made.params["cost_scale"] = -1.0  # a caller's copy: the next one is untouched
    assert juggler_app(app, cost_scale=7.3).params["cost_scale"] == 7.3
