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
  double dram_bytes_per_cycle = 8.0;    /* the core's DRAM share */                     \
  std::int64_t l1_banks = 32;           /* L1 banks, word-interleaved (Table 1) */      \
  std::int64_t token_buffer_entries = 45; /* threads in flight per unit (§3.4-3.5) */   \
  std::int64_t mem_sample_threads = 2048; /* threads whose accesses are probed */

struct SimtParams {
  // Threads per warp (Fermi: 32).  Lane utilisation counts warp_size lanes
  // per warp instruction; the Figs. 1-2 example uses 8.
  std::int64_t warp_size = 32;
  // Share of the SM's peak issue rate its schedulers sustain when warps are
  // ready (a residual factor per GPU for what the model does not draw:
  // operand-collector bank conflicts, dual-issue pairing).  Default 1: no
  // residual; dispatch, occupancy, dependence and memory stalls are the
  // mechanism (docs/models/vgiw.md "Calibration").
  double issue_efficiency = 1.0;
  // Cycles a scheduler spends dispatching one warp instruction: Fermi's two
  // schedulers each send a warp's 32 threads to a 16-wide group over two
  // shader cycles (GF100 whitepaper), so the SM issues issue_width /
  // dispatch_cycles = 1 warp instruction per cycle, 32 units busy (VGIW §5).
  std::int64_t dispatch_cycles = 2;
  // 1: each block with a successor issues a branch (BRA) and one with two
  // a reconvergence push (SSY) too, Fermi's control flow in the instruction
  // stream (0: the blocks' operations only, as Fig. 1b counts lanes).
  std::int64_t control_instructions = 1;
  // Cycles before a dependent instruction may issue (CUDA C Programming
  // Guide 4.0 §5.2.3: "about 22 clock cycles" on compute capability 2.x).
  std::int64_t alu_latency = 22;
  // The same for special-function instructions (tbdse's: SFU operations
  // take tens of cycles on Fermi).
  std::int64_t sfu_latency = 40;
  // Threads per thread block of the launch (resident warps come in blocks of
  // this many; Rodinia launches mostly 256).
  std::int64_t block_threads = 256;
  // Load/store units and special function units of the SM (Fermi: 16 and 4);
  // the ALU lanes and issue width are the GPU's (lanes, issue_width).
  std::int64_t ldst_units = 16;
  std::int64_t sfu_units = 4;
  // Register-file accesses per warp instruction (two reads, one write), one
  // access per warp as Fig. 3 counts them.
  double rf_accesses_per_instruction = 3.0;
  double dram_bytes_per_cycle = 8.0;  // the SM's DRAM share, bytes per cycle
  std::int64_t mem_sample_threads = 2048;  // threads whose accesses are probed (memory.hpp)

  static const ParamTable<SimtParams>& params();
};

struct SgmfParams {
  TBDSE_VGIW_FABRIC_FIELDS
  static const ParamTable<SgmfParams>& params();
};

struct VgiwParams {
  TBDSE_VGIW_FABRIC_FIELDS
  // fixed: reconfig_cycles per configuration (34, §2); sqrt: 11 x sqrt(units),
  // done twice (§3.2: 2 x ceil(11 x sqrt(108)) = 230 cycles for 108 units);
  // sqrt_overlap: the first pass (into the prefetch FIFO) overlaps the
  // previous block's execution, the second (into the grid) is charged.
  std::string reconfig_model = "fixed";
  std::int64_t reconfig_cycles = 34;
  // Control vector table bits: tiles of cvt_bits / blocks threads run one
  // after another (§3.2).  Default 2^20 (tbdse's; the paper gives no size).
  std::int64_t cvt_bits = std::int64_t{1} << 20;
  // How the BBS sizes a tile: "lvc" (default): also no more threads than
  // keep their live values in the LVC (§3.4: spilling "is generally
  // prevented by thread tiling"); "cvt": cvt_bits / blocks only.
  std::string tile_policy = "lvc";
  // Consecutive thread ids whose live value share one LVC line (the LVC
  // caches a <live value id, thread id> matrix, §3.4): one LVC access each.
  std::int64_t lvc_line_threads = 32;
  // Live values passed through the LVC at each cut of a block split because
  // it is bigger than the fabric (tbdse's).
  std::int64_t split_cut_values = 2;
  // The live value cache (§3.4): 64 KB, banked like an L1 (tbdse: 32 banks of
  // one word per cycle, a thread's values skewed over banks), hit latency
  // tbdse's; a miss is a line from L2 (l2_hit_cycles, one line per cycle).
  std::int64_t lvc_bytes = 65536;
  std::int64_t lvc_banks = 32;
  std::int64_t lvc_hit_cycles = 20;
  // §3.3: the CVT's banks (one 64-bit word each per cycle) and the packets
  // (<base thread id, 64-bit bitmap>) the BBS sends the core per cycle.
  std::int64_t cvt_banks = 8;
  double bbs_packets_per_cycle = 1.0;

  static const ParamTable<VgiwParams>& params();
};

#undef TBDSE_VGIW_FABRIC_FIELDS

}  // namespace tbdse::vgiw
