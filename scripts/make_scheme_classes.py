"""Writes python/tbdse/schemes/_classes.py: one class per registered scheme whose
``__init__`` names every parameter with its type, default and documentation
(from the compiled registry, ``td.schemes.info(name)["params"]``), so that
help(), IDEs and mypy see them.

    .venv/bin/python scripts/make_scheme_classes.py          # rewrite the file
    .venv/bin/python scripts/make_scheme_classes.py --check  # exit 1 if it is stale

tests/test_typed_api.py checks that the checked-in file is what this writes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parents[1] / "python" / "tbdse" / "schemes" / "_classes.py"

# Scheme name -> (class name, what the scheme is).  A scheme registered in C++
# but missing here gets a class named after it, documented by its summary.
CLASSES: dict[str, tuple[str, str]] = {
    "global_barrier": (
        "GlobalBarrier",
        "One host kernel launch per launch group (Wireframe Code Block 1).",
    ),
    "cdp": ("Cdp", "Nested CUDA dynamic parallelism: a device launch per launch group."),
    "deplinks": (
        "DepLinks",
        "One launch; barriers between groups as dependency edges (Wireframe Fig. 2).",
    ),
    "user_policy": (
        "UserPolicy",
        "A registered user policy, by key: make one with tbdse.Policy (docs/policies.md).",
    ),
    "dataflow_ideal": (
        "DataflowIdeal",
        "One launch, fine-grain dependencies, unlimited scheduler buffers.",
    ),
    "wireframe": (
        "Wireframe",
        "Wireframe's dependency-aware TB scheduler with a finite Dependency Graph "
        "Buffer, LRR or level-bounded issue (MICRO-50 2017; docs/models/wireframe.md).",
    ),
    "baseline": (
        "Baseline",
        "A multi-kernel application as a plain stream runs it: kernels one after "
        "another, each launch after the previous kernel completed (BlockMaestro Fig. 9).",
    ),
    "ideal_baseline": (
        "IdealBaseline",
        "The baseline without kernel launch overhead (BlockMaestro Fig. 9).",
    ),
    "prelaunch": (
        "Prelaunch",
        "Kernels launched while earlier ones run, their launches pipelined; TBs wait "
        "for the whole previous kernel unless independent of it (BlockMaestro §III-C).",
    ),
    "blockmaestro": (
        "BlockMaestro",
        "Kernel pre-launching with TB-level dependencies between consecutive kernels "
        "(ISCA 2021; docs/models/blockmaestro.md).",
    ),
    "hwwl": (
        "Hwwl",
        "The fine-grain hardware worklist: per-lane banks, WAIT/DONE pulls, work "
        "redistribution and virtualization (MICRO-47 2014; docs/models/hwwl.md).",
    ),
    "topology": (
        "Topology",
        "Topology-driven software worklist baseline: a kernel per super-step over every node.",
    ),
    "data": ("Data", "Data-driven, double-buffered software worklist baseline (HWWL Fig. 2)."),
    "juggler": (
        "Juggler",
        "Juggler's in-GPU task runtime: persistent worker TBs with one queue each, "
        "dependencies resolved on the GPU, lrr / grr / lf queue insertion (PPoPP 2018; "
        "docs/models/juggler.md).",
    ),
    "simt": (
        "Simt",
        "A Fermi SM running a control-flow kernel: warps with active masks, "
        "reconvergence at the immediate post-dominator; time is the busiest issue pipe "
        "or DRAM (VGIW §2, Fig. 1b; docs/models/vgiw.md).",
    ),
    "sgmf": (
        "Sgmf",
        'The whole kernel mapped once on the fabric, or "does not map" (a NaN row with '
        "``maps`` = 0); every thread flows through every path (SGMF, ISCA 2014; "
        "docs/models/vgiw.md).",
    ),
    "vgiw": (
        "Vgiw",
        "Control-flow coalescing: the smallest block id with waiting threads runs its "
        "thread vector on the fabric; live values through the LVC (VGIW §2-3; "
        "docs/models/vgiw.md).",
    ),
}


def class_name(scheme: str) -> str:
    return CLASSES.get(scheme, ("".join(p.title() for p in scheme.split("_")), ""))[0]


def annotation(p: Any) -> str:
    """The type a parameter takes, as the core's encoder accepts it."""
    if p["kind"] == "choice":
        kinds = [f"Literal[{', '.join(repr(c) for c in p['choices'])}]"]
    else:
        kinds = [{"int": "int", "float": "float", "bool": "bool"}[p["kind"]]]
    words = [w for w, ok in (("auto", p["auto_ok"]), ("unbounded", p["unbounded_ok"])) if ok]
    if words:
        kinds.append(f"Literal[{', '.join(repr(w) for w in words)}]")
    if p["unbounded_ok"]:
        kinds.append("None")  # None reads as unbounded
    return " | ".join(kinds)


def default(p: Any) -> str:
    value = p["default"]
    if isinstance(value, float) and value == float("inf"):
        return "'unbounded'"
    return repr(value)


def param_doc(p: Any) -> str:
    unit = f" [{p['unit']}]" if p["unit"] else ""
    ref = f" ({p['paper_ref']})" if p["paper_ref"] else ""
    # set where unread, it is refused (issue 29): say when it is read
    when = f"; read only when {p['read_when_text']}" if p["read_when_text"] else ""
    return f"{p['name']}{unit}: {p['doc']}{when}; default {default(p)}{ref}."


def wrap(text: str, indent: str, hanging: str = "") -> str:
    return textwrap.fill(
        text,
        width=96,
        initial_indent=indent,
        subsequent_indent=indent + hanging,
        break_on_hyphens=False,
    )


def render() -> str:
    import tbdse as td

    out = [
        '"""The scheme classes, one per registered scheme, with every parameter a',
        "keyword argument (type, default, documentation from the compiled registry).",
        "",
        "Generated by scripts/make_scheme_classes.py: do not edit by hand;",
        'tests/test_typed_api.py checks it is current."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Literal",
        "",
        "from tbdse.schemes.base import Scheme",
        "",
        "__all__: list[str] = [",
        *sorted(f'    "{class_name(n)}",' for n in td.schemes.names()),
        "]",
    ]
    for name in td.schemes.names():
        meta = td.schemes.info(name)
        params = meta["params"]
        summary = CLASSES.get(name, ("", meta["summary"]))[1] or meta["summary"]
        doc = [wrap(summary, "    ")]
        doc += ["", "    Keyword arguments:"]
        doc += [wrap(param_doc(p), "        ", "    ") for p in params]
        label = "label: a name for tables and legends instead of the generated one."
        doc += [wrap(label, "        ", "    ")]
        doc_text = "\n".join(doc).replace("\\", "\\\\")
        args = ["self", "*", "label: str | None = None"]
        args += [f"{p['name']}: {annotation(p)} = {default(p)}" for p in params]
        values = ", ".join(f"{p['name']}={p['name']}" for p in params)
        out += [
            "",
            "",
            f"class {class_name(name)}(Scheme):",
            f'    """{doc_text.strip()}',
            '    """',
            "",
            f'    scheme_name = "{name}"',
            "",
            "    def __init__(",
            *(f"        {a}," for a in args),
            "    ) -> None:",
            f"        super().__init__(label=label{', ' if values else ''}{values})",
        ]
    return "\n".join(out) + "\n"


def formatted(text: str) -> str:
    """``text`` as ``ruff format`` leaves it (the repository's style)."""
    ruff = Path(sys.executable).with_name("ruff")
    command = [str(ruff)] if ruff.exists() else [sys.executable, "-m", "ruff"]
    done = subprocess.run(
        [*command, "format", "--stdin-filename", str(TARGET), "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=TARGET.parents[3],
    )
    return done.stdout


def main() -> int:
    if not TARGET.exists():  # tbdse.schemes imports the file: start from an empty one
        TARGET.write_text("__all__: list[str] = []\n", encoding="utf-8")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args()
    text = formatted(render())
    if args.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is stale: run scripts/make_scheme_classes.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
