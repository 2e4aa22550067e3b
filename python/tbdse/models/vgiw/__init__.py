"""VGIW (Voitsechov & Etsion, MICRO 2015): the Rodinia kernels of Table 2
(generator ``rodinia``) and the example of Figs. 1-2 (``vgiw_example``) as
control-flow kernels.  The simt, sgmf and vgiw machines are cpp/models/vgiw;
docs/models/vgiw.md."""

from tbdse.models.vgiw.rodinia import RODINIA, rodinia, rodinia_names, vgiw_example
from tbdse.workloads.registry import export

__all__ = ["RODINIA", "rodinia", "rodinia_names", "vgiw_example"]

export(rodinia, rodinia_names, vgiw_example)
