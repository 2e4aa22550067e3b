// Wireframe (Abdolrashidi et al., MICRO-50 2017): a dependency-aware thread
// block scheduler (DATS, §4) that runs a whole task graph as one kernel,
// resolving dependencies in hardware from the Dependency Graph Buffer
// (dependency_graph_buffer.hpp), with the loose round-robin (LRR) or
// level-bounded (LVL) issue policy (§4.3).  docs/models/wireframe.md lists
// what tbdse interprets where the paper is silent.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/id_set.hpp"
#include "core/params.hpp"
#include "core/scheme.hpp"
#include "models/common/ready_queue.hpp"
#include "models/common/running_levels.hpp"
#include "models/wireframe/dependency_graph_buffer.hpp"

namespace tbdse {

struct WireframeParams {
  // Issue policy (§4.3): 'lrr' = smallest ready virtual id first, SMs round
  // robin skipping full ones; 'lvl' = lrr, but a node of level l issues only if
  // l - (lowest running level) <= level_bound ("not more than level_bound
  // levels apart", §3.3).  Default lvl.
  std::string policy = "lvl";
  // lvl: the level bound, in levels.  Default 3 (§5.1).
  std::int64_t level_bound = 3;
  // Local Node Array entries; auto = 128 for lvl, 512 for lrr (§5.1).
  std::int64_t node_buffer = kAuto;
  // Local Edge Array entries; auto = 512 for lvl, 2048 for lrr (§5.1).
  std::int64_t edge_buffer = kAuto;
  // Pending Update Buffer entries.  Default 64 (§5.1; §5.4 settles on 32).
  std::int64_t pending_updates = 64;
  // A completion whose updates to unloaded children do not all fit in the
  // PUB: 'stall' = it waits for entries (§4.2.2; can deadlock), 'spill' = the
  // updates that do not fit are written to the children's counters in global
  // memory, one request each, landing mem_latency cycles later; the node's
  // completion is final once they have landed (tbdse; never deadlocks).
  // Default spill (docs/models/wireframe.md says why).
  std::string when_pub_full = "spill";
  // Node Insertion Buffer, in nodes.  Default 16 (128 B, §5.4).
  std::int64_t insertion_buffer = 16;
  // Bytes per memory request: a chunk of nodes.  Default 128 (§4.2).
  std::int64_t chunk_bytes = 128;
  // Bytes per node entry, on chip and in global memory.  Default 8 (58 bits, §5.4).
  std::int64_t node_entry_bytes = 8;
  // Bytes per global edge-array entry (a child id), for counting edge fetch
  // requests.  Default 4 (tbdse's assumption; on chip an entry is 2 B, §5.4).
  std::int64_t edge_entry_bytes = 4;
  // Fetch the next chunk as soon as the insertion buffer has room (its nodes
  // wait there for their slots), rather than only once the node array has
  // room for the whole chunk (the Fig. 7 walk-through).  Default true (§4.2.2).
  bool prefetch = true;

  static const ParamTable<WireframeParams>& params();
};

class WireframeScheme : public Scheme {
 public:
  WireframeScheme(const WireframeParams& params, const Workload& workload, const GpuConfig& gpu);

  void start(Engine& engine) override;
  void on_task_finished(Engine& engine, TaskId t) override;
  void on_event(Engine& engine, const Event& event) override;
  void dispatch(Engine& engine) override;
  std::string stuck_reason(const Engine& engine, TaskId t) const override;
  std::string deadlock_cause(const Engine& engine) const override;
  void write_stats(const Engine& engine, std::span<double> out) const override;
  // The DGB, as dgb_bytes (§5.4): the storage_bytes metric.
  double storage_bytes() const override;

  static std::vector<StatInfo> stats();

  // DGB storage in bytes by the paper's formula (§5.4), +inf when unbounded.
  static double storage_bytes(const DgbSizes& sizes, std::int64_t node_entry_bytes);

 private:
  static constexpr std::int32_t kLaunched = 1;
  static constexpr std::int32_t kChunkArrived = 2;
  static constexpr std::int32_t kSpillLanded = 3;

  void pump(Engine& engine);
  void became_ready(Engine& engine, const std::vector<TaskId>& nodes);
  void account(Cycle now);
  // Completes t in the DGB (false: it waits for PUB space) and schedules the
  // writes it spilled.
  bool complete(Engine& engine, TaskId t);

  const Workload& workload_;
  Cycle launch_ = 0;
  Cycle fetch_latency_ = 0;       // a chunk fetch, and a spilled write
  std::int64_t level_bound_ = -1;  // -1: lrr (no bound)
  std::int64_t node_entry_bytes_ = 8;
  DependencyGraphBuffer dgb_;
  std::deque<TaskId> stalled_;    // finished TBs whose completion waits for PUB space
  ReadyQueue issuable_;           // ready in the buffer, in lrr order
  TaskId held_head_ = -1;         // a ready node kept back by the head-pointer rule
  RunningLevels running_;
  // What an unbounded buffer would have ready: tasks whose parents' TBs have
  // all finished, not issued yet.  Measures the stalls the buffer causes.
  std::vector<std::int32_t> parents_running_or_waiting_;
  IdSet ready_by_dataflow_;
  std::vector<TaskId> scratch_;
  // statistics
  Cycle last_ = 0;
  bool stalled_on_buffer_ = false;
  double stall_cycles_ = 0, pub_area_ = 0;
  std::int64_t fetches_ = 0, requests_ = 0, stalled_completions_ = 0, spilled_ = 0;
};

}  // namespace tbdse
