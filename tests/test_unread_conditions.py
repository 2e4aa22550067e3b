"""Parameters read under conditions the core's read_when cannot state
(issue 29: "sweeping any knob a run does not read is a ConfigError that names
what it reads"): Juggler's spin_weight is read only under sm_model 'shared'
(a condition on the GPU), BlockMaestro's when_full only when a buffer can
fill (dependency_list_entries or parent_counter_entries not unbounded, an
"or").  Both were accepted and ignored before."""

from __future__ import annotations

from pathlib import Path

import pytest

import tbdse as td
from tbdse import experiment


@pytest.fixture(scope="module")
def jacobi() -> td.Workload:
    return td.workloads.juggler_app("jacobi", iterations=1)


@pytest.fixture(scope="module")
def app() -> td.Workload:
    return td.workloads.blockmaestro_app(td.workloads.blockmaestro_app_names()[0])


def test_spin_weight_on_fixed_sms_is_refused(jacobi: td.Workload, tmp_path: Path) -> None:
    fixed = td.gpus.p100(sm_model="fixed")
    with pytest.raises(td.ConfigError, match="'spin_weight', which is read only under sm_model"):
        td.simulate(jacobi, fixed, td.Scheme("juggler", spin_weight=2))
    with pytest.raises(td.ConfigError, match="read only under sm_model 'shared'"):
        td.sweep(jacobi, fixed, "juggler", grid={"spin_weight": [1, 2]})
    exp = tmp_path / "e.yaml"
    exp.write_text(
        "name: e\ngpu: {preset: p100, sm_model: fixed}\n"
        "workload: {generator: juggler_app, app: jacobi, iterations: 1}\n"
        "schemes: [{name: juggler, spin_weight: 2}]\n"
    )
    with pytest.raises(td.ConfigError, match="read only under sm_model 'shared'"):
        experiment.load(exp).run(tmp_path / "out")


def test_spin_weight_where_some_run_shares_sms_moves_a_result(jacobi: td.Workload) -> None:
    df = td.sweep(
        jacobi, "p100", "juggler", grid={"spin_weight": [0, 4], "gpu.sm_model": ["shared"]}
    )
    assert df["makespan_cycles"].nunique() == 2
    both = td.sweep(
        jacobi, "p100", "juggler", grid={"spin_weight": [1, 2], "gpu.sm_model": ["fixed", "shared"]}
    )
    assert len(both) == 4  # read at the shared points: allowed


def test_when_full_with_unbounded_buffers_is_refused(app: td.Workload) -> None:
    unbounded = {"dependency_list_entries": "unbounded", "parent_counter_entries": "unbounded"}
    with pytest.raises(td.ConfigError, match="'when_full' is read only when dependency_list"):
        td.simulate(app, "titanx_pascal", td.Scheme("blockmaestro", when_full="wait", **unbounded))
    with pytest.raises(td.ConfigError, match="where it is not read"):
        td.sweep(
            app,
            "titanx_pascal",
            td.Scheme("blockmaestro", **unbounded),
            grid={"when_full": ["bypass", "wait"]},
        )
    # one finite buffer: read; the written configuration leaves it out only when unread
    assert "when_full" in td.Scheme("blockmaestro", parent_counter_entries=8).read_params()
    assert "when_full" not in td.Scheme("blockmaestro", **unbounded).read_params()
    df = td.sweep(
        app,
        "titanx_pascal",
        "blockmaestro",
        grid={"when_full": ["bypass", "wait"], "parent_counter_entries": [8, "unbounded"]},
    )
    assert len(df) == 4
