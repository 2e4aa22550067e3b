"""Control-flow kernels for the ``simt``, ``sgmf`` and ``vgiw`` machines
(VGIW, MICRO-48 2015; docs/models/vgiw.md): a kernel is a control-flow graph
of basic blocks over a number of threads.

* :class:`BasicBlock` and :func:`cfg_kernel` describe a kernel in Python;
  :func:`cfg_file` reads the same description from YAML.
* :func:`divergent_cfg` is a synthetic kernel of any size and divergence
  (benchmarks, the design-space sweep); :func:`structured` builds the
  if-regions and loops both it and the paper's presets use.
* The paper's kernels (Rodinia, Table 2; the example of Figs. 1-2) are in
  tbdse.models.vgiw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tbdse import _core
from tbdse._util.checks import text, whole
from tbdse._util.excerpts import excerpt, from_file, shown
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.io import yamlio
from tbdse.workloads.base import Workload, generator

__all__ = ["BasicBlock", "cfg_file", "cfg_kernel", "divergent_cfg", "structured"]


@dataclass
class BasicBlock:
    """One basic block: what a thread executes in it and where it goes next.

    Attributes:
        succ: successor block ids, at most two; a back edge goes to an id not
            larger than the block's own (ids are a reverse post-order, VGIW §3.1).
        branch: how a block with two successors picks ``succ[0]``: ``probability``
            (a fresh draw at every visit, chance ``p``), ``predicate`` (one draw
            per thread: the same choice at every visit; forward edges only),
            ``loop`` (``succ[0]`` is the back edge, taken ``trips - 1`` times with
            ``trips`` per thread uniform in ``trips_min..trips_max``) or ``paths``
            (the kernel's explicit per-thread paths decide).
        alu: FPU-ALU operations per thread (compute units; SIMT ALU lanes).
        special: non-pipelined operations (div, sqrt, exp): special compute
            units on the fabric, SFUs on the SM.
        ldst: global-memory loads and stores per thread.
        mem_intensity: share (0..1) of the load/store accesses that stream over
            fresh data (per warp-aligned group of 32 threads); the rest re-read
            a line the block keeps hot (docs/models/vgiw.md "Memory").
        pattern: how the streaming accesses walk memory: ``coalesced`` (thread t,
            word t), ``strided`` (one 128-byte line per thread) or ``scattered``
            (a pseudo-random word of 16 MB).
        defs, uses: value names the block defines and uses; a value used but not
            defined here is an LVC load, one defined here and used by another
            block an LVC store.
        lv_loads, lv_stores: explicit live-value counts (-1 = derived from defs/uses).
        split_join: split/join units of one replica (-1 = ceil(ldst / 2)).
        p, trips_min, trips_max: the branch model's parameters.
        name: for messages and tables.
    """

    succ: list[int] = field(default_factory=list)
    branch: str = "none"
    alu: int = 1
    special: int = 0
    ldst: int = 0
    mem_intensity: float = 0.0
    pattern: str = "coalesced"
    defs: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    lv_loads: int = -1
    lv_stores: int = -1
    split_join: int = -1
    p: float = 0.5
    trips_min: int = 1
    trips_max: int = 1
    name: str = ""


def _block_dict(b: BasicBlock | Mapping[str, Any], i: int) -> dict[str, Any]:
    if isinstance(b, BasicBlock):
        return asdict(b)
    if isinstance(b, Mapping):
        return dict(b)
    raise ConfigError(
        f"block {i} must be a BasicBlock or a mapping of its fields; got {excerpt(b)}"
    )


def cfg_kernel(
    blocks: Sequence[BasicBlock | Mapping[str, Any]],
    threads: int,
    *,
    paths: Sequence[Sequence[int]] | None = None,
    name: str = "kernel",
    block_threads: int = 0,
) -> Workload:
    """A kernel from its blocks (ids = positions, entry 0) run by ``threads``
    threads; ``paths`` (optional) gives explicit per-thread paths, thread ``t``
    following ``paths[t % len(paths)]`` at every block whose branch is ``paths``;
    ``block_threads`` (0..1024) the launch's threads per thread block, 0 for the
    simt scheme's ``block_threads``."""
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Sequence):
        raise ConfigError(f"blocks must be a list of basic blocks; got {excerpt(blocks)}")
    made = [_block_dict(b, i) for i, b in enumerate(blocks)]
    n = whole(threads, "threads", 1, 2**26)
    if paths is not None and (
        isinstance(paths, (str, bytes))
        or not isinstance(paths, Sequence)
        or any(isinstance(p, (str, bytes)) or not isinstance(p, Sequence) for p in paths)
    ):
        raise ConfigError(f"paths must be a list of block-id lists; got {excerpt(paths)}")
    ids = [
        [whole(b, f"paths[{i}][{j}] (a block id)", 0, 2**31 - 1) for j, b in enumerate(p)]
        for i, p in enumerate(paths or [])
    ]
    tb = whole(block_threads, "block_threads", 0, 1024)
    kernel = _core.CfgKernel(text(name, "a kernel's name"), made, n, ids, tb)
    return Workload(model_input=kernel, name=name)


def _from_spec(spec: Mapping[str, Any], where: str) -> Workload:
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{where}: a kernel is a mapping with 'threads' and 'blocks'")
    unknown = set(spec) - {"name", "threads", "blocks", "paths", "block_threads"}
    if unknown:
        raise unknown_name(
            f"key of kernel file {where}",
            sorted(unknown)[0],
            ("name", "threads", "blocks", "paths", "block_threads"),
        )
    if "blocks" not in spec or "threads" not in spec:
        raise ConfigError(f"{where}: a kernel needs 'threads' and 'blocks'")
    return cfg_kernel(
        spec["blocks"],
        spec["threads"],
        paths=spec.get("paths"),
        name=str(spec.get("name", Path(where).stem)),
        block_threads=spec.get("block_threads", 0),
    )


@generator("cfg_file", naming=lambda p: Path(str(p.get("path", ""))).stem)
def cfg_file(path: str, threads: int = 0, *, name: str | None = None) -> Workload:
    """A control-flow kernel from a YAML file (name, threads, blocks, paths);
    ``threads`` > 0 overrides the file's."""
    with from_file():  # messages describe the file's values, not quote them
        spec = yamlio.load_yaml(Path(path)).data  # the hardened loader every YAML input uses
        if threads and isinstance(spec, Mapping):
            spec = {**spec, "threads": threads}
        try:
            made = _from_spec(spec, path)
        except ConfigError as exc:  # a block's or path's problem: say which file
            where = shown(path)
            if str(exc).startswith(where) or f"kernel file {where}" in str(exc):
                raise
            raise ConfigError(f"{where}: {exc}") from None
    if name:
        made.name = name
    made.generator, made.params = "cfg_file", {"path": path, "threads": threads}
    return made


MAX_LIVE_VALUES = 4096  # values a block hands to the next; each is a named def/use


def structured(
    blocks: int,
    *,
    alu: int,
    special: int,
    ldst: int,
    mem: float,
    p: float,
    loop: tuple[int, int] | None,
    lv: int,
    branch: str = "probability",
    pattern: str = "coalesced",
) -> list[BasicBlock]:
    """A kernel shape of ``blocks`` blocks: entry 0, then if-then regions
    (a header branching with chance ``p`` into a then-block or past it), and,
    with ``loop``, a loop over blocks 1..n-2 (entered from block 0 only, its
    if-regions inside it) whose latch n-2 iterates
    ``loop`` = (trips_min, trips_max) times per thread; the last block exits.
    Ops vary by block around the given means (weights 1, 0.6, 1.4, 0.8, 1.2);
    block i defines ``lv`` values that block i+1 uses (thread ids come from
    the control vector units, not the LVC, §2)."""
    weights = (1.0, 0.6, 1.4, 0.8, 1.2)
    out: list[BasicBlock] = []
    for i in range(blocks):
        w = weights[i % len(weights)]
        defs = [f"v{i}_{j}" for j in range(lv)]
        uses = [f"v{i - 1}_{j}" for j in range(lv)] if i else []
        out.append(
            BasicBlock(
                alu=max(1, round(alu * w)),
                special=round(special * w) if special else 0,
                ldst=round(ldst * w) if ldst else 0,
                mem_intensity=mem,
                pattern=pattern,
                defs=defs,
                uses=uses,
                name=f"b{i}",
            )
        )
    last = blocks - 1
    latch = blocks - 2 if loop and blocks >= 3 else -1
    # With a loop, block 0 only enters it: the loop header (block 1, the
    # latch's back-edge target) must be the loop's single entry.
    i = 1 if latch > 0 else 0
    if latch > 0:
        out[0].succ = [1]
    while i < last:
        region_end = latch if latch > 0 else last  # ifs stay inside the loop body
        if i + 2 <= region_end and i != latch and i + 1 != latch:
            out[i].succ, out[i].branch, out[i].p = [i + 1, i + 2], branch, p
            out[i + 1].succ = [i + 2]
            i += 2
        else:
            out[i].succ = [i + 1]
            i += 1
    if latch > 0:
        out[latch].succ, out[latch].branch = [1, last], "loop"
        out[latch].trips_min, out[latch].trips_max = loop or (1, 1)
    return out


@generator(
    "divergent_cfg", naming=lambda p: f"cfg {p.get('blocks')} blocks, div {p.get('divergence')}"
)
def divergent_cfg(
    blocks: int = 50,
    threads: int = 65536,
    divergence: float = 0.3,
    alu: int = 8,
    special: int = 1,
    ldst: int = 2,
    mem_intensity: float = 0.2,
    live_values: int = 2,
    pattern: str = "coalesced",
    *,
    name: str | None = None,
) -> Workload:
    """A synthetic kernel of ``blocks`` blocks in if-then regions whose
    headers send a share ``divergence`` of the threads (a per-thread
    predicate) into the then-block; no loops.  ``pattern``: how its memory
    accesses walk memory (coalesced, strided, scattered).  For benchmarks and
    sweeps."""
    nb = whole(blocks, "blocks", 1, 4096)
    if not 0.0 <= divergence <= 1.0:
        raise ConfigError(f"divergent_cfg: 'divergence' must be in [0, 1]; got {divergence}")
    # Per-block means: negative counts would be recorded as parameters of a kernel
    # that does not have them (structured clamps ops at 0 or 1).
    for key, value, hi in (
        ("alu", alu, 2**31 - 1),
        ("special", special, 2**31 - 1),
        ("ldst", ldst, 2**31 - 1),
        ("live_values", live_values, MAX_LIVE_VALUES),
    ):
        whole(value, f"divergent_cfg: '{key}'", 0, hi)
    if not 0.0 <= mem_intensity <= 1.0:
        raise ConfigError(f"divergent_cfg: 'mem_intensity' must be in [0, 1]; got {mem_intensity}")
    if pattern not in ("coalesced", "strided", "scattered"):
        raise ConfigError(
            f"divergent_cfg: 'pattern' must be coalesced, strided or scattered; got {pattern!r}"
        )
    made_blocks = structured(
        nb,
        alu=alu,
        special=special,
        ldst=ldst,
        mem=mem_intensity,
        p=divergence,
        loop=None,
        lv=live_values,
        branch="predicate",
        pattern=pattern,
    )
    made = cfg_kernel(made_blocks, threads, name=name or f"cfg{nb}_div{divergence:g}")
    made.generator = "divergent_cfg"
    made.params = {
        "blocks": nb,
        "threads": threads,
        "divergence": divergence,
        "alu": alu,
        "special": special,
        "ldst": ldst,
        "mem_intensity": mem_intensity,
        "live_values": live_values,
        "pattern": pattern,
    }
    return made
