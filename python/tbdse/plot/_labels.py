"""Text on a figure: tick labels, value order, readable axis names with units
from the parameter and metric tables, the baseline a speed-up is over."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from tbdse.simulation.results import SIZE_UNITS, units

_PREFIXES = ("gpu.", "workload.", "cost.")
# Units that add nothing after a name (a fraction is read from its name).
_SILENT_UNITS = ("fraction", "")
# Units written as a name's suffix that read better in parentheses
# ('makespan_us' -> 'makespan (us)'); other suffixes are nouns ('spilled_updates').
_MEASURES = ("us", "ms", "ns", "s", "cycles", "bytes", "MHz", "percent", "x")


def tick_text(value: Any) -> str:
    """A parameter value as a tick or legend label: 64 (not 64.0), 'unbounded' for inf."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "n/a"
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if math.isinf(number):
            return "unbounded" if number > 0 else "-inf"
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return f"{number:g}"
    return str(value)


def compact(value: float) -> str:
    """A short tick label for a number on a wide range: up to five digits as
    they are (1024), then 131072 -> 128Ki, 1048576 -> 1Mi (sizes are powers
    of two), 250000 -> 250k; 0.002 -> 0.002."""
    if not math.isfinite(value) or abs(value) < 100_000:
        return tick_text(value) if float(value).is_integer() else f"{value:.3g}"
    size = abs(value)
    for power, name in ((3, "Gi"), (2, "Mi"), (1, "Ki")):
        step = 1024.0**power
        if size >= step and (value / step).is_integer():
            return f"{value / step:g}{name}"
    for power, name in ((9, "G"), (6, "M"), (3, "k")):
        if size >= 10.0**power:
            return f"{value / 10.0**power:.3g}{name}"
    return tick_text(value)


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
    """Categories as drawn: by value (numbers ascending, then 'unbounded', then
    names such as 'auto') when any is a number; names alone keep their order
    of appearance (a paper's benchmark order)."""
    values = list(dict.fromkeys(values))
    if any(value_order(v)[0] < 2 for v in values):
        return sorted(values, key=value_order)
    return values


@cache
def _short_docs() -> dict[str, str]:
    """Columns whose documentation is a short name ('streaming multiprocessors')."""
    from tbdse.machine.gpus import field_info

    out = {}
    for f in field_info():
        doc = str(f.get("doc", ""))
        if doc and len(doc.split()) <= 3 and not any(c in doc for c in ",;:()'"):
            out[f"gpu.{f['name']}"] = doc
    return out


def axis_label(name: str) -> str:
    """A column as a reader would name it, with its unit: 'makespan_us' ->
    'makespan (us)', 'gpu.sms' -> 'streaming multiprocessors (SMs)',
    'storage_bytes' -> 'storage (bytes)', 'spilled_updates' -> 'spilled
    updates'; unknown columns keep their name."""
    words, unit = _words(name)
    if not unit:
        return words
    return f"{words} ({unit})"


def short_name(name: str) -> str:
    """A column's readable name without its unit, for titles."""
    return _words(name)[0]


def _words(name: str) -> tuple[str, str]:
    """A column's readable name, and the unit to add after it ('' for none)."""
    unit = units().get(name, "")
    if name in _short_docs():
        words = _short_docs()[name]
    else:
        base = name.split(".", 1)[1] if name.startswith(_PREFIXES) else name
        if name.startswith("cost."):
            base = f"cost {base}"
        if base.endswith("_resolved"):
            base = base.removesuffix("_resolved") + " used"
        if unit and base.endswith(f"_{unit}"):
            if unit not in _MEASURES:  # 'spilled_updates': the unit is the noun
                return base.replace("_", " "), ""
            base = base.removesuffix(f"_{unit}")
        words = base.replace("_", " ")
    if unit in _SILENT_UNITS or unit == words or name in {f"workload.{k}" for k in SIZE_UNITS}:
        return words, ""
    return words, unit


def baseline_name(df: pd.DataFrame) -> str | None:
    """The baseline a table's speed-ups are over: the names in its ``baseline``
    column (the best of several baselines served each row), else those the
    sweep was given (``df.attrs['baselines']``); 'best of a, b' for several;
    None when the table does not say."""
    names: list[str] = []
    if "baseline" in df.columns:
        names = [tick_text(v) for v in dict.fromkeys(df["baseline"].dropna())]
    if not names:
        names = [str(b) for b in df.attrs.get("baselines", [])]
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
    shows a speed-up (``shown``: its value columns), the baseline, as one
    line under the title; '' when neither."""
    parts = []
    for name, wanted in (where or {}).items():
        values = wanted if isinstance(wanted, list) else [wanted]
        parts.append(f"{name} = {' or '.join(tick_text(v) for v in values)}")
    said = ["where " + ", ".join(parts)] if parts else []
    base = baseline_name(df)
    if base is not None and {"speedup", "baseline_makespan_cycles"} & set(shown):
        said.append(f"baseline: {base}")
    return "; ".join(said)
