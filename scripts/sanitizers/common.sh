# Shared by scripts/sanitize.sh (ASan + UBSan) and scripts/tsan.sh (TSan); sourced.
# Callers set: san_name (asan, tsan), san_flags (compiler and linker flags),
# san_runtime (the runtime library to LD_PRELOAD into Python), and the
# VAR=value settings the sanitized processes run with: san_env (C++ tests),
# san_py_env (Python); optionally san_cmake_args (more CMake arguments).  Builds never touch
# build/<wheel tag> (the editable install) or build/cpp-tests.
set -euo pipefail

TBDSE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv_bin=${TBDSE_VENV:-$TBDSE_ROOT/.venv}/bin
san_build="$TBDSE_ROOT/build/$san_name"
san_logs="$san_build/logs"
san_stage="$san_build/stage"
san_opt="-O1 -g"  # what the sanitized Python suite runs fast enough with
jobs=${TBDSE_JOBS:-2}
san_cmake_args=()

san_usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

# The version scikit-build-core gives the regular build (tbdse.__version__).
san_version() {
  "$venv_bin/python" -c 'import importlib.metadata as m; print(m.version("tbdse"))' 2>/dev/null \
    || echo dev
}

# Configures and builds the C++ unit tests and, unless $1 is "cpp", the
# extension module with the sanitizer flags ($san_opt, assertions on).
san_build() {
  local python=ON
  if [ "${1:-}" = cpp ]; then python=OFF; fi
  echo "tbdse $san_name: building in $san_build (Python extension: $python)"
  "$venv_bin/cmake" -S "$TBDSE_ROOT" -B "$san_build" -G Ninja \
    -DCMAKE_MAKE_PROGRAM="$venv_bin/ninja" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$san_opt" \
    -DCMAKE_CXX_FLAGS="$san_flags" -DCMAKE_EXE_LINKER_FLAGS="$san_flags" \
    -DCMAKE_SHARED_LINKER_FLAGS="$san_flags" -DCMAKE_MODULE_LINKER_FLAGS="$san_flags" \
    -DTBDSE_BUILD_TESTS=ON -DTBDSE_BUILD_PYTHON=$python \
    -DPython_EXECUTABLE="$venv_bin/python" \
    -Dpybind11_DIR="$("$venv_bin/python" -m pybind11 --cmakedir)" "${san_cmake_args[@]}" \
    -DSKBUILD_PROJECT_VERSION="$(san_version)" >/dev/null
  nice -n 10 "$venv_bin/cmake" --build "$san_build" -j "$jobs"
}

# Every report goes to a file in $san_logs (log_path), so that reports from
# subprocesses (CLI children, notebook kernels) are caught too.
san_reset_logs() {
  rm -rf "$san_logs"
  mkdir -p "$san_logs"
}

# Fails (prints the reports) when any sanitizer wrote a report.
san_check_logs() {
  local reports
  reports=$(find "$san_logs" -type f 2>/dev/null | sort)
  if [ -n "$reports" ]; then
    local f
    for f in $reports; do
      echo "==== $f"
      cat "$f"
    done
    echo "tbdse $san_name: $(echo "$reports" | wc -l) sanitizer report(s), above" >&2
    return 1
  fi
  echo "tbdse $san_name: no sanitizer reports"
}

san_ctest() {
  echo "tbdse $san_name: C++ unit tests"
  local status=0
  env "${san_env[@]}" "$venv_bin/ctest" --test-dir "$san_build" --output-on-failure \
    --no-tests=error -j "$jobs" || status=$?
  san_check_logs || status=1
  return $status
}

# A copy of python/tbdse with the sanitized _core, first on PYTHONPATH; the
# staged sitecustomize.py removes the editable install's import redirect,
# which would otherwise still send `import tbdse` to the regular build.
san_stage_package() {
  rm -rf "$san_stage"
  mkdir -p "$san_stage"
  cp -r "$TBDSE_ROOT/python/tbdse" "$san_stage/tbdse"
  find "$san_stage/tbdse" -name '__pycache__' -prune -exec rm -rf {} +
  rm -f "$san_stage"/tbdse/_core*.so
  cp "$san_build"/cpp/bindings/_core*.so "$san_stage/tbdse/"
  cp "$TBDSE_ROOT/scripts/sanitizers/sitecustomize.py" "$san_stage/"
}

# Runs pytest (arguments as given) on the sanitized extension.
san_pytest() {
  san_stage_package
  local py_env=("${san_py_env[@]}" "PYTHONPATH=$san_stage${PYTHONPATH:+:$PYTHONPATH}"
    "LD_PRELOAD=$san_runtime" PYTHONMALLOC=malloc)
  local core
  core=$(cd "$TBDSE_ROOT" && env "${py_env[@]}" "$venv_bin/python" -c \
    'import tbdse._core as c; print(c.__file__)')
  case "$core" in
    "$san_stage"/*) echo "tbdse $san_name: Python tests on $core" ;;
    *) echo "tbdse $san_name: tbdse._core came from $core, not the staged build" >&2; return 1 ;;
  esac
  san_reset_logs
  local status=0
  (cd "$TBDSE_ROOT" && env "${py_env[@]}" "$venv_bin/python" -m pytest -p no:cacheprovider "$@") \
    || status=$?
  san_check_logs || status=1
  return $status
}

# Parses [--cpp-only] [--no-build] and leaves the rest (pytest's) in san_args.
san_parse_args() {
  san_cpp_only=0
  san_no_build=0
  san_args=()
  local a
  for a in "$@"; do
    case "$a" in
      --cpp-only) san_cpp_only=1 ;;
      --no-build) san_no_build=1 ;;
      -h|--help) san_usage; exit 0 ;;
      *) san_args+=("$a") ;;
    esac
  done
  if [ "$san_cpp_only" = 1 ]; then
    # Only the C++ tests (about 30 s of running): -O0 -g1 compiles in under
    # half the CPU time of -O1 -g (a unity batch: 18 s against 39 s), with
    # the same instrumentation and file:line in reports; a folder of its own,
    # so that the two builds never rebuild each other.  Set before the
    # callers write $san_logs into their sanitizer options.
    san_opt="-O0 -g1"
    san_build="$san_build-cpp"
    san_logs="$san_build/logs"
    san_stage="$san_build/stage"
  fi
}

# Builds (unless --no-build), runs the C++ tests, then (unless --cpp-only)
# pytest with the given arguments; prints the times; exits with the status.
san_run() {
  local start=$SECONDS status=0 t
  if [ "$san_no_build" = 0 ]; then
    if [ "$san_cpp_only" = 1 ]; then san_build cpp; else san_build; fi
  fi
  echo "tbdse $san_name: built in $((SECONDS - start)) s"
  san_reset_logs
  t=$SECONDS
  san_ctest || status=$?
  echo "tbdse $san_name: C++ tests in $((SECONDS - t)) s"
  if [ "$san_cpp_only" = 0 ]; then
    t=$SECONDS
    san_pytest "$@" || status=$?
    echo "tbdse $san_name: Python tests in $((SECONDS - t)) s"
  fi
  echo "tbdse $san_name: $((SECONDS - start)) s in all, exit status $status"
  exit $status
}
