"""The API reference builds from the docstrings with one offline command
(scripts/build_docs.sh, pdoc): a page per public module, with the
functions' documentation in it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("pdoc")


@pytest.mark.slow
def test_the_api_reference_builds(tmp_path: Path) -> None:
    env = {**os.environ, "TBDSE_PY": sys.executable}
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build_docs.sh"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Warn" not in done.stderr, done.stderr
    pages = {str(p.relative_to(tmp_path)) for p in (tmp_path / "tbdse").rglob("*.html")}
    for module in (
        "plot",
        "experiment",
        "simulation/store",
        "dse/space",
        "schemes",
        "simulation/results",
        "simulation/executors",
        "models/juggler",
        "io/dot",
    ):
        assert f"tbdse/{module}.html" in pages, sorted(pages)
    top = (tmp_path / "tbdse.html").read_text()
    assert "Simulate every combination and return one tidy row per run" in top  # sweep()
