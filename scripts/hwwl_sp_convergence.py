"""Issue 29 probe (not wired into any model): SP with per-variable convergence.

The real SP (HWWL §II-B) keeps updating a clause's neighbours while the
surveys of their shared variables still change.  This probe builds SP's
random 3-SAT (as tbdse.models.hwwl.inputs.random_sat_sp) but keeps only the
arcs through "unconverged" variables: the top ``slow`` share of a Gaussian
field smoothed over the formula (twice: variable -> its clauses' mean ->
variable), then runs Fig. 6's schemes and prints their makespans and span.
slow, arc_activation and generations are tbdse's trial values, not the paper's.

    python scripts/hwwl_sp_convergence.py 0.25 0.06 6
"""

from __future__ import annotations

import sys

import numpy as np

import tbdse as td
from tbdse import _core
from tbdse.models.hwwl import inputs as li
from tbdse.models.hwwl.lonestar import STRUCTURED
from tbdse.workloads.base import Workload

SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]


def converging_sat(nodes: int, seed: int, slow: float, k: int = 3) -> li.LonestarInput:
    rng = np.random.default_rng(seed)
    variables = max(k, round(nodes / li.SAT_RATIO))
    lits = np.stack([rng.choice(variables, k, replace=False) for _ in range(nodes)])
    field = rng.normal(size=variables)
    for _ in range(2):  # smooth over the formula, not over ids
        acc, cnt = np.zeros(variables), np.zeros(variables)
        np.add.at(acc, lits.ravel(), np.repeat(field[lits].mean(axis=1), k))
        np.add.at(cnt, lits.ravel(), 1)
        field = 0.5 * field + 0.5 * acc / np.maximum(cnt, 1)
    unconverged = field >= np.quantile(field, 1 - slow)
    vc = np.column_stack([lits.ravel(), np.repeat(np.arange(nodes), k)])
    vc = vc[np.argsort(vc[:, 0], kind="stable")]
    starts = np.searchsorted(vc[:, 0], np.arange(variables + 1))
    src, dst = [], []
    for v in np.flatnonzero(unconverged):
        cs = vc[starts[v] : starts[v + 1], 1]
        a, b = np.meshgrid(cs, cs)
        src.append(a[a != b])
        dst.append(b[a != b])
    arcs = np.unique(np.column_stack([np.concatenate(src), np.concatenate(dst)]), axis=0)
    cost = np.diff(starts)[lits].sum(axis=1).astype(np.float64)
    return li.LonestarInput(
        li._graph(nodes, arcs[:, 1], arcs[:, 0]),
        (cost / cost.mean()).astype(np.float32),
        np.arange(nodes, dtype=np.int32),
        {"unconverged": float(unconverged.mean())},
    )


def main(slow: float, activation: float, generations: int, nodes: int = 16384) -> None:
    made = converging_sat(nodes, 0, slow)
    fields = {
        **STRUCTURED["sp"],
        "arc_activation": activation,
        "generations": float(generations),
        "nodes": float(nodes),
    }
    problem = _core.WorklistProblem(made.graph, "synthetic", fields, made.work_scale, made.initial)
    wl = Workload(model_input=problem, name="SP")
    out = {}
    for red in SCHEMES:
        scheme = td.Scheme("hwwl", redistribution=red, bank_entries="unbounded")
        m = td.simulate(wl, "gpgpusim_hwwl", scheme).metrics
        out[red] = int(m["makespan_cycles"])
    span = (max(out.values()) - min(out.values())) / min(out.values())
    print(slow, activation, generations, out, "items", int(m["items"]), f"span {span:.1%}")


if __name__ == "__main__":
    main(float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]))
