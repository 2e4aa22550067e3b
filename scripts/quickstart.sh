#!/usr/bin/env bash
# Sets everything up, then runs experiments/quickstart.yaml and says where its
# results table and figure are.  Extra arguments go to `tbdse run`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out="$TBDSE_ROOT/results/quickstart"
"$(dirname "$TBDSE_PY")/tbdse" run "$TBDSE_ROOT/experiments/quickstart.yaml" -o "$out" "$@"
