"""Parameters read under conditions beyond "another parameter is (not) one
of these values" (issue 29: "sweeping any knob a run does not read is a
ConfigError that names what it reads"): Juggler's spin_weight is read only
under sm_model 'shared' (a condition on the GPU), BlockMaestro's when_full
only when a buffer can fill (dependency_list_entries or
parent_counter_entries not unbounded, an "or").  Both are stated in the
models' tables (cpp/core/params.hpp ReadWhen) and shown where conditions are."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import tbdse as td
from tbdse import experiment
from tbdse.experiment import cli


@pytest.fixture(scope="module")
def jacobi() -> td.Workload:
    return td.workloads.juggler_app("jacobi", iterations=1)


@pytest.fixture(scope="module")
def app() -> td.Workload:
    return td.workloads.blockmaestro_app(td.workloads.blockmaestro_app_names()[0])


def test_spin_weight_on_fixed_sms_is_refused(jacobi: td.Workload, tmp_path: Path) -> None:
    fixed = td.gpus.p100(sm_model="fixed")
    shared = "read only when gpu.sm_model is 'shared'"
    with pytest.raises(td.ConfigError, match=f"'spin_weight', which is {shared}, and gpu.sm_model"):
        td.simulate(jacobi, fixed, td.Scheme("juggler", spin_weight=2))
    with pytest.raises(td.ConfigError, match=f"a sweep sets 'spin_weight'.*{shared}"):
        td.sweep(jacobi, fixed, "juggler", grid={"spin_weight": [1, 2]})
    exp = tmp_path / "e.yaml"
    exp.write_text(
        "name: e\ngpu: {preset: p100, sm_model: fixed}\n"
        "workload: {generator: juggler_app, app: jacobi, iterations: 1}\n"
        "schemes: [{name: juggler, spin_weight: 2}]\n"
    )
    with pytest.raises(td.ConfigError, match=shared):
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


def test_a_baseline_override_and_search_space_on_fixed_sms_are_refused(
    jacobi: td.Workload, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixed = td.gpus.p100(sm_model="fixed")
    with pytest.raises(td.ConfigError, match=r"'spin_weight', which is read only when gpu\.sm"):
        td.sweep(jacobi, fixed, "juggler", baseline=td.Scheme("juggler", spin_weight=2))
    exp = tmp_path / "e.yaml"
    exp.write_text(
        "name: e\ngpu: {preset: p100, sm_model: fixed}\n"
        "workload: {generator: juggler_app, app: jacobi, iterations: 1}\n"
        "scheme: juggler\n"
    )
    assert cli.main(["validate", str(exp), "scheme.spin_weight=2"]) != 0
    assert "'spin_weight', which is read only when gpu.sm_model" in capsys.readouterr().err
    assert cli.main(["validate", str(exp), "gpu.sm_model=shared", "scheme.spin_weight=2"]) == 0
    pytest.importorskip("optuna")
    space = {"spin_weight": td.space.Float(0, 4)}
    with pytest.raises(
        td.ConfigError, match=r"a design space sets 'spin_weight'.*'fixed' on every"
    ):
        td.search(jacobi, fixed, "juggler", space=space, objectives="makespan_us", trials=2)
    # over sm_model too, some trials read it
    space["gpu.sm_model"] = td.space.Choice(["fixed", "shared"])
    from tbdse.dse.search import check_space_reads

    check_space_reads([td.Scheme("juggler")], space, [fixed])


def test_the_written_configuration_leaves_out_what_no_gpu_reads(tmp_path: Path) -> None:
    from tbdse.schemes.reads import gpu_values

    juggler = td.Scheme("juggler")
    assert "spin_weight" in juggler.read_params()  # GPUs not known: kept
    fixed = gpu_values([td.gpus.p100(sm_model="fixed")])
    assert "spin_weight" not in juggler.read_params(fixed)
    assert "spin_weight" in juggler.read_params(gpu_values([td.gpus.p100(sm_model="shared")]))
    assert "spin_weight" in juggler.read_params(
        gpu_values([td.gpus.p100(sm_model="fixed")], {"sm_model": ["shared"]})
    )
    # resolved.yaml is itself an experiment file: it must load and validate
    exp = tmp_path / "e.yaml"
    exp.write_text(
        "name: e\ngpu: {preset: p100, sm_model: fixed}\n"
        "workload: {generator: wavefront, rows: 4, cols: 4, cost: 100}\nscheme: juggler\n"
    )
    resolved = experiment.load(exp).resolved()
    assert "spin_weight" not in resolved["schemes"][0]
    again = tmp_path / "resolved.yaml"
    again.write_text(yaml.safe_dump(resolved))
    experiment.load(again).plan()
    exp.write_text(exp.read_text() + "grid: {gpu.sm_model: [fixed, shared]}\n")
    assert "spin_weight" in experiment.load(exp).resolved()["schemes"][0]


def test_the_listing_and_the_schema_state_both_conditions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spin = "read only when gpu.sm_model is 'shared'"
    full = (
        "read only when dependency_list_entries is not 'unbounded' or "
        "parent_counter_entries is not 'unbounded'"
    )
    assert cli.main(["list", "schemes"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "spin_weight = auto TBs: " in out and spin in out
    assert "when_full = bypass (one of bypass, wait): " in out and full in out
    listed = td.schemes.list_schemes().set_index(["scheme", "param"])["doc"]
    assert listed[("juggler", "spin_weight")].endswith(spin)
    assert listed[("blockmaestro", "when_full")].endswith(full)
    schema = td.schema.experiment_schema()

    def described(scheme: str, param: str) -> str:
        return str(
            next(
                b["then"]["properties"]
                for b in schema["definitions"]["scheme"]["anyOf"][1]["allOf"]
                if b["if"]["properties"]["name"]["const"] == scheme
            )[param]["description"]
        )

    assert spin in described("juggler", "spin_weight")
    assert full in described("blockmaestro", "when_full")
