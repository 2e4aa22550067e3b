"""Schemes by name from the compiled registry: their parameters, the GPU fields
each reads, and Scheme, a name with parameter values."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar, TypeVar

import pandas as pd

from tbdse import _core
from tbdse._util.excerpts import excerpt
from tbdse._util.params import encode_all, unknown_name
from tbdse.errors import ConfigError
from tbdse.schemes.reads import GpuValues, unread_why

__all__ = [
    "Scheme",
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
# sweep reads would repeat identical runs, so tbdse.simulation.plan refuses it.  A scheme
# of a kind not listed here (a newly registered simulator) is taken to read all.
_WORKLIST_FIELDS = frozenset(
    {
        "sms",
        "lanes",
        "threads_per_sm",
        "issue_width",
        "amo_cycles",
        "clock_mhz",
        "host_launch_us",
        "tb_slots",  # topology / data: blocks per core
    }
)
# The memory hierarchy's fields (cpp/core/mem_hierarchy, docs/memory.md): the
# worklist machine reads them (its loads go through L1, L2 and DRAM); the
# TB-level engine does not yet.
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
# mem_latency is Wireframe's (its chunk fetches and spilled updates); the
# engine times a TB's memory through the hierarchy, with footprints
# (tests/test_knobs_move.py found no other TB scheme it moved).
_NOT_READ_BY_TB_ENGINE = (
    frozenset({"lanes", "issue_width", "amo_cycles", "mem_latency"}) | _MEMORY_FIELDS
)
# VGIW's three machines take one SM's L1/L2 and the DRAM latency from the GPU
# (cpp/models/vgiw/memory.cpp); DRAM bandwidth is their own parameter.  Not
# the L1 store policy: each (block, memory op) has an array of its own, so no
# store meets a line a load brought into the L1, where the policies differ.
_VGIW_MEMORY = _MEMORY_FIELDS - {"dram_channels", "dram_channel_gbps", "l1_write"}
_GPU_FIELDS_BY_SCHEME: dict[str, frozenset[str]] = {
    # simt also sizes its occupancy from the SM (simt.cpp: blocks per SM)
    "simt": frozenset(
        {"lanes", "issue_width", "clock_mhz", "tb_slots", "threads_per_sm", "regs_per_sm"}
    )
    | _VGIW_MEMORY,
    "sgmf": frozenset({"clock_mhz"}) | _VGIW_MEMORY,  # a dataflow fabric: its own units
    "vgiw": frozenset({"clock_mhz"}) | _VGIW_MEMORY,
}


# Juggler's GRR counter is one same-address atomicAdd of the GPU's, and its
# runtime's atomics slow with the application's traffic over mem_bandwidth
# under either SM model (juggler.cpp).
_TB_SCHEME_EXTRA: dict[str, frozenset[str]] = {
    "juggler": frozenset({"amo_cycles", "mem_bandwidth"}),
    "wireframe": frozenset({"mem_latency"}),
}
# The hardware worklist's warps stay resident (no blocks, so no tb_slots) and
# pull without atomics; topology-driven kernels push nothing, so take no
# atomic (cpp/models/hwwl: only software_machine's pushes read amo_cycles).
# lanes is the number of worklist banks per core (hwwl_machine.cpp): the
# software worklists have none, and their warps issue at issue_width.
_WORKLIST_UNREAD: dict[str, frozenset[str]] = {
    "hwwl": frozenset({"amo_cycles", "tb_slots"}),
    "topology": frozenset({"amo_cycles", "lanes"}),
    "data": frozenset({"lanes"}),
}
# Read by the TB engine only under sm_model 'shared' (docs/simulation.md "Timing models").
_SHARED_ONLY = frozenset({"sm_saturation", "sm_share", "mem_bandwidth"})
# The SM issue rate min(issue_width, lanes / 32) of a kernel's stated issue_interval
# (docs/simulation.md "Per-kernel throughput").
_ISSUE_RATE_FIELDS = frozenset({"issue_width", "lanes"})


def gpu_fields_read(
    name: str, footprints: bool = False, issue_rates: bool = False, shared: bool = True
) -> frozenset[str]:
    """The GPU fields scheme ``name``'s simulator reads (a sweep axis over any
    other GPU field changes none of its runs).  ``footprints``: some workload
    declares data footprints, which a TB scheme sends through the memory
    hierarchy (docs/simulation.md "Data footprints"), so it reads the memory
    fields too.  ``issue_rates``: some kernel states an ``issue_interval``,
    so a TB scheme reads the SM's issue rate (``issue_width``, ``lanes``).
    ``shared``: some run has ``sm_model = 'shared'``; without, a TB scheme
    reads neither ``sm_saturation``, ``sm_share``, ``mem_bandwidth`` nor the
    issue rate."""
    from tbdse.machine.gpus import field_info

    every = frozenset(f["name"] for f in field_info())
    if name in _GPU_FIELDS_BY_SCHEME:
        return _GPU_FIELDS_BY_SCHEME[name]
    kind = info(name)["workload_kind"]
    if kind == "task_graph":
        read = every - _NOT_READ_BY_TB_ENGINE - (frozenset() if shared else _SHARED_ONLY)
        return (
            read
            | _TB_SCHEME_EXTRA.get(name, frozenset())
            | (_MEMORY_FIELDS if footprints else frozenset())
            | (_ISSUE_RATE_FIELDS if issue_rates and shared else frozenset())
        )
    if kind == "worklist":
        return (_WORKLIST_FIELDS | _MEMORY_FIELDS) - _WORKLIST_UNREAD.get(name, frozenset())
    return every - _MEMORY_FIELDS


# Parameters that were removed, with what replaced them: the unknown-parameter
# error (and an experiment file's unknown-key error) says so.
REPLACED_PARAMS: dict[str, str] = {
    "overlap_launches": "by the GPU fields launch_api_us and host_launch_us: a launch is "
    "the host's API call (launch_api_us, one at a time) plus a device-side latency that "
    "overlaps the next launches; launch_api_us >= host_launch_us serialises them fully",
}


def _same(value: Any, default: Any) -> bool:
    """``value`` is the default (of the same type: 1 is not True)."""
    return type(value) is type(default) and value == default


def _unknown_param(name: str, key: str, valid: list[str]) -> ConfigError:
    exc = unknown_name("parameter", key, valid, f"scheme '{name}'")
    if key in REPLACED_PARAMS:
        return ConfigError(f"{exc}; '{key}' was replaced {REPLACED_PARAMS[key]}")
    return exc


_S = TypeVar("_S", bound="Scheme")


class Scheme:
    """A scheme name with parameter values (defaults for those not given)."""

    scheme_name: ClassVar[str | None] = None

    def __new__(cls: type[_S], *args: Any, **params: Any) -> _S:
        # A scheme class (td.schemes.Wireframe) takes keyword arguments only: a
        # name given to it would otherwise make another scheme.  Checked here,
        # before Python binds the arguments to the class's __init__, so that a
        # mistake is a ConfigError that names the valid parameters.
        if cls.scheme_name is not None:
            if args:
                raise ConfigError(
                    f"{cls.__name__} takes its parameters as keywords "
                    f"({cls.__name__}(param=value, ...)); got {excerpt(args[0])}; "
                    f"for a scheme by name use td.Scheme(name, ...)"
                )
            meta = info(cls.scheme_name)
            valid = [p["name"] for p in meta["params"]]
            for key in params:
                if key != "label" and key not in valid:
                    raise _unknown_param(cls.scheme_name, key, valid)
        return object.__new__(cls)

    def __init__(
        self, name: str | None = None, /, *, label: str | None = None, **params: Any
    ) -> None:
        if name is not None and self.scheme_name is not None:
            raise ConfigError(f"{type(self).__name__} takes no scheme name; got {excerpt(name)}")
        name = name or self.scheme_name
        if name is None:
            raise ConfigError("a scheme needs a name")
        meta = info(name)
        if self.scheme_name is not None:  # a class passes every parameter: keep those given
            defaults = {p["name"]: p["default"] for p in meta["params"]}
            params = {k: v for k, v in params.items() if not _same(v, defaults.get(k))}
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

    def core_param(self, name: str) -> str:
        """The registered parameter that ``name`` (a key of ``params``) sets
        (a user policy names its p0..p3; tbdse.schemes.policies)."""
        return name

    def given_encoded(self) -> dict[str, float]:
        """The parameters given at construction, encoded: what the core checks
        as set by the user (a default is never refused as unread)."""
        return encode_all(info(self.name)["params"], self._given, f"scheme '{self.name}'")

    def read_params(self, gpu: GpuValues | None = None) -> dict[str, Any]:
        """The parameter values this scheme's run reads: those given, and the
        defaults whose read conditions (``read_when``) hold, on some of the
        GPUs ``gpu`` (tbdse.schemes.reads.gpu_values; None: a condition on the
        GPU holds), so a written configuration never sets a parameter the run
        would refuse as unread."""
        infos = {p["name"]: p for p in info(self.name)["params"]}
        owner = f"scheme '{self.name}'"
        return {
            name: self.params[name]
            for name in infos
            if name in self._given or unread_why(infos, name, self.params, gpu, owner) is None
        }

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
                    "doc": (
                        p["doc"]
                        + (f"; read only when {p['read_when_text']}" if p["read_when_text"] else "")
                        if p
                        else None
                    ),
                    "paper_ref": (p["paper_ref"] if p else None) or meta["paper_ref"],
                }
            )
    return pd.DataFrame(rows)
