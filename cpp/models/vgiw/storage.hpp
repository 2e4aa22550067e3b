// Hardware storage of the fabric machines (the storage_bytes metric,
// docs/models/vgiw.md "Hardware storage").  The VGIW paper sizes two things:
// the live value cache, 64 KB (§3.4), and, relative to a Fermi register file,
// the MT-CGRF core's token buffers, "70% smaller than the RF" (§3.4, citing
// SGMF).  Its own comparison, "[the 64 KB LVC] is 4x smaller than the register
// file", makes that register file 4 x 64 KB = 256 KB, so the buffers of
// Table 1's 108-unit fabric are 0.3 x 256 KB = 78,643.2 B, and VGIW's in-core
// storage (LVC + buffers, 140.8 KB) is "2x smaller than the RF", as §3.4
// says.  tbdse spreads the buffers evenly over the units (each unit has a
// token buffer, §3.5) so they scale with the fabric.  The control vector table
// is cvt_bits / 8 bytes (its size is tbdse's, §3.2 gives none).  simt is the
// GPU's own SM: it adds nothing.
#pragma once

#include <numeric>

#include "models/vgiw/machines.hpp"

namespace tbdse::vgiw {

inline constexpr double kLvcBytes = 64.0 * 1024;            // §3.4
inline constexpr double kFermiRfBytes = 4 * kLvcBytes;      // §3.4: the LVC is 4x smaller
inline constexpr double kTableOneUnits = 108;               // Table 1
inline constexpr double kTokenBufferBytesPerUnit = 0.3 * kFermiRfBytes / kTableOneUnits;
// Those 728.2 B hold the default token_buffer_entries (45, vgiw_params.hpp):
// the buffers grow with the entries (the token-buffer depth axis has a cost).
inline constexpr double kTokenBufferEntries = 45;

// The MT-CGRF's token buffers for this fabric (sgmf and vgiw alike).
template <class P>
double fabric_buffer_bytes(const P& p) {
  const UnitCounts units = fabric_units(p);
  const auto total = std::accumulate(units.begin(), units.end(), std::int64_t{0});
  return kTokenBufferBytesPerUnit * static_cast<double>(p.token_buffer_entries) / kTokenBufferEntries *
         static_cast<double>(total);
}

inline double sgmf_storage_bytes(const SgmfParams& p) { return fabric_buffer_bytes(p); }

// The fabric's buffers plus what VGIW adds over SGMF: the LVC and the CVT.
inline double vgiw_storage_bytes(const VgiwParams& p) {
  return fabric_buffer_bytes(p) + kLvcBytes + static_cast<double>(p.cvt_bits) / 8.0;
}

}  // namespace tbdse::vgiw
