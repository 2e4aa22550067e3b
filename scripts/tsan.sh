#!/usr/bin/env bash
# ThreadSanitizer: builds the C++ unit tests and the Python extension with
# -fsanitize=thread (-O1 -g, assertions on) in build/tsan, runs the C++ tests
# under CTest, then the Python tests that run sweeps on TBB worker threads on
# the sanitized extension (a staged copy of python/tbdse first on PYTHONPATH,
# the compiler's libtsan preloaded into Python).  Exits non-zero on a failed
# test or any data race or other TSan report, including one from a subprocess.
#
#   scripts/tsan.sh                     C++ tests, then the parallel Python tests
#   scripts/tsan.sh tests/test_sweep.py  other pytest arguments instead of those
#   scripts/tsan.sh --cpp-only          only the C++ unit tests
#   scripts/tsan.sh --no-build          reuse build/tsan as it is
#
# TSan sees only the synchronisation of instrumented code.  The system's
# oneTBB is not instrumented, so every parallel_for's fork and join (task
# hand-over, TBB's task-object pool, the wait for the workers) is invisible
# to it and reported as data races that are not there.  Give it a oneTBB
# built with -fsanitize=thread (oneTBB's CMake option TBB_SANITIZE=thread;
# docs/development.md says how):
#   TBDSE_TSAN_TBB_DIR=<its install prefix> scripts/tsan.sh
# Without one the script stops, unless --system-tbb is given: it then runs on
# the system's oneTBB and fails with those reports, useful only to read them
# (races outside TBB's tasks, such as a watcher thread's, are real).
#
# Needs scripts/setup.sh to have run once.  TBDSE_JOBS sets build and CTest
# parallelism (default 2).  Suppressions, each with its reason:
# scripts/sanitizers/tsan.supp.
set -euo pipefail

san_name=tsan
san_flags="-fsanitize=thread"
source "$(dirname "${BASH_SOURCE[0]}")/sanitizers/common.sh"
system_tbb=0
args=()
for a in "$@"; do
  if [ "$a" = --system-tbb ]; then system_tbb=1; else args+=("$a"); fi
done
san_parse_args "${args[@]}"
if [ -n "${TBDSE_TSAN_TBB_DIR:-}" ]; then
  tbb_config=$(dirname "$(find "$TBDSE_TSAN_TBB_DIR" -name TBBConfig.cmake -print -quit)")
  tbb_lib=$(dirname "$(find "$TBDSE_TSAN_TBB_DIR" -name 'libtbb.so*' -print -quit)")
  san_cmake_args=("-DTBB_DIR=$tbb_config")
  export LD_LIBRARY_PATH="$tbb_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "tbdse tsan: oneTBB from $tbb_config"
elif [ "$system_tbb" = 1 ]; then
  echo "tbdse tsan: the system's uninstrumented oneTBB: expect false reports at every parallel_for" >&2
else
  echo "tbdse tsan: set TBDSE_TSAN_TBB_DIR to a oneTBB built with -fsanitize=thread" \
    "(docs/development.md), or pass --system-tbb to run on the system's and read the reports" >&2
  exit 2
fi
# libstdc++ is preloaded too: Python does not link it, and the runtime's
# __cxa_throw interceptor finds no real __cxa_throw unless it is loaded at start
# ("CHECK failed: ... real___cxa_throw != 0" at the first C++ exception).
san_runtime="$(g++ -print-file-name=libtsan.so):$(g++ -print-file-name=libstdc++.so)"
tsan="log_path=$san_logs/tsan:second_deadlock_stack=1:suppressions=$TBDSE_ROOT/scripts/sanitizers/tsan.supp"
san_env=("TSAN_OPTIONS=$tsan")
# pyarrow's jemalloc takes more than the 64 mutexes the deadlock detector
# tracks per thread when the process forks (a subprocess), and TSan aborts with
# "CHECK failed: sanitizer_deadlock_detector.h:67": no lock-order checks there.
san_py_env=("TSAN_OPTIONS=$tsan:detect_deadlocks=0")
# Every Python test that runs a sweep or a graph generator on several threads.
parallel_tests=(
  tests/test_sweep.py
  tests/test_digraphs.py
  tests/test_interrupt.py
  tests/test_properties.py::test_sweeps_are_deterministic_across_threads_and_order
  tests/test_reliability.py::test_one_and_two_threads_give_identical_tables
)
if [ ${#san_args[@]} -eq 0 ]; then san_args=("${parallel_tests[@]}"); fi

san_run "${san_args[@]}"
