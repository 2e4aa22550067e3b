"""VGIW's kernels (MICRO-48 2015): the Rodinia kernels of Table 2 and the
eight-thread example of Figs. 1-2, as control-flow kernels
(tbdse.workloads.cfg).

* :func:`rodinia` builds the Rodinia kernels of the paper's Table 2 with its
  basic-block counts; op mixes, thread counts and divergence are not in the
  paper, so each preset is tbdse's derivation from the kernel's source
  structure (``RODINIA[...]["source"]`` says what).
* :func:`vgiw_example` is the eight-thread example of Figs. 1-2.

>>> import tbdse as td
>>> wl = td.workloads.vgiw_example()
>>> wl.kind, wl.sizes()
('cfg', {'blocks': 6, 'threads': 8})
"""

from __future__ import annotations

from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.models.vgiw._rodinia_defs import RODINIA
from tbdse.workloads.base import Workload, generator
from tbdse.workloads.cfg import BasicBlock, cfg_kernel, structured

__all__ = ["RODINIA", "rodinia", "rodinia_names", "vgiw_example"]


@generator("vgiw_example", naming=lambda p: "Fig. 1 example")
def vgiw_example(*, name: str | None = None) -> Workload:
    """The eight-thread kernel of VGIW Figs. 1-2: BB1..BB6 are blocks 0..5;
    threads 1, 3, 8 take BB2, threads 2, 7 BB3 and BB4, threads 4-6 BB3 and BB5."""
    blocks = [
        BasicBlock(succ=[1, 2], branch="paths", name="BB1"),
        BasicBlock(succ=[5], name="BB2"),
        BasicBlock(succ=[3, 4], branch="paths", name="BB3"),
        BasicBlock(succ=[5], name="BB4"),
        BasicBlock(succ=[5], name="BB5"),
        BasicBlock(name="BB6"),
    ]
    p2, p34, p35 = [0, 1, 5], [0, 2, 3, 5], [0, 2, 4, 5]
    made = cfg_kernel(
        blocks, 8, paths=[p2, p34, p2, p35, p35, p35, p34, p2], name=name or "Fig. 1 example"
    )
    made.generator, made.params = "vgiw_example", {}
    return made


def rodinia_names() -> list[str]:
    return list(RODINIA)


@generator("rodinia", naming=lambda p: str(p.get("benchmark", "?")))
def rodinia(
    benchmark: str, threads: int = 0, divergence: float = -1.0, *, name: str | None = None
) -> Workload:
    """A Rodinia kernel of VGIW Table 2 (block count from the paper, the rest
    tbdse's); ``threads`` > 0 and ``divergence`` >= 0 (the if-regions' branch
    chance) override the preset's."""
    if benchmark not in RODINIA:
        raise unknown_name("Rodinia kernel", benchmark, RODINIA)
    spec = RODINIA[benchmark]
    p = spec["p"] if divergence < 0 else float(divergence)
    if not 0.0 <= p <= 1.0:
        raise ConfigError(
            f"rodinia: 'divergence' must be in [0, 1] (or -1 for the preset's); got {p}"
        )
    n = threads or spec["threads"]
    blocks = structured(
        spec["blocks"],
        alu=spec["alu"],
        special=spec["special"],
        ldst=spec["ldst"],
        mem=spec["mem"],
        p=p,
        loop=spec["loop"],
        lv=spec["lv"],
        pattern=spec["pattern"],
    )
    made = cfg_kernel(blocks, n, name=name or benchmark, block_threads=spec["block_threads"])
    made.generator, made.params = (
        "rodinia",
        {"benchmark": benchmark, "threads": threads, "divergence": divergence},
    )
    return made
