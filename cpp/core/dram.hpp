// DRAM as independent channels (docs/memory.md "DRAM"): an address maps to a
// channel by 256-byte interleaving (hashed), a sector transfer occupies its
// channel for 32 / bytes_per_cycle cycles, and the data is there `latency`
// cycles after its transfer ends.  So N sectors that reach an idle channel at
// cycle t complete at t + N * 32 / bytes_per_cycle + latency (the last one;
// rounded up to whole cycles).
//
// Booking (docs/memory.md "Booking"): in_order serves each channel in the
// order transfers are made (one "next free" time); gap_filling gives a
// transfer the earliest free slot at or after its arrival (calendar.hpp), so
// transfers made out of time order do not queue behind later ones.  With
// gap_filling and a write queue, writes wait in a per-channel queue and drain
// into slots reads left idle behind the horizon (advance); a write that finds
// the queue full forces the oldest out at its earliest free slot, as a
// controller drains at its high watermark (FR-FCFS with a write queue).
#pragma once

#include <cstdint>
#include <vector>

#include "calendar.hpp"
#include "fast_mod.hpp"
#include "types.hpp"

namespace tbdse {

enum class Booking { in_order, gap_filling };

class Dram {
 public:
  // channels >= 1, bytes_per_cycle > 0 (per channel, core cycles), latency >= 0;
  // write_queue >= 0 sectors per channel (0: writes book like reads; > 0 needs gap_filling).
  Dram(std::int64_t channels, double bytes_per_cycle, Cycle latency,
       Booking booking = Booking::in_order, std::int64_t write_queue = 0);

  std::int64_t channel_of(std::uint64_t address) const {
    std::uint64_t x = (address >> 8) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
    return static_cast<std::int64_t>(channel_mod_(x));
  }

  // One 32-byte sector read or written at `address`, arriving at `cycle`;
  // returns when its data is there (a queued write: when it was queued).
  Cycle transfer(std::uint64_t address, Cycle cycle, bool is_write);
  // The sectors in `sectors` (a 4-bit mask) of the 128-byte line at
  // `line_address`, lowest first, each as transfer() does it (a line lies
  // in one channel); returns the latest completion (`cycle` if none).
  Cycle transfer_line(std::uint64_t line_address, std::uint8_t sectors, Cycle cycle,
                      bool is_write);

  // No transfer arrives before `horizon` from now on (gap_filling: queued
  // writes drain into idle slots before it, bookings behind it are dropped).
  void advance(Cycle horizon);

  // Sector transfers queued or in service at `cycle`, over all channels.
  double backlog(Cycle cycle) const;

  std::int64_t read_bytes() const { return read_bytes_; }
  std::int64_t write_bytes() const { return write_bytes_; }

 private:
  struct WriteQueue {
    std::vector<double> arrivals;  // ring of write_queue_ entries
    std::size_t head = 0, size = 0;
  };
  Cycle done_at(double end) const {  // ceil(end - 1e-9) + latency, without a libm call
    const double x = end - 1e-9;
    const auto c = static_cast<Cycle>(x);  // truncated, then up if it was below
    return c + static_cast<Cycle>(static_cast<double>(c) < x) + latency_;
  }
  Cycle transfer_on(std::size_t channel, Cycle cycle, bool is_write);
  void queue_write(std::size_t channel, double cycle);

  FastMod channel_mod_;           // % the number of channels
  std::vector<double> channels_;  // in_order, per channel: when it is next free
  std::vector<Calendar> calendars_;  // gap_filling, per channel
  std::vector<WriteQueue> writes_;   // gap_filling with a write queue, per channel
  double sector_cycles_;
  Cycle latency_;
  Booking booking_;
  std::size_t write_queue_;
  double horizon_ = 0;
  std::int64_t read_bytes_ = 0;
  std::int64_t write_bytes_ = 0;
};

}  // namespace tbdse
