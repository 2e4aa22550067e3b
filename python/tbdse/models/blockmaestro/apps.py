"""BlockMaestro's benchmark applications (ISCA 2021, Table II) and the VectorAdd
inter-connectivity microbenchmark of Fig. 12, as presets built with
:class:`~tbdse.workloads.Application` (generators ``blockmaestro_app`` and
``vector_add_pair``).

>>> from tbdse.workloads import blockmaestro_app, vector_add_pair
>>> blockmaestro_app("LUD").application.launches
46
>>> vector_add_pair(256, 4).edges                  # 64 groups of 4 x 4
1024

Each preset is its benchmark's host command queue: ``malloc`` and
``memcpy_h2d`` of the inputs, the kernel launches with the elements every TB
reads and writes (modelled on the benchmark's CUDA kernels: the exact
per-thread address sets of Algorithm 1, §III-B), then ``memcpy_d2h`` of the
outputs.  :func:`~tbdse.workloads.dependency_report` extracts and classifies
the TB dependencies from those accesses.  The paper gives kernel counts and
patterns (Table II) and storage (Table III), not problem sizes or run times;
tbdse's assumptions:

* **Sizes** give Table II's kernel counts (GAUSSIAN 2 (N - 1) = 510: N = 256;
  GRAMSCHM 3 x 64 columns; LUD 3 x 15 + 1 = 46: 256 x 256 in 16 x 16 tiles;
  NW 128 + 127 anti-diagonals of 16 x 16 blocks: 2048 x 2048; FDTD-2D 3 x 8
  steps; FFT 3 x 20 passes; HS 20 iterations at pyramid height 2; PATH 100
  rows at pyramid height 20).  Otherwise the suites' default inputs (HS
  512 x 512, PATH 100,000 columns, BICG and MVT 4096), smaller where a default
  gives 10^4 TBs per kernel or more (FDTD-2D 512 x 512, 3MM 256 x 256, FFT
  2 MiB; GAUSSIAN's Fan2 takes one TB per row instead of 4 x 4 blocks).
* **TB costs** are in cycles at the ``titanx_pascal`` preset's 1417 MHz, where
  a 5 us host launch is 7085 cycles.  Their proportions follow §IV-B:
  GAUSSIAN, GRAMSCHM, LUD, NW and FFT kernels last about one launch or less
  (launch-bound, helped by pre-launching), AlexNet's are long.
* **Locality** (``locality``, default :data:`LOCALITY`, on): each TB's reads
  and writes -- the byte ranges of the boxes the dependency extraction
  intersects -- go through the GPU's memory hierarchy, which replaces the
  share ``mem_fraction`` (:data:`MEM_FRACTION`, 0.5, stated) of its cost: a
  TB's ``(1 - mem_fraction) x cost_scale x cost`` of compute overlaps what
  its reads take (it ends when both are done), so a consumer issued while
  its producers' lines are in L2 is shorter, with no per-policy term (docs/models/blockmaestro.md
  "Locality").  ``locality=False`` gives the earlier model, whose TBs take
  ``cost_scale x cost`` (calibrated there at 0.6).
* **Memory description** (issue 28, in :class:`~tbdse.workloads.KernelMemory`'s
  terms): every byte a TB moves is in its boxes, so all of it goes through
  the hierarchy; sharing is where a consumer's read box meets a producer's
  write box; rows of 4-byte elements are coalesced; ``reuse`` 1 (Rodinia's
  and SHOC's kernels stage tiles in shared memory; PolyBench's re-reads are
  at the next loop steps, L1 hits that passes over the whole working set
  would misplace; docs/models/blockmaestro.md).
* **Calibration.**  With footprints ``mem_fraction`` and ``cost_scale`` act
  as one product, so one constant is fitted: ``cost_scale`` (default
  :data:`COST_SCALE`), with the ``titanx_pascal`` preset's SM saturation
  (2, shared with the other models), on one figure, Fig. 9: the
  geometric-mean speed-ups of producer priority (51.76%) and consumer
  priority with 3 pre-launched kernels (80.28%) and AlexNet's 6.9%, over five
  replicates (``experiments/blockmaestro_calibration.yaml``,
  docs/models/blockmaestro.md); everything else is predicted with these
  values.  Their lognormal spread (``cost_jitter``, default
  :data:`COST_JITTER` = 0.1) is stated, not fitted: run-to-run variation.
* **Copies** are timed by the GPU's copy model.  GPGPU-Sim, the paper's
  simulator, does not time PCIe transfers: to compare with Fig. 9, use
  ``titanx_pascal(copy_latency_us=0, malloc_us=0, copy_gbps=1e6)``.  With the
  preset's 12 GB/s, AlexNet's 250 MB of weights, BICG's and MVT's 64 MB matrix,
  NW's 34 MB and PATH's 40 MB dominate the run.
* **Patterns.**  tbdse classifies strictly (most specific first): a pair whose
  only parent (or only child) TB is linked to every TB of the other kernel is
  fully connected (P#1), where Table II counts GAUSSIAN's and GRAMSCHM's
  single-TB kernels and LUD's diagonal as 1-to-n (P#4) / n-to-1 (P#5); and a
  halo across a tile edge, where children have two parents and parents share
  children, is overlapped (P#6), where Table II writes n-to-1 (FDTD-2D, LUD)
  or 1-to-n / n-to-1 (NW's growing and shrinking wavefronts, which §IV-D
  itself calls overlapped).  We found no tiling of those kernels that keeps
  every RAW dependency and gives Table II's numbers, so the presets keep the
  benchmarks' real accesses.
* **Storage** (Table III) is tbdse's: plain 4 (N + E) bytes, encoded per
  Table I.  A 1-to-1 or n-to-1 pair encodes in 4 N bytes, half of plain when
  every parent has a child, so FFT gives 0.5 where Table III has 1 (Table III
  cannot be reproduced with plain = 4 (N + E) for a 1-to-1 pair);
  GRAMSCHM gives 0.125 = 1/8 per 1-TB pair where Table III's 0.375 equals
  (4 + 4 + 1) / 24, an encoding of 4 M bytes for 1-to-n (the text's O(M)).

==========  ===  =========  ===========  =======  ==========  ========
app         K    P# tbdse   P# Table II  storage  Table III   speedup
==========  ===  =========  ===========  =======  ==========  ========
3mm           3  2 7        2 7          0.222    0.210     1.46
alexnet      22  1 3 4      1 3 4        0.0092   0.012     1.06
bicg          2  7          7            \\-      \\-       1.09
fdtd2d       24  6 7        5 7          1        1         1.90
fft          60  3 5 7      3 5 7        0.5      1         1.48
gaussian    510  1          4 5          0.0013   1.77e-4   1.96
gramschm    192  1          1 4 5        0.125    0.375     1.99
hotspot      10  6          6            1        1         1.47
lud          46  1 3 6      3 4 5        0.962    0.938     1.96
mvt           2  7          7            \\-      \\-       1.09
nw          255  1 6        4 5          0.9999   1         1.99
pathfinder    5  6          6            1        1         1.27
==========  ===  =========  ===========  =======  ==========  ========

(K: kernels; speedup: baseline / blockmaestro makespan on ``titanx_pascal``
with free copies and locality, at the calibrated scale, mean of five
replicates; geometric mean 1.52.)
Per application — size, grid and threads per TB, TB
cycles, and the pattern of each consecutive kernel pair:

* **3mm** — PolyBench, 256 x 256 matrices; each kernel an 8 x 8 grid of
  32 x 32 output tiles (256 threads, 20,000).  E = A.B -> F = C.D
  independent (7); F -> G = E.F: G's tile (x, y) reads F's column strip x:
  8 groups of 8 x 8 (n-group, 2), storage 2 / (1 + 8).
* **alexnet** — Caffe's AlexNet in CaffeNet's order (pool before LRN), one
  227 x 227 image: preprocess (151 TBs of 1024 elements), 5 conv + ReLU (a TB
  per output channel: 96, 256, 384, 384, 256; 72,000-192,000 and 1,500), 3
  max-pool (a TB per half channel; 3,000), 2 LRN (a TB per column, all
  channels; 6,000), fc6, fc7, fc8 + ReLU (a TB per 32 neurons; 72,000-160,000),
  softmax (1 TB): 22 kernels, 256 threads.  conv/FC reading the whole input:
  fully connected (1); conv -> ReLU 1-to-1 (3); ReLU -> pool: each channel's
  TB feeds its two pool TBs (1-to-n, 4); pool -> LRN, LRN -> conv fully connected.
  (Overlapping 3 x 3 windows are 1-to-n only from TBs owning whole channels,
  and an LRN TB owning whole columns keeps the channel halo inside it.)
* **bicg**, **mvt** — PolyBench, N = 4096: two GEMVs, one by rows and one by
  columns of A, 16 TBs of 256 threads (40,000); independent (7).
* **fdtd2d** — PolyBench, 512 x 512, tmax = 8: ey, ex, hz updates on 32 x 8
  tiles (grid 16 x 64, 256 threads, 1,500).  ey -> ex independent (7);
  ex -> hz (reads ex[i][j+1]) and hz -> next ey (reads hz[i-1][j]) overlapped (6).
* **fft** — SHOC, 512 FFTs of 512 points (2 MiB, 64 threads per TB): 20
  passes of fft1D_512 and ifft1D_512 (512 TBs, 4,000) and chk1D_512 (256 TBs,
  1,500; compares FFT b with b + 256, its flag copied back): forward ->
  inverse 1-to-1 (3), inverse -> check n-to-1 (5), check -> forward independent (7).
* **gaussian** — Rodinia, N = 256: Fan1 (1 TB of 512 threads, 4,000) and Fan2
  (a TB of 256 threads per active row, N - 1 - t of them, 2,500; Rodinia's
  4 x 4 TBs would make 10^6 TBs).  Fan1 -> Fan2 (one parent) and Fan2 -> Fan1
  (one child, reading column t + 1 of every row) are fully connected (1).
* **gramschm** — PolyBench, NI = NJ = 64: per column, kernel1 (6,000),
  kernel2 (1,500), kernel3 (8,000), each ceil(64 / 256) = 1 TB of 256
  threads: every pair 1 TB -> 1 TB, fully connected (1).
* **hotspot** — Rodinia, 512 x 512, 20 iterations at pyramid height 2: 10
  launches of 43 x 43 TBs of 16 x 16 (3,000) reading a halo of 2 around their
  12 x 12 output; overlapped (6).
* **lud** — Rodinia, 256 x 256, 16 x 16 tiles: per step diagonal (1 TB of 16,
  5,000), perimeter (r TBs of 32, 5,000), internal (r x r TBs of 256, 1,500),
  r = 15 ... 1.  Diagonal -> perimeter fully connected (1); perimeter ->
  internal (a row and a column tile) overlapped (6); internal -> next diagonal
  1-to-1 (3); fully connected also where r = 1.
* **nw** — Rodinia, 2048 x 2048, one TB of 16 threads per 16 x 16 block
  (2,000): a block reads the row above and the column left of it, written by
  two TBs of the previous anti-diagonal: overlapped (6); the first and last
  pairs (1 -> 2 and 2 -> 1 TBs) fully connected (1).
* **pathfinder** — Rodinia, 100,000 columns x 100 rows, pyramid height 20:
  5 launches of 463 TBs of 256 threads (4,000) writing 216 columns and reading
  a halo of 20; overlapped (6).

**vector_add_pair** (Fig. 12): C = A + B, then E = C + D, each kernel ``tbs``
TBs of 256 threads and 256 elements; consumer TB ``j`` reads the C of
producers ``degree * (j // degree)`` onwards (``degree`` of them): 1-to-1 at
degree 1, fully connected at ``degree >= tbs`` (one group: Fig. 12 runs
degrees up to 1024 on every size), n-group otherwise, ``tbs * min(degree,
tbs)`` edges.  A TB runs 5,000 cycles with a lognormal spread of 0.3
(``cost_jitter``): a 256-TB kernel then outlasts a launch, and producers end
at different times — with equal TBs the degree could not matter.  Past 63
parents the 6-bit parent counter overflows and the pair is tracked per kernel
(§IV-C), the paper's threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tbdse._util.checks import real, text, whole
from tbdse._util.excerpts import excerpt
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.models.blockmaestro import _app_defs as defs
from tbdse.workloads.access import bx, by
from tbdse.workloads.application import Application
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import CostModel, per_kernel

__all__ = ["APPS", "blockmaestro_app", "blockmaestro_app_names", "vector_add_pair"]


@dataclass(frozen=True)
class AppSpec:
    key: str  # the preset's name
    title: str  # Table II's name
    aliases: tuple[str, ...]
    kernels: int  # Table II: number of kernels
    patterns: frozenset[int]  # Table II: P#
    storage: float | None  # Table III (None: '-', nothing stored)
    build: Callable[[Application, float], None]


APPS: dict[str, AppSpec] = {
    a.key: a
    for a in (
        AppSpec("3mm", "3MM", (), 3, frozenset({2, 7}), 0.210, defs.three_mm),
        AppSpec("alexnet", "AlexNet", (), 22, frozenset({1, 3, 4}), 0.012, defs.alexnet),
        AppSpec("bicg", "BICG", (), 2, frozenset({7}), None, defs.bicg),
        AppSpec("fdtd2d", "FDTD-2D", ("fdtd-2d", "fdtd"), 24, frozenset({5, 7}), 1.0, defs.fdtd2d),
        AppSpec("fft", "FFT", (), 60, frozenset({3, 5, 7}), 1.0, defs.fft),
        AppSpec("gaussian", "GAUSSIAN", (), 510, frozenset({4, 5}), 1.77e-4, defs.gaussian),
        AppSpec(
            "gramschm",
            "GRAMSCHM",
            ("gramschmidt",),
            192,
            frozenset({1, 4, 5}),
            0.375,
            defs.gramschmidt,
        ),
        AppSpec("hotspot", "HS", ("hs",), 10, frozenset({6}), 1.0, defs.hotspot),
        AppSpec("lud", "LUD", (), 46, frozenset({3, 4, 5}), 0.938, defs.lud),
        AppSpec("mvt", "MVT", (), 2, frozenset({7}), None, defs.mvt),
        AppSpec("nw", "NW", ("needle",), 255, frozenset({4, 5}), 1.0, defs.nw),
        AppSpec("pathfinder", "PATH", ("path",), 5, frozenset({6}), 1.0, defs.pathfinder),
    )
}

# The TB-cost scale fitted to Fig. 9 with locality, and the stated spread (see
# the module docstring).
COST_SCALE = 0.25
COST_JITTER = 0.1
# Locality (docs/models/blockmaestro.md "Locality"): the TBs' data footprints
# go through the GPU's memory hierarchy, which replaces the share
# MEM_FRACTION of each TB's cost (stated, not fitted: with footprints it acts
# only through its product with COST_SCALE).
LOCALITY = True
MEM_FRACTION = 0.5

# Fig. 12's VectorAdd TB: 256 threads, 256 elements, 5,000 cycles with a
# lognormal spread of 0.3, so that a kernel of 256 TBs outlasts a launch and
# producer TBs end at different times (with equal TBs the degree cannot matter).
VECTOR_ADD_CYCLES = 5_000.0

_LOOKUP = {n.lower(): a.key for a in APPS.values() for n in (a.key, a.title, *a.aliases)}


def blockmaestro_app_names() -> list[str]:
    """The presets' names, as :func:`blockmaestro_app` takes them."""
    return sorted(APPS)


def _spec(app: str) -> AppSpec:
    key = text(app, "a BlockMaestro application's name").strip().lower()
    if key not in _LOOKUP:
        raise unknown_name("BlockMaestro application", app, APPS)
    return APPS[_LOOKUP[key]]


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{what} must be true or false; got {excerpt(value)}")
    return value


def _no_kernels(kernel: Kernel | None, kernels: Sequence[Kernel] | None, what: str) -> None:
    if kernel is not None or kernels is not None:
        raise ConfigError(f"{what} describes its own kernels; 'kernel(s)' cannot be given")


@lru_cache(maxsize=32)
def _structure(key: str, mem_fraction: float, locality: bool) -> tuple[Workload, tuple[float, ...]]:
    """The application's TB graph, command queue and footprints at cost_scale 1,
    and its launches' unrounded costs: what a cost parameter does not change is
    built once (a calibration grid over cost_scale rebuilt it for every value).
    :func:`blockmaestro_app` sets the costs on a copy."""
    spec = APPS[key]
    builder = Application(spec.title, mem_fraction=mem_fraction if locality else 0.0)
    spec.build(builder, 1.0)
    return builder.build(name=spec.title, locality=locality), tuple(builder.launch_cycles())


@generator("blockmaestro_app", naming=lambda p: _spec(p["app"]).title)
def blockmaestro_app(
    app: str,
    cost_scale: float = COST_SCALE,
    cost_jitter: float = COST_JITTER,
    locality: bool = LOCALITY,
    mem_fraction: float = MEM_FRACTION,
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """One of BlockMaestro's Table II applications (3mm, alexnet, bicg, ...) as a command
    queue; ``locality``: its TBs' reads and writes go through the GPU's memory hierarchy,
    replacing the share ``mem_fraction`` of their cost (docs/models/blockmaestro.md)."""
    spec = _spec(app)
    what = f"BlockMaestro application '{spec.key}'"
    _no_kernels(kernel, kernels, what)
    scale = real(cost_scale, f"{what}: cost_scale", 0, 1e6)
    if scale <= 0:
        raise ConfigError(f"{what}: cost_scale must be positive; got {excerpt(cost_scale)}")
    jitter = real(cost_jitter, f"{what}: cost_jitter", 0, 10)
    frac = real(mem_fraction, f"{what}: mem_fraction", 0, 1)
    local = _flag(locality, f"{what}: locality")
    made, unit_cycles = _structure(spec.key, frac, local)
    # The builders scale every cost by a product (cost=cycles * s), rounded per launch.
    made = made.with_cost(per_kernel([round(c * scale) for c in unit_cycles], jitter=jitter))
    if name:
        made = made.renamed(name)
    if cost is not None:
        made = made.with_cost(cost)
    made.generator = "blockmaestro_app"
    made.params = {
        "app": spec.key,
        "cost_scale": scale,
        "cost_jitter": jitter,
        "locality": local,
        "mem_fraction": frac,
    }
    made.chosen_kernels = None
    if cost is None:
        made.chosen_cost = None  # the preset's costs: derived again when parameters vary
    return made


@generator("vector_add_pair", naming=lambda p: f"VectorAdd(tbs={p['tbs']}, degree={p['degree']})")
def vector_add_pair(
    tbs: int,
    degree: int,
    cost_jitter: float = 0.3,
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """Fig. 12's microbenchmark: two VectorAdd kernels of ``tbs`` TBs, each consumer
    TB depending on the ``degree`` producer TBs of its group (n-group)."""
    what = "vector_add_pair"
    _no_kernels(kernel, kernels, what)
    n = whole(tbs, f"{what}: tbs", 1, 1 << 24)
    given = whole(degree, f"{what}: degree", 1, 1 << 24)
    d = min(given, n)  # past tbs: one group
    if n % d:
        raise ConfigError(f"{what}: degree ({d}) must divide tbs ({n}) into equal groups")
    jitter = real(cost_jitter, f"{what}: cost_jitter", 0, 10)
    cycles = VECTOR_ADD_CYCLES if cost is None or isinstance(cost, (CostModel, Mapping)) else cost
    app = Application(f"VectorAdd(tbs={n}, degree={given})")
    a, b, c = (app.malloc(x, n * 256) for x in "ABC")
    e, out = app.malloc("D", (n // d, 256 * d)), app.malloc("E", (n // d, 256 * d))
    for buf in (a, b, e):
        app.memcpy_h2d(buf)
    t = 256 * bx
    app.launch(
        "vecadd1",
        n,
        reads=[a[t : t + 256], b[t : t + 256]],
        writes=[c[t : t + 256]],
        cost=cycles,
        threads=256,
    )
    # E = C + D; consumer TB bx + d * by (row-major ids) reads all of group by's C.
    own = (slice(by, by + 1), slice(t, t + 256))
    app.launch(
        "vecadd2",
        (d, n // d),
        reads=[c[256 * d * by : 256 * d * by + 256 * d], e[own]],
        writes=[out[own]],
        cost=cycles,
        threads=256,
    )
    app.memcpy_d2h(out)
    made = app.build(cost_jitter=jitter, name=name)
    if isinstance(cost, (CostModel, Mapping)):
        made = made.with_cost(cost)
    made.generator, made.params = (
        "vector_add_pair",
        {"tbs": n, "degree": given, "cost_jitter": jitter},
    )
    made.chosen_kernels = None
    made.chosen_cost = None if cost is None else made.cost
    return made
