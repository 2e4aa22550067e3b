// A GPU memory hierarchy as a timing model for event-driven simulators
// (docs/memory.md, docs/MODELS.md §10): per SM a sectored set-associative L1
// with LRU, a hit latency and a limit of outstanding misses (MSHRs); one
// shared L2 banked by a hash of the line address (each bank one request per
// cycle), sectored, set-associative, LRU; DRAM channels with bandwidth and
// latency (dram.hpp).  An access returns the cycle its data is there (a
// store: when L2 accepts it).  Two ways in: trace-driven (a warp's 32
// addresses, coalesced; or one address) and footprint-driven (a byte range,
// walked line by line).  Deterministic; under in_order booking no allocation
// after construction.
// Booking in_order (the default): the shared resources (L2 bank ports, DRAM
// channels) are "next free" times, so accesses are best made in
// non-decreasing cycle order (an earlier access after a later one queues
// behind it).  Booking gap_filling: they are calendars (calendar.hpp) and an
// access takes the earliest free slot at or after its cycle, so accesses may
// come out of time order down to a horizon (advance); identical to in_order
// on accesses in non-decreasing cycle order.  Each SM's L1 port and MSHRs
// stay in order (one SM's requests come in order).
#pragma once

#include <cstdint>
#include <vector>

#include "coalescer.hpp"
#include "dram.hpp"
#include "fast_mod.hpp"
#include "gpu.hpp"
#include "mshr_file.hpp"
#include "sector_cache.hpp"
#include "unit_calendar.hpp"

namespace tbdse {

// The GPU fields the hierarchy reads (GpuConfig's l1_*, l2_*, dram_*), in
// cycles of the core clock.
struct MemoryConfig {
  std::int64_t sms = 1;
  std::int64_t l1_sets = 32, l1_ways = 4;
  Cycle l1_hit_cycles = 1;
  std::int64_t l1_mshrs = 32;
  bool l1_write_through = false;  // false: write-evict
  std::int64_t l2_banks = 1, l2_sets = 64, l2_ways = 8;
  Cycle l2_hit_cycles = 1;
  bool l2_write_back = true;  // false: write-through, no allocate
  std::int64_t dram_channels = 1;
  double dram_bytes_per_cycle = 32.0;  // per channel
  Cycle dram_latency = 0;
  Cycle sample_cycles = 1000;  // DRAM backlog sampled every this many cycles (0: never)
  // How L2 bank ports and DRAM channels take requests (docs/memory.md
  // "Booking"): in_order, after the latest booking; gap_filling, in the
  // earliest free slot at or after the request's cycle.
  Booking booking = Booking::in_order;
  // gap_filling only: DRAM writes per channel held in a write queue and
  // drained into slots reads leave idle (0: writes book like reads).
  std::int64_t dram_write_queue = 0;
};

// A DRAM write queue per channel, in sectors, for models that book
// gap_filling (the TB engine's footprints): GPGPU-Sim's default FR-FCFS
// write queue holds 32 requests (docs/memory.md "Booking").
inline constexpr std::int64_t kDramWriteQueueSectors = 32;

// From a GPU's fields; ConfigError when a cache's size does not make a
// power-of-two number of sets.
MemoryConfig memory_config(const GpuConfig& gpu);

struct MemoryStats {
  std::int64_t requests = 0;           // access calls
  std::int64_t l1_reads = 0, l1_read_hits = 0;  // sectors
  std::int64_t l1_pending_hits = 0;    // hits on a sector still being fetched (merged)
  std::int64_t l1_line_misses = 0;     // reads whose line was absent
  std::int64_t l1_writes = 0;          // sectors
  std::int64_t mshr_merges = 0;        // misses merged into an outstanding miss to their line
  std::int64_t mshr_stall_cycles = 0;  // misses waiting for a free MSHR
  std::int64_t l2_reads = 0, l2_read_hits = 0, l2_writes = 0;  // sectors
  std::int64_t l2_bank_wait_cycles = 0;  // requests waiting for a busy bank
  std::int64_t dram_read_bytes = 0, dram_write_bytes = 0;
  std::int64_t latency_sum = 0;        // sum of (completion - cycle) over requests
  double l1_hit_rate() const { return l1_reads ? double(l1_read_hits) / double(l1_reads) : 0; }
  double l2_hit_rate() const { return l2_reads ? double(l2_read_hits) / double(l2_reads) : 0; }
  double average_latency() const { return requests ? double(latency_sum) / double(requests) : 0; }
  std::int64_t dram_bytes() const { return dram_read_bytes + dram_write_bytes; }
};

class MemoryHierarchy {
 public:
  explicit MemoryHierarchy(const MemoryConfig& config);

  // One warp instruction: active threads' addresses (bytes each) coalesced
  // into line requests that SM `sm`'s L1 takes one per cycle from `cycle`.
  // `lines`, when given, receives how many line requests it made.
  Cycle access_warp(std::int64_t sm, Cycle cycle, const std::uint64_t* addresses,
                    std::uint32_t active, std::int64_t bytes, bool is_write,
                    std::int32_t* lines = nullptr);
  // The line requests of an already coalesced warp instruction.
  Cycle access_lines(std::int64_t sm, Cycle cycle, const CoalescedWarp& warp, bool is_write);
  // One thread's access of `bytes` at `address`.  An L1 hit on one line is
  // handled here, inline (the hot path of a sweep); the rest out of line.
  Cycle access(std::int64_t sm, Cycle cycle, std::uint64_t address, std::int64_t bytes,
               bool is_write) {
    const auto offset = static_cast<std::int64_t>(address & (kLineBytes - 1));
    if (bytes < 1 || offset + bytes > kLineBytes)
      return access_range(sm, cycle, address, bytes, is_write);
    if (cycle >= next_sample_) sample_until(cycle);
    ++stats_.requests;
    const std::uint8_t sectors = sector_span(offset, bytes);
    if (!is_write) {
      SectorCache& l1 = l1_[static_cast<std::size_t>(sm)];
      Cycle& port = l1_port_[static_cast<std::size_t>(sm)];
      const Cycle at = port > cycle ? port : cycle;
      const std::int64_t slot = l1.find(address >> kLineShift, true);
      if (slot >= 0) {
        const SectorCache::Line& st = l1.state(slot);
        if ((st.valid & sectors) == sectors && st.ready <= at) {
          port = at + 1;
          const int n = sector_count(sectors);
          stats_.l1_reads += n;
          stats_.l1_read_hits += n;
          const Cycle done = at + config_.l1_hit_cycles;
          stats_.latency_sum += done - cycle;
          return done;
        }
      }
    }
    return finish(cycle, line_request(sm, cycle, address >> kLineShift, sectors, is_write));
  }
  // A footprint: [base, base + bytes) walked as line requests, one per cycle.
  // With `first_line`, also when its first line is there (`cycle` if empty).
  Cycle access_range(std::int64_t sm, Cycle cycle, std::uint64_t base, std::int64_t bytes,
                     bool is_write, Cycle* first_line = nullptr);

  // No access comes before `horizon` from now on (non-decreasing calls):
  // under gap_filling queued DRAM writes drain into the idle slots behind it
  // and bookings that end before it are dropped (bounded memory); under
  // in_order nothing happens.
  void advance(Cycle horizon);

  const MemoryStats& stats() const;
  // DRAM backlog (sector transfers queued or in service) every sample_cycles.
  const std::vector<double>& dram_queue_samples() const { return samples_; }
  const MemoryConfig& config() const { return config_; }

 private:
  Cycle begin(Cycle cycle);
  void sample_until(Cycle cycle);
  Cycle finish(Cycle cycle, Cycle done);
  Cycle line_request(std::int64_t sm, Cycle cycle, std::uint64_t line, std::uint8_t sectors,
                     bool is_write);
  Cycle l1_read(std::int64_t sm, Cycle at, std::uint64_t line, std::uint8_t sectors);
  Cycle l2_access(Cycle cycle, std::uint64_t line, std::uint8_t sectors, bool is_write);
  std::int64_t bank_of(std::uint64_t line) const;

  MemoryConfig config_;
  FastMod bank_mod_;  // % l2_banks
  std::vector<SectorCache> l1_;
  std::vector<Cycle> l1_port_;    // per SM: when its L1 takes the next line request
  std::vector<MshrFile> mshrs_;   // per SM
  std::vector<SectorCache> l2_;   // per bank
  std::vector<Cycle> l2_port_;    // per bank (in_order)
  std::vector<UnitCalendar> l2_calendar_;  // per bank (gap_filling)
  Dram dram_;
  mutable MemoryStats stats_;
  std::vector<double> samples_;
  Cycle next_sample_ = 0;
};

}  // namespace tbdse
