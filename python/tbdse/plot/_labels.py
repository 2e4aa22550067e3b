"""Text on a figure: tick labels in value order, axis names with units from
the parameter and metric tables, the baseline a speed-up is over, the rows
a figure shows."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from tbdse.simulation.results import SIZE_UNITS, units

# Units written as a name's suffix that read better in parentheses
# ('makespan_us' -> 'makespan (us)'); other suffixes are nouns ('spilled_updates').
_MEASURES = ("us", "ms", "ns", "s", "cycles", "bytes", "MHz", "percent", "x")


def tick_text(value: Any) -> str:
    """A parameter value as a tick or legend label: 64 (not 64.0), 'unbounded' for inf."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if math.isinf(number):
            return "unbounded" if number > 0 else "-inf"
        return str(int(number)) if number.is_integer() and abs(number) < 1e15 else f"{number:g}"
    return str(value)


def compact(value: float) -> str:
    """A short number for a log tick or a heatmap cell: 6690 (not 6.69e+03),
    1.47, 131072 -> 128Ki and 1048576 -> 1Mi (sizes are powers of two), 250000 -> 250k."""
    if abs(value) < 100_000:
        return f"{value:.0f}" if abs(value) >= 1000 or float(value).is_integer() else f"{value:.3g}"
    for power, name in ((3, "Gi"), (2, "Mi"), (1, "Ki")):
        if (value / 1024.0**power).is_integer():
            return f"{value / 1024.0**power:g}{name}"
    power, name = next(p for p in ((9, "G"), (6, "M"), (3, "k")) if abs(value) >= 10.0 ** p[0])
    return f"{value / 10.0**power:.3g}{name}"


def value_order(value: Any) -> tuple[int, float, str]:
    """Sort key of a parameter value on an axis: numbers (also written as
    text) by value, then 'unbounded', then other names such as 'auto' — never
    as text, where 256 < 64 < auto."""
    text = tick_text(value)
    if text in ("unbounded", "inf"):
        return (1, math.inf, "")
    try:
        return (0, float(text), "")
    except ValueError:
        return (2, 0.0, text)


def in_order(values: Any) -> list[Any]:
    """Categories as drawn: in value order when any is a number; names alone
    keep their order of appearance (a paper's benchmark order)."""
    values = list(dict.fromkeys(values))
    numbers = any(value_order(v)[0] < 2 for v in values)
    return sorted(values, key=value_order) if numbers else values


@cache
def _short_docs() -> dict[str, str]:
    """GPU fields whose documentation is a short name ('streaming multiprocessors')."""
    from tbdse.machine.gpus import field_info

    return {
        f"gpu.{f['name']}": doc
        for f in field_info()
        if (doc := str(f.get("doc", "")))
        and len(doc.split()) <= 3
        and not any(c in doc for c in ",;:()'")
    }


def short_name(name: str) -> str:
    """A column's readable name, without its unit (for titles)."""
    return _words(name)[0]


def _words(name: str) -> tuple[str, str]:
    """A column's readable name, and the unit to add after it ('' for none)."""
    unit = units().get(name, "")
    words = _short_docs().get(name)
    if words is None:
        base = name.split(".", 1)[1] if name.startswith(("gpu.", "workload.", "cost.")) else name
        base = ("cost " if name.startswith("cost.") else "") + base
        if base.endswith("_resolved"):
            base = base.removesuffix("_resolved") + " used"
        if unit and base.endswith(f"_{unit}"):
            if unit not in _MEASURES:  # 'spilled_updates': the unit is the noun
                return base.replace("_", " "), ""
            base = base.removesuffix(f"_{unit}")
        words = base.replace("_", " ")
    silent = unit in ("fraction", "", words) or name in {f"workload.{k}" for k in SIZE_UNITS}
    return words, "" if silent else unit


def axis_label(name: str) -> str:
    """A column as a reader would name it, with its unit: 'makespan_us' ->
    'makespan (us)', 'gpu.sms' -> 'streaming multiprocessors (SMs)',
    'spilled_updates' -> 'spilled updates'; unknown columns keep their name."""
    words, unit = _words(name)
    return f"{words} ({unit})" if unit else words


def baseline_name(df: pd.DataFrame) -> str | None:
    """The baseline a table's speed-ups are over: the names in its ``baseline``
    column (the best of several served each row), else those the sweep was
    given (``df.attrs['baselines']``); 'best of a, b' for several; None
    when the table does not say."""
    names: list[str] = []
    if "baseline" in df.columns:
        names = [tick_text(v) for v in dict.fromkeys(df["baseline"].dropna())]
    names = names or [str(b) for b in df.attrs.get("baselines", [])]
    if not names:
        return None
    return names[0] if len(names) == 1 else "best of " + ", ".join(names)


def value_label(df: pd.DataFrame, name: str) -> str:
    """An axis label for a measured column; a speed-up names its baseline."""
    if name == "speedup":
        return f"speed-up over {baseline_name(df) or 'the baseline'}"
    return axis_label(name)


def subtitle(df: pd.DataFrame, where: dict[str, Any] | None, *shown: str) -> str:
    """The rows a figure shows ('where scheme = wireframe') and, when it
    shows a speed-up (``shown``: its value columns), the baseline."""
    parts = [
        f"{name} = {' or '.join(tick_text(v) for v in (w if isinstance(w, list) else [w]))}"
        for name, w in (where or {}).items()
    ]
    said = ["where " + ", ".join(parts)] if parts else []
    base = baseline_name(df)
    if base is not None and {"speedup", "baseline_makespan_cycles"} & set(shown):
        said.append(f"baseline: {base}")
    return "; ".join(said)
