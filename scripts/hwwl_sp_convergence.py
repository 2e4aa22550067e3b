"""Issue 29: SP's redistribution schemes on survey propagation passes.

Runs Fig. 6's five schemes (infinite banks, gpgpusim_hwwl) on SP's pass after
each given number of decimations (cpp/models/hwwl/survey.hpp; the workload's
default is 1) and input seed, and prints per scheme the makespan relative to
``none``, the items, super-steps, WAIT pulls and the per-bank push imbalance
(``bank_push_imbalance``: most ids pushed by one bank over the mean), then the
span of the makespans.  docs/models/hwwl.md quotes its output.

    python scripts/hwwl_sp_convergence.py                   # decimations 0..3, seed 0
    python scripts/hwwl_sp_convergence.py --decimations 1 --seeds 0 1 2
"""

from __future__ import annotations

import argparse

import tbdse as td
from tbdse.models.hwwl.lonestar import lonestar

SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]


def one(nodes: int, decimations: int, seed: int) -> None:
    wl = lonestar("sp", nodes, seed=seed, decimations=decimations)
    start = wl.model_input.survey_start() or {}
    print(
        f"decimations {decimations}, seed {seed}: {start.get('fixed_variables')} variables "
        f"fixed, {start.get('seeds')} initial clauses, host sweeps {start.get('sweeps')}"
    )
    spans = {}
    for red in SCHEMES:
        scheme = td.Scheme("hwwl", redistribution=red, bank_entries="unbounded")
        r = td.simulate(wl, "gpgpusim_hwwl", scheme)
        m, s = r.metrics, r.stats
        spans[red] = cycles = m["makespan_cycles"]
        print(
            f"  {red:9s} {cycles:>9.0f} cycles ({cycles / spans['none']:.3f} of none)  "
            f"items {m['items']:>6.0f}  super-steps {m['supersteps']:>3.0f}  "
            f"WAIT pulls {s['wait_pulls']:>9.3g}  push imbalance {s['bank_push_imbalance']:.2f}"
        )
    lo, hi = min(spans.values()), max(spans.values())
    print(f"  span {(hi - lo) / lo:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=16384)
    parser.add_argument("--decimations", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    for d in args.decimations:
        for seed in args.seeds:
            one(args.nodes, d, seed)


if __name__ == "__main__":
    main()
