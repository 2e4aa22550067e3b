"""Your own TB scheduling policy, used wherever a scheme goes (docs/policies.md).

>>> import numpy as np, tbdse as td
>>> wl = td.workloads.wavefront(8, 8)
>>> lifo = td.Policy(priorities=np.arange(wl.tasks, dtype=float), name="latest_first")
>>> td.simulate(wl, "gtx480", lifo).makespan_cycles > 0
True

A policy decides which ready TB issues first (its priority, highest first,
ties in the order tasks became ready) and on which SM (``place``), on the
launch and readiness of ``dataflow_ideal``.  Three ways to give it, one
interface:

* ``priorities=``: a static priority per task (by task id), e.g. an upward
  rank computed with NumPy: no callback at run time;
* a compiled callback: a Numba ``@cfunc`` with :data:`PRIORITY_SIGNATURE` /
  :data:`PLACE_SIGNATURE`, any C function pointer (ctypes, cffi, an address),
  or a plain function with ``jit=True`` (compiled with Numba): called from
  the sweep's worker threads without the GIL;
* a plain Python callable ``f(task, parents, sms, params)`` for prototyping:
  the GIL is held, so a sweep runs one run at a time and warns.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import hashlib
import importlib
import re
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from tbdse import _core
from tbdse._util.excerpts import excerpt
from tbdse._util.params import encode_all
from tbdse.errors import ConfigError
from tbdse.schemes.base import Scheme, info

__all__ = [
    "C_SIGNATURES",
    "PLACE_ROUND_ROBIN",
    "PLACE_WAIT",
    "TASK_FIELDS",
    "Policy",
    "PolicyWarning",
    "allow_imports",
    "from_spec",
    "numba_signature",
    "upward_rank",
]

# The fields of the `task` view, in order (task[TASK_FIELDS.index("level")]).
TASK_FIELDS = ("id", "kernel", "level", "cost", "now", "parents", "sms", "params", "ready_order")
PLACE_ROUND_ROBIN = -1  # place: let the engine choose round robin
PLACE_WAIT = -2  # place: issue nothing more until the next event
MAX_PARAMS = 4  # the scheme's p0..p3
C_SIGNATURES = {
    "priority": "double priority(const int64_t* task, const int64_t* parents, "
    "const int64_t* sms, const double* params, void* user)",
    "place": "int64_t place(const int64_t* task, const int64_t* parents, "
    "const int64_t* sms, const double* params, void* user)",
}


class PolicyWarning(UserWarning):
    """A policy runs slower than it could (a plain Python callable in a sweep)."""


def numba_signature(kind: str) -> Any:
    """The Numba signature of a ``priority`` or ``place`` callback (for ``@cfunc``)."""
    from numba import types as nt  # an optional extra: pip install tbdse[policies]

    if kind not in C_SIGNATURES:
        raise ConfigError(f"a policy callback is 'priority' or 'place'; got {excerpt(kind)}")
    ptr = nt.CPointer(nt.int64)
    ret = nt.float64 if kind == "priority" else nt.int64
    return ret(ptr, ptr, ptr, nt.CPointer(nt.float64), nt.voidptr)


def _digest_code(h: Any, code: types.CodeType) -> None:
    h.update(code.co_code)
    h.update(repr((code.co_names, code.co_varnames)).encode())
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _digest_code(h, c)
        else:
            h.update(repr(c).encode())


def _function_identity(f: Callable[..., Any], _depth: int = 0) -> str:
    """A digest of a Python function's code, constants, defaults and closure
    values: changed code is a new identity (functions it calls are not
    covered: give ``version=`` when only they change)."""
    h = hashlib.sha256()
    code = getattr(f, "__code__", None)
    if code is None:
        raise ConfigError(f"cannot identify {excerpt(f)}: give identity='...' (e.g. a version)")
    h.update(f.__qualname__.encode())
    _digest_code(h, code)
    h.update(repr(getattr(f, "__defaults__", None)).encode())
    for cell in getattr(f, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            h.update(b"<empty>")
            continue
        inner = getattr(value, "py_func", value)  # a Numba dispatcher: its Python function
        if isinstance(inner, types.FunctionType) and _depth < 8:
            h.update(_function_identity(inner, _depth + 1).encode())
        elif isinstance(value, np.ndarray):
            h.update(value.tobytes())
        else:  # an object's repr; a default repr's address would change every run
            h.update(re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value)).encode())
    return h.hexdigest()


def _compiled_address(f: Any, kind: str) -> tuple[int, str] | None:
    """(address, identity) of a compiled callback, or None for a Python callable."""
    if type(f).__name__ == "CFunc" and hasattr(f, "address"):  # numba.cfunc
        pyfunc = getattr(f, "_pyfunc", None)
        ident = _function_identity(pyfunc) if pyfunc is not None else ""
        return int(f.address), f"numba:{ident}"
    if isinstance(f, ctypes._CFuncPtr):  # type: ignore[attr-defined]
        return int(ctypes.cast(f, ctypes.c_void_p).value or 0), ""
    function = getattr(f, "function", None)  # scipy.LowLevelCallable: a capsule
    if function is not None and type(function).__name__ == "PyCapsule":
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        get_name = ctypes.pythonapi.PyCapsule_GetName
        get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
        return int(get(function, get_name(function)) or 0), ""
    if isinstance(f, int) and not isinstance(f, bool):
        return f, ""
    return None


def _jit(f: Callable[..., Any], kind: str) -> Any:
    """``f(task, parents, sms, params)`` compiled with Numba into a callback."""
    try:
        import numba
    except ImportError:
        raise ConfigError(
            "jit=True compiles the policy with Numba, which is not installed: "
            "pip install tbdse[policies]"
        ) from None
    inner = numba.njit(f)
    carray = numba.carray

    def wrapper(task_p, parents_p, sms_p, params_p, user):  # type: ignore[no-untyped-def]
        task = carray(task_p, (9,))
        parents = carray(parents_p, (task[5], 2))
        sms = carray(sms_p, (2 * task[6],))
        params = carray(params_p, (task[7],))
        return inner(task, parents, sms, params)

    try:
        return numba.cfunc(numba_signature(kind))(wrapper)  # nopython by default
    except Exception as exc:  # Numba's typing errors: say which function, in one line
        first = next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
        raise ConfigError(
            f"Numba could not compile {kind} function '{getattr(f, '__name__', f)}' "
            f"(jit=True): {first.strip()}; drop jit=True to run it as plain Python"
        ) from None


def upward_rank(workload: Any, cost: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Each task's upward rank: its cost plus the longest cost path below it
    (HEFT's rank_u), by task id; the priorities of critical-path-first.
    ``cost``: per task (default: the graph's nominal costs, or 1 per task
    when it has none, i.e. the longest chain of tasks below)."""
    g = workload.task_graph
    n = int(workload.tasks)
    starts = np.asarray(g.edge_starts(), dtype=np.int64)
    children = np.asarray(g.edges(), dtype=np.int64)
    levels = np.asarray(g.levels(), dtype=np.int64)
    c = np.asarray(g.costs() if cost is None else cost, dtype=np.float64)
    if c.shape != (n,):
        raise ConfigError(f"upward_rank: cost has {c.size} values for {n} tasks")
    if cost is None and not c.any():
        c = np.ones(n)
    rank = c.copy()
    order = np.argsort(-levels, kind="stable")  # deepest level first: children are done
    bounds = np.flatnonzero(np.diff(levels[order])) + 1
    for nodes in np.split(order, bounds):
        counts = starts[nodes + 1] - starts[nodes]
        has = counts > 0
        if not has.any():
            continue
        nodes, counts = nodes[has], counts[has]
        first = np.repeat(starts[nodes] - np.cumsum(counts) + counts, counts)
        below = rank[children[first + np.arange(counts.sum())]]
        rank[nodes] += np.maximum.reduceat(below, np.cumsum(counts) - counts)
    return rank


class Policy(Scheme):
    """A user policy: a scheme (``user_policy``) that simulate, sweep, the
    results store and experiments take like any other.

    Args:
        priority: the ready task's priority (highest first): a compiled
            callback, or a Python callable ``f(task, parents, sms, params)``.
        priorities: instead of ``priority``, one static priority per task id.
        place: the SM for the task next to issue: an SM with room,
            :data:`PLACE_ROUND_ROBIN` or :data:`PLACE_WAIT`.
        max_tbs_per_sm: task TBs an SM may hold at once (0: as many as fit).
        params: up to four named parameters, ``params[0..3]`` in the
            callbacks in this order; sweep axes and table columns by their names.
        name: for tables, legends and messages (default: the function's name).
        identity: what identifies compiled code the policy cannot read (a C
            function pointer): change it when the code changes.
        version: mixed into the identity (bump it when only a helper the
            function calls changed).
        jit: compile Python callables with Numba (``pip install tbdse[policies]``).
    """

    def __init__(
        self,
        priority: Any = None,
        *,
        priorities: Sequence[float] | np.ndarray | None = None,
        place: Any = None,
        max_tbs_per_sm: int = 0,
        params: Mapping[str, float] | None = None,
        name: str | None = None,
        identity: str | None = None,
        version: str = "",
        jit: bool = False,
        label: str | None = None,
    ) -> None:
        if priority is not None and priorities is not None:
            raise ConfigError("a policy takes priority= (a function) or priorities= (an array)")
        first = priority if priority is not None else place
        if name is None:
            name = getattr(getattr(first, "_pyfunc", first), "__name__", None) or (
                "static_priorities" if priorities is not None else "fifo"
            )
        if not isinstance(name, str) or not name:
            raise ConfigError(f"a policy's name must be a non-empty string; got {excerpt(name)}")
        self.policy_name = name
        self.spec: dict[str, Any] | None = None  # an experiment file's entry, if made from one
        named = dict(params or {})
        if len(named) > MAX_PARAMS:
            raise ConfigError(f"policy '{name}': at most {MAX_PARAMS} params; got {len(named)}")
        h = hashlib.sha256(f"{name}\0{version}\0{identity or ''}".encode())
        register: dict[str, Any] = {}
        self.serial = False
        if priorities is not None:
            arr = np.ascontiguousarray(priorities, dtype=np.float64)
            if arr.ndim != 1:
                raise ConfigError(f"policy '{name}': priorities must be 1-D, one per task id")
            bad = np.flatnonzero(np.isnan(arr))
            if bad.size:
                raise ConfigError(f"policy '{name}': static priority of task {bad[0]} is NaN")
            register["priorities"] = arr
            h.update(b"static" + arr.tobytes())
        for kind, f in (("priority", priority), ("place", place)):
            if f is None:
                continue
            if jit and callable(f) and _compiled_address(f, kind) is None:
                h.update(f"jit:{kind}:{_function_identity(f)}".encode())
                f = _jit(f, kind)
                setattr(self, f"_{kind}_cfunc", f)  # keeps the compiled code alive
            compiled = _compiled_address(f, kind)
            if compiled is not None:
                address, ident = compiled
                if hasattr(self, f"_{kind}_cfunc"):  # jit=True: the source is hashed above
                    ident = "jit"
                if not address:
                    raise ConfigError(f"policy '{name}': {kind} is a null function pointer")
                if not ident and identity is None:
                    raise ConfigError(
                        f"policy '{name}': {kind} is a C function pointer whose code tbdse "
                        "cannot read; give identity='...' (change it when the code changes)"
                    )
                h.update(f"{kind}:{ident}".encode())
                register[f"{kind}_address"] = address
                self.__dict__.setdefault("_keep", []).append(f)
            elif callable(f):
                h.update(f"py:{kind}:{_function_identity(f)}".encode())
                register[f"{kind}_callable"] = f
                self.serial = True
            else:
                raise ConfigError(
                    f"policy '{name}': {kind} must be a function, a Numba cfunc or a C "
                    f"function pointer; got {excerpt(f)}"
                )
        self.policy_key = int(h.hexdigest()[:13], 16) or 1  # 52 bits: exact as a parameter value
        _core.register_policy(self.policy_key, name, **register)
        self.param_names = list(named)
        values = {f"p{i}": float(v) for i, v in enumerate(named.values())}
        super().__init__(
            "user_policy",
            label=label or name,
            policy=self.policy_key,
            max_tbs_per_sm=max_tbs_per_sm,
            **values,
        )
        # Its parameters under their own names (table columns, sweep axes).
        self._slots = {n: f"p{i}" for i, n in enumerate(named)}
        taken = [n for n in named if n in self.params and n not in self._slots.values()]
        if taken:
            raise ConfigError(
                f"policy '{name}': parameter name '{taken[0]}' is taken by the scheme; "
                "choose another"
            )
        for n, slot in self._slots.items():
            self.params[n] = self.params.pop(slot)

    def core_param(self, name: str) -> str:
        return self._slots.get(name, name)

    def encoded(self) -> dict[str, float]:
        values = {self.core_param(k): v for k, v in self.params.items()}
        return encode_all(info("user_policy")["params"], values, f"policy '{self.policy_name}'")

    def _rebuilt(self, label: str | None, changes: Mapping[str, Any]) -> Policy:
        other = object.__new__(Policy)
        other.__dict__.update(self.__dict__)
        given = {**self._given, **{self.core_param(k): v for k, v in changes.items()}}
        Scheme.__init__(other, "user_policy", label=label, **given)
        for n, slot in self._slots.items():
            other.params[n] = other.params.pop(slot)
        return other

    def relabel(self, label: str) -> Policy:
        """The same policy under another label."""
        return self._rebuilt(label, {})

    def replace(self, **params: Any) -> Policy:
        """The same policy with other parameter values (by their names)."""
        return self._rebuilt(self._label, params)

    def __repr__(self) -> str:
        return f"Policy({self.policy_name!r}, key={self.policy_key})"


# ---------------------------------------------------------------- experiment files
# An experiment file's scheme entry {policy: "package.module:function", ...}
# imports and runs code, so it is refused unless the caller opted in
# (`tbdse run --allow-policy-imports`, or `with allow_imports():`).
_ALLOW_IMPORTS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "allow_policy_imports", default=False
)
SPEC_KEYS = ("policy", "place", "name", "label", "max_tbs_per_sm", "params", "jit", "version")


@contextlib.contextmanager
def allow_imports(allowed: bool = True) -> Iterator[None]:
    """Lets experiment files name policies to import (``policy: pkg.mod:fn``)."""
    token = _ALLOW_IMPORTS.set(allowed)
    try:
        yield
    finally:
        _ALLOW_IMPORTS.reset(token)


def _import(target: Any, key: str) -> Any:
    if not isinstance(target, str) or target.count(":") != 1:
        raise ConfigError(f"{key} must be 'package.module:attribute'; got {excerpt(target)}")
    if not _ALLOW_IMPORTS.get():
        raise ConfigError(
            f"{key}: '{target}' would import and run code; allow it with "
            "`tbdse run --allow-policy-imports` "
            "(Python: with tbdse.schemes.policies.allow_imports())"
        )
    module_name, attr = target.split(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"{key}: cannot import '{target}': {exc}") from None
    return obj


def from_spec(spec: Mapping[str, Any]) -> Policy:
    """A policy from an experiment file's entry ``{policy: "pkg.mod:fn", ...}``:
    the attribute is a Policy, a priority function or a static priority array."""
    unknown = [k for k in spec if k not in SPEC_KEYS]
    if unknown:
        raise ConfigError(
            f"unknown key '{unknown[0]}' in a policy entry; valid: {', '.join(SPEC_KEYS)}"
        )
    obj = _import(spec["policy"], "policy")
    if isinstance(obj, Policy):
        if set(spec) - {"policy", "label"}:
            raise ConfigError(
                f"policy '{spec['policy']}' is already a tbdse.Policy: only 'label' may be given"
            )
        if "label" in spec:
            obj = obj.relabel(spec["label"])
        obj.spec = {
            "policy": spec["policy"],
            **({"label": spec["label"]} if "label" in spec else {}),
        }
        return obj
    place = _import(spec["place"], "place") if "place" in spec else None
    kw: dict[str, Any] = {
        k: spec[k]
        for k in ("name", "label", "max_tbs_per_sm", "params", "jit", "version")
        if k in spec
    }
    if isinstance(obj, (np.ndarray, list, tuple)):
        made = Policy(priorities=obj, place=place, **kw)
    else:
        made = Policy(obj, place=place, **kw)
    made.spec = dict(spec)
    return made
