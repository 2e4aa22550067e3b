"""The example experiments, shipped with the package: the repository's
experiments/*.yaml and the input files they read (experiments/data/), so that
they run from an installed tbdse, from any folder.

>>> import tbdse as td
>>> "quickstart" in td.examples.names()
True
>>> exp = td.experiment.load(td.examples.path("quickstart"))

``tbdse example`` lists them; ``tbdse example NAME -o DIR`` runs one as
``tbdse run`` would; :func:`run` runs one from Python and returns its table
(the notebooks' way).  The files here are copies of experiments/ (the
repository's copy is the one to edit; scripts/sync_examples.py copies it here
and tests/test_packaging.py checks that the two agree).
"""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tbdse._util.params import unknown_name

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["OUT_VARIABLE", "describe", "folder", "names", "path", "run"]

# Names the folder under which run() keeps each example's output folder.
OUT_VARIABLE = "TBDSE_EXAMPLES_OUT"


def folder() -> Path:
    """The folder that holds the example experiment files (and data/ beside them)."""
    return Path(str(resources.files(__name__)))


def names() -> list[str]:
    """The example experiments' names (their file names without .yaml)."""
    return sorted(p.stem for p in folder().glob("*.yaml"))


def path(name: str) -> Path:
    """The file of example ``name`` (a ConfigError, with a suggestion, for an unknown one)."""
    if not isinstance(name, str) or name not in names():
        raise unknown_name("example", str(name), names())
    return folder() / f"{name}.yaml"


def describe(name: str) -> str:
    """The example's one-line description: its ``description`` key, else its
    first comment line."""
    import yaml

    text = path(name).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    value = data.get("description", "") if isinstance(data, dict) else ""
    if not value:
        value = next((ln.lstrip("# ") for ln in text.splitlines() if ln.startswith("#")), "")
    return " ".join(str(value).split())


def run(name: str, *overrides: str, out: str | Path | None = None, **options: Any) -> pd.DataFrame:
    """Runs example ``name`` quietly and returns its result table, as
    ``tbdse example NAME -o OUT key=value ...`` would write it.

    ``overrides``: ``key=value`` texts, as on the command line.  ``out``: the
    output folder.  By default, when the environment variable
    ``TBDSE_EXAMPLES_OUT`` names a folder, ``$TBDSE_EXAMPLES_OUT/NAME``, one
    folder per example whatever the overrides: its results store is kept, so
    a later run of the example, from this process or another (a notebook run
    again, another notebook, a test), simulates only the runs the store lacks
    -- an override that narrows the grid or the replicates simulates nothing
    (:mod:`tbdse.simulation.store`: rows are keyed by configuration, seed and
    replicate, and by the compiled core that made them).  Its tables and
    figures are the last run's.  Otherwise a new temporary folder.
    ``options`` go to :meth:`Experiment.run` (``threads``, ``progress`` (off
    here), ``echo`` (silent here), ...)."""
    from tbdse.experiment import load

    exp = load(path(name), overrides=list(overrides))
    if out is None:
        root = os.environ.get(OUT_VARIABLE, "").strip()
        out = Path(root) / name if root else tempfile.mkdtemp(prefix=f"tbdse-{name}-")
    options = {"progress": False, "echo": lambda _: None, **options}
    return exp.run(out, **options)
