"""Issue 29: the redistribution knob must move SP's result, as HWWL Fig. 6 shows
it moving (Kim & Batten, MICRO-47 2014, §IV-D: on SP *threshold* "actually
suffers" and *gsorting* falls behind *lsorting*, so the schemes differ).

Why more than 3%: redistribution can only change a run's makespan by moving
queued items between banks, so the schemes' makespans differ by about the
time the busiest banks keep running after the others drain.  BH, whose
operator pushes nothing, shows what the schemes do with no pushes at all:
1.6% (docs/models/hwwl.md, a documented non-gap), and the scheme order of a
benchmark flips with the run seed within about that (HWWL audit H4).  In SP
the real operator keeps re-activating clauses where the surveys have not
converged (§II-B: a selected literal's update triggers neighbouring clauses
"until probabilities converge"); those cascades grow in the bank of the
thread that pushed them, so a few banks hold most of the late work and the
schemes that move it must differ by well over the no-push spread: twice BH's
1.6%, rounded up, is 3%.

The SP operator is survey propagation itself (cpp/models/hwwl/survey.hpp):
the pass after LonestarGPU's first decimation starts from the clauses of the
fixed variables, and a clause is re-activated only when a survey it reads
moved by more than LonestarGPU's EPSILON.  Before that (every arc activated
alike on a hub-free formula) the pushes spread evenly over the banks (most
pushed by one bank over the mean 1.32 under `none`) and the schemes spanned
0.9%; the test checks the imbalance as well as the span, so that it passes
for that reason."""

from __future__ import annotations

import tbdse as td
from tbdse.models.hwwl.lonestar import lonestar

SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]
SPAN = 0.03  # see the docstring: twice BH's no-push spread (1.6%), rounded up


def test_sp_redistribution_schemes_differ() -> None:
    wl = lonestar("sp", 16384)  # as experiments/hwwl_fig6.yaml
    runs = {}
    for red in SCHEMES:
        scheme = td.Scheme("hwwl", redistribution=red, bank_entries="unbounded")
        runs[red] = td.simulate(wl, "gpgpusim_hwwl", scheme)
    spans = {red: r.metrics["makespan_cycles"] for red, r in runs.items()}
    lo, hi = min(spans.values()), max(spans.values())
    assert (hi - lo) / lo > SPAN, spans
    # The reason: without redistribution the survey cascades stay in the
    # banks of the threads that started them (the busiest bank pushes
    # several times the mean, against 1.32 before the surveys were
    # modelled), and every scheme that moves work evens the pushes and
    # finishes sooner than `none`.
    imbalance = {red: r.stats["bank_push_imbalance"] for red, r in runs.items()}
    assert imbalance["none"] > 2.0, imbalance
    for red in SCHEMES[1:]:
        assert imbalance[red] < imbalance["none"], imbalance
        assert spans[red] < spans["none"], spans
