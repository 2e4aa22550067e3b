#include "workload.hpp"

#include <algorithm>

#include "errors.hpp"
#include "hash.hpp"

namespace tbdse {

void Workload::validate(const GpuConfig& gpu) const {
  if (!graph) throw ConfigError("workload has no task graph");
  if (kernels.size() < static_cast<std::size_t>(graph->num_kernels()))
    throw ConfigError("workload describes " + std::to_string(kernels.size()) +
                      " kernels but its graph uses kernel ids 0.." +
                      std::to_string(graph->num_kernels() - 1));
  for (const auto& k : kernels) {
    const auto& fp = k.footprint;
    if (fp.threads < 0 || fp.regs_per_thread < 0 || fp.smem_bytes < 0 || k.mem_requests < 0)
      throw ConfigError("kernel '" + k.name + "': footprint sizes and mem_requests must be >= 0");
    if (occupancy(gpu, fp) < 1)
      throw ConfigError("kernel '" + k.name + "' does not fit on one SM of GPU '" + gpu.name +
                        "': its thread block exceeds " + occupancy_limiter(gpu, fp) +
                        " (needs " + std::to_string(fp.threads) + " threads, " +
                        std::to_string(fp.regs()) + " registers, " +
                        std::to_string(fp.smem_bytes) + " B shared memory; the SM has " +
                        std::to_string(gpu.threads_per_sm) + " threads, " +
                        std::to_string(gpu.regs_per_sm) + " registers, " +
                        std::to_string(gpu.smem_per_sm) + " B)");
  }
}

std::int64_t Workload::tb_capacity(const GpuConfig& gpu) const {
  const auto used = static_cast<std::size_t>(graph->num_kernels());
  const bool uniform =
      std::all_of(kernels.begin(), kernels.begin() + static_cast<std::ptrdiff_t>(used),
                  [&](const KernelInfo& k) { return k.footprint == kernels[0].footprint; });
  return gpu.sms * (uniform ? occupancy(gpu, kernels[0].footprint) : gpu.tb_slots);
}

std::int64_t Workload::mem_requests() const {
  std::int64_t total = 0;
  for (const KernelId k : graph->kernels()) total += kernels[k].mem_requests;
  return total;
}

std::uint64_t Workload::hash() const {
  Hasher h(graph->content_hash());
  for (const auto& k : kernels) {
    h.add_string(k.name);
    h.add_signed(k.footprint.threads).add_signed(k.footprint.regs_per_thread);
    h.add_signed(k.footprint.smem_bytes).add_signed(k.mem_requests);
  }
  return h.digest();
}

}  // namespace tbdse
