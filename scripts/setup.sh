#!/usr/bin/env bash
# Idempotent set-up shared by scripts/quickstart.sh and scripts/test.sh:
#   1. Debian packages the C++ core builds against, when missing;
#   2. a virtual environment in .venv (or $TBDSE_VENV);
#   3. tbdse installed into it (editable, rebuilt incrementally in build/).
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
  echo "tbdse setup: installing system packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "tbdse setup: creating virtual environment $venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
fi
TBDSE_PY="$venv/bin/python"

echo "tbdse setup: building and installing tbdse into $venv"
# Build requirements are installed into the environment so that rebuilds reuse
# build/ incrementally instead of starting from an isolated environment.
"$TBDSE_PY" -m pip install -q "scikit-build-core>=0.10" "pybind11>=2.12" "cmake>=3.24" ninja
"$TBDSE_PY" -m pip install -q --no-build-isolation -e "$TBDSE_ROOT[test,bench,dev]"
export TBDSE_ROOT TBDSE_PY
