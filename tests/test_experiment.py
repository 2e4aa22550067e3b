"""YAML experiment files: loading, located validation messages, running, resuming."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import pytest

import tbdse as td
from tbdse import experiment
from tbdse.errors import ConfigError, SweepInterrupted

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "exp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


BASE = textwrap.dedent("""\
    name: small
    seed: 3
    replicates: 2
    gpu: {preset: gtx480, host_launch_us: 5}
    workload:
      generator: wavefront
      rows: 6
      cols: 6
      cost: {model: lognormal, mean: 2000, sigma: 0.2}
    schemes: [global_barrier, dataflow_ideal]
    baseline: global_barrier
    grid:
      gpu.sms: [1, 2]
""")


def problems_of(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        experiment.load(path)
    return str(info.value)


def test_quickstart_loads_and_counts_runs() -> None:
    exp = experiment.load(ROOT / "experiments" / "quickstart.yaml")
    # 4 schemes x 4 values of cost.mean x 3 replicates
    assert experiment.count_runs(exp) == 48
    assert [s.name for s in exp.schemes] == ["global_barrier", "cdp", "deplinks", "dataflow_ideal"]


def test_every_shipped_experiment_validates() -> None:
    files = sorted((ROOT / "experiments").glob("*.yaml"))
    assert files
    for f in files:
        experiment.load(f)


def test_run_writes_tables_figure_and_resolved_config(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        BASE
        + textwrap.dedent("""\
        outputs:
          tables: [parquet, csv]
          plots:
            - {kind: line, x: gpu.sms, y: speedup, file: speedup.png}
            - {kind: heatmap, x: gpu.sms, y: replicate, value: makespan_us, file: heat.png,
               where: {scheme: dataflow_ideal}}
            - {kind: bar, x: gpu.sms, y: makespan_us, file: bars.png,
               where: {scheme: dataflow_ideal}}
    """),
    )
    out = tmp_path / "out"
    # Figures are drawn off pyplot: the caller's backend (say a notebook's,
    # here svg) and open figures are left alone.
    previous = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        figures_before = plt.get_fignums()
        frame = experiment.load(path).run(out, progress=False, echo=lambda _: None)
        assert (matplotlib.get_backend(), plt.get_fignums()) == ("svg", figures_before)
    finally:
        matplotlib.use(previous)
    # 2 schemes x 2 values of sms x 2 replicates
    assert len(frame) == 8
    for name in (
        "results.parquet",
        "results.csv",
        "resolved.yaml",
        "speedup.png",
        "heat.png",
        "bars.png",
    ):
        assert (out / name).stat().st_size > 0, name
    assert (out / "store" / "tbdse-store.json").exists()  # kept: a rerun reuses it
    stored = pd.read_parquet(out / "results.parquet")
    pd.testing.assert_frame_equal(stored, frame)
    # The resolved configuration is itself a complete description.
    resolved = (out / "resolved.yaml").read_text()
    assert "threads_per_sm: 1536" in resolved and "policy: lrr" in resolved


def test_misspelt_top_level_key_names_line_and_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, BASE.replace("replicates: 2", "replicate: 2"))
    msg = problems_of(path)
    assert "exp.yaml:3:1" in msg
    assert "unknown key 'replicate'" in msg and "did you mean 'replicates'" in msg


def test_misspelt_scheme_parameter(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        BASE.replace(
            "schemes: [global_barrier, dataflow_ideal]",
            "schemes: [global_barrier, {name: dataflow_ideal, polcy: fifo}]",
        ),
    )
    msg = problems_of(path)
    assert "schemes[1].polcy" in msg and "did you mean 'policy'" in msg
    assert "exp.yaml:10:" in msg


def test_unknown_scheme_and_generator_suggest_names(tmp_path: Path) -> None:
    text = BASE.replace("[global_barrier, dataflow_ideal]", "[global_barier]").replace(
        "generator: wavefront", "generator: wavefrnt"
    )
    msg = problems_of(write(tmp_path, text))
    assert "did you mean 'global_barrier'" in msg
    assert "did you mean 'wavefront'" in msg
    assert "2 problems" in msg


def test_duplicate_keys_are_rejected_with_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "seed: 4\n")
    msg = problems_of(path)
    assert "duplicate key 'seed'" in msg and "first given on line 2" in msg


def test_exponent_numbers_are_numbers(tmp_path: Path) -> None:
    text = BASE.replace("mean: 2000", "mean: 2e3").replace(
        "gpu.sms: [1, 2]", "cost.mean: [1e3, 4e3]"
    )
    exp = experiment.load(write(tmp_path, text))
    assert exp.workloads[0].cost.params["mean"] == 2000.0
    assert exp.grid == {"cost.mean": [1000.0, 4000.0]}
    # and 'no' stays a string (YAML 1.2), so it is reported as a bad value, not read as false
    msg = problems_of(write(tmp_path, BASE.replace("replicates: 2", "replicates: no"), "b.yaml"))
    assert "replicates" in msg and "'no'" in msg


def test_wrong_types_and_negative_sizes_are_all_reported(tmp_path: Path) -> None:
    text = (
        BASE.replace("rows: 6", "rows: six")
        .replace("{preset: gtx480, host_launch_us: 5}", "{preset: gtx480, sms: 0}")
        .replace("replicates: 2", "replicates: 0")
    )
    msg = problems_of(write(tmp_path, text))
    assert "3 problems" in msg
    assert "workload" in msg and "'rows'" in msg and "'six'" in msg
    assert "gpu" in msg and "'sms' must be an integer in [1, 65535]; got 0" in msg
    assert "replicates" in msg and "whole number in [1, 2147483647]" in msg


def test_bad_grid_zip_and_plot_columns(tmp_path: Path) -> None:
    text = BASE.replace("gpu.sms: [1, 2]", "gpu.smz: [1, 2]") + textwrap.dedent("""\
        zip:
          gpu.tb_slots: [1, 2, 3]
          gpu.clock_mhz: [700, 800]
        outputs:
          plots:
            - {kind: line, x: gpu.sms, y: speedupp, file: a.png}
            - {kind: pie, x: a, y: b}
    """)
    msg = problems_of(write(tmp_path, text))
    assert "grid.gpu.smz" in msg and "did you mean 'sms'" in msg
    assert "same number of values" in msg
    assert "kind: must be one of line, heatmap, bar" in msg or "one of line, heatmap, bar" in msg


def test_plot_column_checked_after_structure(tmp_path: Path) -> None:
    text = BASE + textwrap.dedent("""\
        outputs:
          plots:
            - {kind: line, x: gpu.sms, y: speedupp, file: a.png}
    """)
    msg = problems_of(write(tmp_path, text))
    assert "outputs.plots[0].y" in msg and "did you mean 'speedup'" in msg


def test_impossible_configuration_is_rejected_before_running(tmp_path: Path) -> None:
    text = BASE.replace("[global_barrier, dataflow_ideal]", "[cdp]").replace(
        "{preset: gtx480, host_launch_us: 5}", "{preset: gtx480, tb_slots: 1}"
    )
    msg = problems_of(write(tmp_path, text))
    assert "cdp" in msg and "parent kernel" in msg and "gpu.sms=1" in msg


def test_stg_file_paths_are_relative_to_the_experiment(tmp_path: Path) -> None:
    (tmp_path / "graphs").mkdir()
    (tmp_path / "graphs" / "g.stg").write_text((ROOT / "tests/data/stg/rand0000.stg").read_text())
    text = BASE.replace(
        "generator: wavefront\n  rows: 6\n  cols: 6\n"
        "  cost: {model: lognormal, mean: 2000, sigma: 0.2}",
        "file: graphs/g.stg\n  cycles_per_unit: 100",
    )
    exp = experiment.load(write(tmp_path, text))
    assert exp.workloads[0].tasks == 50
    assert exp.workloads[0].cost.params["scale"] == 100


def test_application_files_are_workloads(tmp_path: Path) -> None:
    # A .yaml workload file is a multi-kernel application (command queue).
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "pair.yaml").write_text(
        textwrap.dedent("""\
            name: pair
            commands:
              - malloc: {buffer: A, shape: 4096}
              - memcpy_h2d: A
              - launch: {kernel: k1, grid: 16, cost: 3000, writes: {A: "256*bx : 256*bx + 256"}}
              - launch: {kernel: k2, grid: 16, cost: 3000, reads: {A: "256*bx : 256*bx + 256"}}
              - memcpy_d2h: A
        """)
    )
    text = BASE.replace(
        "generator: wavefront\n  rows: 6\n  cols: 6\n"
        "  cost: {model: lognormal, mean: 2000, sigma: 0.2}",
        "file: apps/pair.yaml",
    ).replace("schemes: [global_barrier, dataflow_ideal]", "schemes: [baseline, blockmaestro]")
    text = text.replace("baseline: global_barrier", "baseline: baseline")
    exp = experiment.load(write(tmp_path, text))
    wl = exp.workloads[0]
    assert (wl.name, wl.tasks, wl.edges) == ("pair", 32, 16)
    df = exp.run(tmp_path / "out")
    bm = df[df["scheme"] == "blockmaestro"]
    assert (bm["speedup"] > 1).all()  # the second launch is hidden behind the first kernel
    bad = text.replace("file: apps/pair.yaml", "file: apps/pair.yaml\n  format: cuda")
    formats = (
        "'stg', 'edge_list', 'application', 'tasks', 'cfg', 'dot', 'wfcommons', 'matrix_market'"
    )
    assert f"must be one of {formats}; got 'cuda'" in problems_of(write(tmp_path, bad, "bad.yaml"))


def test_interrupted_run_resumes_from_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp = experiment.load(write(tmp_path, BASE))
    reference = exp.run(tmp_path / "ref", progress=False, echo=lambda _: None)

    import tbdse.simulation.runner as sweep_mod

    monkeypatch.setattr(sweep_mod, "FIRST_CHUNK_WEIGHT", 1.0)  # one run per chunk at first
    monkeypatch.setattr(sweep_mod, "CHUNK_SECONDS", 1e-9)  # and afterwards
    monkeypatch.setattr(sweep_mod, "MIN_CHUNK_RUNS", 1)  # not one per worker thread
    calls = {"n": 0}
    original = sweep_mod.Runner._check_errors

    def interrupt_after_three_chunks(self, chunk, status):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return original(self, chunk, status)

    monkeypatch.setattr(sweep_mod.Runner, "_check_errors", interrupt_after_three_chunks)
    out = tmp_path / "out"
    with pytest.raises(SweepInterrupted) as info:
        exp.run(out, progress=False, echo=lambda _: None)
    assert len(info.value.results) == 3  # three finished runs kept
    assert (out / "store").is_dir() and (out / "results.partial.csv").exists()

    monkeypatch.setattr(sweep_mod.Runner, "_check_errors", original)
    said: list[str] = []
    resumed = exp.run(out, progress=False, echo=said.append)
    assert said[0].startswith("reusing 3 of")
    pd.testing.assert_frame_equal(resumed, reference)


def test_from_dict_builds_the_same_experiment() -> None:
    exp = experiment.from_dict(
        {
            "gpu": "gtx480",
            "workload": {"generator": "chain", "n": 4, "cost": 100},
            "scheme": "dataflow_ideal",
        }
    )
    frame = exp.run(Path(__import__("tempfile").mkdtemp()), progress=False, echo=lambda _: None)
    assert frame["makespan_cycles"].iloc[0] == 21000 + 400  # 30 us launch at 700 MHz + 4 x 100
    assert isinstance(exp.schemes[0], td.Scheme)


def test_plot_options_are_checked_before_running(tmp_path: Path) -> None:
    text = BASE + textwrap.dedent("""\
        outputs:
          plots:
            - {kind: heatmap, x: gpu.sms, y: replicate, value: makespan_us, agg: sum,
               cmap: viridus, file: ../outside.png}
            - {kind: line, x: gpu.sms, y: speedup, spread: wide, logx: yes}
    """)
    msg = problems_of(write(tmp_path, text))
    assert "plots[0].file" in msg and "inside the output folder" in msg
    assert "plots[0].agg: must be one of mean, median, min, max; got 'sum'" in msg
    assert "did you mean 'viridis'" in msg
    assert "plots[1].spread" in msg and "plots[1].logx: must be true or false" in msg
    mapping = BASE + "outputs:\n  plots: {kind: line}\n"
    assert "outputs.plots: must be a list of plots" in problems_of(
        write(tmp_path, mapping, "m.yaml")
    )


def test_format_goes_with_file_and_kernels_list(tmp_path: Path) -> None:
    text = BASE.replace("generator: wavefront", "generator: wavefront\n  format: stg")
    assert "'format' goes with 'file'" in problems_of(write(tmp_path, text))
    text = BASE.replace(
        "  cost: {model: lognormal, mean: 2000, sigma: 0.2}",
        "  cost: {model: lognormal, mean: 2000, sigma: 0.2}\n"
        "  kernels: [{name: tile, threads: 256, regs_per_thread: 32}]",
    )
    exp = experiment.load(write(tmp_path, text, "k.yaml"))
    assert exp.workloads[0].kernels == (td.Kernel("tile", 256, 32, 0),)


def test_resolved_yaml_is_an_experiment_giving_the_same_runs(tmp_path: Path) -> None:
    text = BASE.replace(
        "schemes: [global_barrier, dataflow_ideal]",
        "schemes: [global_barrier, {name: dataflow_ideal, label: ideal, policy: fifo}]",
    )
    first = experiment.load(write(tmp_path, text)).run(
        tmp_path / "a", progress=False, echo=lambda _: None
    )
    again = experiment.load(tmp_path / "a" / "resolved.yaml").run(
        tmp_path / "b", progress=False, echo=lambda _: None
    )
    pd.testing.assert_frame_equal(first, again)


def test_yaml_scalars_follow_the_core_schema() -> None:
    from tbdse.io.yamlio import load_yaml

    data = load_yaml("x.yaml", text="a: [1e3, 007, 0o17, 0x1f, 1_000, .inf, inf, .nan, no, ~]").data
    assert data["a"][:5] == [1000.0, 7, 15, 31, "1_000"]
    assert data["a"][5] == float("inf") and data["a"][6] == "inf"
    assert data["a"][7] != data["a"][7] and data["a"][8:] == ["no", None]
