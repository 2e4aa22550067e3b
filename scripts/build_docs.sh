#!/usr/bin/env bash
# Builds the API reference from the docstrings with pdoc into build/api (or the
# folder given): one HTML page per public module, searchable, no network
# needed once the `docs` extra is installed (pip install -e '.[docs]').
# Usage: scripts/build_docs.sh [OUT]        then open OUT/index.html
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${TBDSE_PY:-$ROOT/.venv/bin/python}"
OUT="${1:-$ROOT/build/api}"
"$PY" -m pdoc --docformat google -o "$OUT" \
  tbdse tbdse.errors tbdse.plot tbdse.experiment tbdse.simulation tbdse.io tbdse.dse \
  tbdse.machine tbdse.workloads.cost tbdse.schemes.policies tbdse.experiment.schema \
  tbdse.experiment.examples tbdse.experiment.cli  # what tbdse.__all__ does not reach
echo "API reference: $OUT/index.html"
