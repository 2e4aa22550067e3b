// Energy of the control-flow machines (docs/models/vgiw.md "Energy"): static
// power x time plus dynamic per-access energies, at three levels as VGIW
// Fig. 10 reports them: core (the compute engine: Fermi's pipeline, register
// file and lanes; VGIW's fabric, LVC, CVT), die (+ L1, L2 and the on-chip
// network) and system (+ DRAM).  The paper gives ratios only (GPUWattch and
// RTL results), so each figure's source is stated:
//   [H] M. Horowitz, "Computing's energy problem", ISSCC 2014 (45 nm):
//       32-bit FP add 0.9 pJ, FP multiply 3.7 pJ; 64-bit SRAM read 10 pJ
//       (8 KB), 20 pJ (32 KB), 100 pJ (1 MB); DRAM 1.3-2.6 nJ per 64 bits.
//   [P] VGIW §1 citing GPUWattch and Gebhart et al.: pipeline + register
//       file are ~30% of a GPGPU's power; kWarpIssue is fitted so that simt's
//       pipeline + RF share of its system energy averages 30% over the 21
//       Rodinia presets (scripts/vgiw_fit_pipeline_energy.py: 754 pJ, kept
//       at 0.75 nJ, share 29.9%; refitted after issue 29, was 1.4 nJ;
//       docs/models/vgiw.md, "Calibration").  Within a Fermi SM's ~12 nJ per
//       warp instruction at 250 W, 15 SMs, 1.4 GHz.
//   [T] tbdse's assumption.
// Energies in pJ; static powers in pJ per cycle of the 1.4 GHz core clock
// (1 W = 714 pJ per cycle).
#pragma once

namespace tbdse::vgiw::energy {

// Dynamic, per access or operation.
inline constexpr double kAluOp = 3.0;        // a thread's FPU/ALU op: [H] add/multiply mix + latches [T]
inline constexpr double kSpecialOp = 15.0;   // div/sqrt/transcendental: about 4 multiplies [H, T]
inline constexpr double kWarpIssue = 750.0;   // fetch, decode, scoreboard, schedule, latches of a warp instruction [P]
inline constexpr double kRfAccess = 160.0;   // warp-wide operand: 16 x 64-bit reads of an 8 KB bank [H]
inline constexpr double kL1Request = 5.0;    // tag lookup of one L1 request [T]
inline constexpr double kL1Word = 25.0;      // one 64-bit bank access of a 64 KB array [H] (a word)
inline constexpr double kL1Sector = 100.0;   // a 32-byte sector: 4 bank accesses [H]
inline constexpr double kL2Sector = 500.0;   // 4 x 100 pJ reads of a 1 MB array [H] + 100 pJ network [T]
inline constexpr double kDramByte = 244.0;   // [H] 1.95 nJ per 64 bits
inline constexpr double kToken = 3.0;        // a token-buffer write + read and one switch hop [H scaled, T]
inline constexpr double kLvcWord = 25.0;     // one thread's live value in the 64 KB LVC [H]
inline constexpr double kCvtThread = 0.4;    // one thread's CVT bit: a 64-bit word per 64 threads [H]
inline constexpr double kConfigureUnit = 10.0;  // a unit's configuration word sent through the grid [T]

// Static power per core, pJ per cycle [T]: a GTX480 SM's share of leakage
// and background power (core 0.5 W; L1/L2/network/controllers 0.3 W; DRAM
// background 0.2 W: 15 W over the card's 15 SMs).  The VGIW core is taken to
// leak as much as the SM it replaces (the paper gives no figure).
inline constexpr double kCoreStatic = 357.0;
inline constexpr double kDieStatic = 214.0;
inline constexpr double kDramStatic = 143.0;

// The three levels of one run.
struct Levels {
  double core = 0, die = 0, system = 0;
};

}  // namespace tbdse::vgiw::energy
