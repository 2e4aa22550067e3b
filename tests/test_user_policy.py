"""User policies (docs/policies.md): static priorities, compiled callbacks and
plain Python callables reproduce dataflow_ideal's orders, run in sweeps on any
thread count, key the results store by their code, and fail with messages
that name the policy, the task and the cycle."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbdse as td
from tbdse.schemes.policies import PLACE_WAIT, PolicyWarning

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


@st.composite
def cases(draw: st.DrawFn) -> tuple[td.Workload, td.Gpu]:
    n = draw(st.integers(1, 24))
    pair = st.integers(0, max(n - 2, 0)).flatmap(
        lambda s: st.tuples(st.just(s), st.integers(s + 1, n - 1))
    )
    edges = draw(st.lists(pair, max_size=3 * n)) if n > 1 else []
    costs = draw(st.lists(st.integers(1, 60), min_size=n, max_size=n))
    gpu = td.gpus.custom(
        "prop", sms=draw(st.integers(1, 4)), tb_slots=draw(st.integers(1, 3)), clock_mhz=100.0
    )
    return td.workloads.from_edges(edges, n, cost=td.cost.array(costs)), gpu


def _same_run(a: td.Result, b: td.Result) -> None:
    assert a.makespan_cycles == b.makespan_cycles
    pd.testing.assert_frame_equal(a.timeline(), b.timeline())


def _lrr_priorities(ref: td.Result) -> np.ndarray:
    """lrr issues the smallest virtual id first: level by level, by id within one."""
    tl = ref.timeline().sort_values("task")
    level = tl["level"].to_numpy()
    return -(level * len(tl) + tl["task"].to_numpy()).astype(float)


@SETTINGS
@given(case=cases())
def test_static_priorities_reproduce_fifo_and_lrr(case: tuple[td.Workload, td.Gpu]) -> None:
    wl, gpu = case
    fifo = td.simulate(wl, gpu, td.schemes.DataflowIdeal(policy="fifo"), timeline=True)
    lrr = td.simulate(wl, gpu, td.schemes.DataflowIdeal(policy="lrr"), timeline=True)
    flat = td.Policy(priorities=np.zeros(wl.tasks), name="flat")  # ties: ready order
    _same_run(td.simulate(wl, gpu, flat, timeline=True), fifo)
    ranked = td.Policy(priorities=_lrr_priorities(lrr), name="lrr")
    _same_run(td.simulate(wl, gpu, ranked, timeline=True), lrr)


def _fifo(task, parents, sms, params):  # type: ignore[no-untyped-def]
    return 0.0


def _lrr(task, parents, sms, params):  # type: ignore[no-untyped-def]
    return -(task[2] * 1_000_000.0 + task[0])  # level, then id: the virtual id order


@SETTINGS
@given(case=cases())
def test_compiled_policies_reproduce_fifo_and_lrr(case: tuple[td.Workload, td.Gpu]) -> None:
    pytest.importorskip("numba")
    wl, gpu = case
    fifo = td.simulate(wl, gpu, td.schemes.DataflowIdeal(policy="fifo"), timeline=True)
    lrr = td.simulate(wl, gpu, td.schemes.DataflowIdeal(policy="lrr"), timeline=True)
    _same_run(td.simulate(wl, gpu, td.Policy(_fifo, jit=True), timeline=True), fifo)
    _same_run(td.simulate(wl, gpu, td.Policy(_lrr, jit=True), timeline=True), lrr)


def _odd_levels_first(task, parents, sms, params):  # type: ignore[no-untyped-def]
    return float(task[2] % 2)  # many ties: two priorities, each in ready order


@SETTINGS
@given(case=cases())
def test_callback_and_static_priorities_agree_on_ties(case: tuple[td.Workload, td.Gpu]) -> None:
    """The same priorities through the callback path (a heap behind the ready
    tasks of the best priority) and the static path (a list per rank)."""
    pytest.importorskip("numba")
    wl, gpu = case
    levels = td.simulate(wl, gpu, "dataflow_ideal", timeline=True).timeline().sort_values("task")
    static = td.Policy(priorities=(levels["level"].to_numpy() % 2).astype(float), name="odd")
    compiled = td.Policy(_odd_levels_first, jit=True, name="odd")
    _same_run(
        td.simulate(wl, gpu, compiled, timeline=True), td.simulate(wl, gpu, static, timeline=True)
    )


def test_numba_cfunc_with_the_documented_signature() -> None:
    numba = pytest.importorskip("numba")
    from tbdse.schemes.policies import numba_signature

    @numba.cfunc(numba_signature("priority"))
    def latest_level_first(task, parents, sms, params, user):  # type: ignore[no-untyped-def]
        return float(task[2])

    wl = td.workloads.wavefront(6, 6, cost=td.cost.lognormal(500, 0.3))
    r = td.simulate(wl, "gtx480", td.Policy(latest_level_first))
    assert r.makespan_cycles > 0
    assert td.Policy(latest_level_first).label() == "latest_level_first"


def test_plain_python_policy_matches_and_sweeps_serially() -> None:
    wl = td.workloads.wavefront(5, 7, cost=td.cost.lognormal(800, 0.3))
    ref = td.simulate(wl, "gtx480", td.schemes.DataflowIdeal(policy="lrr"), timeline=True)
    py = td.Policy(_lrr, name="py_lrr")
    _same_run(td.simulate(wl, "gtx480", py, timeline=True), ref)
    with pytest.warns(PolicyWarning, match="py_lrr.*one run at a time"):
        df = td.sweep(wl, "gtx480", py, grid={"sms": [2, 4]}, threads=2)
    assert len(df) == 2 and df["makespan_cycles"].notna().all()


def test_one_and_many_threads_give_identical_rows() -> None:
    numba = pytest.importorskip("numba")
    assert numba
    wl = td.workloads.wavefront(12, 12, cost=td.cost.lognormal(1500, 0.4))
    schemes = [
        td.schemes.DataflowIdeal(policy="fifo"),
        td.Policy(_fifo, jit=True, name="fifo_cfunc"),
        td.Policy(priorities=np.arange(wl.tasks, dtype=float), name="static"),
        td.Policy(_lrr, jit=True, max_tbs_per_sm=2, name="lrr2"),
    ]
    kw = dict(grid={"sms": [3, 7]}, replicates=2, seed=3, progress=False)
    many = td.sweep(wl, "gtx480", schemes, threads=4, **kw)
    one = td.sweep(wl, "gtx480", schemes, threads=1, **kw)
    pd.testing.assert_frame_equal(one, many)
    fifo = one[one["label"].isin(["dataflow_ideal(policy=fifo)", "fifo_cfunc"])]
    assert fifo.groupby(["gpu.sms", "replicate"])["makespan_cycles"].nunique().eq(1).all()


def test_throttle_caps_tbs_per_sm() -> None:
    wl = td.workloads.wavefront(10, 10, cost=td.cost.lognormal(1000, 0.2))
    gpu = td.gpus.custom("g", sms=2, tb_slots=4)
    tl = td.simulate(wl, gpu, td.Policy(max_tbs_per_sm=1, name="one"), timeline=True).timeline()
    for _, on_sm in tl.groupby("sm"):
        starts, ends = np.sort(on_sm["start"].to_numpy()), np.sort(on_sm["end"].to_numpy())
        assert (starts[1:] >= ends[:-1]).all()  # one TB at a time on each SM
    free = td.simulate(wl, gpu, td.Policy(name="free")).makespan_cycles
    assert td.simulate(wl, gpu, td.Policy(max_tbs_per_sm=1, name="one")).makespan_cycles > free


def test_locality_place_and_params_as_sweep_axis() -> None:
    def child_on_parent_sm(task, parents, sms, params):  # type: ignore[no-untyped-def]
        n_sms = task[6]
        for i in range(len(parents)):
            sm = parents[i, 1]
            if sms[n_sms + sm]:
                return int(sm)
        return -1

    def by_weight(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return params[0] * task[2]

    wl = td.workloads.wavefront(6, 6, cost=td.cost.lognormal(1000, 0.2))
    pol = td.Policy(by_weight, place=child_on_parent_sm, params={"weight": 1.0}, name="loc")
    tl = td.simulate(wl, "gtx480", pol, timeline=True).timeline().set_index("task")
    assert tl.loc[1, "sm"] == tl.loc[0, "sm"]  # task 1's only parent is task 0
    with pytest.warns(PolicyWarning):
        df = td.sweep(wl, "gtx480", pol, grid={"weight": [-1.0, 1.0]})
    assert list(df["weight"]) == [-1.0, 1.0]


def test_changed_code_is_a_new_configuration() -> None:
    wl = td.workloads.wavefront(4, 4)

    def a(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return 0.0

    def b(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return 1.0

    def hashes(pol: td.Policy) -> str:
        return str(td.simulate(wl, "gtx480", pol).row["config_hash"])

    first = hashes(td.Policy(a, name="p"))
    assert hashes(td.Policy(a, name="p")) == first
    assert hashes(td.Policy(b, name="p")) != first
    assert hashes(td.Policy(a, name="p", version="2")) != first
    s1 = hashes(td.Policy(priorities=np.zeros(16), name="s"))
    assert hashes(td.Policy(priorities=np.ones(16), name="s")) != s1


# ---- errors: each names the policy, the task and the cycle ----

WL = td.workloads.wavefront(3, 3, cost=td.cost.constant(100))


def test_policy_that_raises() -> None:
    def boom(task, parents, sms, params):  # type: ignore[no-untyped-def]
        if task[0] == 4:
            raise ValueError("no rank for this one")
        return 0.0

    with pytest.raises(
        td.SimulationError,
        match=r"policy 'boom' raised for task 4 at cycle \d+: "
        r".*no rank for this one",
    ):
        td.simulate(WL, "gtx480", td.Policy(boom))
    with pytest.warns(PolicyWarning):
        df = td.sweep(WL, "gtx480", td.Policy(boom), on_error="record")
    assert df["status"].iloc[0] == "simulation_error"
    assert "policy 'boom' raised for task 4" in df["error"].iloc[0]


def test_nan_priority() -> None:
    def nan(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return float("nan")

    with pytest.raises(
        td.SimulationError,
        match=r"policy 'nan' returned a NaN priority for task 0 "
        r"at cycle \d+",
    ):
        td.simulate(WL, "gtx480", td.Policy(nan))
    with pytest.raises(td.ConfigError, match="policy 's': static priority of task 2 is NaN"):
        td.Policy(priorities=[0, 1, float("nan")], name="s")


def test_place_out_of_range_and_without_room() -> None:
    def far(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return 99

    with pytest.raises(
        td.SimulationError,
        match=r"policy 'far' returned SM 99 for task 0 at cycle "
        r"\d+: out of range",
    ):
        td.simulate(WL, "gtx480", td.Policy(place=far))

    def full(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return 0  # SM 0, even when it is full

    gpu = td.gpus.custom("g", sms=2, tb_slots=1)
    with pytest.raises(
        td.SimulationError,
        match=r"policy 'full' returned SM 0 for task \d+ "
        r"at cycle \d+: it has no room",
    ):
        td.simulate(WL, gpu, td.Policy(place=full))


def test_policy_that_never_issues_is_a_deadlock() -> None:
    def never(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return PLACE_WAIT

    with pytest.raises(td.DeadlockError, match="policy 'never' never issued task 0"):
        td.simulate(WL, "gtx480", td.Policy(place=never))


def test_bad_policy_arguments() -> None:
    with pytest.raises(td.ConfigError, match=r"has 3 static priorities; workload .* has 9 tasks"):
        td.simulate(WL, "gtx480", td.Policy(priorities=[1.0, 2.0, 3.0], name="short"))
    with pytest.raises(td.ConfigError, match=r"C function pointer .* give identity="):
        td.Policy(place=12345, name="raw")
    with pytest.raises(td.ConfigError, match="must be a function"):
        td.Policy(priority="fifo")
    with pytest.raises(td.ConfigError, match=r"priority= .* or priorities="):
        td.Policy(_fifo, priorities=[0.0])


# ---- experiment files: policy: package.module:function, imported only when allowed ----

POLICY_MODULE = """
import numpy as np
import tbdse as td

def latest_ready_first(task, parents, sms, params):
    return float(task[8])

reverse = td.Policy(priorities=np.arange(36, dtype=float)[::-1].copy(), name="reverse")
"""

POLICY_EXPERIMENT = """\
name: pol
gpu: gtx480
workload: {generator: wavefront, rows: 6, cols: 6, cost: 500}
schemes:
  - dataflow_ideal
  - {policy: "yaml_policies_t:latest_ready_first", label: lifo, max_tbs_per_sm: 2}
  - {policy: "yaml_policies_t:reverse"}
outputs: {tables: [csv]}
"""


def test_experiment_file_policies_need_the_opt_in(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tbdse.experiment import cli

    (tmp_path / "yaml_policies_t.py").write_text(POLICY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    exp = tmp_path / "pol.yaml"
    exp.write_text(POLICY_EXPERIMENT)
    out = tmp_path / "out"
    assert cli.main(["run", str(exp), "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "'yaml_policies_t:latest_ready_first' would import and run code" in err
    assert "--allow-policy-imports" in err
    assert not out.exists()
    args = ["run", str(exp), "-o", str(out), "--no-progress", "--allow-policy-imports"]
    with pytest.warns(PolicyWarning, match="latest_ready_first"):
        assert cli.main(args) == 0
    assert "simulated 3, reused 0" in capsys.readouterr().out
    with pytest.warns(PolicyWarning):
        assert cli.main(args) == 0  # the same code: the store's rows
    assert "simulated 0, reused 3" in capsys.readouterr().out
    rows = pd.read_csv(out / "results.csv")
    assert list(rows["label"]) == ["dataflow_ideal", "lifo", "reverse"]
    exp.write_text(POLICY_EXPERIMENT.replace('"yaml_policies_t:reverse"', '"nowhere:x"'))
    assert cli.main(args) == 2
    assert "cannot import 'nowhere:x'" in capsys.readouterr().err


def test_critical_path_first_by_upward_rank() -> None:
    # Root 0; children 1, 2, 3; 3's child 4.  Costs 10, 10, 10, 100, 100.
    # Upward ranks 210, 10, 10, 200, 100.  Two SMs x 1 slot at 100 MHz, no
    # launch cost: FIFO runs 1 and 2 first, 3 at 20..120, 4 at 120..220;
    # critical-path-first runs 3 at 10, so 4 ends at 210.
    costs = [10, 10, 10, 100, 100]
    wl = td.workloads.from_edges([(0, 1), (0, 2), (0, 3), (3, 4)], 5, cost=td.cost.array(costs))
    rank = td.policies.upward_rank(wl, costs)
    assert list(rank) == [210, 10, 10, 200, 100]
    gpu = td.gpus.custom("g", sms=2, tb_slots=1, clock_mhz=100.0, host_launch_us=0.0)
    cp = td.Policy(priorities=rank, name="critical_path")
    assert td.simulate(wl, gpu, cp).makespan_cycles == 210
    assert td.simulate(wl, gpu, td.schemes.DataflowIdeal(policy="fifo")).makespan_cycles == 220
    # Without costs, the longest chain of tasks below: a 3x3 wavefront's corner is 5 deep.
    assert list(td.policies.upward_rank(td.workloads.wavefront(3, 3))) == [
        5,
        4,
        3,
        4,
        3,
        2,
        3,
        2,
        1,
    ]


def test_policies_are_not_sent_to_an_executor() -> None:
    pol = td.Policy(priorities=np.zeros(9), name="here_only")
    with pytest.raises(td.ConfigError, match="policy here_only is registered in this process"):
        td.sweep(WL, "gtx480", pol, executor="tcp://127.0.0.1:9")


def test_named_params_reach_their_slot_in_sweeps() -> None:
    def by_id(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return params[1] * task[0]  # 'w' is the second parameter: params[1]

    def policy(w: float) -> td.Policy:
        return td.Policy(by_id, params={"tie": 0.0, "w": w}, name="named", jit=True)

    pytest.importorskip("numba")
    wl = td.workloads.independent(4, cost=100)
    one = td.gpus.custom("g", sms=1, tb_slots=1)
    order = {
        w: list(
            td.simulate(wl, one, policy(w), timeline=True).timeline().sort_values("start")["task"]
        )
        for w in (-1.0, 1.0)
    }
    assert order == {-1.0: [0, 1, 2, 3], 1.0: [3, 2, 1, 0]}
    df = td.sweep(wl, one, [policy(0.0), "dataflow_ideal"], grid={"w": [-1.0, 1.0]})
    rows = df[df["label"] == "named"]
    assert list(rows["w"]) == [-1.0, 1.0] and list(rows["tie"]) == [0.0, 0.0]
    for w, h in zip(rows["w"], rows["config_hash"], strict=True):  # the same run as made directly
        assert h == td.simulate(wl, one, policy(w)).row["config_hash"]
    with pytest.raises(td.ConfigError, match="parameter name 'max_tbs_per_sm' is taken"):
        td.Policy(by_id, params={"max_tbs_per_sm": 1.0})


def test_search_and_perfetto_take_a_policy(tmp_path) -> None:
    pytest.importorskip("optuna")
    rank = td.Policy(priorities=np.arange(9, dtype=float), params={"unused": 0.0}, name="ranked")
    found = td.search(
        WL,
        "gtx480",
        rank,
        space={"max_tbs_per_sm": [1, 2, 4]},
        objectives="makespan_us",
        trials=3,
        batch=3,
        sampler="random",
    )
    assert set(found["max_tbs_per_sm"]) <= {1, 2, 4} and (found["label"] == "ranked").all()
    r = td.simulate(WL, "gtx480", rank, timeline=True)
    r.to_perfetto(tmp_path / "run.json")
    events = json.loads((tmp_path / "run.json").read_text())["traceEvents"]
    assert sum(e.get("ph") == "X" for e in events) == 9  # a slice per TB


def test_a_function_numba_cannot_compile() -> None:
    pytest.importorskip("numba")

    def uses_strings(task, parents, sms, params):  # type: ignore[no-untyped-def]
        return float(len(json.dumps(int(task[0]))))  # json is beyond Numba

    with pytest.raises(
        td.ConfigError,
        match=r"Numba could not compile priority function 'uses_strings'.*drop jit=True",
    ):
        td.Policy(uses_strings, jit=True)


def test_replace_and_relabel_keep_named_params() -> None:
    pol = td.Policy(priorities=np.zeros(9), params={"w": 1.0}, name="named")
    other = pol.replace(w=2.0, max_tbs_per_sm=3)
    assert other.params["w"] == 2.0 and other.params["max_tbs_per_sm"] == 3
    assert other.encoded()["p0"] == 2.0 and pol.params["w"] == 1.0
    assert pol.relabel("again").label() == "again" and pol.relabel("again").params["w"] == 1.0
    assert td.simulate(WL, "gtx480", other).makespan_cycles > 0


def test_a_ctypes_function_pointer_with_an_identity() -> None:
    import ctypes

    i64 = ctypes.POINTER(ctypes.c_int64)
    signature = ctypes.CFUNCTYPE(
        ctypes.c_double, i64, i64, i64, ctypes.POINTER(ctypes.c_double), ctypes.c_void_p
    )
    smallest_id = signature(lambda task, parents, sms, params, user: float(-task[0]))
    pol = td.Policy(smallest_id, identity="smallest id v1", name="ctypes")
    gpu = td.gpus.custom("g", sms=1, tb_slots=1)
    static = td.Policy(priorities=-np.arange(9, dtype=float), name="static")
    _same_run(td.simulate(WL, gpu, pol, timeline=True), td.simulate(WL, gpu, static, timeline=True))
