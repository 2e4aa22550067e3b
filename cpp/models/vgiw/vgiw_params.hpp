// Parameters of the control-flow machines (docs/MODELS.md §7): `simt`, a
// Fermi SM (VGIW §4: GTX480, 1.4 GHz), `sgmf`, the whole kernel on the
// MT-CGRF (SGMF, ISCA 2014), and `vgiw`, control-flow coalescing (VGIW,
// MICRO-48 2015).  The fabric defaults are Table 1's 108 units.
#pragma once

#include <cstdint>
#include <string>

#include "core/params.hpp"

namespace tbdse::vgiw {

// Fields every fabric machine (sgmf, vgiw) has, by the same names.
#define TBDSE_VGIW_FABRIC_FIELDS                                                       \
  std::int64_t fabric_alu = 32;         /* combined FPU-ALU units (Table 1) */         \
  std::int64_t fabric_special = 12;     /* special compute units (Table 1) */          \
  std::int64_t fabric_ldst = 16;        /* load/store units (Table 1) */               \
  std::int64_t fabric_lvu = 16;         /* live value units (Table 1) */               \
  std::int64_t fabric_split_join = 16;  /* split/join units (Table 1) */               \
  std::int64_t fabric_cvu = 16;         /* control vector units (Table 1) */           \
  double fabric_scale = 1.0;            /* every unit count times this (rounded) */    \
  std::int64_t hop_cycles = 2;          /* per dataflow level: a unit plus a switch */ \
  std::int64_t l1_latency = 30;         /* pipeline fill of a block with loads */      \
  double dram_bytes_per_cycle = 8.0;    /* the core's DRAM share */

struct SimtParams {
  // Threads per warp (Fermi: 32).  Lane utilisation counts warp_size lanes
  // per warp instruction; the Figs. 1-2 example uses 8.
  std::int64_t warp_size = 32;
  // Share of the SM's peak issue rate the warps sustain (dependencies and
  // latencies the warps do not hide).  0.23: calibrated on VGIW Fig. 7's
  // mean speed-up (experiments/vgiw_calibration.yaml, docs/models/vgiw.md).
  double issue_efficiency = 0.23;
  // Load/store units and special function units of the SM (Fermi: 16 and 4);
  // the ALU lanes and issue width are the GPU's (lanes, issue_width).
  std::int64_t ldst_units = 16;
  std::int64_t sfu_units = 4;
  // Register-file accesses per warp instruction (two reads, one write), one
  // access per warp as Fig. 3 counts them.
  double rf_accesses_per_instruction = 3.0;
  double dram_bytes_per_cycle = 8.0;  // the SM's DRAM share, bytes per cycle

  static const ParamTable<SimtParams>& params();
};

struct SgmfParams {
  TBDSE_VGIW_FABRIC_FIELDS
  static const ParamTable<SgmfParams>& params();
};

struct VgiwParams {
  TBDSE_VGIW_FABRIC_FIELDS
  // fixed: reconfig_cycles per configuration (34, §2); sqrt: 11 x sqrt(units),
  // done twice (§3.2: 2 x ceil(11 x sqrt(108)) = 230 cycles for 108 units).
  std::string reconfig_model = "fixed";
  std::int64_t reconfig_cycles = 34;
  // Control vector table bits: tiles of cvt_bits / blocks threads run one
  // after another (§3.2).  Default 2^20 (tbdse's; the paper gives no size).
  std::int64_t cvt_bits = std::int64_t{1} << 20;
  // Consecutive thread ids whose live value share one LVC line (the LVC
  // caches a <live value id, thread id> matrix, §3.4): one LVC access each.
  std::int64_t lvc_line_threads = 32;
  // Live values passed through the LVC at each cut of a block split because
  // it is bigger than the fabric (tbdse's).
  std::int64_t split_cut_values = 2;

  static const ParamTable<VgiwParams>& params();
};

#undef TBDSE_VGIW_FABRIC_FIELDS

}  // namespace tbdse::vgiw
