#include "mem_hierarchy.hpp"

#include <algorithm>
#include <string>

#include "errors.hpp"

namespace tbdse {

namespace {

std::int64_t sets_of(const std::string& what, std::int64_t bytes, std::int64_t ways) {
  const std::int64_t per_set = ways * kLineBytes;
  const std::int64_t sets = bytes / per_set;
  if (bytes % per_set != 0 || sets < 1 || (sets & (sets - 1)) != 0)
    throw ConfigError(what + ": " + std::to_string(bytes) + " bytes in " + std::to_string(ways) +
                      "-way sets of 128-byte lines is not a power-of-two number of sets");
  return sets;
}

}  // namespace

MemoryConfig memory_config(const GpuConfig& gpu) {
  MemoryConfig c;
  c.sms = gpu.sms;
  c.l1_ways = gpu.l1_ways;
  c.l1_sets = sets_of("GPU '" + gpu.name + "' l1_bytes", gpu.l1_bytes, gpu.l1_ways);
  c.l1_hit_cycles = gpu.l1_hit_cycles;
  c.l1_mshrs = gpu.l1_mshrs;
  c.l1_write_through = gpu.l1_write == "write_through";
  c.l2_banks = gpu.l2_banks;
  c.l2_ways = gpu.l2_ways;
  if (gpu.l2_bytes % gpu.l2_banks != 0)
    throw ConfigError("GPU '" + gpu.name + "': l2_bytes is not a multiple of l2_banks");
  c.l2_sets = sets_of("GPU '" + gpu.name + "' l2_bytes per bank", gpu.l2_bytes / gpu.l2_banks,
                      gpu.l2_ways);
  c.l2_hit_cycles = gpu.l2_hit_cycles;
  c.l2_write_back = gpu.l2_write == "write_back";
  c.dram_channels = gpu.dram_channels;
  c.dram_bytes_per_cycle = gpu.dram_channel_gbps * 1e3 / gpu.clock_mhz;
  c.dram_latency = gpu.dram_latency;
  return c;
}

MemoryHierarchy::MemoryHierarchy(const MemoryConfig& config)
    : config_(config),
      bank_mod_(static_cast<std::uint64_t>(std::max<std::int64_t>(config.l2_banks, 1))),
      dram_(config.dram_channels, config.dram_bytes_per_cycle, config.dram_latency,
            config.booking, config.dram_write_queue) {
  if (config.sms < 1 || config.l1_mshrs < 1 || config.l2_banks < 1 || config.l1_hit_cycles < 0 ||
      config.l2_hit_cycles < 0 || config.sample_cycles < 0)
    throw ConfigError("memory hierarchy: sms, l1_mshrs and l2_banks must be >= 1, latencies >= 0");
  l1_.reserve(static_cast<std::size_t>(config.sms));
  for (std::int64_t s = 0; s < config.sms; ++s) l1_.emplace_back(config.l1_sets, config.l1_ways);
  l1_port_.assign(static_cast<std::size_t>(config.sms), 0);
  mshrs_.assign(static_cast<std::size_t>(config.sms), MshrFile(config.l1_mshrs));
  l2_.reserve(static_cast<std::size_t>(config.l2_banks));
  for (std::int64_t b = 0; b < config.l2_banks; ++b) l2_.emplace_back(config.l2_sets, config.l2_ways);
  l2_port_.assign(static_cast<std::size_t>(config.l2_banks), 0);
  if (config.booking == Booking::gap_filling)
    l2_calendar_.assign(static_cast<std::size_t>(config.l2_banks), UnitCalendar());
  samples_.reserve(4096);
}

void MemoryHierarchy::advance(Cycle horizon) {
  if (config_.booking != Booking::gap_filling) return;
  // The DRAM backlog samples due by the horizon, before the spans behind it go.
  if (horizon >= next_sample_) sample_until(horizon);
  for (UnitCalendar& c : l2_calendar_) c.prune(horizon);
  dram_.advance(horizon);
}

const MemoryStats& MemoryHierarchy::stats() const {
  stats_.dram_read_bytes = dram_.read_bytes();
  stats_.dram_write_bytes = dram_.write_bytes();
  return stats_;
}

std::int64_t MemoryHierarchy::bank_of(std::uint64_t line) const {
  std::uint64_t x = line * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 31;
  return static_cast<std::int64_t>(bank_mod_(x));
}

void MemoryHierarchy::sample_until(Cycle cycle) {
  if (config_.sample_cycles <= 0) {
    next_sample_ = kMaxTime;
    return;
  }
  while (next_sample_ <= cycle) {
    samples_.push_back(dram_.backlog(next_sample_));
    next_sample_ += config_.sample_cycles;
  }
}

Cycle MemoryHierarchy::begin(Cycle cycle) {
  if (cycle >= next_sample_) sample_until(cycle);
  ++stats_.requests;
  return cycle;
}

Cycle MemoryHierarchy::finish(Cycle cycle, Cycle done) {
  stats_.latency_sum += done - cycle;
  return done;
}

Cycle MemoryHierarchy::access_warp(std::int64_t sm, Cycle cycle, const std::uint64_t* addresses,
                                   std::uint32_t active, std::int64_t bytes, bool is_write,
                                   std::int32_t* lines) {
  const CoalescedWarp warp = coalesce(addresses, active, bytes);
  if (lines) *lines = warp.count;
  return access_lines(sm, cycle, warp, is_write);
}

Cycle MemoryHierarchy::access_lines(std::int64_t sm, Cycle cycle, const CoalescedWarp& warp,
                                    bool is_write) {
  begin(cycle);
  Cycle done = cycle;
  for (int i = 0; i < warp.count; ++i)
    done = std::max(done, line_request(sm, cycle, warp.lines[i].line, warp.lines[i].sectors,
                                       is_write));
  return finish(cycle, done);
}

Cycle MemoryHierarchy::access_range(std::int64_t sm, Cycle cycle, std::uint64_t base,
                                    std::int64_t bytes, bool is_write, Cycle* first_line) {
  begin(cycle);
  Cycle done = cycle;
  bool first = true;
  for_each_line(base, bytes, [&](std::uint64_t line, std::uint8_t sectors) {
    const Cycle at = line_request(sm, cycle, line, sectors, is_write);
    if (first && first_line) *first_line = at;
    first = false;
    done = std::max(done, at);
  });
  if (first && first_line) *first_line = cycle;
  return finish(cycle, done);
}

Cycle MemoryHierarchy::line_request(std::int64_t sm, Cycle cycle, std::uint64_t line,
                                    std::uint8_t sectors, bool is_write) {
  Cycle& port = l1_port_[static_cast<std::size_t>(sm)];
  const Cycle at = std::max(cycle, port);
  port = at + 1;
  if (!is_write) return l1_read(sm, at, line, sectors);
  // Stores: write-evict drops the line from L1, write-through updates the
  // sectors it holds; neither allocates.  The store goes on to L2.
  SectorCache& l1 = l1_[static_cast<std::size_t>(sm)];
  stats_.l1_writes += sector_count(sectors);
  if (!config_.l1_write_through) {
    l1.invalidate(line);
  } else if (const std::int64_t slot = l1.find(line, true); slot >= 0) {
    l1.state(slot).valid |= sectors;
  }
  return l2_access(at, line, sectors, true);
}

Cycle MemoryHierarchy::l1_read(std::int64_t sm, Cycle at, std::uint64_t line,
                               std::uint8_t sectors) {
  SectorCache& l1 = l1_[static_cast<std::size_t>(sm)];
  const int wanted = sector_count(sectors);
  stats_.l1_reads += wanted;
  std::int64_t slot = l1.find(line, true);
  const std::uint8_t present = slot >= 0 ? (l1.state(slot).valid & sectors) : 0;
  const std::uint8_t missing = sectors & ~present;
  stats_.l1_read_hits += sector_count(present);
  Cycle done = at + config_.l1_hit_cycles;
  if (present && l1.state(slot).ready > at) {
    stats_.l1_pending_hits += sector_count(present);
    done = std::max(done, l1.state(slot).ready);
  }
  if (!missing) return done;

  // A miss: merge into this line's outstanding miss, or take a free MSHR
  // (waiting for the earliest to free when none is).
  MshrFile& mshrs = mshrs_[static_cast<std::size_t>(sm)];
  std::size_t entry = 0;
  Cycle held = 0;  // the merged miss's ready cycle (0: a new one)
  bool merged = false;
  if (slot >= 0) {
    const std::int32_t m = l1.state(slot).mshr;
    const auto i = static_cast<std::size_t>(m);
    merged = m >= 0 && mshrs.line(i) == line && mshrs.ready(i) > at;
    if (merged) entry = i;
  }
  Cycle issue = at;
  if (merged) {
    ++stats_.mshr_merges;
    held = mshrs.ready(entry);
  } else {
    entry = mshrs.choose(at);
    if (mshrs.ready(entry) > at) {
      stats_.mshr_stall_cycles += mshrs.ready(entry) - at;
      issue = mshrs.ready(entry);
    }
    mshrs.set_line(entry, line);
  }
  const Cycle filled = l2_access(issue, line, missing, false);
  mshrs.set_ready(entry, std::max(held, filled));
  if (slot < 0) {
    ++stats_.l1_line_misses;
    SectorCache::Evicted gone;  // L1 holds no dirty data
    slot = l1.install(line, gone);
  }
  SectorCache::Line& s = l1.state(slot);
  s.mshr = static_cast<std::int32_t>(entry);
  s.valid |= missing;
  s.ready = std::max(s.ready, filled);
  return std::max(done, filled);
}

Cycle MemoryHierarchy::l2_access(Cycle cycle, std::uint64_t line, std::uint8_t sectors,
                                 bool is_write) {
  const std::int64_t b = bank_of(line);
  Cycle at = cycle;
  if (config_.booking == Booking::gap_filling) {
    at = l2_calendar_[static_cast<std::size_t>(b)].book(cycle);
  } else {
    Cycle& port = l2_port_[static_cast<std::size_t>(b)];
    at = std::max(cycle, port);
    port = at + 1;
  }
  stats_.l2_bank_wait_cycles += at - cycle;
  SectorCache& l2 = l2_[static_cast<std::size_t>(b)];
  const std::uint64_t address = line << kLineShift;
  const Cycle hit = at + config_.l2_hit_cycles;
  std::int64_t slot = l2.find(line, true);
  auto write_back = [&](const SectorCache::Evicted& gone) {
    if (gone.dirty) dram_.transfer_line(gone.line << kLineShift, gone.dirty, at, true);
  };
  if (is_write) {
    stats_.l2_writes += sector_count(sectors);
    if (config_.l2_write_back) {
      if (slot < 0) {
        SectorCache::Evicted gone;
        slot = l2.install(line, gone);
        write_back(gone);
      }
      l2.state(slot).valid |= sectors;  // whole sectors written: nothing fetched
      l2.state(slot).dirty |= sectors;
    } else {
      if (slot >= 0) l2.state(slot).valid |= sectors;
      dram_.transfer_line(address, sectors, at, true);
    }
    return hit;
  }
  stats_.l2_reads += sector_count(sectors);
  const std::uint8_t present = slot >= 0 ? (l2.state(slot).valid & sectors) : 0;
  const std::uint8_t missing = sectors & ~present;
  stats_.l2_read_hits += sector_count(present);
  Cycle done = hit;
  if (present) done = std::max(done, l2.state(slot).ready + config_.l2_hit_cycles);
  if (!missing) return done;
  const Cycle fetched = dram_.transfer_line(address, missing, at, false);
  if (slot < 0) {
    SectorCache::Evicted gone;
    slot = l2.install(line, gone);
    write_back(gone);
  }
  SectorCache::Line& st = l2.state(slot);
  st.valid |= missing;
  st.ready = std::max(st.ready, fetched);
  return std::max(done, fetched + config_.l2_hit_cycles);
}

}  // namespace tbdse
