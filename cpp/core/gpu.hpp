// The GPU being simulated: SM count and per-SM resources, clock and launch
// overheads (docs/MODELS.md §1 "GPU").  Presets carry vendor figures; every
// field can be overridden by name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "params.hpp"
#include "types.hpp"

namespace tbdse {

struct GpuConfig {
  std::string name = "custom";  // preset it came from; not a parameter

  std::int64_t sms = 15;                 // streaming multiprocessors
  std::int64_t tb_slots = 8;             // max resident TBs per SM (hardware CTA limit)
  std::int64_t threads_per_sm = 1536;    // resident threads per SM
  std::int64_t regs_per_sm = 32768;      // 32-bit registers per SM
  std::int64_t smem_per_sm = 49152;      // shared memory per SM, bytes
  double clock_mhz = 700.0;              // core clock; converts us to cycles
  double host_launch_us = 30.0;          // host-side kernel launch: API call + device-side latency
  double launch_api_us = 2.0;            // the host's API call within host_launch_us (serialised)
  double device_launch_us = 3.0;         // device-side (CDP) kernel launch overhead
  std::int64_t mem_latency = 400;        // cycles for one scheduler-side memory fetch
  double copy_gbps = 12.0;               // host<->device copy bandwidth, GB/s (1e9 bytes/s)
  double copy_latency_us = 5.0;          // fixed cost of one host<->device copy
  double malloc_us = 5.0;                // one device allocation (cudaMalloc), host-side
  std::int64_t lanes = 32;               // SIMD lanes per SM (a warp of 32 takes 32 / lanes cycles)
  std::int64_t issue_width = 2;          // warp instructions an SM issues per cycle
  std::int64_t amo_cycles = 20;          // an atomic on one address, serialised at its partition
  double mem_bandwidth = 0.0;            // DRAM bandwidth, GB/s; 0 = unlimited
  // Timing of the TBs resident on an SM (docs/simulation.md "Timing models").
  std::string sm_model = "fixed";        // fixed: a TB takes its cost; shared: SMs are shared
  double sm_saturation = 4.0;            // shared: resident TBs an SM runs at full speed
  std::string sm_share = "even";         // shared: even (processor sharing), oldest_first or earliest_start
  // Memory hierarchy (core/mem_hierarchy.hpp, docs/memory.md): read by no
  // simulator yet.  Lines are 128 bytes of four 32-byte sectors.
  std::int64_t l1_bytes = 16384;         // L1 data cache per SM, bytes
  std::int64_t l1_ways = 4;              // L1 associativity
  std::int64_t l1_hit_cycles = 45;       // L1 hit, load to use
  std::int64_t l1_mshrs = 32;            // outstanding L1 misses per SM
  std::string l1_write = "write_evict";  // write_evict or write_through (no allocate)
  std::int64_t l2_bytes = 786432;        // shared L2, bytes
  std::int64_t l2_ways = 8;              // L2 associativity
  std::int64_t l2_banks = 12;            // L2 banks (slices), one request per cycle each
  std::int64_t l2_hit_cycles = 200;      // L2 hit, load to use
  std::string l2_write = "write_back";   // write_back (allocate) or write_through (no allocate)
  std::int64_t dram_channels = 6;        // DRAM channels
  double dram_channel_gbps = 29.57;      // bandwidth of one channel, GB/s
  std::int64_t dram_latency = 200;       // cycles a DRAM access adds to an L2 hit

  bool shared_sms() const { return sm_model == "shared"; }
  // Whether older TBs take their issue share first (oldest_first, earliest_start).
  bool oldest_first() const { return sm_share != "even"; }
  // Whether age is ranked by task-graph level before start (oldest_first).
  bool age_by_level() const { return sm_share == "oldest_first"; }
  // The API call's part of a host launch (at most the whole launch) and the
  // device-side rest, which launches in flight overlap.
  Cycle launch_api_cycles() const;
  Cycle launch_latency_cycles() const;

  static const ParamTable<GpuConfig>& params();

  // Microseconds to whole cycles at this clock (rounded to nearest).
  Cycle us_to_cycles(double us) const;
  double cycles_to_us(Cycle cycles) const { return static_cast<double>(cycles) / clock_mhz; }
};

// Checks what single fields cannot: the GPU's TB slots in total fit the
// engine's slot numbering (2^24).  ConfigError otherwise.
void check_gpu(const GpuConfig& gpu);

// Preset by name ("gtx480", "titanx_pascal", "p100", "h100", "h200"); ConfigError otherwise.
GpuConfig gpu_preset(std::string_view name);
std::vector<std::string> gpu_preset_names();

// Resources one thread block of a kernel occupies while resident on an SM.
// Zero means "no demand": a kernel without a stated footprint is limited by
// TB slots alone.
struct TbFootprint {
  std::int64_t threads = 0;          // threads per TB
  std::int64_t regs_per_thread = 0;  // registers per thread
  std::int64_t smem_bytes = 0;       // shared memory per TB, bytes

  std::int64_t regs() const { return threads * regs_per_thread; }
  bool operator==(const TbFootprint&) const = default;
};

// How many TBs of this footprint fit on one SM (0: not even one).
std::int64_t occupancy(const GpuConfig& gpu, const TbFootprint& footprint);

// The SM resource that bounds occupancy(), e.g. "tb_slots" or "threads_per_sm".
std::string occupancy_limiter(const GpuConfig& gpu, const TbFootprint& footprint);

}  // namespace tbdse
