#include "dram.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors.hpp"
#include "sector_cache.hpp"

namespace tbdse {

Dram::Dram(std::int64_t channels, double bytes_per_cycle, Cycle latency, Booking booking,
           std::int64_t write_queue)
    : channel_mod_(static_cast<std::uint64_t>(std::max<std::int64_t>(channels, 1))),
      sector_cycles_(static_cast<double>(kSectorBytes) / bytes_per_cycle),
      latency_(latency),
      booking_(booking),
      write_queue_(static_cast<std::size_t>(std::max<std::int64_t>(write_queue, 0))) {
  if (channels < 1 || !(bytes_per_cycle > 0) || latency < 0)
    throw ConfigError("DRAM needs at least one channel, a positive bandwidth and a latency >= 0");
  if (write_queue < 0)
    throw ConfigError("dram_write_queue must be >= 0");
  if (write_queue > 0 && booking != Booking::gap_filling)
    throw ConfigError("dram_write_queue > 0 needs booking 'gap_filling'");
  channels_.assign(static_cast<std::size_t>(channels), 0.0);
  if (booking == Booking::gap_filling) {
    calendars_.assign(static_cast<std::size_t>(channels), Calendar(sector_cycles_));
    if (write_queue_ > 0)
      writes_.assign(static_cast<std::size_t>(channels),
                     WriteQueue{std::vector<double>(write_queue_, 0.0), 0, 0});
  }
}

Cycle Dram::transfer(std::uint64_t address, Cycle cycle, bool is_write) {
  return transfer_on(static_cast<std::size_t>(channel_of(address)), cycle, is_write);
}

Cycle Dram::transfer_line(std::uint64_t line_address, std::uint8_t sectors, Cycle cycle,
                          bool is_write) {
  // transfer() per sector, with the channel and the booking mode found once.
  const auto c = static_cast<std::size_t>(channel_of(line_address));
  const int n = sector_count(sectors);
  (is_write ? write_bytes_ : read_bytes_) += n * kSectorBytes;
  const double at = static_cast<double>(cycle);
  Cycle done = cycle;
  if (booking_ == Booking::in_order) {
    double& free = channels_[c];
    for (int k = 0; k < n; ++k) {
      free = std::max(free, at) + sector_cycles_;
      done = std::max(done, done_at(free));
    }
  } else if (is_write && write_queue_ > 0) {
    for (int k = 0; k < n; ++k) queue_write(c, at);
  } else {
    Calendar& cal = calendars_[c];
    for (int k = 0; k < n; ++k) done = std::max(done, done_at(cal.book(at) + sector_cycles_));
  }
  return done;
}

Cycle Dram::transfer_on(std::size_t c, Cycle cycle, bool is_write) {
  (is_write ? write_bytes_ : read_bytes_) += kSectorBytes;
  const double at = static_cast<double>(cycle);
  if (booking_ == Booking::in_order) {
    double& free = channels_[c];
    free = std::max(free, at) + sector_cycles_;
    return done_at(free);
  }
  if (is_write && write_queue_ > 0) {
    queue_write(c, at);
    return cycle;
  }
  return done_at(calendars_[c].book(at) + sector_cycles_);
}

void Dram::queue_write(std::size_t channel, double cycle) {
  WriteQueue& q = writes_[channel];
  if (q.size == write_queue_) {  // full: the oldest goes now, like a read
    calendars_[channel].book(q.arrivals[q.head]);
    if (++q.head == write_queue_) q.head = 0;
    --q.size;
  }
  std::size_t tail = q.head + q.size;  // a ring: no division per write
  if (tail >= write_queue_) tail -= write_queue_;
  q.arrivals[tail] = cycle;
  ++q.size;
}

void Dram::advance(Cycle horizon) {
  const double h = static_cast<double>(horizon);
  if (booking_ != Booking::gap_filling || h <= horizon_) return;
  horizon_ = h;
  for (std::size_t c = 0; c < calendars_.size(); ++c) {
    Calendar& cal = calendars_[c];
    if (!writes_.empty()) {  // queued writes take idle slots wholly behind the horizon
      WriteQueue& q = writes_[c];
      while (q.size > 0 && cal.book_ending_by(q.arrivals[q.head], h)) {
        if (++q.head == write_queue_) q.head = 0;
        --q.size;
      }
    }
    cal.prune(h);
  }
}

double Dram::backlog(Cycle cycle) const {
  double queued = 0;
  const auto t = static_cast<double>(cycle);
  if (booking_ == Booking::in_order) {
    for (const double free : channels_) queued += std::max(0.0, free - t) / sector_cycles_;
    return queued;
  }
  for (const Calendar& cal : calendars_) queued += cal.busy_after(t) / sector_cycles_;
  for (const WriteQueue& q : writes_) queued += static_cast<double>(q.size);
  return queued;
}

}  // namespace tbdse
