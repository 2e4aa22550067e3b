"""Bad input gives the right exception class with a message that names the problem."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import make_gpu

import tbdse as td
import tbdse.simulation.plan
from tbdse.workloads.base import GENERATORS, generator

W = td.workloads


def raises(match: str, exc: type[BaseException] = td.ConfigError) -> Any:
    """pytest.raises with a literal (not regex) message fragment."""
    return pytest.raises(exc, match=re.escape(match))


# --------------------------------------------------------------- exception classes
def test_exception_hierarchy() -> None:
    assert issubclass(td.ConfigError, ValueError)
    assert issubclass(td.ConfigError, td.TbdseError)
    assert issubclass(td.SimulationError, RuntimeError)
    assert issubclass(td.DeadlockError, td.SimulationError)
    assert issubclass(td.DeadlockError, RuntimeError)
    assert issubclass(td.SweepInterrupted, KeyboardInterrupt)
    err = td.DeadlockError("stuck", [3, 1])
    assert err.stuck_tasks == [3, 1] and str(err) == "stuck"
    assert td.SweepInterrupted("rows", "stopped").results == "rows"


def test_errors_from_the_core_are_the_python_classes() -> None:
    # A ConfigError raised in C++ is caught as the Python class (and as ValueError).
    with pytest.raises(ValueError) as info:
        W.from_edges([(0, 1), (1, 0)])
    assert type(info.value) is td.ConfigError


# ------------------------------------------------------------------------ graphs
@pytest.mark.parametrize(
    ("edges", "node", "path"),
    [
        ([(0, 1), (1, 2), (2, 0)], 0, "0 -> 1 -> 2 -> 0"),
        ([(0, 1), (1, 2), (2, 3), (3, 1)], 1, "1 -> 2 -> 3 -> 1"),  # 0 is not on the cycle
        ([(0, 5), (5, 3), (3, 5), (1, 2)], 3, "3 -> 5 -> 3"),
    ],
)
def test_cycle_names_a_node_on_it(edges: list[tuple[int, int]], node: int, path: str) -> None:
    with raises(f"task graph has a cycle through node {node}: {path}") as info:
        W.from_edges(edges)
    assert "acyclic" in str(info.value)


def test_long_cycle_message_is_shortened() -> None:
    n = 30
    edges = [(i, (i + 1) % n) for i in range(n)]
    with raises("cycle through node 0: 0 -> 1 -> 2") as info:
        W.from_edges(edges)
    assert "... -> 0" in str(info.value)


def test_cycle_in_networkx_graph() -> None:
    import networkx as nx

    g = nx.DiGraph([("a", "b"), ("b", "a")])
    with raises("cycle through node 0"):
        W.from_networkx(g)


def test_self_loop() -> None:
    with raises("edge 1 -> 1 is a self loop on node 1"):
        W.from_edges([(0, 1), (1, 1)])


@pytest.mark.parametrize(
    ("edges", "n", "message"),
    [
        (
            [(0, 1), (1, 5)],
            3,
            "edge 1 -> 5 refers to node 5, but the graph has 3 nodes (valid ids 0..2)",
        ),
        ([(0, -1)], 3, "edge 0 -> -1 refers to node -1"),
    ],
)
def test_edge_to_a_missing_node(edges: list[tuple[int, int]], n: int, message: str) -> None:
    with raises(message):
        W.from_edges(edges, n=n)


def test_empty_graphs() -> None:
    with raises("task graph is empty: it needs at least one node"):
        W.from_edges([], n=0)
    with raises("needs the node count 'n'"):
        W.from_edges([])
    with raises("task graph is empty"):
        W.chain(0)
    with raises("task graph is empty"):
        W.independent(0)
    with raises("edges must be (parent, child) pairs"):
        W.from_edges([(0, 1, 2)])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: W.wavefront(0, 3), "wavefront: 'rows' must be >= 1; got 0"),
        (lambda: W.wavefront(3, -2), "wavefront: 'cols' must be >= 1; got -2"),
        (lambda: W.barrier(4, 2, 5), "barrier: 'group' (5) must be <= 'width' (4)"),
        (lambda: W.global_barrier(0, 2), "barrier: 'width' must be >= 1; got 0"),
        (lambda: W.layered_random(3, 3, 1.5), "layered_random: 'edge_prob' must be in [0, 1]"),
        (lambda: W.layered_random(3, 3, span=0), "layered_random: 'span' must be >= 1"),
        (
            lambda: W.from_edges([(0, 1)], costs=[1, -1]),
            "node costs must hold cycle counts in [0, 2^48]; got [1, -1]",
        ),
        (
            lambda: W.from_edges([(0, 1)], costs=[1]),
            "'cost' has 1 entries but the graph has 2 nodes",
        ),
        (
            lambda: W.from_edges([(0, 1)], kernel_ids=[0, 1]),
            "its graph uses kernel ids 0..1 but 1 kernel(s) are described",
        ),
        (
            lambda: W.chain(2, kernel=td.Kernel("a"), kernels=[td.Kernel("b")]),
            "give either 'kernel' or 'kernels', not both",
        ),
        (
            lambda: W.chain(2, kernels=[td.Kernel("a"), td.Kernel("a")]),
            "kernel names must be distinct; got ['a', 'a']",
        ),
        (
            lambda: W.make("wavefrnt", rows=2, cols=2),
            "unknown workload generator 'wavefrnt' (did you mean 'wavefront'?)",
        ),
        (lambda: W.make("wavefront", rows=2), "workload generator 'wavefront' needs cols"),
        (
            lambda: W.make("wavefront", rows="2", cols=2),
            "parameter 'rows' of workload generator 'wavefront' must be a whole number; got '2'",
        ),
        (
            lambda: W.make("wavefront", rows=2, cols=2, colour=3),
            "unknown parameter of workload generator 'wavefront' 'colour'",
        ),
        (lambda: W.wavefront(2, 2).with_params(rowz=3), "(did you mean 'rows'?)"),
        (lambda: W.wavefront(2, 2).with_params(rows=2.5), "must be a whole number; got 2.5"),
        (
            lambda: W.from_edges([(0, 1)]).with_params(n=3),
            "workload 'edges' was not made by a generator, so its parameters (n) cannot be varied",
        ),
    ],
)
def test_bad_workloads(make: Any, message: str) -> None:
    with raises(message):
        make()


# ----------------------------------------------------------------------- schemes
def test_unknown_scheme_suggests_the_closest_name() -> None:
    with raises(
        "unknown scheme 'global_barier' (did you mean 'global_barrier'?); valid: "
        "baseline, blockmaestro, cdp, data, dataflow_ideal, deplinks, global_barrier, hwwl, "
        "ideal_baseline, juggler, prelaunch, sgmf, simt, topology, user_policy, vgiw, wireframe"
    ):
        td.schemes.Scheme("global_barier")
    with raises("(did you mean 'dataflow_ideal'?)"):
        td.simulate(W.chain(2), make_gpu(), "dataflow_idael")
    with raises("(did you mean 'cdp'?)"):
        td.sweep(W.chain(2), make_gpu(), ["cdp", "cdq"])
    with raises("unknown scheme 'xyzzy'; valid:"):
        td.schemes.info("xyzzy")


def test_unknown_scheme_parameter() -> None:
    with raises("parameter 'polcy' (did you mean 'policy'?); valid: level_bound, policy"):
        td.schemes.Scheme("dataflow_ideal", polcy="fifo")
    with raises("parameter 'policy'"):
        td.schemes.Scheme("global_barrier", policy="fifo")  # belongs to another scheme
    with raises("a scheme mapping needs 'name'"):
        td.sweep(W.chain(2), make_gpu(), {"policy": "fifo"})
    with raises("a scheme must be a name, a tbdse Scheme or a mapping; got 3"):
        td.sweep(W.chain(2), make_gpu(), 3)


@pytest.mark.parametrize(
    ("scheme", "params", "message"),
    [
        (
            "dataflow_ideal",
            {"policy": "fifoo"},
            "scheme 'dataflow_ideal' parameter 'policy' must be one of 'lrr', 'lvl', 'fifo'; "
            "got 'fifoo' (did you mean 'fifo'?)",
        ),
        ("dataflow_ideal", {"policy": 3}, "must be one of 'lrr', 'lvl', 'fifo'; got 3"),
        ("cdp", {"grouping": True}, "must be one of 'auto', 'level', 'launch_group'; got True"),
        ("cdp", {"grouping": None}, "parameter 'grouping' must be one of"),
    ],
)
def test_bad_scheme_parameter_values(scheme: str, params: dict, message: str) -> None:
    with raises(message):
        td.schemes.Scheme(scheme, **params)


def test_launch_group_grouping_needs_launch_groups() -> None:
    scheme = td.schemes.Scheme("global_barrier", grouping="launch_group")
    with raises("grouping 'launch_group' needs a task graph with launch groups"):
        td.simulate(W.chain(3), make_gpu(), scheme)
    # An edge from a later launch group to an earlier one cannot be a barrier program.
    wl = W.from_edges([(0, 1)], launch_groups=[1, 0])
    with raises("edge 0 -> 1 goes from launch group 1 to launch group 0"):
        td.simulate(wl, make_gpu(), scheme)


# -------------------------------------------------------------------------- GPUs
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: td.gpus.preset("gtx48"), "unknown GPU preset 'gtx48' (did you mean 'gtx480'?)"),
        (lambda: td.gpus.gtx480(smss=3), "unknown GPU field 'smss' (did you mean 'sms'?)"),
        (
            lambda: td.gpus.custom(sms=0),
            "GPU 'custom' parameter 'sms' must be an integer in [1, 65535]; got 0",
        ),
        (
            lambda: td.gpus.custom(sms=-4),
            "parameter 'sms' must be an integer in [1, 65535]; got -4",
        ),
        (
            lambda: td.gpus.custom(tb_slots=0),
            "parameter 'tb_slots' must be an integer in [1, 65535]",
        ),
        (
            lambda: td.gpus.custom(sms=1.5),
            "parameter 'sms' must be an integer in [1, 65535]; got 1.5",
        ),
        (
            lambda: td.gpus.custom(sms="4"),
            "parameter 'sms' must be an integer in [1, 65535]; got '4'",
        ),
        (
            lambda: td.gpus.custom(clock_mhz=0),
            "parameter 'clock_mhz' must be a number in [0.001, 1000000]",
        ),
        (lambda: td.gpus.custom(host_launch_us=-1), "parameter 'host_launch_us' must be a number"),
        (lambda: td.gpus.custom(threads_per_sm=0), "parameter 'threads_per_sm'"),
        (lambda: td.gpus.h100().replace(device_launch_us=-0.5), "parameter 'device_launch_us'"),
    ],
)
def test_bad_gpus(make: Any, message: str) -> None:
    with raises(message):
        make()


def test_gpu_as_sweep_argument() -> None:
    wl = W.chain(2)
    with raises("a GPU must be a preset name, a tbdse Gpu or a mapping; got 5"):
        td.sweep(wl, 5, "cdp")
    with raises("unknown GPU field 'smz'"):
        td.sweep(wl, {"preset": "gtx480", "smz": 3}, "cdp")
    with raises("unknown GPU preset 'nope'"):
        td.simulate(wl, "nope", "cdp")
    gpu = td.gpus.gtx480()
    with pytest.raises(AttributeError, match="immutable"):
        gpu.sms = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no field 'smz'"):
        gpu.smz  # noqa: B018


# ------------------------------------------------------------- kernels and costs
@pytest.mark.parametrize("field", ["threads", "regs_per_thread", "smem_bytes"])
def test_negative_kernel_sizes(field: str) -> None:
    with raises(f"kernel 'k': '{field}' must be a whole number in [0, 2147483647]; got -1"):
        td.Kernel("k", **{field: -1})
    with raises(f"'{field}' must be a whole number in [0, 2147483647]; got 1.5"):
        td.Kernel("k", **{field: 1.5})


@pytest.mark.parametrize(
    ("kernel", "limiter"),
    [
        (td.Kernel("big", threads=2048), "exceeds threads_per_sm (needs 2048 threads"),
        (td.Kernel("big", smem_bytes=10**6), "exceeds smem_per_sm"),
        (td.Kernel("big", threads=256, regs_per_thread=255), "exceeds regs_per_sm"),
    ],
)
def test_kernel_footprint_that_does_not_fit_an_sm(kernel: td.Kernel, limiter: str) -> None:
    wl = W.chain(3, kernel=kernel)
    with raises(f"kernel 'big' does not fit on one SM of GPU 'gtx480': its thread block {limiter}"):
        td.simulate(wl, "gtx480", "dataflow_ideal")
    with raises("does not fit on one SM"):
        td.sweep(wl, "gtx480", "dataflow_ideal", progress=False)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: td.cost.constant(-5),
            "cost model 'constant' parameter 'cycles' must be a finite number >= 0",
        ),
        (lambda: td.cost.lognormal(0, 0.2), "parameter 'mean' must be a finite number > 0"),
        (lambda: td.cost.normal(100, -1), "parameter 'std' must be a finite number >= 0"),
        (lambda: td.cost.uniform(10, 5), "'high' (5.000000) must be >= 'low' (10.000000)"),
        (
            lambda: td.cost.CostModel("lognorm"),
            "unknown cost model 'lognorm' (did you mean 'lognormal'?)",
        ),
        (lambda: td.cost.CostModel("lognormal", {"sigm": 1}), "(did you mean 'sigma'?)"),
        (
            lambda: td.cost.CostModel("constant", {"cycles": "9"}),
            "parameter 'cycles' must be a finite number; got '9'",
        ),
        (lambda: td.cost.CostModel("array"), "cost model 'array' needs a table of cycles"),
        (
            lambda: W.chain(2, cost="fast"),
            "a cost model must be a tbdse CostModel, a number or a mapping",
        ),
        (lambda: W.chain(2, cost={"cycles": 3}), "a cost model needs 'model'"),
        (lambda: W.chain(2, cost=td.cost.array([1.5, 2])), "table must hold whole cycle counts"),
        (
            lambda: W.chain(2, kernel=td.Kernel("a"), cost=td.cost.per_kernel({"b": 3})),
            "cost model 'per_kernel' has no cost for kernel(s) a; it names b",
        ),
    ],
)
def test_bad_cost_models(make: Any, message: str) -> None:
    with raises(message):
        make()


def test_negative_and_mismatched_cost_arrays() -> None:
    with raises("cost model 'array' table must hold cycle counts in [0, 2^48]; got [1, -2, 3]"):
        td.cost.array([1, -2, 3])
    short = W.chain(3, cost=td.cost.array([1, 2]))
    with raises("cost model 'array' has 2 entries but the graph has 3 tasks"):
        td.simulate(short, make_gpu(), "dataflow_ideal")
    # The message says which run of a sweep is wrong.
    with raises("run 0: scheme 'global_barrier' on workload 'chain(n=3)', gpu 'test'"):
        td.sweep(short, make_gpu(), "global_barrier", progress=False)


# ----------------------------------------------------------------------- cdp
def test_cdp_needs_two_slots() -> None:
    wl = W.chain(3, cost=10)
    with raises(
        "scheme 'cdp' cannot run on a GPU with one SM of one TB slot: the parent "
        "kernel's TB holds that slot"
    ):
        td.simulate(wl, make_gpu(1, 1), "cdp")
    # In a sweep the message names the run's swept values.
    with raises("gpu 'test' with gpu.sms=1, replicate 0: scheme 'cdp' cannot run"):
        td.sweep(wl, make_gpu(2, 1), "cdp", grid={"sms": [2, 1]}, progress=False)
    # Two SMs of one slot, or one SM of two slots, are enough.
    assert td.simulate(wl, make_gpu(2, 1), "cdp").makespan_cycles == 30
    assert td.simulate(wl, make_gpu(1, 2), "cdp").makespan_cycles == 30


# ------------------------------------------------------------------------ sweeps
def test_unknown_and_misspelt_sweep_axes() -> None:
    wl = W.chain(3)
    gpu = make_gpu()
    with raises("unknown sweep parameter 'smz' (did you mean 'sms'?); valid: "):
        td.sweep(wl, gpu, "cdp", grid={"smz": [1, 2]})
    with raises("sweep axis 'gpu.smz': no gpu parameter 'smz' (did you mean 'sms'?)"):
        td.sweep(wl, gpu, "cdp", grid={"gpu.smz": [1, 2]})
    with raises(
        "sweep axis 'gpx.sms': 'gpx' is not one of scheme, gpu, workload, cost "
        "(did you mean 'gpu'?)"
    ):
        td.sweep(wl, gpu, "cdp", grid={"gpx.sms": [1, 2]})
    # A parameter of a scheme that is not in the sweep.
    with raises("unknown sweep parameter 'policy'"):
        td.sweep(wl, gpu, "cdp", grid={"policy": ["lrr"]})
    # A workload parameter of another generator.
    with raises("unknown sweep parameter 'rows'"):
        td.sweep(wl, gpu, "cdp", grid={"rows": [2]})
    # A cost parameter the cost model lacks.
    with raises(
        "sweep axis 'cost.mean': no cost parameter 'mean'; cost parameters: cycles, jitter"
    ):
        td.sweep(wl, gpu, "cdp", grid={"cost.mean": [1.0]})
    with raises("a sweep axis must be named by a parameter name; got ''"):
        td.sweep(wl, gpu, "cdp", grid={"": [1]})


def test_ambiguous_sweep_axis(monkeypatch: pytest.MonkeyPatch) -> None:
    # A workload generator with a parameter called 'sms' makes a bare 'sms' ambiguous.
    monkeypatch.setitem(GENERATORS, "sms_probe", GENERATORS["independent"])  # restored afterwards

    @generator("sms_probe")
    def sms_probe(
        sms: int,
        *,
        name: str | None = None,
        cost: Any = None,
        kernel: Any = None,
        kernels: Any = None,
    ) -> td.Workload:
        made = W.independent(sms, cost=cost, kernel=kernel, kernels=kernels)
        return td.Workload(
            made.graph,
            name=name or f"sms_probe(sms={sms})",
            cost=made.cost,
            kernels=made.kernels,
            generator="sms_probe",
            params={"sms": sms},
        )

    wl = sms_probe(4, cost=100)
    with raises("sweep parameter 'sms' is ambiguous; write one of gpu.sms, workload.sms"):
        td.sweep(wl, make_gpu(1, 1), "dataflow_ideal", grid={"sms": [1, 2]})
    # Qualified names resolve it: 4 or 8 tasks on 1 or 2 one-slot SMs.
    df = td.sweep(
        wl,
        make_gpu(1, 1),
        "dataflow_ideal",
        progress=False,
        grid={"gpu.sms": [1, 2], "workload.sms": [4, 8]},
    )
    got = {(r["gpu.sms"], r["workload.sms"]): r["makespan_cycles"] for _, r in df.iterrows()}
    assert got == {(1, 4): 400, (1, 8): 800, (2, 4): 200, (2, 8): 400}


def test_bad_sweep_axis_values() -> None:
    wl = W.chain(3)
    gpu = make_gpu()
    with raises("zipped axes must have equal lengths; got gpu.sms: 2, gpu.tb_slots: 3"):
        td.sweep(wl, gpu, "cdp", zip={"sms": [1, 2], "tb_slots": [1, 2, 3]})
    with raises("sweep axis 'sms' has no values"):
        td.sweep(wl, gpu, "cdp", grid={"sms": []})
    with raises("sweep axis 'sms' needs a list of values; got '12'"):
        td.sweep(wl, gpu, "cdp", grid={"sms": "12"})
    with raises("sweep axis 'sms' needs a list of values; got 3"):
        td.sweep(wl, gpu, "cdp", grid={"sms": 3})
    with raises("sweep parameter 'gpu.sms' is given twice"):
        td.sweep(wl, gpu, "cdp", grid={"sms": [1]}, zip={"gpu.sms": [2]})
    with raises("GPU parameter 'sms' must be an integer in [1, 65535]; got 1.5"):
        td.sweep(wl, gpu, "cdp", grid={"sms": [1.5]})
    with raises(
        "with gpu.sms=0, replicate 0: GPU parameter 'sms' must be an integer in [1, 65535]; got 0"
    ):
        td.sweep(wl, make_gpu(2, 2), "cdp", grid={"sms": [0, 2]})
    with raises(
        "parameter 'policy' must be one of 'lrr', 'lvl', 'fifo'; got 'fifx' (did you mean 'fifo'?)"
    ):
        td.sweep(wl, gpu, "dataflow_ideal", grid={"policy": ["lrr", "fifx"]})
    with raises("sweep axis 'cost.cycles' must be a finite number; got 'a'"):
        td.sweep(wl, gpu, "cdp", grid={"cycles": ["a"]})
    with raises("cost.cycles=-1, replicate 0: cost model 'constant' parameter 'cycles' must be"):
        td.sweep(wl, make_gpu(2, 2), "cdp", grid={"cycles": [-1]})
    with raises("parameter 'n' of workload generator 'chain' must be a whole number; got 'x'"):
        td.sweep(wl, gpu, "cdp", grid={"n": ["x"]})


def test_cost_axis_that_does_not_apply_to_a_workload() -> None:
    const = W.chain(3, cost=10)
    lognormal = W.wavefront(2, 2, cost=td.cost.lognormal(100, 0.3))
    with raises(
        "sweep axis 'cost.mean' does not apply to workload 'chain(n=3)', whose cost "
        "model is constant(cycles=10, jitter=0)"
    ):
        td.sweep([lognormal, const], make_gpu(), "dataflow_ideal", grid={"mean": [50.0]})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"replicates": 0}, "'replicates' must be a whole number in [1, 2147483647]; got 0"),
        ({"replicates": 1.5}, "'replicates' must be a whole number in [1, 2147483647]; got 1.5"),
        ({"replicates": True}, "'replicates' must be a whole number in [1, 2147483647]; got True"),
        ({"seed": -1}, "'seed' must be a whole number in [0, 9223372036854775807]; got -1"),
        ({"threads": 0}, "threads must be a whole number in [1, 4096]; got 0"),
        ({"on_error": "ignore"}, "on_error must be 'raise' or 'record'; got 'ignore'"),
    ],
)
def test_bad_sweep_options(kwargs: dict, message: str) -> None:
    with raises(message):
        td.sweep(W.chain(2), make_gpu(), "dataflow_ideal", progress=False, **kwargs)


def test_bad_sweep_inputs() -> None:
    gpu = make_gpu()
    with raises("a workload must be a tbdse Workload; got 'chain'"):
        td.sweep("chain", gpu, "cdp")  # type: ignore[arg-type]
    with raises("a sweep needs at least one scheme"):
        td.sweep(W.chain(2), gpu, [])
    with raises("a sweep needs at least one workload"):
        td.sweep([], gpu, "cdp")
    with raises("workload names must be distinct within a sweep; got ['chain(n=2)', 'chain(n=2)']"):
        td.sweep([W.chain(2), W.chain(2, cost=5)], gpu, "cdp")
    with raises("replicate must be a whole number in [0, 2147483647]; got -1"):
        td.simulate(W.chain(2), gpu, "cdp", replicate=-1)


def test_config_errors_are_raised_before_anything_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bad run is the last one; nothing may be simulated before the error.
    calls: list[int] = []
    real_core = tbdse.simulation.plan.Plan.core

    class Spy:
        def __init__(self, core: Any) -> None:
            self._core = core

        def __getattr__(self, name: str) -> Any:
            return getattr(self._core, name)

        def run(self, runs: np.ndarray, threads: int, timeout_s: float = 0.0) -> Any:
            calls.append(len(runs))
            return self._core.run(runs, threads, timeout_s)

    monkeypatch.setattr(tbdse.simulation.plan.Plan, "core", lambda self: Spy(real_core(self)))
    with raises("gpu.sms=1"):
        td.sweep(W.chain(3), make_gpu(2, 1), "cdp", grid={"sms": [4, 3, 2, 1]}, progress=False)
    assert calls == []


# ------------------------------------------------------------ on_error='record'
def test_on_error_record_adds_status_and_error_columns() -> None:
    wl = W.wavefront(2, 2, cost=10)
    df = td.sweep(wl, make_gpu(2, 2), ["cdp", "dataflow_ideal"], on_error="record", progress=False)
    assert list(df["status"]) == ["ok", "ok"]
    assert list(df["error"]) == [None, None]  # no error: missing (CSV cannot tell "" apart)
    plain = td.sweep(wl, make_gpu(2, 2), ["cdp", "dataflow_ideal"], progress=False)
    assert "status" not in plain.columns and "error" not in plain.columns
    assert list(plain.columns) == [c for c in df.columns if c not in ("status", "error")]


class FailingCore:
    """Wraps the compiled sweep so that one run reports a deadlock."""

    def __init__(self, core: Any, fail: int) -> None:
        self._core, self.fail = core, fail

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def run(self, runs: np.ndarray, threads: int, timeout_s: float = 0.0) -> dict:
        res = dict(self._core.run(runs, threads, timeout_s))
        res["metrics"] = np.array(res["metrics"], copy=True)
        res["status"] = np.array(res["status"], copy=True)
        res["errors"] = list(res["errors"])
        for row, run in enumerate(runs):
            if run == self.fail:
                res["metrics"][row, :] = np.nan
                res["status"][row] = 2
                res["errors"][row] = f"run {run}: deadlock at cycle 7: task 1 is stuck"
        return res


@pytest.fixture
def failing_run(monkeypatch: pytest.MonkeyPatch) -> None:
    real_core = tbdse.simulation.plan.Plan.core
    monkeypatch.setattr(
        tbdse.simulation.plan.Plan, "core", lambda self: FailingCore(real_core(self), 1)
    )


@pytest.mark.usefixtures("failing_run")
def test_on_error_record_keeps_failed_runs() -> None:
    wl = W.wavefront(2, 2, cost=10)
    df = td.sweep(
        wl,
        make_gpu(2, 2),
        "dataflow_ideal",
        grid={"sms": [1, 2, 3]},
        on_error="record",
        progress=False,
    )
    assert list(df["status"]) == ["ok", "deadlock", "ok"]
    assert df["error"].isna().tolist() == [True, False, True]  # no error: missing
    assert df["error"][1] == "run 1: deadlock at cycle 7: task 1 is stuck"
    assert np.isnan(df.loc[1, "makespan_cycles"])
    assert list(df.loc[[0, 2], "makespan_cycles"]) == [30, 30]
    assert list(df["gpu.sms"]) == [1, 2, 3]  # the configuration is still reported


@pytest.mark.usefixtures("failing_run")
def test_on_error_raise_reports_the_failed_run() -> None:
    wl = W.wavefront(2, 2, cost=10)
    with raises("run 1: deadlock at cycle 7: task 1 is stuck", td.SimulationError):
        td.sweep(wl, make_gpu(2, 2), "dataflow_ideal", grid={"sms": [1, 2, 3]}, progress=False)
