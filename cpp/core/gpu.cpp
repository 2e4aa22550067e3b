#include "gpu.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tbdse {

const ParamTable<GpuConfig>& GpuConfig::params() {
  static const ParamTable<GpuConfig> table = [] {
    ParamTable<GpuConfig> t;
    t.add(&GpuConfig::sms, {.name = "sms", .unit = "SMs", .doc = "streaming multiprocessors",
                            .paper_ref = "MODELS.md §1", .min_value = 1, .max_value = 65535});
    t.add(&GpuConfig::tb_slots,
          {.name = "tb_slots", .unit = "TBs", .doc = "max resident thread blocks per SM (CTA limit)",
           .paper_ref = "MODELS.md §1", .min_value = 1, .max_value = 65535});
    t.add(&GpuConfig::threads_per_sm, {.name = "threads_per_sm", .unit = "threads",
                                       .doc = "resident threads per SM", .min_value = 1});
    t.add(&GpuConfig::regs_per_sm, {.name = "regs_per_sm", .unit = "registers",
                                    .doc = "32-bit registers per SM", .min_value = 1});
    t.add(&GpuConfig::smem_per_sm,
          {.name = "smem_per_sm", .unit = "bytes", .doc = "shared memory per SM", .min_value = 0});
    t.add(&GpuConfig::clock_mhz, {.name = "clock_mhz", .unit = "MHz",
                                  .doc = "core clock; converts microseconds to cycles",
                                  .min_value = 1e-3, .max_value = 1e6});
    t.add(&GpuConfig::host_launch_us,
          {.name = "host_launch_us", .unit = "us",
           .doc = "host-side kernel launch overhead: the host's API call (launch_api_us) plus "
                  "the device-side latency before the kernel's TBs may start",
           .paper_ref = "Wireframe §5.1 (30 us); BlockMaestro §IV (5 us)", .min_value = 0,
           .max_value = 1e9});
    t.add(&GpuConfig::launch_api_us,
          {.name = "launch_api_us", .unit = "us",
           .doc = "the part of host_launch_us the host spends in the launch API call: launches "
                  "queue for the host one after another, while the rest of each (the device-side "
                  "latency) overlaps other launches; a value above host_launch_us counts as all "
                  "of it",
           .paper_ref = "BlockMaestro §IV (5 us = 2 us API call + 3 us device side)",
           .min_value = 0, .max_value = 1e9});
    t.add(&GpuConfig::device_launch_us,
          {.name = "device_launch_us", .unit = "us",
           .doc = "device-side (CDP) kernel launch overhead",
           .paper_ref = "BlockMaestro §IV (3 us)", .min_value = 0, .max_value = 1e9});
    t.add(&GpuConfig::mem_latency,
          {.name = "mem_latency", .unit = "cycles",
           .doc = "latency of one memory round trip: a scheduler-side fetch (DGB chunk, "
                  "dependency list entry) or a worklist machine's load",
           .paper_ref = "MODELS.md §1", .min_value = 0, .max_value = 1e9});
    t.add(&GpuConfig::copy_gbps,
          {.name = "copy_gbps", .unit = "GB/s",
           .doc = "host<->device copy bandwidth (memcpy commands of an application)",
           .paper_ref = "tbdse assumption (PCIe)", .min_value = 1e-6, .max_value = 1e6});
    t.add(&GpuConfig::copy_latency_us,
          {.name = "copy_latency_us", .unit = "us", .doc = "fixed cost of one host<->device copy",
           .paper_ref = "tbdse assumption", .min_value = 0, .max_value = 1e9});
    t.add(&GpuConfig::malloc_us,
          {.name = "malloc_us", .unit = "us", .doc = "one device memory allocation (host-side)",
           .paper_ref = "tbdse assumption", .min_value = 0, .max_value = 1e9});
    t.add(&GpuConfig::lanes,
          {.name = "lanes", .unit = "lanes",
           .doc = "SIMD lanes per SM; a warp of 32 threads spans 32 / lanes passes (a divisor "
                  "or multiple of 32)",
           .paper_ref = "HWWL Table IV (16 lanes)", .min_value = 1, .max_value = 1024});
    t.add(&GpuConfig::issue_width,
          {.name = "issue_width", .unit = "instructions",
           .doc = "warp instructions an SM issues per cycle",
           .paper_ref = "HWWL Table IV (2 issue slots)", .min_value = 1, .max_value = 64});
    t.add(&GpuConfig::amo_cycles,
          {.name = "amo_cycles", .unit = "cycles",
           .doc = "cycles one atomic occupies its memory partition: atomics on one address "
                  "(a software worklist's tail) serialise at this rate",
           .paper_ref = "HWWL §II-C (tbdse assumption)", .min_value = 0, .max_value = 1e6});
    t.add(&GpuConfig::mem_bandwidth,
          {.name = "mem_bandwidth", .unit = "GB/s",
           .doc = "DRAM bandwidth shared by all SMs (128-byte requests); 0 = unlimited",
           .paper_ref = "MODELS.md §1 (memory term); vendor figures", .min_value = 0,
           .max_value = 1e9});
    t.add(&GpuConfig::sm_model,
          {.name = "sm_model", .unit = "",
           .doc = "timing of resident TBs: 'fixed' (a TB takes its cost whatever else runs on "
                  "its SM) or 'shared' (an SM's throughput, sm_saturation TBs at full speed, is "
                  "split among its resident TBs; kernels' mem_fraction meets mem_bandwidth)",
           .paper_ref = "MODELS.md §1 (timing model of an SM)",
           .choices = {"fixed", "shared"}});
    t.add(&GpuConfig::sm_saturation,
          {.name = "sm_saturation", .unit = "TBs",
           .doc = "sm_model 'shared': how many resident TBs an SM runs at full speed (issue "
                  "width and latency hiding); with more, each gets a share",
           .paper_ref = "MODELS.md §1; calibrated per preset", .min_value = 1,
           .max_value = 65535});
    t.add(&GpuConfig::sm_share,
          {.name = "sm_share", .unit = "",
           .doc = "sm_model 'shared': 'even' (each of r resident TBs runs at min(1, "
                  "sm_saturation / r)), 'oldest_first' (the oldest TBs - lowest level, then "
                  "earliest start - take full speed first, as a GTO warp scheduler favours old "
                  "warps) or 'earliest_start' (the same by start cycle alone: GTO's warp age, "
                  "no level)",
           .paper_ref = "MODELS.md §1; Wireframe §5.1 (GTO)",
           .choices = {"even", "oldest_first", "earliest_start"}});
    // Memory hierarchy (docs/memory.md): figures and sources per preset there.
    const char* mem = "docs/memory.md (per preset)";
    t.add(&GpuConfig::l1_bytes,
          {.name = "l1_bytes", .unit = "bytes",
           .doc = "L1 data cache per SM (memory hierarchy; l1_bytes / (l1_ways x 128) a power "
                  "of two)",
           .paper_ref = mem, .min_value = 128, .max_value = 1 << 30});
    t.add(&GpuConfig::l1_ways, {.name = "l1_ways", .unit = "ways", .doc = "L1 associativity",
                                .paper_ref = mem, .min_value = 1, .max_value = 64});
    t.add(&GpuConfig::l1_hit_cycles,
          {.name = "l1_hit_cycles", .unit = "cycles", .doc = "L1 hit latency, load to use",
           .paper_ref = mem, .min_value = 0, .max_value = 1e6});
    t.add(&GpuConfig::l1_mshrs,
          {.name = "l1_mshrs", .unit = "entries",
           .doc = "outstanding L1 misses per SM (MSHRs); a miss to a line already missing "
                  "merges, another waits for a free entry",
           .paper_ref = mem, .min_value = 1, .max_value = 4096});
    t.add(&GpuConfig::l1_write,
          {.name = "l1_write", .unit = "",
           .doc = "L1 store policy, neither allocates: 'write_evict' (a store drops the line) "
                  "or 'write_through' (updates the sectors held); stores go on to L2",
           .paper_ref = mem, .choices = {"write_evict", "write_through"}});
    t.add(&GpuConfig::l2_bytes,
          {.name = "l2_bytes", .unit = "bytes",
           .doc = "shared L2 cache (l2_bytes / (l2_banks x l2_ways x 128) a power of two)",
           .paper_ref = mem, .min_value = 128, .max_value = 1e12});
    t.add(&GpuConfig::l2_ways, {.name = "l2_ways", .unit = "ways", .doc = "L2 associativity",
                                .paper_ref = mem, .min_value = 1, .max_value = 64});
    t.add(&GpuConfig::l2_banks,
          {.name = "l2_banks", .unit = "banks",
           .doc = "L2 banks, chosen by a hash of the line address; each takes one request per "
                  "cycle",
           .paper_ref = mem, .min_value = 1, .max_value = 4096});
    t.add(&GpuConfig::l2_hit_cycles,
          {.name = "l2_hit_cycles", .unit = "cycles", .doc = "L2 hit latency, load to use",
           .paper_ref = mem, .min_value = 0, .max_value = 1e6});
    t.add(&GpuConfig::l2_write,
          {.name = "l2_write", .unit = "",
           .doc = "L2 store policy: 'write_back' (write-allocate, dirty sectors written to DRAM "
                  "on eviction) or 'write_through' (no allocate, every store to DRAM)",
           .paper_ref = mem, .choices = {"write_back", "write_through"}});
    t.add(&GpuConfig::dram_channels,
          {.name = "dram_channels", .unit = "channels",
           .doc = "DRAM channels (256-byte interleaving, hashed)", .paper_ref = mem,
           .min_value = 1, .max_value = 4096});
    t.add(&GpuConfig::dram_channel_gbps,
          {.name = "dram_channel_gbps", .unit = "GB/s",
           .doc = "bandwidth of one DRAM channel; a 32-byte sector occupies it for "
                  "32 / (GB/s x 1000 / clock_mhz) cycles",
           .paper_ref = mem, .min_value = 1e-6, .max_value = 1e6});
    t.add(&GpuConfig::dram_latency,
          {.name = "dram_latency", .unit = "cycles",
           .doc = "cycles a DRAM access adds to an L2 hit, after its transfer",
           .paper_ref = mem, .min_value = 0, .max_value = 1e6});
    return t;
  }();
  return table;
}

Cycle GpuConfig::launch_api_cycles() const {
  return us_to_cycles(std::min(launch_api_us, host_launch_us));
}

Cycle GpuConfig::launch_latency_cycles() const {
  return us_to_cycles(host_launch_us) - launch_api_cycles();
}

Cycle GpuConfig::us_to_cycles(double us) const {
  return static_cast<Cycle>(std::llround(us * clock_mhz));
}

namespace {

struct Preset {
  const char* name;
  GpuConfig config;
};

// Vendor figures; launch overheads from the papers that use each GPU.
const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = {
      // Fermi GF100 as configured in GPGPU-Sim 3.x (Wireframe §5.1).  Wireframe
      // states no device-launch latency (it uses Wang et al.'s model) and no SM
      // throughput: device_launch_us 20 and the shared SM timing (4 TBs at full
      // speed, shared evenly) are fitted to Wireframe's Fig. 9 together with the
      // presets' TB run times (experiments/wireframe_calibration*.yaml,
      // docs/models/wireframe.md); 20 us is in line with measured CDP launch
      // latencies of tens of microseconds on GPUs of that era.  sm_share
      // 'oldest_first': Wireframe §5.1 ran GPGPU-Sim with a greedy-then-oldest
      // (GTO) warp scheduler, which favours the older TBs' warps (§5.3).
      {"gtx480", GpuConfig{.name = "gtx480", .sms = 15, .tb_slots = 8, .threads_per_sm = 1536,
                           .regs_per_sm = 32768, .smem_per_sm = 49152, .clock_mhz = 700.0,
                           .host_launch_us = 30.0, .device_launch_us = 20.0, .mem_latency = 400,
                           .copy_gbps = 6.0, .mem_bandwidth = 177.4, .sm_model = "shared",
                           .sm_saturation = 4.0, .sm_share = "oldest_first", .l1_bytes = 16384,
                           .l1_ways = 4, .l1_hit_cycles = 45, .l1_mshrs = 32,
                           .l1_write = "write_evict", .l2_bytes = 786432, .l2_ways = 8,
                           .l2_banks = 12, .l2_hit_cycles = 200, .l2_write = "write_back",
                           .dram_channels = 6, .dram_channel_gbps = 29.57,
                           .dram_latency = 200}},
      // Host<->device copies: PCIe 2.0 x16 (gtx480) / 3.0 x16 (Pascal) / 5.0 x16
      // (Hopper) at about 75% of the link rate, 5 us per copy and per
      // allocation: tbdse's assumptions, the papers give none.
      // Pascal GP102 (BlockMaestro §IV: 28 SMs x 32 TBs, 5 us launch of which 2 us
      // is the API call, 3 us CDP).  The shared SM timing (2 TBs at full speed,
      // shared evenly) is fitted to BlockMaestro's Fig. 9 with the presets' TB
      // run times (experiments/blockmaestro_calibration.yaml,
      // docs/models/blockmaestro.md).  sm_share 'oldest_first': BlockMaestro
      // §IV-A ran GPGPU-Sim 3.2.2 with GTO warp scheduling.
      {"titanx_pascal",
       GpuConfig{.name = "titanx_pascal", .sms = 28, .tb_slots = 32, .threads_per_sm = 2048,
                 .regs_per_sm = 65536, .smem_per_sm = 98304, .clock_mhz = 1417.0,
                 .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 450,
                 .lanes = 128, .issue_width = 4, .amo_cycles = 8, .mem_bandwidth = 480.0,
                 .sm_model = "shared", .sm_saturation = 2.0, .sm_share = "oldest_first",
                 // 256 L1 MSHRs: GPGPU-Sim's tested SM6_TITANX configuration (dl1
                 // "A:256:8"; docs/memory.md).
                 .l1_bytes = 49152, .l1_ways = 6, .l1_hit_cycles = 82, .l1_mshrs = 256,
                 .l1_write = "write_evict", .l2_bytes = 3145728, .l2_ways = 16, .l2_banks = 24,
                 .l2_hit_cycles = 216, .l2_write = "write_back", .dram_channels = 12,
                 .dram_channel_gbps = 40.0, .dram_latency = 234}},
      // Pascal GP100 (Juggler §6), base clock.  sm_model shared with 2 TBs at
      // full speed per SM, and host_launch_us 15 (a synchronous launch and
      // its cudaDeviceSynchronize, as the global-barrier versions make), are
      // calibrated on Juggler Fig. 4 (experiments/juggler_calibration.yaml,
      // docs/models/juggler.md) and used unchanged for Figs. 5 and 7.  sm_share
      // 'even': Juggler ran on a real P100, whose warp scheduler the paper
      // (and NVIDIA) does not document, so no age priority is assumed.
      {"p100", GpuConfig{.name = "p100", .sms = 56, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 65536, .clock_mhz = 1328.0,
                         .host_launch_us = 15.0, .device_launch_us = 3.0, .mem_latency = 450,
                         .lanes = 64, .issue_width = 2, .amo_cycles = 8,
                         .mem_bandwidth = 732.0, .sm_model = "shared", .sm_saturation = 2.0,
                         .sm_share = "even", .l1_bytes = 24576, .l1_ways = 6,
                         .l1_hit_cycles = 82, .l1_mshrs = 32, .l1_write = "write_evict",
                         .l2_bytes = 4194304, .l2_ways = 16, .l2_banks = 32,
                         .l2_hit_cycles = 216, .l2_write = "write_back", .dram_channels = 32,
                         .dram_channel_gbps = 22.875, .dram_latency = 234}},
      // Hopper GH100 SXM, boost clock.
      {"h100", GpuConfig{.name = "h100", .sms = 132, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 233472, .clock_mhz = 1980.0,
                         .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 600,
                         .copy_gbps = 48.0, .lanes = 128, .issue_width = 4, .amo_cycles = 4,
                         .mem_bandwidth = 3350.0, .l1_bytes = 28672, .l1_ways = 7,
                         .l1_hit_cycles = 33, .l1_mshrs = 64, .l1_write = "write_through",
                         .l2_bytes = 52428800, .l2_ways = 16, .l2_banks = 50,
                         .l2_hit_cycles = 260, .l2_write = "write_back", .dram_channels = 80,
                         .dram_channel_gbps = 41.875, .dram_latency = 340}},
      {"h200", GpuConfig{.name = "h200", .sms = 132, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 233472, .clock_mhz = 1980.0,
                         .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 600,
                         .copy_gbps = 48.0, .lanes = 128, .issue_width = 4, .amo_cycles = 4,
                         .mem_bandwidth = 4800.0, .l1_bytes = 28672, .l1_ways = 7,
                         .l1_hit_cycles = 33, .l1_mshrs = 64, .l1_write = "write_through",
                         .l2_bytes = 52428800, .l2_ways = 16, .l2_banks = 50,
                         .l2_hit_cycles = 260, .l2_write = "write_back", .dram_channels = 80,
                         .dram_channel_gbps = 60.0, .dram_latency = 340}},
      // The hardware-worklist paper's GPGPU-Sim 3.0 configuration (HWWL §IV-A,
      // Table IV): four Fermi-like cores of 16 lanes (2 SP + 1 SFU each), 48
      // warps (1536 threads), 2 issue slots, 700 MHz, 100-cycle DRAM latency.
      // Caches and DRAM from Table IV and GPGPU-Sim's GTX480 (docs/memory.md);
      // mem_bandwidth is the GTX480's 177.4 GB/s (= the six channels; the
      // worklist machine reads the channels).  The paper states no atomic or
      // launch cost: amo_cycles (same-address atomics on a worklist tail) and
      // host_launch_us (the relaunch between super-steps) are fitted to Fig. 5
      // with the hwwl schemes' lsu_queue (experiments/hwwl_calibration.yaml,
      // docs/models/hwwl.md) and used unchanged for every other figure.
      {"gpgpusim_hwwl",
       GpuConfig{.name = "gpgpusim_hwwl", .sms = 4, .tb_slots = 8, .threads_per_sm = 1536,
                 .regs_per_sm = 32768, .smem_per_sm = 49152, .clock_mhz = 700.0,
                 .host_launch_us = 3.0, .device_launch_us = 3.0, .mem_latency = 100,
                 .copy_gbps = 6.0, .lanes = 16, .issue_width = 2, .amo_cycles = 200,
                 .mem_bandwidth = 177.4, .l1_bytes = 8192, .l1_ways = 4, .l1_hit_cycles = 20,
                 .l1_mshrs = 32, .l1_write = "write_evict", .l2_bytes = 786432, .l2_ways = 8,
                 .l2_banks = 12, .l2_hit_cycles = 120, .l2_write = "write_back",
                 .dram_channels = 6, .dram_channel_gbps = 29.57, .dram_latency = 100}},
  };
  return list;
}

}  // namespace

void check_gpu(const GpuConfig& gpu) {
  constexpr std::int64_t kMaxSlots = std::int64_t{1} << 24;
  if (gpu.sms * gpu.tb_slots > kMaxSlots)
    throw ConfigError("GPU '" + gpu.name + "' has sms x tb_slots = " +
                      std::to_string(gpu.sms * gpu.tb_slots) + " TB slots; at most " +
                      std::to_string(kMaxSlots) + " are supported");
}

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : presets()) names.emplace_back(p.name);
  return names;
}

GpuConfig gpu_preset(std::string_view name) {
  for (const auto& p : presets())
    if (name == p.name) return p.config;
  throw_unknown_name("GPU preset", name, gpu_preset_names());
}

namespace {

// Per resource: how many TBs fit, or max() when the footprint demands none.
struct Limits {
  std::int64_t slots, threads, regs, smem;
};

Limits limits(const GpuConfig& gpu, const TbFootprint& fp) {
  constexpr auto none = std::numeric_limits<std::int64_t>::max();
  return {gpu.tb_slots, fp.threads > 0 ? gpu.threads_per_sm / fp.threads : none,
          fp.regs() > 0 ? gpu.regs_per_sm / fp.regs() : none,
          fp.smem_bytes > 0 ? gpu.smem_per_sm / fp.smem_bytes : none};
}

}  // namespace

std::int64_t occupancy(const GpuConfig& gpu, const TbFootprint& footprint) {
  const Limits l = limits(gpu, footprint);
  return std::min({l.slots, l.threads, l.regs, l.smem});
}

std::string occupancy_limiter(const GpuConfig& gpu, const TbFootprint& footprint) {
  const Limits l = limits(gpu, footprint);
  const std::int64_t occ = std::min({l.slots, l.threads, l.regs, l.smem});
  if (l.slots == occ) return "tb_slots";
  if (l.threads == occ) return "threads_per_sm";
  if (l.regs == occ) return "regs_per_sm";
  return "smem_per_sm";
}

}  // namespace tbdse
