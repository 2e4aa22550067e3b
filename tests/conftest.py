"""Shared fixtures for the tbdse test suite.

Most scenarios use a GPU with round numbers: ``clock_mhz=100`` so that
1 us = 100 cycles, and launch overheads of zero unless a test sets them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

import tbdse as td

DATA = Path(__file__).parent / "data"
# tbdse's key signs what it writes (tbdse.io.ownership): the suite's key lives
# in a folder of its own, never in the real home; subprocesses inherit it.
STATE_DIR = tempfile.mkdtemp(prefix="tbdse-test-state-")
os.environ["TBDSE_STATE_DIR"] = STATE_DIR


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(STATE_DIR, ignore_errors=True)


def example_group(nodeid: str) -> str | None:
    """The model whose examples test ``nodeid`` runs: MODEL for its ledger's
    tests (tests/test_MODEL_reproduction.py) and its executed notebook
    (notebooks/MODEL.ipynb, which reuses their results store); None for any
    other test.  A notebook without a ledger is a group of one test."""
    path, _, name = nodeid.partition("::")
    file = path.rpartition("/")[2]
    if file.startswith("test_") and file.endswith("_reproduction.py"):
        return file.removeprefix("test_").removesuffix("_reproduction.py")
    if file == "test_notebooks.py" and name.startswith("test_notebook_runs["):
        return name.removeprefix("test_notebook_runs[").removesuffix(".ipynb]")
    return None


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: no error where it is not installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """scripts/test.sh runs the suite on two pytest-xdist workers.  A worker
    has its own ``examples_out`` folder, so a model's ledger tests and its
    notebook go to one worker as one unit (the notebook then simulates none
    of the ledger's examples again): a load-scope scheduler whose scope is
    the model for those and the test itself for the rest; the largest units
    (the ledgers) start first.  (xdist's own ``loadgroup`` marks do not group
    under pytest 9.2, which no longer reads the node id xdist rewrites.)"""
    if config.getvalue("dist") not in ("load", "loadgroup"):  # -n alone gives "load"
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ExampleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return example_group(nodeid) or nodeid

    return ExampleGroups(config, log)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="tests/test_reliability.py at 10x its size (also TBDSE_RELIABILITY_FULL=1)",
    )


def make_gpu(sms: int = 1, tb_slots: int = 1, **fields: Any) -> td.Gpu:
    """A 100 MHz GPU with no launch overheads unless given."""
    values: dict[str, Any] = {"clock_mhz": 100.0, "host_launch_us": 0.0, "device_launch_us": 0.0}
    values.update(fields)
    return td.gpus.custom("test", sms=sms, tb_slots=tb_slots, **values)


def read_scheme(name: str, **params: Any) -> td.Scheme:
    """Scheme ``name`` with ``params``, less those the others leave unread
    (level_bound under LRR, ...): property tests draw every knob, and tbdse
    refuses a knob set where the run does not read it (issue 29)."""
    from tbdse.simulation.plan_checks import unread_params

    values = {p["name"]: p["default"] for p in td.schemes.info(name)["params"]}
    values.update(params)
    unread = {n for n, _ in unread_params(name, values, list(params))}
    return td.Scheme(name, **{k: v for k, v in params.items() if k not in unread})


@pytest.fixture(scope="session", autouse=True)
def examples_out(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One output folder per example for the whole session, named by
    TBDSE_EXAMPLES_OUT (td.examples.run): the ledgers' fixtures and the
    executed notebooks (their kernels inherit the variable) run the same
    examples, and the second run of each reuses the first's results store
    instead of simulating it again (on one worker: example_group)."""
    folder = tmp_path_factory.mktemp("examples")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(td.examples.OUT_VARIABLE, str(folder))
        yield folder


@pytest.fixture
def gpu_factory():
    """``gpu_factory(sms, tb_slots, **fields)``: see :func:`make_gpu`."""
    return make_gpu


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def stg_dir() -> Path:
    return DATA / "stg"


EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def run_experiment(name: str) -> Any:
    """Runs the packaged copy of experiments/<name>.yaml into the suite's
    shared folder of example results (``examples_out``); its result table."""
    return td.examples.run(name)


def default_sigint() -> None:
    """preexec_fn for children a test sends SIGINT: a shell running the suite
    in the background (``cmd &``) starts it with SIGINT ignored, which children
    inherit, and Python then installs no KeyboardInterrupt handler."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
