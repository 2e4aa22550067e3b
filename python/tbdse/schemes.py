"""Scheduling schemes, created by name from the compiled registry.

>>> import tbdse as td
>>> td.schemes.Scheme("dataflow_ideal", policy="fifo")
Scheme('dataflow_ideal', policy='fifo')

Each scheme documents its parameters (meaning, unit, default, paper section);
:func:`list_schemes` shows them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

import pandas as pd

from tbdse import _core
from tbdse._inputs import excerpt
from tbdse._params import encode_all, unknown_name
from tbdse.errors import ConfigError

__all__ = [
    "Baseline",
    "BlockMaestro",
    "Cdp",
    "Data",
    "DataflowIdeal",
    "DepLinks",
    "GlobalBarrier",
    "Hwwl",
    "IdealBaseline",
    "Juggler",
    "Prelaunch",
    "Scheme",
    "Sgmf",
    "Simt",
    "Topology",
    "Vgiw",
    "Wireframe",
    "gpu_fields_read",
    "info",
    "list_schemes",
    "names",
    "names_for_kind",
]


def names() -> list[str]:
    return list(_core.scheme_names())


def names_for_kind(kind: str) -> list[str]:
    """The schemes that simulate workloads of ``kind`` (``task_graph``, ``worklist``, ...)."""
    return [n for n in names() if info(n)["workload_kind"] == kind]


def info(name: str) -> dict[str, Any]:
    """Summary, paper reference, parameters and statistics of a scheme."""
    if not isinstance(name, str):  # a list or mapping would fail as a cache key
        raise ConfigError(
            f"a scheme is named by text; got {excerpt(name)}; valid: {', '.join(names())}"
        )
    return _info(name)


@cache
def _info(name: str) -> dict[str, Any]:
    if name not in names():
        raise unknown_name("scheme", name, names())
    return dict(_core.scheme_info(name))


# The GPU fields each simulator reads, from the C++ models (cpp/core/tb_run,
# cpp/models/hwwl/warp_machine, cpp/models/vgiw/simt); clock_mhz turns every
# makespan into microseconds.  A sweep axis over a field that no scheme of the
# sweep reads would repeat identical runs, so tbdse._plan refuses it.  A scheme
# of a kind not listed here (a newly registered simulator) is taken to read all.
_WORKLIST_FIELDS = frozenset(
    {
        "sms",
        "lanes",
        "threads_per_sm",
        "issue_width",
        "mem_latency",
        "amo_cycles",
        "mem_bandwidth",
        "clock_mhz",
        "host_launch_us",
    }
)
# The memory hierarchy's fields (cpp/core/mem_hierarchy, docs/memory.md): no
# simulator reads them yet, so sweeping one is refused.
_MEMORY_FIELDS = frozenset(
    {
        "l1_bytes",
        "l1_ways",
        "l1_hit_cycles",
        "l1_mshrs",
        "l1_write",
        "l2_bytes",
        "l2_ways",
        "l2_banks",
        "l2_hit_cycles",
        "l2_write",
        "dram_channels",
        "dram_channel_gbps",
        "dram_latency",
    }
)
_NOT_READ_BY_TB_ENGINE = (
    frozenset({"lanes", "issue_width", "amo_cycles"}) | _MEMORY_FIELDS  # worklist-only, memory
)
_GPU_FIELDS_BY_SCHEME: dict[str, frozenset[str]] = {
    "simt": frozenset({"lanes", "issue_width", "clock_mhz"}),
    "sgmf": frozenset({"clock_mhz"}),  # a dataflow fabric: its own parameters, not the GPU's
    "vgiw": frozenset({"clock_mhz"}),
}


def gpu_fields_read(name: str) -> frozenset[str]:
    """The GPU fields scheme ``name``'s simulator reads (a sweep axis over any
    other GPU field changes none of its runs)."""
    from tbdse.gpus import field_info

    every = frozenset(f["name"] for f in field_info())
    if name in _GPU_FIELDS_BY_SCHEME:
        return _GPU_FIELDS_BY_SCHEME[name]
    kind = info(name)["workload_kind"]
    if kind == "task_graph":
        return every - _NOT_READ_BY_TB_ENGINE
    if kind == "worklist":
        return _WORKLIST_FIELDS
    return every - _MEMORY_FIELDS


# Parameters that were removed, with what replaced them: the unknown-parameter
# error (and an experiment file's unknown-key error) says so.
REPLACED_PARAMS: dict[str, str] = {
    "overlap_launches": "by the GPU fields launch_api_us and host_launch_us: a launch is "
    "the host's API call (launch_api_us, one at a time) plus a device-side latency that "
    "overlaps the next launches; launch_api_us >= host_launch_us serialises them fully",
}


class Scheme:
    """A scheme name with parameter values (defaults for those not given)."""

    scheme_name: ClassVar[str | None] = None

    def __init__(
        self, name: str | None = None, /, *, label: str | None = None, **params: Any
    ) -> None:
        name = name or self.scheme_name
        if name is None:
            raise ConfigError("a scheme needs a name")
        meta = info(name)
        try:
            encoded = encode_all(meta["params"], params, f"scheme '{name}'")
        except ConfigError as exc:
            known = {p["name"] for p in meta["params"]}
            gone = [p for p in params if p in REPLACED_PARAMS and p not in known]
            if gone:
                raise ConfigError(
                    f"{exc}; '{gone[0]}' was replaced {REPLACED_PARAMS[gone[0]]}"
                ) from None
            raise
        _core.check_scheme(name, encoded)
        values = {p["name"]: p["default"] for p in meta["params"]}
        values.update(params)
        if label is not None and (not isinstance(label, str) or not label):
            raise ConfigError(
                f"scheme '{name}': label must be a non-empty string; got {excerpt(label)}"
            )
        self.name: str = name
        self.params: dict[str, Any] = values
        self._given = dict(params)
        self._label = label

    @property
    def custom_label(self) -> str | None:
        """The label given at construction, if any."""
        return self._label

    def replace(self, **params: Any) -> Scheme:
        return Scheme(self.name, label=self._label, **{**self._given, **params})

    def param_info(self) -> list[Mapping[str, Any]]:
        return list(info(self.name)["params"])

    def encoded(self) -> dict[str, float]:
        return encode_all(info(self.name)["params"], self.params, f"scheme '{self.name}'")

    def key(self) -> tuple[Any, ...]:
        return (self.name, tuple(sorted(self.params.items())), self._label)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scheme) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self._given.items())
        if self._label is not None:
            args += f", label={self._label!r}"
        return f"Scheme({self.name!r}{args})"

    def label(self, swept: Mapping[str, Any] | None = None) -> str:
        """Short label for tables and legends: the given label, else the name plus
        non-default parameters; then the values of ``swept`` parameters, if any."""
        swept = dict(swept or {})
        if self._label is not None:
            base, shown = self._label, []
        else:
            defaults = {p["name"]: p["default"] for p in info(self.name)["params"]}
            base = self.name
            shown = [
                f"{k}={v}" for k, v in self.params.items() if defaults[k] != v and k not in swept
            ]
        shown += [f"{k}={v}" for k, v in swept.items()]
        return base + (f"({', '.join(shown)})" if shown else "")


class GlobalBarrier(Scheme):
    """One host kernel launch per launch group (Wireframe Code Block 1)."""

    scheme_name = "global_barrier"


class Cdp(Scheme):
    """Nested CUDA dynamic parallelism: a device launch per launch group."""

    scheme_name = "cdp"


class DepLinks(Scheme):
    """One launch; barriers between groups as dependency edges (Wireframe Fig. 2)."""

    scheme_name = "deplinks"


class DataflowIdeal(Scheme):
    """One launch, fine-grain dependencies, unlimited scheduler buffers."""

    scheme_name = "dataflow_ideal"


class Wireframe(Scheme):
    """Wireframe's dependency-aware TB scheduler with a finite Dependency Graph
    Buffer, LRR or level-bounded issue (MICRO-50 2017; docs/models/wireframe.md)."""

    scheme_name = "wireframe"


class Hwwl(Scheme):
    """The fine-grain hardware worklist: per-lane banks, WAIT/DONE pulls, work
    redistribution and virtualization (MICRO-47 2014; docs/models/hwwl.md)."""

    scheme_name = "hwwl"


class Topology(Scheme):
    """Topology-driven software worklist baseline: a kernel per super-step over every node."""

    scheme_name = "topology"


class Data(Scheme):
    """Data-driven, double-buffered software worklist baseline (HWWL Fig. 2)."""

    scheme_name = "data"


class Baseline(Scheme):
    """A multi-kernel application as a plain stream runs it: kernels one after
    another, each launch after the previous kernel completed (BlockMaestro Fig. 9)."""

    scheme_name = "baseline"


class IdealBaseline(Scheme):
    """The baseline without kernel launch overhead (BlockMaestro Fig. 9)."""

    scheme_name = "ideal_baseline"


class Prelaunch(Scheme):
    """Kernels launched while earlier ones run, their launches pipelined; TBs
    wait for the whole previous kernel unless independent of it (BlockMaestro
    §III-C)."""

    scheme_name = "prelaunch"


class BlockMaestro(Scheme):
    """Kernel pre-launching with TB-level dependencies between consecutive
    kernels (ISCA 2021; docs/models/blockmaestro.md)."""

    scheme_name = "blockmaestro"


class Juggler(Scheme):
    """Juggler's in-GPU task runtime: persistent worker TBs with one queue each,
    dependencies resolved on the GPU, lrr / grr / lf queue insertion (PPoPP 2018;
    docs/models/juggler.md)."""

    scheme_name = "juggler"


class Simt(Scheme):
    """A Fermi SM running a control-flow kernel: warps of ``warp_size`` with
    active masks, reconvergence at the immediate post-dominator; time is the
    busiest issue pipe (ALU lanes, ``ldst_units``, ``sfu_units``, issue width,
    all scaled by ``issue_efficiency``) or DRAM at ``dram_bytes_per_cycle``;
    ``rf_accesses_per_instruction`` counts register-file accesses (VGIW §2,
    Fig. 1b; docs/models/vgiw.md)."""

    scheme_name = "simt"


class Sgmf(Scheme):
    """The whole kernel mapped once on the fabric (``fabric_*`` unit counts,
    ``fabric_scale``), or "does not map" (a NaN row with ``maps`` = 0); every
    thread flows through every path (SGMF, ISCA 2014; docs/models/vgiw.md)."""

    scheme_name = "sgmf"


class Vgiw(Scheme):
    """Control-flow coalescing: the smallest block id with waiting threads
    runs its thread vector on the fabric; ``reconfig_model`` fixed
    (``reconfig_cycles``) or sqrt (11 x sqrt(units), twice); tiles of
    ``cvt_bits`` / blocks threads; live values through the LVC
    (``lvc_line_threads``, ``split_cut_values``) (VGIW §2-3; docs/models/vgiw.md)."""

    scheme_name = "vgiw"


def as_scheme(value: Scheme | str | Mapping[str, Any]) -> Scheme:
    """Accepts a Scheme, a scheme name, or a mapping {'name': ..., param: value}."""
    if isinstance(value, Scheme):
        return value
    if isinstance(value, str):
        return Scheme(value)
    if isinstance(value, Mapping):
        spec = dict(value)
        name = spec.pop("name", None)
        if name is None:
            raise ConfigError(f"a scheme mapping needs 'name' (one of {', '.join(names())})")
        return Scheme(str(name), **spec)
    raise ConfigError(f"a scheme must be a name, a tbdse Scheme or a mapping; got {excerpt(value)}")


def list_schemes() -> pd.DataFrame:
    """One row per scheme parameter (schemes without parameters get one row)."""
    rows = []
    for name in names():
        meta = info(name)
        params = meta["params"] or [None]
        for p in params:
            rows.append(
                {
                    "scheme": name,
                    "summary": meta["summary"],
                    "param": p["name"] if p else None,
                    "default": p["default"] if p else None,
                    "unit": p["unit"] if p else None,
                    "choices": ", ".join(p["choices"]) if p else None,
                    "doc": p["doc"] if p else None,
                    "paper_ref": (p["paper_ref"] if p else None) or meta["paper_ref"],
                }
            )
    return pd.DataFrame(rows)
