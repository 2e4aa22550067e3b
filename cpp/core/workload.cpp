#include "workload.hpp"

#include <algorithm>

#include "errors.hpp"
#include "hash.hpp"

namespace tbdse {

void Workload::validate(const GpuConfig& gpu) const {
  if (graph && input) throw ConfigError("workload '" + name + "' has both a task graph and a model input");
  if (input) return;  // its simulator checks it
  if (!graph) throw ConfigError("workload '" + name + "' has no task graph");
  if (kernels.size() < static_cast<std::size_t>(graph->num_kernels()))
    throw ConfigError("workload describes " + std::to_string(kernels.size()) +
                      " kernels but its graph uses kernel ids 0.." +
                      std::to_string(graph->num_kernels() - 1));
  for (const auto& k : kernels) {
    const auto& fp = k.footprint;
    if (fp.threads < 0 || fp.regs_per_thread < 0 || fp.smem_bytes < 0 || k.mem_requests < 0)
      throw ConfigError("kernel '" + k.name + "': footprint sizes and mem_requests must be >= 0");
    if (!(k.mem_fraction >= 0.0 && k.mem_fraction <= 1.0))
      throw ConfigError("kernel '" + k.name + "': mem_fraction must be a number in [0, 1]; got " +
                        std::to_string(k.mem_fraction));
    if (k.issue_interval != 0.0) {
      if (!(k.issue_interval >= 1.0 && k.issue_interval <= 1e6))
        throw ConfigError("kernel '" + k.name + "': issue_interval must be 0 (not stated) or a "
                          "number of cycles in [1, 1e6]; got " + std::to_string(k.issue_interval));
      if (fp.threads < 1)
        throw ConfigError("kernel '" + k.name + "': issue_interval needs threads (the TB's warps "
                          "are what issue); threads is 0");
    }
    if (k.reuse < 1 || k.reuse > kMaxReuse)
      throw ConfigError("kernel '" + k.name + "': reuse must be a whole number of passes in [1, " +
                        std::to_string(kMaxReuse) + "]; got " + std::to_string(k.reuse));
    if (k.reuse > 1 && !has_data_ranges())
      throw ConfigError("kernel '" + k.name + "': reuse > 1 (passes over a TB's footprint) needs "
                        "data footprints, and workload '" + name + "' declares none");
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
  if (application) {
    application->validate();
    const std::int32_t launches = application->launches();
    if (!graph->has_launch_groups())
      throw ConfigError("workload '" + name + "': an application needs a task graph whose "
                        "launch groups say which launch each TB belongs to");
    std::vector<char> has_tbs(static_cast<std::size_t>(launches), 0);
    for (const std::int32_t g : graph->launch_groups()) {
      if (g < 0 || g >= launches)
        throw ConfigError("workload '" + name + "': a task's launch group " + std::to_string(g) +
                          " is not one of the application's " + std::to_string(launches) +
                          " launches");
      has_tbs[g] = 1;
    }
    for (TaskId t = 0; t < graph->size(); ++t)
      for (const TaskId c : graph->children(t))
        if (graph->launch_group(c) <= graph->launch_group(t))
          throw ConfigError("workload '" + name + "': task " + std::to_string(graph->original_id(t)) +
                            " (launch " + std::to_string(graph->launch_group(t)) + ") -> task " +
                            std::to_string(graph->original_id(c)) + " (launch " +
                            std::to_string(graph->launch_group(c)) + "): in an application a "
                            "dependency must point to a later launch");
    for (std::int32_t g = 0; g < launches; ++g)
      if (!has_tbs[g])
        throw ConfigError("workload '" + name + "': launch " + std::to_string(g) +
                          " of the application has no thread blocks in the task graph "
                          "(launch group " + std::to_string(g) + ")");
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
  Hasher h(graph ? graph->content_hash() : input ? input->content_hash() : 0);
  h.add_string(kind());
  for (const auto& k : kernels) {
    h.add_string(k.name);
    h.add_signed(k.footprint.threads).add_signed(k.footprint.regs_per_thread);
    h.add_signed(k.footprint.smem_bytes).add_signed(k.mem_requests);
    if (k.mem_fraction != 0.0) h.add_double(k.mem_fraction);  // hashes of kernels without it unchanged
    if (k.issue_interval != 0.0) h.add_double(k.issue_interval).add_string("issue_interval");
    if (k.reuse != 1) h.add_signed(k.reuse).add_string("reuse");
  }
  h.add(application ? application->hash() : 0);
  if (has_data_ranges()) {  // hashes of workloads without footprints unchanged
    for (const std::int64_t s : data_start) h.add_signed(s);
    for (const DataRange& r : data_ranges)
      h.add(r.base).add_signed(r.bytes).add_signed(r.is_write ? 1 : 0);
  }
  return h.digest();
}

void Workload::require_edges_complete(const std::string& scheme) const {
  if (!application) return;
  const auto& waits = application->launch_waits_for;
  for (std::size_t i = 0; i < waits.size(); ++i) {
    if (waits[i] < 0) continue;
    throw ConfigError("scheme '" + scheme + "' follows task-graph edges only, but workload '" + name +
                      "' has kernel-level dependencies its graph does not list: launch " + std::to_string(i) +
                      " waits for the whole of launch " + std::to_string(waits[i]) +
                      " (a dependency skipping a kernel, or a pair with more TB edges than max_pair_edges). "
                      "Run it with baseline, ideal_baseline, prelaunch, blockmaestro, global_barrier, cdp or "
                      "deplinks, or build the application with a larger max_pair_edges if that is the cause");
  }
}

}  // namespace tbdse
