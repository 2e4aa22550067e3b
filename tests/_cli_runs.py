"""A small experiment file and a quiet ``tbdse run`` of it, shared by the
tests of what tbdse writes and may delete (test_store_attacks.py,
test_ownership.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tbdse.experiment import cli

EXPERIMENT = textwrap.dedent(
    """\
    name: {name}
    gpu: gtx480
    workload: {{generator: wavefront, rows: 5, cols: 5, cost: 500}}
    schemes: [cdp, dataflow_ideal]
    grid: {{gpu.sms: [2, 4]}}
    outputs:
      tables: [csv]
      plots: [{{kind: line, x: gpu.sms, y: makespan_us, file: {figure}}}]
    """
)


def experiment_file(folder: Path, name: str = "e", figure: str = "fig.png") -> Path:
    """Writes ``folder/name.yaml``: 2 schemes x 2 SM counts on a 5x5 wavefront."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(EXPERIMENT.format(name=name, figure=figure))
    return path


def run(path: Path, out: Path, *extra: str) -> int:
    """``tbdse run PATH -o OUT`` without a progress bar; its exit status."""
    return cli.main(["run", str(path), "-o", str(out), "--no-progress", *extra])
