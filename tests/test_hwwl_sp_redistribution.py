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
converged (§II-B: updates trigger neighbouring clauses "until probabilities
converge"); those cascades grow in the bank of the thread that pushed them,
so a few banks hold most of the late work and the schemes that move it must
differ by well over the no-push spread: twice BH's 1.6%, rounded up, is 3%.
Today's SP activates every arc alike on a hub-free formula, the pushes
spread evenly and the schemes span 0.9% (fails; checked on fb9d194).

Marked xfail(strict=True) until the SP operator models convergence: the
test then passes and strict xfail makes it fail, so the mark must go."""

from __future__ import annotations

import pytest

import tbdse as td
from tbdse.models.hwwl.lonestar import lonestar

SCHEMES = ["none", "threshold", "lsorting", "gsorting", "magic"]
SPAN = 0.03  # see the docstring: twice BH's no-push spread (1.6%), rounded up


@pytest.mark.xfail(strict=True, reason="issue 29: SP's pushes spread evenly over banks")
def test_sp_redistribution_schemes_differ() -> None:
    wl = lonestar("sp", 16384)  # as experiments/hwwl_fig6.yaml
    spans = {}
    for red in SCHEMES:
        scheme = td.Scheme("hwwl", redistribution=red, bank_entries="unbounded")
        spans[red] = td.simulate(wl, "gpgpusim_hwwl", scheme).metrics["makespan_cycles"]
    lo, hi = min(spans.values()), max(spans.values())
    assert (hi - lo) / lo > SPAN, spans
