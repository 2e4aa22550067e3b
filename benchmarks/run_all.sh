#!/usr/bin/env bash
# Builds the C++ benchmark (Release, into build/benchmarks) and runs every
# benchmark in benchmarks/ (see benchmarks/README.md).  Benchmarks print
# figures and whether each target is met; a missed target does not fail this
# script.  It fails (non-zero) only when a build fails or a benchmark's
# correctness check does (the implementations disagree on a makespan or on
# a dependency graph).
#
# Usage: benchmarks/run_all.sh [--reps N]     (default 5 repetitions each)
# Environment: TBDSE_VENV (default: <repo>/.venv) with tbdse installed and
# simpy available (pip install -e '.[bench]').
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${TBDSE_VENV:-$ROOT/.venv}"
BUILD="$ROOT/build/benchmarks"
REPS=5
if [[ $# -gt 0 ]]; then
  if [[ $# -eq 2 && $1 == --reps && $2 =~ ^[1-9][0-9]*$ ]]; then
    REPS=$2
  else
    echo "usage: $0 [--reps N]" >&2
    exit 2
  fi
fi

PY="$VENV/bin/python"
CMAKE="$VENV/bin/cmake"
NINJA="$VENV/bin/ninja"
for tool in "$PY" "$CMAKE" "$NINJA"; do
  if [[ ! -x $tool ]]; then
    echo "run_all: $tool not found; set TBDSE_VENV to a venv with tbdse[dev,bench]" >&2
    exit 2
  fi
done
if ! "$PY" -c "import tbdse, simpy" 2>/dev/null; then
  echo "run_all: tbdse or simpy is not importable from $PY;" \
       "install with: $VENV/bin/pip install -e '$ROOT[bench]'" >&2
  exit 2
fi

echo "== building the C++ benchmarks (Release) in $BUILD"
"$CMAKE" -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA" \
  -DTBDSE_BUILD_BENCHMARKS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
"$CMAKE" --build "$BUILD" --target tbdse_engine_throughput tbdse_wireframe_throughput \
  tbdse_blockmaestro_extraction tbdse_juggler_throughput tbdse_memory_throughput \
  tbdse_booking_throughput || exit 1

failed=()
run() {
  local name=$1
  shift
  echo
  echo "== $name"
  "$@"
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    failed+=("$name (exit $rc)")
  fi
}

run engine_throughput "$BUILD/benchmarks/tbdse_engine_throughput" --reps "$REPS"
run wireframe_throughput "$BUILD/benchmarks/tbdse_wireframe_throughput" --reps "$REPS"
run blockmaestro_extraction "$BUILD/benchmarks/tbdse_blockmaestro_extraction" --reps "$REPS"
run juggler_throughput "$BUILD/benchmarks/tbdse_juggler_throughput" --reps "$REPS"
run memory_throughput "$BUILD/benchmarks/tbdse_memory_throughput" --reps "$REPS"
run booking_throughput "$BUILD/benchmarks/tbdse_booking_throughput" --reps "$REPS"
run sweep_overhead "$PY" "$ROOT/benchmarks/sweep_overhead.py" --reps "$REPS"
run python_reference "$PY" "$ROOT/benchmarks/python_reference.py" --reps "$REPS"
run timeline_memory "$PY" "$ROOT/benchmarks/timeline_memory.py"
run hwwl_throughput "$PY" "$ROOT/benchmarks/hwwl_throughput.py" --reps "$REPS"
run vgiw_throughput "$PY" "$ROOT/benchmarks/vgiw_throughput.py" --reps "$REPS"
run dask_throughput "$PY" "$ROOT/benchmarks/dask_throughput.py" --reps "$REPS"
run simulate_vs_reference "$PY" "$ROOT/benchmarks/simulate_vs_reference.py" --reps "$REPS"
run policy_throughput "$PY" "$ROOT/benchmarks/policy_throughput.py" --reps "$REPS"

echo
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "run_all: FAILED: ${failed[*]}"
  exit 1
fi
echo "run_all: every benchmark ran and its correctness checks passed (targets: see MET / NOT MET above)"
