// A multi-kernel application as the host issues it (docs/MODELS.md §4): an
// ordered queue of API calls — allocations, host<->device copies, kernel
// launches, synchronisations.  The task graph holds the launches' thread
// blocks (launch i = launch group i) and the TB-level dependencies between
// them; the application adds what happens between launches and the
// dependencies the graph does not spell out TB by TB.  How the calls overlap
// is the scheme's business: a plain CUDA stream serialises them, a
// pre-launching scheduler does not.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tbdse {

struct HostCommand {
  enum class Kind { MALLOC, MEMCPY_H2D, MEMCPY_D2H, LAUNCH, SYNC };
  Kind kind = Kind::LAUNCH;
  std::int32_t buffer = -1;  // MALLOC / MEMCPY_*: the buffer
  std::int64_t bytes = 0;    // MEMCPY_*: bytes copied
  std::int32_t launch = -1;  // LAUNCH: the launch group it starts (0, 1, ... in queue order)
};

struct Application {
  std::vector<std::string> buffers;  // names, indexed by buffer id
  std::vector<HostCommand> commands;
  // Per launch: the buffers its kernel reads and writes (ids, for the data
  // dependencies between API calls that a reordering must keep).
  std::vector<std::vector<std::int32_t>> launch_reads, launch_writes;
  // Per launch: the latest earlier launch that must have finished — it and
  // every launch before it — before any of this launch's TBs starts; -1 for
  // none.  Kernel-level dependencies the graph does not list TB by TB: a
  // fully connected pair too large to list, a hazard with a kernel further
  // back than the previous one.
  std::vector<std::int32_t> launch_waits_for;
  // Optional data footprints of the TBs (BlockMaestro's access ranges as byte
  // ranges, docs/models/blockmaestro.md "Locality"), CSR by *input* task id:
  // task t's ranges are [data_start[t], data_start[t+1]).  Empty: none, and
  // the run uses no memory hierarchy.  The workload passes them to the
  // engine (Workload::data_start / data_ranges) in the graph's node order.
  std::vector<std::int64_t> data_start;
  std::vector<std::uint64_t> data_base;
  std::vector<std::int64_t> data_bytes;
  std::vector<std::uint8_t> data_write;  // 1: a write range

  std::int32_t launches() const { return static_cast<std::int32_t>(launch_reads.size()); }

  // ConfigError naming the command when: a buffer id is out of range; a
  // buffer is used before its MALLOC or allocated twice; launches do not
  // appear exactly once each, in order 0, 1, ...; bytes < 0; a launch waits
  // for itself or a later one; footprint arrays of different lengths or a
  // data_start that is not a CSR over them.
  void validate() const;
  std::uint64_t hash() const;
};

using ApplicationPtr = std::shared_ptr<const Application>;

// "launch" -> HostCommand::Kind, and back; ConfigError listing the kinds.
HostCommand::Kind command_kind(const std::string& name);
std::string command_kind_name(HostCommand::Kind kind);

}  // namespace tbdse
