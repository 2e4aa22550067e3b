"""Running a sweep's chunks beyond one machine, on a Dask distributed cluster.

``td.sweep(..., executor=client)`` (a ``distributed.Client``, or a scheduler
address such as ``"tcp://host:8786"``) and ``tbdse run FILE --scheduler
ADDRESS`` split the runs a sweep still needs into chunks and submit them to
the cluster.  The plan (workloads, GPUs, schemes, run table) is sent to every
worker once; each chunk runs there in the compiled core with TBB inside and
comes back as columns.  The driver writes each chunk to the results store as
it arrives, so a lost worker or a stopped driver loses no finished work: Dask
reruns the chunks a dead worker held (up to the scheduler's
``allowed-failures``), and a rerun of the sweep simulates only what the store
lacks.  Rows are the same as a local run's: every run is keyed by its
configuration, not by where or in which chunk it ran.

Deployment: one worker process per machine, with one Dask thread
(``dask worker ADDRESS --nthreads 1``), lets each chunk use every core of its
machine through TBB (the sweep's ``threads`` sets TBB's threads per chunk;
None, the default = all cores of the worker's machine).  On SLURM/PBS
clusters start the workers with dask-jobqueue (docs/search.md, "Running on a
Dask cluster").
"""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from tbdse import _core
from tbdse.errors import ConfigError, SimulationError

if TYPE_CHECKING:
    from tbdse.simulation.plan import Plan

__all__ = ["as_client", "check_executor", "run_chunk"]

CHUNK_WEIGHT = 2e6  # tasks' worth of runs in one chunk: seconds of work, a few ms of overhead
CHUNKS_PER_WORKER = 4  # at least this many chunks per worker thread, for balance

CONNECT_TIMEOUT = "20s"  # how long to try reaching a scheduler given by address

_cores: OrderedDict[str, _core.Sweep] = OrderedDict()
_cores_lock = threading.Lock()
_CORES_KEPT = 4  # plans a worker keeps built, most recent first


class Runner(Protocol):
    """What a distributed run needs of tbdse.simulation.runner.Runner (which
    calls run_distributed): described here, so that neither module imports
    the other's."""

    plan: Plan
    done: np.ndarray
    threads: int
    timeout_s: float | None

    def finish_chunk(self, chunk: np.ndarray, res: Mapping[str, Any]) -> None: ...


def check_executor(executor: Any) -> None:
    """Refuses, without connecting, an executor that cannot be one: no Dask
    installed, not a Client or text, or an address Dask cannot parse.  Called
    before an output folder or store is claimed."""
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
    except ImportError:
        raise ConfigError(
            "running on a cluster needs Dask distributed: pip install 'dask[distributed]'"
        ) from None
    if isinstance(executor, Client):
        return
    if not isinstance(executor, str) or not executor.strip():
        raise ConfigError(
            f"executor must be a distributed.Client or a scheduler address (tcp://host:8786); "
            f"got {type(executor).__name__}"
        )
    try:
        scheme, location = parse_address(executor.strip())
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError("no host, or a port outside 1..65535")
    except (ValueError, TypeError) as exc:
        raise ConfigError(
            f"the Dask scheduler address {executor!r} cannot be used ({exc}); give "
            "[scheme://]host:port, e.g. tcp://scheduler:8786"
        ) from None


def as_client(executor: Any) -> Any:
    """A ``distributed.Client`` from a client or a scheduler address."""
    from distributed import Client

    check_executor(executor)
    if isinstance(executor, Client):
        return executor
    try:
        return Client(executor, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ConfigError(f"cannot reach the Dask scheduler at {executor}: {exc}") from None


def run_chunk(
    plan: Plan, key: str, runs: np.ndarray, threads: int, timeout_s: float
) -> dict[str, Any]:
    """On a worker: simulates ``runs`` of ``plan`` (built once per worker and
    plan ``key``) and returns the chunk's columns."""
    with _cores_lock:
        core = _cores.get(key)
        if core is None:
            core = _cores[key] = plan.core()
            while len(_cores) > _CORES_KEPT:
                _cores.popitem(last=False)
        _cores.move_to_end(key)
    res = core.run(np.asarray(runs, dtype=np.int64), threads, timeout_s)
    return {
        "columns": list(res["columns"]),
        "metrics": res["metrics"],
        "status": res["status"],
        "errors": list(res["errors"]),
    }


def chunks(weights: np.ndarray, todo: np.ndarray, workers: int) -> Iterator[np.ndarray]:
    """``todo`` split in order into chunks of about equal weight: at least
    CHUNKS_PER_WORKER per worker, none heavier than CHUNK_WEIGHT (unless one run is)."""
    total = float(weights.sum())
    count = max(CHUNKS_PER_WORKER * max(workers, 1), math.ceil(total / CHUNK_WEIGHT))
    count = min(count, len(todo))
    if count == 0:
        return
    bounds = np.searchsorted(np.cumsum(weights), total * np.arange(1, count) / count, "right")
    start = 0
    for stop in [*bounds.tolist(), len(todo)]:
        if stop > start:
            yield todo[start:stop]
            start = stop


def run_distributed(runner: Runner, executor: Any) -> None:
    """Runs the runner's unfinished runs on a Dask cluster (see the module docs)."""
    todo = np.nonzero(~runner.done)[0]
    if todo.size == 0:
        return
    client = as_client(executor)
    try:
        _submit_and_collect(runner, client, todo)
    finally:
        if client is not executor:  # made here from an address
            client.close()


def build() -> str:
    """This process's tbdse (a worker's is compared with the driver's)."""
    return str(_core.__version__)


def check_workers(client: Any) -> None:
    """Every worker runs the driver's tbdse: another version would simulate
    other rows under the same keys, or fail to load the plan."""
    mine = build()
    try:
        theirs = client.run(build)
    except Exception as exc:  # no tbdse there at all, or the cluster went away
        raise ConfigError(
            f"cannot ask the Dask workers which tbdse they run ({type(exc).__name__}: {exc}); "
            f"install tbdse {mine} on every worker"
        ) from None
    other = {worker: b for worker, b in theirs.items() if b != mine}
    if other:
        shown = ", ".join(f"{w} runs tbdse {b}" for w, b in sorted(other.items())[:5])
        raise ConfigError(
            f"Dask workers run another tbdse than this one (tbdse {mine}): {shown}; "
            "install the same tbdse on every worker"
        )


def _submit_and_collect(runner: Runner, client: Any, todo: np.ndarray) -> None:
    from distributed import as_completed

    check_workers(client)
    workers = sum(client.nthreads().values()) or 1
    plan_future = client.scatter(runner.plan, broadcast=True, hash=False)
    key = uuid.uuid4().hex
    pending: dict[Any, np.ndarray] = {}
    futures = []
    for chunk in chunks(runner.plan.weights()[todo], todo, workers):
        future = client.submit(
            run_chunk,
            plan_future,
            key,
            chunk,
            runner.threads,
            runner.timeout_s or 0.0,
            pure=False,
            retries=1,
        )
        pending[future.key] = chunk
        futures.append(future)
    try:
        for future in as_completed(futures):
            chunk = pending.pop(future.key)
            try:
                res = future.result()
            except Exception as exc:  # a chunk that failed on every try, or a lost cluster
                raise SimulationError(
                    f"a chunk of {len(chunk)} runs failed on the cluster: "
                    f"{type(exc).__name__}: {exc}"
                ) from None
            runner.finish_chunk(chunk, res)
    except BaseException:
        client.cancel([f for f in futures if f.key in pending])
        raise
