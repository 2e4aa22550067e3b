#!/usr/bin/env bash
# Runs every test: the C++ unit tests through CTest, lint and type checks,
# then the Python suite (pytest, which also executes the notebooks).  Sets
# everything up first.  Durations: README.md.
# Extra arguments go to pytest, e.g. scripts/test.sh -k sweep
# TBDSE_CPP_TESTS=0 leaves out the C++ unit tests' Release build and run:
# .ci/run runs them under ASan + UBSan instead (scripts/sanitize.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

venv_bin=$(dirname "$TBDSE_PY")
cpp_tests() {
  local build
  if build=$(tbdse_editable_build); then
    # The editable install's build folder: the libraries the extension links
    # are built there already (same compiler, flags and Release type), so only
    # the test sources compile.  The tests stay out of its default target
    # (cpp/tests/CMakeLists.txt), so pip's rebuilds do not compile them.
    "$venv_bin/cmake" -S "$TBDSE_ROOT" -B "$build" -DTBDSE_BUILD_TESTS=ON >/dev/null
  else
    # No editable build of this environment's Python: a folder of its own,
    # where the whole C++ tree compiles once.
    build="$TBDSE_ROOT/build/cpp-tests"
    "$venv_bin/cmake" -S "$TBDSE_ROOT" -B "$build" -G Ninja -DCMAKE_MAKE_PROGRAM="$venv_bin/ninja" \
      -DTBDSE_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  "$venv_bin/cmake" --build "$build" --target tbdse_tests
  "$venv_bin/ctest" --test-dir "$build" --output-on-failure --no-tests=error -j 2
}

echo "tbdse test [1/3]: C++ unit tests"
if [ "${TBDSE_CPP_TESTS:-1}" = 0 ]; then
  echo "  left out (TBDSE_CPP_TESTS=0)"
else
  cpp_tests
fi

cd "$TBDSE_ROOT"
echo "tbdse test [2/3]: lint (ruff) and types (mypy)"
"$venv_bin/ruff" check python tests benchmarks scripts
"$venv_bin/ruff" format --check python tests benchmarks scripts
"$venv_bin/mypy"

echo "tbdse test [3/3]: Python tests"
# Two workers (pytest-xdist): much of the suite is one core's Python; a
# model's ledger and notebook stay on one worker (tests/conftest.py,
# example_group).  -n 0 in the arguments runs it in one process.
"$TBDSE_PY" -m pytest -n 2 "$@"
