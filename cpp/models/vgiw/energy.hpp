// Per-access energies of the relative energy estimate (docs/models/vgiw.md,
// "Energy").  tbdse's defaults, in units of one ALU operation: the paper
// reports energy from GPUWattch and RTL synthesis but no per-access figures.
// Their ratios follow the paper's argument (§1, §2): a warp instruction's
// fetch/decode/schedule and register-file accesses are the von Neumann
// overheads the fabric removes; an LVC access is cache-like.
#pragma once

namespace tbdse::vgiw::energy {

inline constexpr double kAluOp = 1.0;           // one thread's ALU/FPU operation
inline constexpr double kSpecialOp = 4.0;       // one thread's div/sqrt/transcendental
inline constexpr double kL1Access = 2.0;        // one thread's load/store at the L1 (word)
inline constexpr double kDramByte = 0.5;        // one byte moved from DRAM
inline constexpr double kWarpIssue = 20.0;      // fetch, decode, schedule of a warp instruction
inline constexpr double kRfAccess = 12.0;       // one warp-wide register-file access
inline constexpr double kToken = 0.3;           // one operand token over the fabric interconnect
inline constexpr double kLvcAccess = 12.0;      // one LVC line access
inline constexpr double kCvtThread = 0.05;      // one thread's CVT bit read and write
inline constexpr double kConfigureUnit = 2.0;   // configuring one unit once

}  // namespace tbdse::vgiw::energy
