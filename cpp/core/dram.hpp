// DRAM as independent channels (docs/memory.md "DRAM"): an address maps to a
// channel by 256-byte interleaving (hashed), a sector transfer occupies its
// channel for 32 / bytes_per_cycle cycles in arrival order, and the data is
// there `latency` cycles after its transfer ends.  So N sectors that reach an
// idle channel at cycle t complete at t + N * 32 / bytes_per_cycle + latency
// (the last one; rounded up to whole cycles).
#pragma once

#include <cstdint>
#include <vector>

#include "types.hpp"

namespace tbdse {

class Dram {
 public:
  // channels >= 1, bytes_per_cycle > 0 (per channel, core cycles), latency >= 0.
  Dram(std::int64_t channels, double bytes_per_cycle, Cycle latency);

  std::int64_t channel_of(std::uint64_t address) const {
    std::uint64_t x = (address >> 8) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
    return static_cast<std::int64_t>(x % channels_.size());
  }

  // One 32-byte sector read or written at `address`, arriving at `cycle`;
  // returns when its data is there.
  Cycle transfer(std::uint64_t address, Cycle cycle, bool is_write);

  // Sector transfers queued or in service at `cycle`, over all channels.
  double backlog(Cycle cycle) const;

  std::int64_t read_bytes() const { return read_bytes_; }
  std::int64_t write_bytes() const { return write_bytes_; }

 private:
  std::vector<double> channels_;  // per channel: when it is next free
  double sector_cycles_;
  Cycle latency_;
  std::int64_t read_bytes_ = 0;
  std::int64_t write_bytes_ = 0;
};

}  // namespace tbdse
