#!/usr/bin/env bash
# Idempotent set-up shared by scripts/quickstart.sh and scripts/test.sh:
#   1. Debian packages the C++ core builds against, when missing;
#   2. a virtual environment in .venv (or $TBDSE_VENV);
#   3. tbdse installed into it (editable, rebuilt incrementally in build/).
# Each stage says so as it starts, and the C++ build shows one line per unity
# batch compiled ("[12/18] Building CXX object ..."): from a fresh clone the
# stage takes about 6.5 minutes on 2 cores (the Python packages and a C++ build
# of about 3), a rebuild compiles only the batches that changed.
# Meant to be sourced; leaves TBDSE_ROOT and TBDSE_PY set.
set -euo pipefail

TBDSE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${TBDSE_VENV:-$TBDSE_ROOT/.venv}
python=${PYTHON:-python3}

packages=(g++ libtbb-dev libeigen3-dev doctest-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tbdse setup [1/3]: installing system packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "tbdse setup [1/3]: system packages present"
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "tbdse setup [2/3]: creating virtual environment $venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
else
  echo "tbdse setup [2/3]: virtual environment $venv present"
fi
TBDSE_PY="$venv/bin/python"

# Build requirements are installed into the environment so that rebuilds reuse
# build/ incrementally instead of starting from an isolated environment.
"$TBDSE_PY" -m pip install -q "scikit-build-core>=0.10" "pybind11>=2.12" "cmake>=3.24" ninja

# The editable install's CMake build folder (build/<wheel tag>, pyproject.toml)
# for this environment's Python, if one was made; scripts/test.sh builds the
# C++ unit tests there too.
tbdse_editable_build() {
  local cache exe
  exe=$("$TBDSE_PY" -c 'import sys; print(sys.executable)')
  for cache in "$TBDSE_ROOT"/build/*/CMakeCache.txt; do
    [ -f "$cache" ] || continue
    if grep -qxF 'SKBUILD_STATE:STRING=editable' "$cache" \
      && grep -qxF "Python_EXECUTABLE:PATH=$exe" "$cache"; then
      dirname "$cache"
      return 0
    fi
  done
  return 1
}

if tbdse_editable_build >/dev/null; then
  echo "tbdse setup [3/3]: rebuilding what changed and installing tbdse into $venv"
else
  echo "tbdse setup [3/3]: installing Python dependencies and building the C++ core" \
    "(from a fresh clone about 6.5 minutes on 2 cores; one line per batch of C++ files compiled)"
fi
# pip -v streams the build; only its stage lines ("*** ...", "Collecting ...")
# and ninja's per-file lines are shown (grep, line-buffered: mawk would hold
# them back). The whole log is kept if pip fails.
log=$(mktemp "${TMPDIR:-/tmp}/tbdse-setup.XXXXXX")
if "$TBDSE_PY" -m pip install -v --no-build-isolation -e "$TBDSE_ROOT[test,bench,dev]" 2>&1 \
  | tee "$log" \
  | { grep --line-buffered -E '^ *(\[[0-9]+/[0-9]+\] |\*\*\* |Collecting |Successfully installed )' || true; }; then
  rm -f "$log"
else
  echo "tbdse setup: installing tbdse failed; the last lines of pip's output:" >&2
  tail -n 60 "$log" >&2
  echo "tbdse setup: pip's whole output is in $log" >&2
  exit 1
fi
export TBDSE_ROOT TBDSE_PY
