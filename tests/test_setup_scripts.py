"""The set-up says what it is doing and how long it takes, and test.sh does
not compile the C++ tree a second time (issue 31, "Set-up")."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_build_step_shows_its_stages_and_each_file() -> None:
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    (install,) = [line for line in setup.splitlines() if '-e "$TBDSE_ROOT' in line]
    assert " -v " in install and " -q " not in install  # pip used to hide the build (-q)
    (pattern,) = re.findall(r"grep --line-buffered -E '([^']+)'", setup)
    shown = [
        "  *** Building project with Ninja...",
        "  [12/84] Building CXX object cpp/core/CMakeFiles/tbdse_core.dir/graph.cpp.o",
        "Collecting pandas>=2",
    ]
    hidden = ["Requirement already satisfied: numpy", "  -- Detecting CXX compile features"]
    assert all(re.match(pattern, line) for line in shown)
    assert not any(re.match(pattern, line) for line in hidden)
    for stage in ("[1/3]", "[2/3]", "[3/3]"):
        assert f"tbdse setup {stage}" in setup


def test_the_readme_gives_each_commands_duration() -> None:
    readme = (ROOT / "README.md").read_text()
    for command in ("scripts/quickstart.sh", "scripts/test.sh"):
        rows = [line for line in readme.splitlines() if line.startswith(f"| `{command}`")]
        assert rows and "minutes" in rows[0], command


def _tool(name: str) -> str:
    found = Path(sys.executable).with_name(name)
    path = str(found) if found.exists() else shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (scripts/setup.sh installs it)")
    return path


def test_cpp_tests_stay_out_of_the_editable_builds_default_target(tmp_path: Path) -> None:
    """test.sh builds the C++ tests in the editable install's folder (where
    scikit-build-core defines SKBUILD); pip's rebuilds there build the default
    target, which must not compile the tests.  A folder of its own builds them."""
    cmake, ninja = _tool("cmake"), _tool("ninja")
    test_sh = (ROOT / "scripts" / "test.sh").read_text()
    assert "tbdse_editable_build" in test_sh and "--target tbdse_tests" in test_sh
    for skbuild, expected in ((["-DSKBUILD=2"], False), ([], True)):
        build = tmp_path / ("editable" if skbuild else "plain")
        subprocess.run(
            [cmake, "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
             f"-DCMAKE_MAKE_PROGRAM={ninja}", "-DTBDSE_BUILD_TESTS=ON", *skbuild],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        query = subprocess.run(
            [ninja, "-C", str(build), "-t", "query", "cpp/tests/all"],
            check=True, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert ("cpp/tests/tbdse_tests" in query.stdout) is expected, skbuild
