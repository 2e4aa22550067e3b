"""Definitions VGIW's claims ledger (docs/models/vgiw_claims.yaml) shares with
the scripts that re-measure it: which kernels are memory-bound, and simt's
pipeline + register-file share of its energy (the calibrated claim).
tests/test_vgiw_reproduction.py, scripts/vgiw_sensitivity.py and
scripts/vgiw_fit_pipeline_energy.py import them, so the ledger, the
sensitivity table and the calibration measure the same quantities."""

from __future__ import annotations

import pandas as pd

from tbdse import _core

# The machines' energy constants (cpp/models/vgiw/energy.hpp), pJ; static
# powers in pJ per cycle.
ENERGY_PJ: dict[str, float] = dict(_core.vgiw_energy_pj)

# Kernels whose DRAM traffic per operation marks them memory-bound (tbdse's
# reading of §5's "memory bound kernels"): at least this many bytes per op.
MEMORY_BOUND_BYTES_PER_OP = 1.0

# §1 (citing GPUWattch): pipeline and register file are ~30% of a GPGPU's
# power; energy.hpp's kWarpIssue is fitted to this share.
PIPELINE_RF_TARGET = 0.30


def memory_bound(simt: pd.DataFrame) -> pd.Series:
    """Per kernel (simt's rows, indexed by workload): memory-bound or not."""
    return simt["dram_bytes"] / simt["thread_ops"] >= MEMORY_BOUND_BYTES_PER_OP


def pipeline_rf_share(simt: pd.DataFrame, warp_issue_pj: float | None = None) -> float:
    """simt's pipeline + register-file energy over its system energy, averaged
    over the kernels.  With ``warp_issue_pj`` the share another pipeline energy
    per warp instruction would give (energy is linear in it)."""
    compiled = ENERGY_PJ["warp_issue"]
    issue = compiled if warp_issue_pj is None else warp_issue_pj
    wi = simt["warp_instructions"]
    pipeline = (wi * issue + simt["rf_accesses"] * ENERGY_PJ["rf_access"]) / 1e3  # nJ
    energy = simt["energy"] + wi * (issue - compiled) / 1e3
    return float((pipeline / energy).mean())
