"""The example experiments, shipped with the package: the repository's
experiments/*.yaml and the input files they read (experiments/data/), so that
they run from an installed tbdse, from any folder.

>>> import tbdse as td
>>> "quickstart" in td.examples.names()
True
>>> exp = td.experiment.load(td.examples.path("quickstart"))

``tbdse example`` lists them; ``tbdse example NAME -o DIR`` runs one as
``tbdse run`` would.  The files here are copies of experiments/ (the
repository's copy is the one to edit; scripts/sync_examples.py copies it here
and tests/test_packaging.py checks that the two agree).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from tbdse._util.params import unknown_name

__all__ = ["describe", "folder", "names", "path"]


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
