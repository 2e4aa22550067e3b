#include "dram.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors.hpp"
#include "sector_cache.hpp"

namespace tbdse {

Dram::Dram(std::int64_t channels, double bytes_per_cycle, Cycle latency)
    : sector_cycles_(static_cast<double>(kSectorBytes) / bytes_per_cycle), latency_(latency) {
  if (channels < 1 || !(bytes_per_cycle > 0) || latency < 0)
    throw ConfigError("DRAM needs at least one channel, a positive bandwidth and a latency >= 0");
  channels_.assign(static_cast<std::size_t>(channels), 0.0);
}

Cycle Dram::transfer(std::uint64_t address, Cycle cycle, bool is_write) {
  double& free = channels_[static_cast<std::size_t>(channel_of(address))];
  free = std::max(free, static_cast<double>(cycle)) + sector_cycles_;
  (is_write ? write_bytes_ : read_bytes_) += kSectorBytes;
  return static_cast<Cycle>(std::ceil(free - 1e-9)) + latency_;
}

double Dram::backlog(Cycle cycle) const {
  double queued = 0;
  for (const double free : channels_)
    queued += std::max(0.0, free - static_cast<double>(cycle)) / sector_cycles_;
  return queued;
}

}  // namespace tbdse
