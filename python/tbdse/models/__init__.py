"""The published mechanisms, one subpackage each beside its C++ folder
(cpp/models/<name>): the paper's presets, benchmark generators and
application definitions.  Importing this package registers every paper's
generators (YAML ``generator:`` names) and offers its workload helpers as
td.workloads.<name>; tbdse/__init__.py imports it, and no generic module
does (tests/test_layout.py).

* :mod:`tbdse.models.wireframe` — Wireframe (MICRO 2017): the six benchmarks
  of §5.2 and the DepLinks API of §3.1.
* :mod:`tbdse.models.blockmaestro` — BlockMaestro (ISCA 2021): Table II's
  applications and Fig. 12's VectorAdd pair.
* :mod:`tbdse.models.juggler` — Juggler (PPoPP 2018): Table 1's kernels.
* :mod:`tbdse.models.hwwl` — hardware worklists (MICRO 2014): the
  LonestarGPU benchmarks and their inputs.
* :mod:`tbdse.models.vgiw` — VGIW (MICRO 2015): Table 2's Rodinia kernels and
  the example of Figs. 1-2.
"""

from tbdse.models import blockmaestro, hwwl, juggler, vgiw, wireframe

__all__ = ["blockmaestro", "hwwl", "juggler", "vgiw", "wireframe"]
