#!/usr/bin/env bash
# CI check that tbdse installs without the system's oneTBB and Eigen: a plain
# (isolated, not editable) `pip install` into a fresh virtual environment, with
# CMake told to ignore the system prefixes, must build against the pip wheels
# tbb-devel and cmeel-eigen, and the installed extension must load the tbb
# wheel's libtbb through its RPATH.  Runs a simulation and a two-thread sweep
# from outside the source tree.  Exits non-zero on any failure.
# Usage: scripts/check_pip_install.sh [REPO]   (default: this repository)
set -euo pipefail
repo=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH
say() { echo "check_pip_install: $*"; }
fail() { echo "check_pip_install: FAIL: $*" >&2; exit 1; }

say "fresh virtual environment $tmp/venv"
"$python" -m venv "$tmp/venv"
py="$tmp/venv/bin/python"
venv_real=$(cd "$tmp/venv" && pwd -P)

# "/" too: with a merged /usr, /lib is /usr/lib and CMake reaches it from /bin on PATH.
ignore="/;/usr;/usr/local"
say "pip install $repo (isolated build; CMAKE_IGNORE_PREFIX_PATH=$ignore)"
log="$tmp/install.log"
if ! "$py" -m pip install -v "$repo" \
  "--config-settings=cmake.define.CMAKE_IGNORE_PREFIX_PATH=$ignore" >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  fail "pip install (log above)"
fi
grep -E "tbdse: (TBB|Eigen3) " "$log" | sed 's/^/  cmake: /' || true
grep -qE "tbdse: TBB .* from pip package tbb-devel" "$log" || fail "CMake did not use the tbb-devel wheel"
grep -qE "tbdse: Eigen3 .* from pip package cmeel-eigen" "$log" || fail "CMake did not use the cmeel-eigen wheel"

cd "$tmp" # import the installed package, not the source tree
so=$("$py" -c "import tbdse._core as c; print(c.__file__)") || fail "import tbdse._core"
case "$so" in "$tmp"/venv/*) ;; *) fail "tbdse._core imported from $so, not the venv" ;; esac
runpath=$(readelf -d "$so" | grep -E "RUNPATH|RPATH" || true)
say "${so#"$tmp"/} ${runpath:-has no RPATH/RUNPATH}"
[[ "$runpath" == *'$ORIGIN'* ]] || fail "_core has no \$ORIGIN-relative RPATH"
tbb_ldd=$(ldd "$so" | awk '$1 == "libtbb.so.12" {print $3}')
say "ldd: libtbb.so.12 => $tbb_ldd"
[ -n "$tbb_ldd" ] || fail "ldd does not resolve libtbb.so.12"
case "$(realpath "$tbb_ldd")" in "$venv_real"/*) ;; *) fail "libtbb.so.12 resolves outside the venv" ;; esac

say "simulate and sweep (threads=2), libtbb mapped in the process"
"$py" - <<'EOF' || fail "simulation"
import os, sys

import tbdse as td

wl = td.workloads.wavefront(16, 16, cost=td.cost.constant(100))
r = td.simulate(wl, td.gpus.gtx480(), td.schemes.DataflowIdeal())
print(f"  simulate: makespan_cycles = {r.makespan_cycles}")
assert r.makespan_cycles > 0
df = td.sweep(wl, "gtx480", ["global_barrier", "dataflow_ideal"], grid={"gpu.sms": [4, 8, 15]},
              baseline="global_barrier", replicates=2, threads=2, progress=False)
assert len(df) == 12 and (df["makespan_us"] > 0).all(), df
print(f"  sweep: {len(df)} runs, speedups {sorted(set(df['speedup'].round(3)))}")
maps = {line.split()[-1] for line in open("/proc/self/maps") if "libtbb" in line}
print("  mapped:", ", ".join(sorted(maps)))
prefix = os.path.realpath(sys.prefix) + os.sep
assert maps and all(os.path.realpath(p).startswith(prefix) for p in maps), "libtbb not from the venv"
EOF
say "OK"
