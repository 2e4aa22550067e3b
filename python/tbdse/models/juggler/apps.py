"""The seven kernels of Juggler's evaluation (PPoPP 2018, Table 1) as task
graphs (generator ``juggler_app``), each declared with
:class:`~tbdse.workloads.TaskBuilder` from its loop nest and depend clauses,
as the paper's OpenMP 4.5 ports declare them (§4.3, Listing 3).

>>> from tbdse.workloads import juggler_app
>>> lud = juggler_app("lu-d")
>>> lud.tasks, len(set(lud.graph.launch_groups()))
(1240, 57)

==========  =====================================  ======  ===========  ========
app         loop nest (tile (i, j), block b)        tasks   parallelism  launches
==========  =====================================  ======  ===========  ========
DT-WARP     72 x 72 wavefront, DP                   5184    1-72         143
HEAT-SIM    90 x 90 wavefront, in-place stencil     8100    1-90         179
INT-HIST    90 x 90 wavefront, integral histogram   8100    1-90         179
JACOBI      900 blocks x {copy, compute} x iters    3600    900          4
LU-D        15 x 15 blocked LU (lu0/fwd/bdiv/bmod)  1240    1-196        57
SA-TABLE    90 x 90 column sweep                    8100    90           90
SM-W        72 x 72 wavefront, DP                   5184    1-72         143
==========  =====================================  ======  ===========  ========

(JACOBI: 2 iterations; ``iterations=18`` gives Fig. 7's 32,400 tasks.)
Every data tile or block is one section of ``TILE`` = 64 x 64 elements, and
every task declares whole tiles, since Juggler matches sections exactly: a
halo row would match nothing. So ``match="overlap"`` gives the same graphs.

The paper gives the task counts and parallelism (Table 1) and that DT-WARP,
INT-HIST and SM-W make additional array accesses (Observation 3); it gives no
shapes beyond LU-D's code, no run times and no memory traffic. tbdse's
assumptions, in one place (docs/models/juggler.md has the reasoning):

* **Dependences.**  DT-WARP and SM-W: tile (i, j) ``inout`` its tile, ``in``
  its west, north and north-west tiles (the DP recurrence reads all three;
  the diagonal is implied, but the code would declare it) and the two
  sequences' segments i and j (read only). INT-HIST: the same on the
  integral-histogram tiles, plus its image tile. HEAT-SIM: one in-place
  (Gauss-Seidel) time step: ``inout`` its tile, ``in`` its west and north
  tiles (this step's values) and its east and south tiles (the previous
  step's: WAR edges, which coincide with the RAW edges the other way).
  SA-TABLE, whose shape the paper does not give: a column sweep, tile (i, j)
  reading its west tile (the row sums at its left edge), its north-west tile
  (the table's value at its top-left corner) and the image's column sums
  above it (read only), so every step holds exactly 90 tiles. JACOBI:
  ``copy`` reads ``a[b]`` and writes ``tmp[b]``, ``compute`` reads ``tmp[b]``
  and writes ``a[b]`` (edges only between tasks of one block, Observation 2).
  LU-D: Listing 3's loop nest with bdiv and bmod as in BOTS SparseLU:
  ``lu0`` inout the diagonal block, ``fwd`` in diagonal inout (kk, jj),
  ``bdiv`` in diagonal inout (ii, kk), ``bmod`` in (ii, kk), in (kk, jj),
  inout (ii, jj).
* **Launch groups** (the global-barrier versions): one launch per
  anti-diagonal for the wavefronts, per column for SA-TABLE; LU-D and JACOBI
  take the builder's rule (a new launch when the kind changes), which gives
  Listing 1's 15 lu0 + 14 x 3 = 57 launches and one per kind and iteration.
* **Costs**, cycles per task at the ``p100`` preset's 1328 MHz (1328 cycles
  per us), 20-60 us: see :data:`KINDS`. Tiles of 64 x 64 cells: a DP tile
  is a 127-step wavefront inside the TB (40 us); INT-HIST's tile bins its
  pixels and adds its neighbours' histograms (40 us); a stencil or
  summed-area tile 20-25 us; a JACOBI copy is memory-bound (900 blocks of
  32 KiB in and out at 732 GB/s with 448 TBs resident: 20 us each). LU-D's
  blocks differ as its kernels do: lu0 factors the diagonal block in 64
  dependent steps (60 us), fwd and bdiv are triangular solves (30 us), bmod
  a 64 x 64 x 64 multiply-subtract (25 us) but 1015 of the 1240 tasks.
  ``cost_scale`` multiplies them all (to be calibrated), ``cost_jitter`` is
  a lognormal spread per task.
* **Memory requests** per task (128-byte): the 64 x 64 tiles of 4-byte values
  a task reads and writes (128 requests each, 2 per tile edge read, 1 per
  corner), plus, for DT-WARP, SM-W and INT-HIST, Observation 3's additional
  accesses to the sequences / histogram bins, assumed 3 requests per 8 cells
  (1536). They make 3x the requests per task of any other kind, and 2x the
  requests per cycle (``mem_requests x 128 B / cost``, the load the runtime's
  atomics compete with): 4.0-4.3 B per cycle against at most 2.0 (bmod).
* **TB footprint and memory time**: 256 threads per task, registers and
  ``mem_fraction`` per kind from :data:`PROFILE` (argued there from the
  kernels' arithmetic intensity); shared memory 0.
* **Memory description** (issue 28; :func:`~tbdse.workloads.footprint_memory`
  reads it back): the depend sections are the bytes read and written
  (whole 16 KiB tiles, coalesced), except that the wavefront kinds read
  only the edges of the neighbour tiles they declare, as their recurrences
  do (``_edges.py``); sharing is by address, ``reuse`` 1 (tbdse's
  assumption: no kernel code in the paper but LU-D's loop nest).  Not in
  the footprints: Observation 3's extra accesses (in ``mem_requests`` only;
  docs/models/juggler.md).
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
from tbdse.models.juggler._edges import edge_footprints
from tbdse.workloads.base import Kernel, Workload, generator
from tbdse.workloads.cost import CostModel, per_kernel
from tbdse.workloads.tasks import TaskBuilder

__all__ = ["APPS", "KINDS", "PROFILE", "juggler_app", "juggler_app_names", "juggler_tasks"]

CLOCK_MHZ = 1328.0  # the p100 preset: costs below are cycles at this clock
TILE = 64 * 64  # elements of one tile or block (4-byte values)
TILE_REQUESTS = 128  # 128-byte requests to read or write one tile
EDGE_REQUESTS = 2  # one tile edge (64 values)
EXTRA_REQUESTS = 1536  # Observation 3's extra accesses: 3 requests per 8 cells
THREADS = 256


def _us(us: float) -> int:
    return round(us * CLOCK_MHZ)


# kind -> (cost in cycles, 128-byte memory requests per task)
KINDS: dict[str, dict[str, tuple[int, int]]] = {
    "dt-warp": {"dtw": (_us(40), TILE_REQUESTS + 2 * EDGE_REQUESTS + 1 + EXTRA_REQUESTS)},
    "sm-w": {"sw": (_us(40), TILE_REQUESTS + 2 * EDGE_REQUESTS + 1 + EXTRA_REQUESTS)},
    "int-hist": {"hist": (_us(40), 2 * TILE_REQUESTS + 2 * EDGE_REQUESTS + 1 + EXTRA_REQUESTS)},
    "heat-sim": {"heat": (_us(20), 2 * TILE_REQUESTS + 4 * EDGE_REQUESTS)},
    "sa-table": {"sat": (_us(20), 2 * TILE_REQUESTS + 2 * EDGE_REQUESTS + 1)},
    "jacobi": {
        "copy": (_us(20), 2 * TILE_REQUESTS),
        "compute": (_us(25), 2 * TILE_REQUESTS + 4 * EDGE_REQUESTS),
    },
    "lu-d": {
        "lu0": (_us(60), 2 * TILE_REQUESTS),
        "fwd": (_us(30), 3 * TILE_REQUESTS),
        "bdiv": (_us(30), 3 * TILE_REQUESTS),
        "bmod": (_us(25), 4 * TILE_REQUESTS),
    },
}

# kind -> (registers per thread, mem_fraction: the share of the task's cost
# that is memory time, which SM sharing does not slow).  tbdse's assumptions
# (the paper gives neither; §6.1 only says nWTB's cofactor per SM follows
# each application's resource usage, so the counts differ by kind):
# * registers: 32 for the streaming kernels (copy, stencils, scans), 40 for
#   the DP and histogram tiles (more live state per cell), 48 for LU-D's
#   dense-block kernels (register-blocked updates).  Eq. 1 counts them: a
#   256-thread worker of 40 registers fits 6 per P100 SM, of 48, 5.
# * mem_fraction from arithmetic intensity against the P100's ridge point
#   (~10 TFLOP/s / 732 GB/s ~ 13 flop/byte): a copy (0 flop/B) 0.9, the
#   five-point stencils (~0.6 flop/B) 0.8, the summed-area scans (latency of
#   shared-memory steps, one read and write per cell) 0.5, the DP and
#   histogram tiles (127 synchronised steps, Observation 3's extra reads)
#   0.4, the triangular solves (~8 flop/B) 0.2, bmod (~11 flop/B, near the
#   ridge) 0.2, lu0 (64 dependent pivot steps: latency, not traffic) 0.1.
# kind -> instruction-level parallelism of its compute part: independent
# instructions per dependent chain a warp has to issue (tbdse's reading of
# each kernel; used only with ``alu_latency``, docs/simulation.md "Per-kernel
# throughput"): 1 for the DP and histogram tiles and the scans (each cell
# waits on its neighbours' results), lu0 (64 dependent pivot steps); 2 for
# the copies and stencils (independent address and load/store streams) and
# the triangular solves (independent columns); 4 for bmod (a register-blocked
# multiply-subtract keeps several accumulators in flight).
ILP: dict[str, float] = {
    "dtw": 1,
    "sw": 1,
    "hist": 1,
    "heat": 2,
    "sat": 1,
    "copy": 2,
    "compute": 2,
    "lu0": 1,
    "fwd": 2,
    "bdiv": 2,
    "bmod": 4,
}

PROFILE: dict[str, tuple[int, float]] = {
    "dtw": (40, 0.4),
    "sw": (40, 0.4),
    "hist": (40, 0.4),
    "heat": (32, 0.8),
    "sat": (32, 0.5),
    "copy": (32, 0.9),
    "compute": (32, 0.8),
    "lu0": (48, 0.1),
    "fwd": (48, 0.2),
    "bdiv": (48, 0.2),
    "bmod": (48, 0.2),
}


@dataclass(frozen=True)
class App:
    key: str  # as the paper writes it, lower case
    title: str  # as the paper writes it
    aliases: tuple[str, ...]  # the artifact's switchAPP names (§A)
    build: Callable[[TaskBuilder, int], None]


def _kind_costs(app: str, scale: float) -> dict[str, int]:
    """Each kind's cycles per task at ``cost_scale`` ``scale``."""
    costs = {}
    for kind, (cycles, _) in KINDS[app].items():
        costs[kind] = round(cycles * scale)
        if costs[kind] < 1:
            raise ConfigError(
                f"Juggler kernel '{APPS[app].title}': cost_scale {scale!r} makes kind '{kind}' "
                f"({cycles} cycles) cost 0 cycles; use at least {0.5 / cycles:.3g}"
            )
    return costs


def _kinds(b: TaskBuilder, app: str, scale: float, alu_latency: float = 0.0) -> None:
    costs = _kind_costs(app, scale)
    for kind, (_, requests) in KINDS[app].items():
        regs, mem = PROFILE[kind]
        b.kind(
            kind,
            cost=costs[kind],
            threads=THREADS,
            regs_per_thread=regs,
            mem_requests=requests,
            mem_fraction=mem,
            issue_interval=max(1.0, alu_latency / ILP[kind]) if alu_latency else 0.0,
        )


def _tiles(b: TaskBuilder, name: str, n: int) -> Callable[[int, int], Any]:
    array = b.array(name, n * n * TILE)
    return lambda i, j: array[(i * n + j) * TILE : (i * n + j + 1) * TILE]


def _dp_wavefront(kind: str, matrix: str, inputs: tuple[str, str]) -> Callable[..., None]:
    """DT-WARP / SM-W: a 72 x 72 wavefront over a DP matrix and two sequences."""

    def build(b: TaskBuilder, _: int) -> None:
        n = 72
        tile = _tiles(b, matrix, n)
        seq_a, seq_b = (b.array(x, n * 64) for x in inputs)
        for i in range(n):
            for j in range(n):
                reads = [tile(i - 1, j)] if i else []
                reads += [tile(i, j - 1)] if j else []
                reads += [tile(i - 1, j - 1)] if i and j else []
                reads += [seq_a[i * 64 : i * 64 + 64], seq_b[j * 64 : j * 64 + 64]]
                b.task(kind, in_=reads, out=[tile(i, j)], launch=i + j)

    return build


def _int_hist(b: TaskBuilder, _: int) -> None:
    n = 90
    hist, image = _tiles(b, "hist", n), _tiles(b, "image", n)
    for i in range(n):
        for j in range(n):
            reads = [image(i, j)]
            reads += [hist(i - 1, j)] if i else []
            reads += [hist(i, j - 1)] if j else []
            reads += [hist(i - 1, j - 1)] if i and j else []
            b.task("hist", in_=reads, out=[hist(i, j)], launch=i + j)


def _heat_sim(b: TaskBuilder, _: int) -> None:
    n = 90
    u = _tiles(b, "u", n)
    for i in range(n):
        for j in range(n):
            near = [(i - 1, j), (i, j - 1), (i + 1, j), (i, j + 1)]
            reads = [u(y, x) for y, x in near if 0 <= y < n and 0 <= x < n]
            b.task("heat", in_=reads, inout=[u(i, j)], launch=i + j)


def _sa_table(b: TaskBuilder, _: int) -> None:
    n = 90
    sat, image = _tiles(b, "sat", n), _tiles(b, "image", n)
    colsum = b.array("colsum", n * n * 64)  # per tile: the image's column sums above it
    for j in range(n):  # the sweep goes column by column
        for i in range(n):
            t = i * n + j
            reads = [image(i, j), colsum[t * 64 : t * 64 + 64]]
            reads += [sat(i, j - 1)] if j else []
            reads += [sat(i - 1, j - 1)] if i and j else []
            b.task("sat", in_=reads, out=[sat(i, j)], launch=j)


def _jacobi(b: TaskBuilder, iterations: int) -> None:
    blocks = 900
    a, tmp = b.array("a", blocks * TILE), b.array("tmp", blocks * TILE)
    for _ in range(iterations):
        for k in range(blocks):
            b.task("copy", in_=[a[k * TILE : (k + 1) * TILE]], out=[tmp[k * TILE : (k + 1) * TILE]])
        for k in range(blocks):
            b.task(
                "compute", in_=[tmp[k * TILE : (k + 1) * TILE]], out=[a[k * TILE : (k + 1) * TILE]]
            )


def _lu_d(b: TaskBuilder, _: int) -> None:
    n = 15
    block = _tiles(b, "a", n)  # block (r, c) at (r * n + c) * bSize, as Listing 3
    for kk in range(n):
        b.task("lu0", inout=[block(kk, kk)])
        for jj in range(kk + 1, n):
            b.task("fwd", in_=[block(kk, kk)], inout=[block(kk, jj)])
        for ii in range(kk + 1, n):
            b.task("bdiv", in_=[block(kk, kk)], inout=[block(ii, kk)])
        for ii in range(kk + 1, n):
            for jj in range(kk + 1, n):
                b.task("bmod", in_=[block(ii, kk), block(kk, jj)], inout=[block(ii, jj)])


APPS: dict[str, App] = {
    a.key: a
    for a in (
        App("dt-warp", "DT-WARP", ("dtw",), _dp_wavefront("dtw", "D", ("series_a", "series_b"))),
        App("heat-sim", "HEAT-SIM", ("heat",), _heat_sim),
        App("int-hist", "INT-HIST", ("int",), _int_hist),
        App("jacobi", "JACOBI", (), _jacobi),
        App("lu-d", "LU-D", ("lud",), _lu_d),
        App("sa-table", "SA-TABLE", ("sat",), _sa_table),
        App("sm-w", "SM-W", ("sw",), _dp_wavefront("sw", "H", ("seq_a", "seq_b"))),
    )
}
_LOOKUP = {n.lower(): a.key for a in APPS.values() for n in (a.key, a.title, *a.aliases)}


def juggler_app_names() -> list[str]:
    """The kernels' names, as :func:`juggler_app` takes them."""
    return sorted(APPS)


def _spec(app: str) -> App:
    key = text(app, "a Juggler kernel's name").strip().lower()
    if key not in _LOOKUP:
        raise unknown_name("Juggler kernel", app, APPS)
    return APPS[_LOOKUP[key]]


def _naming(params: Mapping[str, Any]) -> str:
    spec = _spec(params["app"])
    iterations = params.get("iterations", 2)
    return spec.title if iterations == 2 else f"{spec.title}(iterations={iterations})"


def _checked(
    app: str, iterations: Any, cost_scale: Any, alu_latency: Any
) -> tuple[App, int, float, float]:
    """The kernel's spec and its checked iterations, cost_scale and
    alu_latency (ConfigError naming the kernel and the parameter)."""
    spec = _spec(app)
    what = f"Juggler kernel '{spec.title}'"
    steps = whole(iterations, f"{what}: iterations", 1, 10_000)
    if spec.key != "jacobi" and steps != 2:
        raise ConfigError(f"{what}: 'iterations' applies to jacobi only (got {steps})")
    scale = real(cost_scale, f"{what}: cost_scale", 0, 1e6)
    if scale <= 0:
        raise ConfigError(f"{what}: cost_scale must be positive; got {excerpt(cost_scale)}")
    return spec, steps, scale, real(alu_latency, f"{what}: alu_latency", 0, 1e4)


def juggler_tasks(
    app: str, iterations: int = 2, cost_scale: float = 1.0, alu_latency: float = 0.0
) -> TaskBuilder:
    """The :class:`TaskBuilder` behind :func:`juggler_app`, with every kind
    and task declared and nothing built: to inspect its sections
    (:meth:`TaskBuilder.section_table`) or declare more."""
    spec, steps, scale, latency = _checked(app, iterations, cost_scale, alu_latency)
    builder = TaskBuilder(_naming({"app": spec.key, "iterations": steps}), match="exact")
    _kinds(builder, spec.key, scale, latency)
    spec.build(builder, steps)
    return builder


# The wavefront kernels, tiles per row: their footprints read their neighbours'
# edges, not the whole tiles their depend clauses name (_edges.py).
EDGE_SIDES = {"dt-warp": 72, "sm-w": 72, "int-hist": 90, "heat-sim": 90, "sa-table": 90}

# The one calibrated constant (Fig. 4, docs/models/juggler.md "Calibration"):
# a generator defaults to it, so juggler_app("lu-d") is the calibrated kernel.
COST_SCALE = 20.0


@lru_cache(maxsize=16)
def _structure(app: str, steps: int, alu_latency: float, locality: bool) -> Workload:
    """The kernel's graph, kinds and data footprints, which no cost parameter
    changes: built once (a grid over ``cost_scale`` rebuilt each kernel's
    tasks and footprints for every value; loading juggler_calibration.yaml took
    37 CPU-s).  Costs are set by :func:`juggler_app`; callers get copies."""
    builder = juggler_tasks(app, steps, 1.0, alu_latency)
    made = builder.build()
    if locality:
        side = EDGE_SIDES.get(app)
        made = made.with_data(
            builder.data_footprints() if side is None else edge_footprints(builder, side)
        )
    return made


@generator("juggler_app", naming=_naming)
def juggler_app(
    app: str,
    iterations: int = 2,
    cost_scale: float = COST_SCALE,
    cost_jitter: float = 0.0,
    alu_latency: float = 0.0,
    locality: bool = True,
    *,
    name: str | None = None,
    cost: CostModel | Mapping[str, Any] | float | None = None,
    kernel: Kernel | None = None,
    kernels: Sequence[Kernel] | None = None,
) -> Workload:
    """One of Juggler's Table 1 kernels (dt-warp, jacobi, lu-d, ...) as a task graph.

    ``app``: dt-warp, heat-sim, int-hist, jacobi, lu-d, sa-table or sm-w;
    ``iterations``: JACOBI's time steps; ``cost_scale`` multiplies every
    kind's cost (default :data:`COST_SCALE`, calibrated on Fig. 4 with the
    data footprints on), ``cost_jitter`` is a lognormal spread per task;
    ``alu_latency`` (cycles, 0 = off) opts the kinds into per-kernel
    throughput: each kind's ``issue_interval`` is ``alu_latency / ILP[kind]``
    (at least 1; the P100's dependent ALU latency is about 6 cycles);
    ``locality`` gives every task its depend sections as data footprints
    (:meth:`TaskBuilder.data_footprints`: 4-byte elements, tile-major, arrays
    4 KiB-aligned; the wavefront kernels read only their neighbour tiles'
    edges), so its memory time comes from the GPU's L1/L2/DRAM."""
    if kernel is not None or kernels is not None:
        raise ConfigError(
            f"Juggler kernel '{_spec(app).title}' describes its own kinds; "
            "'kernel(s)' cannot be given"
        )
    spec, steps, scale, latency = _checked(app, iterations, cost_scale, alu_latency)
    jitter = real(cost_jitter, f"Juggler kernel '{spec.title}': cost_jitter", 0, 10)
    costs = _kind_costs(spec.key, scale)
    made = _structure(spec.key, steps, latency, bool(locality))
    made = made.with_cost(per_kernel(costs, jitter=jitter))
    if name:
        made = made.renamed(name)
    if cost is not None:
        made = made.with_cost(cost)
    made.generator = "juggler_app"
    made.params = {
        "app": spec.key,
        "iterations": steps,
        "cost_scale": float(cost_scale),
        "cost_jitter": jitter,
    }
    if alu_latency:
        made.params["alu_latency"] = float(alu_latency)
    if not locality:
        made.params["locality"] = False
    made.chosen_kernels = None
    if cost is None:
        made.chosen_cost = None  # the preset's costs: derived again when parameters vary
    return made
