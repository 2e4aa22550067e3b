"""The Workload: a task graph, the kernels its tasks belong to, and a cost model."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.checks import text
from tbdse._util.excerpts import excerpt
from tbdse._util.params import unknown_name
from tbdse.errors import ConfigError
from tbdse.workloads.cost import CostModel, as_cost, constant
from tbdse.workloads.footprints import DataFootprints
from tbdse.workloads.kernel import KERNEL_RESOURCES, Kernel, make_kernels
from tbdse.workloads.registry import GENERATORS, Generator, generator, generator_names

__all__ = [
    "GENERATORS",
    "KERNEL_RESOURCES",
    "Generator",
    "Kernel",
    "Workload",
    "generator",
    "generator_names",
    "make_kernels",
]


CostArg = CostModel | Mapping[str, Any] | float | None  # what a workload's ``cost=`` takes


class Workload:
    """What a simulation runs: a task graph (CSR, built in C++) with its kernels
    and a cost model, for the TB schemes; or the input of another simulator
    (``model_input``: a graph with an operator for the worklist machine, a
    control-flow kernel for VGIW), which has no kernels or cost model.

    ``kind`` says which: ``task_graph``, or the model input's kind; a scheme
    runs only workloads of the kind it declares.  Workloads made by a
    registered generator remember how, so a sweep can vary their parameters
    (``grid={"rows": [32, 64]}``).
    """

    def __init__(
        self,
        graph: _core.TaskGraph | None = None,
        *,
        name: str,
        kernels: Sequence[Kernel] | None = None,
        cost: CostModel | Mapping[str, Any] | float | None = None,
        generator: str | None = None,
        params: Mapping[str, Any] | None = None,
        labels: Sequence[Any] | None = None,
        application: _core.Application | None = None,
        model_input: _core.ModelInput | None = None,
        data: DataFootprints | None = None,
    ) -> None:
        text(name, "a workload's name")
        if (graph is None) == (model_input is None):
            raise ConfigError(f"workload '{name}' needs either a task graph or a model input")
        self.graph = graph
        self.model_input = model_input
        self.name = name
        self.generator = generator
        self.params: dict[str, Any] = dict(params or {})
        self.labels = list(labels) if labels is not None else None
        # A multi-kernel application's command queue (tbdse.workloads.Application),
        # or None for a plain task graph.
        self.application = application
        # Optional per-task data footprints (tbdse.workloads.DataFootprints).
        self.data = data
        # The KernelMemory description(s) td.workloads.with_memory built the
        # footprints from, and that function: a regenerated workload
        # (with_params) is described again (memdesc imports this module, not
        # the other way round).
        self.memory: Any = None
        self.memory_builder: Callable[[Workload, Any], Workload] | None = None
        if data is not None:
            if graph is None:
                raise ConfigError(f"workload '{name}': data footprints need a task graph")
            if not isinstance(data, DataFootprints):
                raise ConfigError(
                    f"workload '{name}': 'data' must be tbdse.workloads.DataFootprints; "
                    f"got {excerpt(data)}"
                )
            data.check_tasks(int(graph.size), name)
        if graph is None:  # another simulator's input: no kernels, no cost model
            if kernels or cost is not None or application is not None:
                raise ConfigError(
                    f"workload '{name}' ({self.kind}) takes no kernels, cost model or "
                    "application: its simulator describes its own work"
                )
            self.kernels: tuple[Kernel, ...] = ()
            self.cost: CostModel | None = None
            self.chosen_cost: CostModel | None = None
            self.chosen_kernels: tuple[Kernel, ...] | None = None
            self._cost_values: np.ndarray | None = None
            return
        kernels_given = tuple(kernels) if kernels else None
        kernels = kernels_given or (Kernel(),)
        for k in kernels:
            if not isinstance(k, Kernel):
                raise ConfigError(
                    f"workload '{name}': kernels must be tbdse Kernel objects; got {excerpt(k)}"
                )
        if graph.num_kernels > len(kernels):
            raise ConfigError(
                f"workload '{name}': its graph uses kernel ids 0..{graph.num_kernels - 1} but "
                f"{len(kernels)} kernel(s) are described"
            )
        names = [k.name for k in kernels]
        if len(set(names)) != len(names):
            raise ConfigError(f"workload '{name}': kernel names must be distinct; got {names}")
        self.kernels = kernels
        self.cost = constant() if cost is None else as_cost(cost)
        # The cost model the user chose, or None when it is the generator's
        # default (which may depend on generator parameters, e.g. STG units).
        self.chosen_cost = None if cost is None else self.cost
        # Likewise the kernels the user chose, or None for the generator's default.
        self.chosen_kernels = kernels_given
        self._cost_values = self.cost.values_for(names, graph.size)  # validates the table early

    # -- properties -----------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``task_graph``, or the kind of its model input (``worklist``, ``cfg``)."""
        return "task_graph" if self.model_input is None else str(self.model_input.kind)

    @property
    def task_graph(self) -> _core.TaskGraph:
        """The task graph; ConfigError for a workload of another kind."""
        if self.graph is None:
            raise ConfigError(f"workload '{self.name}' is a {self.kind} workload, not a task graph")
        return self.graph

    @property
    def tasks(self) -> int:
        return int(self.task_graph.size)

    @property
    def edges(self) -> int:
        return int(self.task_graph.edge_count)

    @property
    def levels(self) -> int:
        return int(self.task_graph.num_levels)

    def sizes(self) -> dict[str, int]:
        """Its size, one result column each (workload.<name>): tasks, edges and
        levels of a task graph, or what the model input reports."""
        if self.model_input is not None:
            return {k: int(v) for k, v in self.model_input.sizes().items()}
        return {"tasks": self.tasks, "edges": self.edges, "levels": self.levels}

    @property
    def weight(self) -> float:
        """Relative cost of simulating it, for sizing sweep chunks."""
        if self.model_input is not None:
            return float(self.model_input.weight) + 10.0
        return float(self.tasks) + 10.0

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "generator": self.generator,
            **{f"param.{k}": v for k, v in self.params.items()},
            **self.sizes(),
            "kernels": ", ".join(k.name for k in self.kernels),
            "cost": None if self.cost is None else self.cost.describe(),
            "launches": None if self.application is None else self.application.launches,
        }

    def __repr__(self) -> str:
        sizes = ", ".join(f"{k}={v}" for k, v in self.sizes().items())
        cost = "" if self.cost is None else f", cost={self.cost.describe()}"
        return f"Workload({self.name!r}, {sizes}{cost})"

    # -- derived workloads ----------------------------------------------------------
    def with_cost(self, cost: CostModel | Mapping[str, Any] | float) -> Workload:
        return self._copy(cost=as_cost(cost))

    def with_kernels(self, kernels: Sequence[Kernel]) -> Workload:
        if not isinstance(kernels, Sequence) or not all(isinstance(k, Kernel) for k in kernels):
            raise ConfigError(f"kernels must be a list of tbdse.Kernel; got {excerpt(kernels)}")
        return self._copy(kernels=tuple(kernels))

    @property
    def has_footprints(self) -> bool:
        """Some task declares data footprints (its own ``data`` or an
        application built with ``locality``): the TB engine then times their
        reads through the GPU's memory hierarchy."""
        app_ranges = getattr(self.application, "data_ranges", 0) if self.application else 0
        return self.data is not None or app_ranges > 0

    @property
    def has_issue_rates(self) -> bool:
        """Some kernel states an ``issue_interval``: under ``sm_model: shared``
        the TB engine then reads the SM's issue rate (``issue_width``, ``lanes``)."""
        return any(k.issue_interval > 0 for k in self.kernels)

    def with_data(self, data: DataFootprints | None) -> Workload:
        """The same workload with these data footprints (None: without)."""
        return self._copy(data=data)

    def renamed(self, name: str) -> Workload:
        return self._copy(name=name)

    def with_params(self, **changes: Any) -> Workload:
        """The same generator run again with some parameters changed."""
        if not changes:
            return self
        if self.generator is None:
            raise ConfigError(
                f"workload '{self.name}' was not made by a generator, so its parameters "
                f"({', '.join(changes)}) cannot be varied"
            )
        gen = GENERATORS[self.generator]
        for key in changes:
            if key not in gen.params:
                raise unknown_name(f"parameter of workload generator '{gen.name}'", key, gen.params)
        params = {**self.params, **changes}
        if self.model_input is None:
            made = gen.func(**params, cost=self.chosen_cost, kernels=self.chosen_kernels)
        else:  # a model input's generator takes no cost model or kernels
            made = gen.func(**params)
        if self.memory_builder is not None:  # footprints from a description: build them again
            made = self.memory_builder(made, self.memory)
        return made._copy(name=self.name) if self.name != gen.default_name(self.params) else made

    def _copy(self, **changes: Any) -> Workload:
        args: dict[str, Any] = {
            "name": self.name,
            "generator": self.generator,
            "params": self.params,
            "labels": self.labels,
        }
        if self.model_input is not None:
            args["model_input"] = self.model_input
        else:
            args.update(
                kernels=self.kernels, cost=self.cost, application=self.application, data=self.data
            )
        args.update(changes)
        made = Workload(self.graph, **args)
        if "cost" not in changes:
            made.chosen_cost = self.chosen_cost
        if "kernels" not in changes:
            made.chosen_kernels = self.chosen_kernels
        if "data" not in changes:
            made.memory, made.memory_builder = self.memory, self.memory_builder
        return made

    # -- what the core needs ------------------------------------------------------------
    def core_tuple(
        self,
    ) -> tuple[
        str,
        _core.TaskGraph | None,
        list[tuple[str, int, int, int, int, float, float, int]],
        _core.Application | None,
        _core.ModelInput | None,
        tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None,
    ]:
        kernels = [k.as_tuple() for k in self.kernels]
        data = None if self.data is None else self.data.core_tuple()
        return (self.name, self.graph, kernels, self.application, self.model_input, data)

    def core_cost(self) -> tuple[str, dict[str, float], np.ndarray | None]:
        """The cost model for the core (a constant one, unused, for model inputs)."""
        cost = self.cost if self.cost is not None else constant()
        return (cost.kind, dict(cost.params), self._cost_values)

    def key(self) -> tuple[Any, ...]:
        table = None if self._cost_values is None else self._cost_values.tobytes()
        source = self.graph if self.graph is not None else self.model_input
        assert source is not None
        return (
            self.name,
            self.kind,
            source.content_hash,
            self.kernels,
            None if self.cost is None else self.cost.kind,
            None if self.cost is None else tuple(sorted(self.cost.params.items())),
            table,
            None if self.application is None else self.application.content_hash,
            None if self.data is None else self.data.digest(),
        )

    # -- conversions ------------------------------------------------------------------------
    def to_networkx(self) -> Any:
        """A networkx.DiGraph with node attributes level, kernel and cost.

        The graph attributes ``tbdse_cost`` (the cost model as a mapping) and
        ``tbdse_kernels`` (each kernel's fields, ``reuse`` included) carry what
        the nodes cannot, and a task with data footprints has the node
        attribute ``data``: its ranges as ``("read" | "write", base, bytes)``
        tuples in declaration order.  So :func:`tbdse.workloads.from_networkx`
        gives back a workload that simulates the same (a lognormal cost model
        is not a per-node cost; footprints change memory time).  An
        application's command queue (``application``) is not carried."""
        import networkx as nx

        g = nx.DiGraph(name=self.name)
        if self.cost is not None:
            g.graph["tbdse_cost"] = self.cost.to_dict()
        g.graph["tbdse_kernels"] = [vars(k).copy() for k in self.kernels]
        graph = self.task_graph
        levels, kernels, costs = graph.levels(), graph.kernels(), graph.costs()
        for t in range(self.tasks):
            g.add_node(
                t, level=int(levels[t]), kernel=self.kernels[kernels[t]].name, cost=int(costs[t])
            )
        if self.data is not None:
            d = self.data
            for i in range(len(d)):
                ranges = g.nodes[int(d.task[i])].setdefault("data", [])
                ranges.append(("write" if d.write[i] else "read", int(d.base[i]), int(d.bytes[i])))
        starts, edges = graph.edge_starts(), graph.edges()
        for t in range(self.tasks):
            for e in range(starts[t], starts[t + 1]):
                g.add_edge(t, int(edges[e]))
        return g


def graph_workload(
    generator_name: str,
    graph: _core.TaskGraph,
    params: Mapping[str, Any],
    *,
    name: str | None,
    cost: CostArg,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    """The workload of generator ``generator_name``'s ``graph`` made with
    ``params``, with the keyword-only arguments every workload has (a generator
    that spells them out keeps its whole signature for type checkers)."""
    params = dict(params)
    return Workload(
        graph,
        name=name or GENERATORS[generator_name].default_name(params),
        kernels=None if kernel is None and kernels is None else make_kernels(kernel, kernels),
        cost=cost,
        generator=generator_name,
        params=params,
    )


def graph_generator(
    name: str,
) -> Callable[[Callable[..., _core.TaskGraph]], Callable[..., Workload]]:
    """Registers a function that builds a task graph as workload generator ``name``.

    The registered function takes the graph function's parameters plus the
    keyword-only ``name``, ``cost``, ``kernel`` and ``kernels`` every workload
    has, and returns a :class:`Workload` that remembers its parameters.  Its
    signature is right at run time (help(), inspect) but not for type checkers,
    which cannot see the added keywords: tbdse's own generators spell them out
    and call :func:`graph_workload` under :func:`generator` instead.
    """

    def register(build: Callable[..., _core.TaskGraph]) -> Callable[..., Workload]:
        own = inspect.signature(build)

        @functools.wraps(build)
        def make(
            *args: Any,
            name: str | None = None,
            cost: CostModel | Mapping[str, Any] | float | None = None,
            kernel: Kernel | None = None,
            kernels: Sequence[Kernel] | None = None,
            **kwargs: Any,
        ) -> Workload:
            bound = own.bind(*args, **kwargs)
            bound.apply_defaults()
            params = dict(bound.arguments)
            return graph_workload(
                generator_name,
                build(**params),
                params,
                name=name,
                cost=cost,
                kernel=kernel,
                kernels=kernels,
            )

        generator_name = name
        common = inspect.signature(make, follow_wrapped=False).parameters
        make.__signature__ = own.replace(  # type: ignore[attr-defined]
            parameters=[
                *own.parameters.values(),
                *(common[k] for k in ("name", "cost", "kernel", "kernels")),
            ],
            return_annotation="Workload",
        )
        return generator(name)(make)

    return register


def file_workload(
    workload: Workload,
    generator_name: str,
    path: str,
    *,
    what: str,
    name: str | None,
    cost: Any,
    kernel: Kernel | None,
    kernels: Sequence[Kernel] | None,
) -> Workload:
    """The common tail of the generators that read a workload file which
    declares its own kernels (``what`` says so, e.g. "a task file describes
    its own kinds"): no kernel(s) given, an optional cost model and name, and
    the generator and path recorded for replay."""
    if kernel is not None or kernels is not None:
        raise ConfigError(f"{what}; 'kernel(s)' cannot be given")
    if cost is not None:
        workload = workload.with_cost(cost)
    if name:
        workload = workload.renamed(name)
    workload.generator, workload.params = generator_name, {"path": str(path)}
    return workload
