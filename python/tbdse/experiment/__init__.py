"""YAML experiment files: a sweep written down.

    name: quickstart
    gpu: gtx480                       # a preset, or {preset: gtx480, sms: 30}
    workload:                         # or workloads: [...]
      generator: wavefront            # or file: graph.stg
      rows: 32
      cols: 32
      cost: {model: lognormal, mean: 2000, sigma: 0.2}
    schemes: [global_barrier, cdp, deplinks, dataflow_ideal]
    grid: {gpu.sms: [4, 8, 15, 30]}
    baseline: global_barrier
    replicates: 3
    seed: 7
    outputs:
      tables: [parquet, csv]
      plots:
        - {kind: line, x: gpu.sms, y: speedup, file: speedup_vs_sms.png}

Validation reports every problem at once with file, line and key path, and
suggests the closest valid key for a misspelling.  See docs/experiments.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tbdse.errors import ConfigError
from tbdse.experiment.file import default_name, parse
from tbdse.experiment.overrides import apply_overrides
from tbdse.experiment.spec import TABLE_FORMATS, TRACE, Experiment, PlotSpec
from tbdse.io import inputs as _inputs
from tbdse.io.yamlio import Located, load_yaml

__all__ = ["TABLE_FORMATS", "TRACE", "Experiment", "PlotSpec", "count_runs", "from_dict", "load"]


# ---------------------------------------------------------------------------- loading
def load(
    path: str | Path,
    *,
    input_root: str | Path | None = None,
    overrides: Sequence[str] = (),
) -> Experiment:
    """Reads and validates an experiment file; ConfigError lists every problem.

    ``overrides`` change it first, as ``tbdse run FILE KEY=VALUE ...`` does
    (OmegaConf's dotlist grammar: ``scheme.node_buffer=64``,
    ``'grid.gpu.sms=[15,30]'``, ``~baseline``; see tbdse.experiment.overrides).

    An experiment file reads the files it names (graphs, task lists, ...), like
    code does.  With ``input_root`` every such file must resolve (symlinks
    followed) below that folder; the experiment file itself is the caller's
    choice and is not confined.  The experiment keeps the root for the files
    its sweep reads again (a swept workload parameter)."""
    # Messages show the file's names and numbers, never its other text (--show-input does).
    with _inputs.from_file():
        doc = load_yaml(path)
    doc.data = apply_overrides(doc.data, overrides)  # the user's own words: quoted
    with _inputs.from_file(), _inputs.input_root(input_root) as root:
        exp = parse(
            doc, base_dir=Path(path).resolve().parent, default_name=default_name(Path(path).stem)
        )
    exp.input_root = root
    return exp


def from_dict(
    data: Mapping[str, Any],
    *,
    name: str = "experiment",
    base_dir: str | Path = ".",
    input_root: str | Path | None = None,
) -> Experiment:
    """An experiment from an already-parsed mapping (locations are unknown)."""
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{name}: an experiment is a mapping of keys to values; got {_inputs.excerpt(data)}"
        )
    with _inputs.input_root(input_root) as root:
        exp = parse(Located(dict(data), name), base_dir=Path(base_dir), default_name=name)
    exp.input_root = root
    return exp


def count_runs(exp: Experiment) -> int:
    """Result rows the experiment will produce."""
    if exp.search is not None:
        return exp.search.trials * exp.replicates
    return exp.plan().main_runs
