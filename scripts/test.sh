#!/usr/bin/env bash
# Runs every test: the C++ unit tests through CTest, lint and type checks,
# then the Python suite (pytest, which also executes the notebooks).  Sets
# everything up first.
# Extra arguments go to pytest, e.g. scripts/test.sh -k sweep
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

venv_bin=$(dirname "$TBDSE_PY")
build="$TBDSE_ROOT/build/cpp-tests"
echo "tbdse test: C++ unit tests"
"$venv_bin/cmake" -S "$TBDSE_ROOT" -B "$build" -G Ninja -DCMAKE_MAKE_PROGRAM="$venv_bin/ninja" \
  -DTBDSE_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
"$venv_bin/cmake" --build "$build"
"$venv_bin/ctest" --test-dir "$build" --output-on-failure --no-tests=error -j 2

cd "$TBDSE_ROOT"
echo "tbdse test: lint (ruff) and types (mypy)"
"$venv_bin/ruff" check python tests benchmarks scripts
"$venv_bin/ruff" format --check python tests benchmarks scripts
"$venv_bin/mypy"

echo "tbdse test: Python tests"
"$TBDSE_PY" -m pytest "$@"
