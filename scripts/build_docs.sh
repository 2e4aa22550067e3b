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
  tbdse tbdse.simulation.results tbdse.errors tbdse.plot tbdse.experiment tbdse.simulation.store \
  tbdse.simulation.executors tbdse.experiment.schema tbdse.experiment.examples tbdse.experiment.cli  # (the rest is found from tbdse)
echo "API reference: $OUT/index.html"
