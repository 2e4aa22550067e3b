"""Optuna search through the sweep path (issue 16, "Search and trade-offs"):
trials come back as result rows, seeded searches repeat exactly, a point asked
for twice is simulated once, and bad arguments are ConfigErrors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbdse as td
from tbdse.simulation import runner as runner_module

pytest.importorskip("optuna")

WORKLOAD = td.workloads.wavefront(12, 12, cost=td.cost.lognormal(1000, 0.3))
SPACE: dict[str, Any] = {
    "node_buffer": td.space.Int(16, 512, log=True),
    "prefetch": [True, False],  # not policy: LRR does not read level_bound (refused)
    "level_bound": td.space.Int(1, 6),
}
GOALS = {"speedup": "max", "makespan_us": "min"}


def run_search(**kwargs: Any) -> pd.DataFrame:
    options: dict[str, Any] = dict(
        space=SPACE, objectives=GOALS, baseline="global_barrier", trials=16, batch=8, seed=3
    )
    options.update(kwargs)
    return td.search(WORKLOAD, "gtx480", "wireframe", **options)


@pytest.mark.parametrize("sampler", ["nsga2", "tpe", "random"])
def test_trials_come_back_as_rows_within_the_space(sampler: str) -> None:
    df = run_search(sampler=sampler)
    assert sorted(df["trial"]) == list(range(16)) and (df["trial_state"] == "complete").all()
    assert df["node_buffer"].astype(int).between(16, 512).all()
    assert df["level_bound"].astype(int).between(1, 6).all()
    assert set(df["prefetch"]) <= {True, False} and df["speedup"].notna().all()
    again = run_search(sampler=sampler)
    pd.testing.assert_frame_equal(df, again)  # seeded: the same trials and rows


def test_a_point_asked_twice_is_simulated_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    simulated: list[int] = []
    run = runner_module.Runner.run

    def counting(self: Any, executor: Any = None) -> None:
        simulated.append(int((~self.done).sum()))
        run(self, executor)

    monkeypatch.setattr(runner_module.Runner, "run", counting)
    # A space of 2 x 2 points searched for 12 trials: at most 4 distinct points run
    small = {"prefetch": [True, False], "level_bound": [2, 3]}
    df = run_search(space=small, trials=12, batch=4, sampler="random", store=tmp_path / "s")
    assert len(df) == 12
    points = df[["prefetch", "level_bound"]].drop_duplicates()
    main_runs = sum(simulated)
    assert main_runs <= 2 * len(points)  # each distinct point once (with its baseline run)
    # a second search reads every point from the store
    simulated.clear()
    again = run_search(space=small, trials=12, batch=4, sampler="random", store=tmp_path / "s")
    assert sum(simulated) == 0
    pd.testing.assert_frame_equal(again, df)


def test_multi_objective_front_is_non_dominated() -> None:
    df = run_search(sampler="nsga2", trials=24)
    front = td.pareto(df, GOALS)
    assert 0 < len(front) <= len(df)
    values = df[["speedup", "makespan_us"]].to_numpy()
    for s, m in front[["speedup", "makespan_us"]].to_numpy():
        assert not np.any(
            (values[:, 0] >= s) & (values[:, 1] <= m) & ((values[:, 0] > s) | (values[:, 1] < m))
        )


def test_a_study_can_be_continued() -> None:
    import optuna

    study = optuna.create_study(directions=["maximize", "minimize"])
    run_search(trials=8, study=study)
    run_search(trials=8, study=study)
    assert len(study.trials) == 16
    with pytest.raises(td.ConfigError, match="directions"):
        run_search(trials=2, study=study, objectives={"speedup": "min", "makespan_us": "min"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"objectives": {"speedup": "up"}}, "direction must be 'min' or 'max'"),
        ({"objectives": {}}, "objectives must name result columns"),
        ({"objectives": {"speedupp": "max"}}, "did you mean 'speedup'"),
        ({"sampler": "nsga"}, "sampler must be one of"),
        ({"trials": 0}, "trials"),
        ({"space": {"node_buffer": "big"}}, "space parameter 'node_buffer'"),
        ({"space": {"nodebuffer": [16, 32]}}, "unknown sweep parameter 'nodebuffer'"),
    ],
)
def test_bad_search_arguments(change: dict[str, Any], message: str) -> None:
    with pytest.raises(td.ConfigError, match=message):
        run_search(**{"trials": 2, "batch": 2, **change})
    with pytest.raises(td.ConfigError, match="one gpu"):
        td.search(WORKLOAD, ["gtx480", "gtx480"], "wireframe", space=SPACE, objectives=GOALS)
