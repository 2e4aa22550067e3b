"""The Python package's layout (issue 32, docs/ARCHITECTURE.md "The Python
package"), checked from the imports themselves (the standard library's ast):
no import circle, no generic module that imports a per-paper module from
``tbdse.models``, every file under 500 lines but the generated ones.

An import counts wherever it is written: at module level, inside a function
(a run-time dependency too) and under ``if TYPE_CHECKING:`` (a dependency of
the code's meaning; where two modules need each other's types, one of them
states what it needs as a Protocol instead)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "tbdse"
GENERATED = {"tbdse.schemes._classes"}  # scripts/make_scheme_classes.py
MAX_LINES = 500
# The façade: tbdse/__init__.py imports tbdse.models so that every paper's
# generators are registered; nothing else generic may import a paper.
FACADE = {"tbdse"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    # the compiled simulator (tbdse._core), known by its stub: it imports nothing
    return {**found, **{module_name(p): p for p in PACKAGE.rglob("*.pyi")}}


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The longest prefix of dotted ``name`` that is a module of the package."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports."""
    out: set[str] = set()
    is_package = path.name == "__init__.py"
    if path.suffix == ".pyi":
        return out
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in targets:
            hit = _known(target, known) if target.startswith("tbdse") else None
            if hit is not None and hit != name:
                out.add(hit)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def is_paper(name: str) -> bool:
    return name == "tbdse.models" or name.startswith("tbdse.models.")


def test_the_checker_sees_circles_and_every_import(tmp_path: Path) -> None:
    # The checks below can fail: a circle is found, and an import under
    # TYPE_CHECKING or inside a function is an edge.
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    src = tmp_path / "tbdse" / "m.py"
    src.parent.mkdir()
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tbdse.a import X\n"
        "def f():\n    from tbdse.b import y\n"
    )
    known = {"tbdse.a": src, "tbdse.b": src, "tbdse.m": src}
    assert imports("tbdse.m", src, known) == {"tbdse.a", "tbdse.b"}


def test_no_import_circle() -> None:
    assert circles(graph()) == []


def test_no_generic_module_imports_a_paper() -> None:
    bad = {
        name: sorted(t for t in targets if is_paper(t))
        for name, targets in graph().items()
        if not is_paper(name) and name not in FACADE
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_every_paper_has_its_module_beside_its_cpp_folder() -> None:
    cpp = PACKAGE.parents[1] / "cpp" / "models"
    papers = {"wireframe", "blockmaestro", "juggler", "hwwl", "vgiw"}
    assert papers <= {p.name for p in cpp.iterdir() if p.is_dir()}
    for paper in papers:
        assert f"tbdse.models.{paper}" in modules(), paper


def test_files_are_under_500_lines() -> None:
    long = {
        name: n
        for name, path in modules().items()
        if name not in GENERATED
        and path.suffix == ".py"
        and (n := len(path.read_text(encoding="utf-8").splitlines())) >= MAX_LINES
    }
    assert long == {}


def test_the_modules_earlier_names_still_import_with_a_warning() -> None:
    import importlib
    import sys

    import pytest

    import tbdse
    from tbdse._moved import MOVED, SHADOWED

    for old in SHADOWED:  # registered at import, without a warning
        assert sys.modules[old] is importlib.import_module(MOVED[old])
    assert callable(tbdse.search) and callable(tbdse.pareto)  # still the functions
    for old, new in MOVED.items():
        if old in SHADOWED:
            continue
        sys.modules.pop(old, None)
        with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
            module = importlib.import_module(old)
        assert module is importlib.import_module(new)
        assert module.__spec__.name == new  # still the new module's own
        assert new in modules(), new
    assert tbdse.store is importlib.import_module("tbdse.simulation.store")  # no warning
