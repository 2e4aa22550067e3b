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
                  "sm_saturation / r)) or 'oldest_first' (the oldest TBs - lowest level, then "
                  "earliest start - take full speed first, as a GTO warp scheduler favours old "
                  "warps)",
           .paper_ref = "MODELS.md §1; Wireframe §5.1 (GTO)", .choices = {"even", "oldest_first"}});
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
      // latencies of tens of microseconds on GPUs of that era.
      {"gtx480", GpuConfig{.name = "gtx480", .sms = 15, .tb_slots = 8, .threads_per_sm = 1536,
                           .regs_per_sm = 32768, .smem_per_sm = 49152, .clock_mhz = 700.0,
                           .host_launch_us = 30.0, .device_launch_us = 20.0, .mem_latency = 400,
                           .copy_gbps = 6.0, .mem_bandwidth = 177.4, .sm_model = "shared",
                           .sm_saturation = 4.0, .sm_share = "even"}},
      // Host<->device copies: PCIe 2.0 x16 (gtx480) / 3.0 x16 (Pascal) / 5.0 x16
      // (Hopper) at about 75% of the link rate, 5 us per copy and per
      // allocation: tbdse's assumptions, the papers give none.
      // Pascal GP102 (BlockMaestro §IV: 28 SMs x 32 TBs, 5 us launch of which 2 us
      // is the API call, 3 us CDP).  The shared SM timing (2 TBs at full speed,
      // shared evenly) is fitted to BlockMaestro's Fig. 9 with the presets' TB
      // run times (experiments/blockmaestro_calibration.yaml,
      // docs/models/blockmaestro.md).
      {"titanx_pascal",
       GpuConfig{.name = "titanx_pascal", .sms = 28, .tb_slots = 32, .threads_per_sm = 2048,
                 .regs_per_sm = 65536, .smem_per_sm = 98304, .clock_mhz = 1417.0,
                 .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 450,
                 .lanes = 128, .issue_width = 4, .amo_cycles = 8, .mem_bandwidth = 480.0,
                 .sm_model = "shared", .sm_saturation = 2.0, .sm_share = "even"}},
      // Pascal GP100 (Juggler §6), base clock.  sm_model shared with 2 TBs at
      // full speed per SM, and host_launch_us 15 (a synchronous launch and
      // its cudaDeviceSynchronize, as the global-barrier versions make), are
      // calibrated on Juggler Fig. 4 (experiments/juggler_calibration.yaml,
      // docs/models/juggler.md) and used unchanged for Figs. 5 and 7.
      {"p100", GpuConfig{.name = "p100", .sms = 56, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 65536, .clock_mhz = 1328.0,
                         .host_launch_us = 15.0, .device_launch_us = 3.0, .mem_latency = 450,
                         .lanes = 64, .issue_width = 2, .amo_cycles = 8,
                         .mem_bandwidth = 732.0, .sm_model = "shared", .sm_saturation = 2.0,
                         .sm_share = "even"}},
      // Hopper GH100 SXM, boost clock.
      {"h100", GpuConfig{.name = "h100", .sms = 132, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 233472, .clock_mhz = 1980.0,
                         .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 600,
                         .copy_gbps = 48.0, .lanes = 128, .issue_width = 4, .amo_cycles = 4,
                         .mem_bandwidth = 3350.0}},
      {"h200", GpuConfig{.name = "h200", .sms = 132, .tb_slots = 32, .threads_per_sm = 2048,
                         .regs_per_sm = 65536, .smem_per_sm = 233472, .clock_mhz = 1980.0,
                         .host_launch_us = 5.0, .device_launch_us = 3.0, .mem_latency = 600,
                         .copy_gbps = 48.0, .lanes = 128, .issue_width = 4, .amo_cycles = 4,
                         .mem_bandwidth = 4800.0}},
      // The hardware-worklist paper's GPGPU-Sim 3.0 configuration (HWWL §IV-A,
      // Table IV): four Fermi-like cores of 16 lanes (2 SP + 1 SFU each), 48
      // warps (1536 threads), 2 issue slots, 700 MHz, 100-cycle DRAM latency.
      // The paper states no bandwidth, atomic or launch cost: mem_bandwidth
      // (an effective figure: tbdse models no caches, so hits are not taken
      // off DRAM), amo_cycles and host_launch_us (the relaunch between
      // super-steps) are fitted to Fig. 5 (experiments/hwwl_calibration.yaml,
      // docs/models/hwwl.md) and used unchanged for every other figure.
      {"gpgpusim_hwwl",
       GpuConfig{.name = "gpgpusim_hwwl", .sms = 4, .tb_slots = 8, .threads_per_sm = 1536,
                 .regs_per_sm = 32768, .smem_per_sm = 49152, .clock_mhz = 700.0,
                 .host_launch_us = 3.0, .device_launch_us = 3.0, .mem_latency = 100,
                 .copy_gbps = 6.0, .lanes = 16, .issue_width = 2, .amo_cycles = 200,
                 .mem_bandwidth = 354.8}},
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
