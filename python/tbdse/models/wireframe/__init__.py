"""Wireframe (Abdolrashidi et al., MICRO 2017): the six benchmarks of §5.2
(generator ``wireframe_benchmark``) and the DepLinks API of §3.1.  The
scheduler itself is cpp/models/wireframe (scheme ``wireframe``);
docs/models/wireframe.md."""

from tbdse.models.wireframe.benchmarks import BENCHMARKS, SIZES, wireframe_benchmark
from tbdse.models.wireframe.deplinks import DepLinks
from tbdse.workloads.registry import export

__all__ = ["BENCHMARKS", "SIZES", "DepLinks", "wireframe_benchmark"]

export(DepLinks, wireframe_benchmark)
