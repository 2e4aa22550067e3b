"""``tbdse list WHAT``: the schemes, GPUs, workload generators, cost models
or metrics as plain-text tables, from their documentation."""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


def plain_text(doc: str) -> str:
    """Docstring markup as plain text: ``x`` / `x` / :func:`x` -> x."""
    doc = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc)
    return re.sub(r"``?([^`]+)``?", r"\1", doc)


class _Writer:
    """Prints paragraphs wrapped to the terminal, continuation lines indented."""

    def __init__(self) -> None:
        self.width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 120))

    def item(self, text: str, indent: int = 0, hang: int = 4) -> None:
        print(
            textwrap.fill(
                plain_text(text),
                self.width,
                initial_indent=" " * indent,
                subsequent_indent=" " * (indent + hang),
                break_on_hyphens=False,
            )
        )


def list_table(what: str) -> None:
    import pandas as pd

    import tbdse as td
    from tbdse.simulation.results import metric_info

    out = _Writer()
    if what == "schemes":
        for name in td.schemes.names():
            meta = td.schemes.info(name)
            out.item(f"{name}: {meta['summary']} [{meta['paper_ref']}]")
            for p in meta["params"]:
                choices = f" (one of {', '.join(p['choices'])})" if p["choices"] else ""
                unit = f" {p['unit']}" if p["unit"] else ""
                when = f"; read only when {p['read_when_text']}" if p["read_when_text"] else ""
                out.item(f"{p['name']} = {p['default']}{unit}{choices}: {p['doc']}{when}", 4, 4)
            out.item(f"reports: {', '.join(s['name'] for s in meta['stats'])}", 4, 4)
    elif what == "gpus":
        table = td.gpus.list_presets().astype(object).T  # integers stay integers
        units = {f["name"]: f["unit"] for f in td.gpus.field_info()}
        table.index = pd.Index(
            [f"{i} ({units[i]})" if units.get(i) else str(i) for i in table.index]
        )
        print(table.to_string())
    elif what == "workloads":
        frame = td.workloads.list_generators()
        for generator, part in frame.groupby("generator", sort=True):
            shown: list[str] = []
            for param, required, default in zip(
                part["param"], part["required"], part["default"], strict=True
            ):
                if isinstance(param, str):
                    shown.append(param if required else f"{param}={default!r}")
            out.item(f"{generator}({', '.join(shown)}): {part['doc'].iloc[0]}")
    elif what == "costs":
        for kind, defaults in td.cost.kinds().items():
            out.item(f"{kind}({', '.join(f'{k}={v:g}' for k, v in defaults.items())})")
    else:
        for m in metric_info().values():
            unit = f" ({m['unit']})" if m["unit"] else ""
            out.item(f"{m['name']}{unit}: {m['doc']}")
