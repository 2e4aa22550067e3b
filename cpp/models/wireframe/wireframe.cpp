#include "models/wireframe/wireframe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "models/common/issue.hpp"

namespace tbdse {

const ParamTable<WireframeParams>& WireframeParams::params() {
  static const ParamTable<WireframeParams> table = [] {
    ParamTable<WireframeParams> t;
    t.add(&WireframeParams::policy,
          {.name = "policy",
           .doc = "'lrr' (smallest ready virtual id first, SMs round robin) or 'lvl' (lrr, "
                  "running nodes at most level_bound levels apart)",
           .paper_ref = "Wireframe §4.3",
           .choices = {"lvl", "lrr"}});
    t.add(&WireframeParams::level_bound,
          {.name = "level_bound", .unit = "levels",
           .doc = "lvl: a node of level l issues only if l - (lowest running level) <= "
                  "level_bound (0: one level at a time)",
           .paper_ref = "Wireframe §4.3, §5.1 (3)", .min_value = 0, .max_value = 1e9,
           .read_when = {{"policy", {"lvl"}}}});
    t.add(&WireframeParams::node_buffer,
          {.name = "node_buffer", .unit = "entries",
           .doc = "Local Node Array size; auto = 128 (lvl) or 512 (lrr)",
           .paper_ref = "Wireframe §4.2, §5.1", .unbounded_ok = true, .auto_ok = true,
           .min_value = 1, .max_value = 1e12});
    t.add(&WireframeParams::edge_buffer,
          {.name = "edge_buffer", .unit = "entries",
           .doc = "Local Edge Array size; auto = 512 (lvl) or 2048 (lrr)",
           .paper_ref = "Wireframe §4.2, §5.1", .unbounded_ok = true, .auto_ok = true,
           .min_value = 1, .max_value = 1e12});
    t.add(&WireframeParams::pending_updates,
          {.name = "pending_updates", .unit = "entries",
           .doc = "Pending Update Buffer size (updates for children not loaded yet)",
           .paper_ref = "Wireframe §4.2.2, §5.1 (64), §5.4 (32)", .unbounded_ok = true,
           .min_value = 0, .max_value = 1e12});
    t.add(&WireframeParams::when_pub_full,
          {.name = "when_pub_full",
           .doc = "a completion whose updates to unloaded children do not all fit in the PUB: "
                  "'spill' (the rest are written to the children's counters in memory, one "
                  "request each, landing mem_latency later; never deadlocks) or 'stall' (it waits "
                  "for room; can deadlock)",
           .paper_ref = "Wireframe §4.2.2 (stall); spill: tbdse",
           .choices = {"spill", "stall"},
           // an unbounded PUB is never full
           .read_when = {{"pending_updates", {"unbounded"}, false}}});
    t.add(&WireframeParams::insertion_buffer,
          {.name = "insertion_buffer", .unit = "nodes",
           .doc = "Node Insertion Buffer: fetched nodes waiting to be inserted; bounds the "
                  "chunks in flight",
           .paper_ref = "Wireframe §4.2.2, §5.4 (128 B)", .unbounded_ok = true, .min_value = 1,
           .max_value = 1e12});
    t.add(&WireframeParams::chunk_bytes,
          {.name = "chunk_bytes", .unit = "bytes",
           .doc = "bytes of one memory request; a chunk is chunk_bytes / node_entry_bytes nodes",
           .paper_ref = "Wireframe §4.2", .min_value = 1, .max_value = 1e9});
    t.add(&WireframeParams::node_entry_bytes,
          {.name = "node_entry_bytes", .unit = "bytes",
           .doc = "bytes per node entry (58 bits rounded up)", .paper_ref = "Wireframe §5.4",
           .min_value = 1, .max_value = 1e6});
    t.add(&WireframeParams::prefetch,
          {.name = "prefetch",
           .doc = "fetch the next chunk as soon as the insertion buffer has room (nodes wait "
                  "there for their slots); false: only when the node array has room for it all",
           .paper_ref = "Wireframe §4.2.2, Fig. 7",
           // an unbounded node array always has room for a whole chunk
           .read_when = {{"node_buffer", {"unbounded"}, false}}});
    t.add(&WireframeParams::edge_entry_bytes,
          {.name = "edge_entry_bytes", .unit = "bytes",
           .doc = "bytes per global edge-array entry, for counting edge fetch requests",
           .paper_ref = "tbdse assumption", .min_value = 1, .max_value = 1e6});
    return t;
  }();
  return table;
}

std::vector<StatInfo> WireframeScheme::stats() {
  return {
      {"max_level_range", "levels", "largest spread (max - min level) of the nodes running at once"},
      {"pub_peak", "entries",
       "most Pending Update Buffer entries in use at once: the size that never stalls a completion"},
      {"pub_mean", "entries", "time-average Pending Update Buffer entries in use"},
      {"dgb_stall_cycles", "cycles",
       "cycles with a free TB slot in which the policy would issue a task whose parents have all "
       "finished, but the buffer does not offer it (not loaded, a completion waiting for PUB "
       "space, a spilled update not landed, or the head-pointer rule)"},
      {"stalled_completions", "nodes",
       "completions that had to wait for Pending Update Buffer space (when_pub_full: stall)"},
      {"spilled_updates", "updates",
       "updates written to the counters in global memory for want of PUB space "
       "(when_pub_full: spill)"},
      {"chunk_fetches", "fetches", "chunks of nodes fetched from global memory"},
      {"sched_mem_requests", "requests",
       "memory requests of the scheduler (node and edge entries, spilled updates)"},
      {"mem_request_ratio", "fraction",
       "scheduler memory requests / the workload's own (kernel mem_requests); NaN if not stated"},
      {"dgb_bytes", "bytes", "Dependency Graph Buffer storage by the paper's formula (§5.4)"},
      // Named as the parameters: the result table shows them as <param>_resolved
      // beside the parameter column, which keeps 'auto' (python/tbdse/results.py).
      {"node_buffer", "nodes", "Local Node Array size the run used ('auto' resolved; inf: unbounded)"},
      {"edge_buffer", "edges", "Local Edge Array size the run used ('auto' resolved; inf: unbounded)"},
  };
}

double WireframeScheme::storage_bytes(const DgbSizes& s, std::int64_t node_entry_bytes) {
  // §5.4: node entries of 58 bits rounded to 8 B; 2 B per edge entry (a 16-bit
  // node id); the Pending Update Buffer and the 128 B insertion buffer "for a
  // total of 256 B" with 32 PUB entries, i.e. 4 B per PUB entry: 2304 B for
  // 128 / 512 / 32.  (The paper's text says 2 B per PUB entry, which would not
  // add up to its total; tbdse keeps the total.)
  for (const std::int64_t size : {s.node_buffer, s.edge_buffer, s.pending_updates, s.insertion_buffer})
    if (size == kUnbounded) return std::numeric_limits<double>::infinity();
  return static_cast<double>(s.node_buffer * node_entry_bytes + s.edge_buffer * 2 +
                             s.pending_updates * 4 + s.insertion_buffer * node_entry_bytes);
}

namespace {

DgbSizes sizes_of(const WireframeParams& p) {
  if (p.chunk_bytes < p.node_entry_bytes)
    throw ConfigError("scheme 'wireframe': chunk_bytes (" + std::to_string(p.chunk_bytes) +
                      ") must hold at least one node entry (node_entry_bytes " +
                      std::to_string(p.node_entry_bytes) + ")");
  const bool lvl = p.policy == "lvl";
  DgbSizes s;
  s.node_buffer = p.node_buffer == kAuto ? (lvl ? 128 : 512) : p.node_buffer;
  s.edge_buffer = p.edge_buffer == kAuto ? (lvl ? 512 : 2048) : p.edge_buffer;
  s.pending_updates = p.pending_updates;
  s.insertion_buffer = p.insertion_buffer;
  s.chunk_nodes = static_cast<std::int32_t>(std::min<std::int64_t>(p.chunk_bytes / p.node_entry_bytes,
                                                                   1 << 30));
  s.chunk_bytes = p.chunk_bytes;
  s.edge_entry_bytes = p.edge_entry_bytes;
  s.prefetch = p.prefetch;
  s.when_pub_full = p.when_pub_full == "stall" ? PubFull::Stall : PubFull::Spill;
  return s;
}

}  // namespace

WireframeScheme::WireframeScheme(const WireframeParams& params, const Workload& workload,
                                 const GpuConfig& gpu)
    : workload_(workload),
      launch_(gpu.us_to_cycles(gpu.host_launch_us)),
      fetch_latency_(gpu.mem_latency),
      level_bound_(params.policy == "lvl" ? params.level_bound : -1),
      node_entry_bytes_(params.node_entry_bytes),
      dgb_(*workload.graph, sizes_of(params)),
      issuable_(*workload.graph, IssueOrder::LRR),
      running_(workload.graph->num_levels()),
      parents_running_or_waiting_(workload.graph->parent_counts().begin(),
                                  workload.graph->parent_counts().end()),
      ready_by_dataflow_(static_cast<std::size_t>(workload.graph->size())) {
  workload.require_edges_complete("wireframe");
}

void WireframeScheme::start(Engine& engine) { engine.post(launch_, kLaunched); }

void WireframeScheme::account(Cycle now) {
  const auto dt = static_cast<double>(now - last_);
  pub_area_ += static_cast<double>(dgb_.pending_updates()) * dt;
  if (stalled_on_buffer_) stall_cycles_ += dt;
  last_ = now;
}

void WireframeScheme::became_ready(Engine& engine, const std::vector<TaskId>& nodes) {
  for (const TaskId t : nodes) {
    engine.mark_ready(t);
    if (dgb_.head_rule_blocks(t)) {
      held_head_ = t;
    } else {
      issuable_.push(t);
    }
  }
}

void WireframeScheme::pump(Engine& engine) {
  for (bool progress = true; progress;) {
    scratch_.clear();
    progress = dgb_.insert(scratch_);
    // A newer node is loaded: the one kept back by the head-pointer rule may go.
    if (held_head_ >= 0 && !dgb_.head_rule_blocks(held_head_)) {
      issuable_.push(held_head_);
      held_head_ = -1;
    }
    became_ready(engine, scratch_);
    // Loaded children freed PUB entries: completions waiting for room may finish.
    for (auto it = stalled_.begin(); it != stalled_.end();) {
      if (complete(engine, *it)) {
        it = stalled_.erase(it);
        progress = true;
      } else {
        ++it;
      }
    }
    DependencyGraphBuffer::Fetch fetch;
    while (dgb_.next_fetch(fetch)) {
      engine.post(engine.now() + fetch_latency_, kChunkArrived);
      ++fetches_;
      requests_ += fetch.requests;
    }
  }
}

void WireframeScheme::on_event(Engine& engine, const Event& event) {
  account(engine.now());
  if (event.kind == kLaunched) {
    const TaskGraph& g = engine.graph();
    for (TaskId t = 0; t < g.size() && g.level(t) == 0; ++t)
      ready_by_dataflow_.insert(static_cast<std::uint32_t>(t));
  } else if (event.kind == kSpillLanded) {
    scratch_.clear();
    dgb_.land_spill(scratch_);
    became_ready(engine, scratch_);
  } else {
    dgb_.arrive();
  }
  pump(engine);
}

bool WireframeScheme::complete(Engine& engine, TaskId t) {
  const std::int64_t before = dgb_.spills_in_flight();
  scratch_.clear();
  if (!dgb_.complete(t, scratch_)) return false;
  became_ready(engine, scratch_);
  // Spilled writes are issued together and pipelined, as chunk fetches are:
  // each lands one memory round trip later, in the order issued
  // (DependencyGraphBuffer::land_spill).  Not one at a time: a port that
  // serialised them would deliver one update per mem_latency and fall behind
  // for good once updates spill faster than that (docs/models/wireframe.md).
  for (std::int64_t k = dgb_.spills_in_flight() - before; k > 0; --k) {
    engine.post(engine.now() + fetch_latency_, kSpillLanded);
    ++spilled_;
    ++requests_;
  }
  return true;
}

void WireframeScheme::on_task_finished(Engine& engine, TaskId t) {
  account(engine.now());
  const TaskGraph& g = engine.graph();
  running_.remove(g.level(t));
  for (const TaskId c : g.children(t))
    if (--parents_running_or_waiting_[c] == 0) ready_by_dataflow_.insert(static_cast<std::uint32_t>(c));
  if (!complete(engine, t)) {
    stalled_.push_back(t);
    ++stalled_completions_;
  }
  pump(engine);
}

void WireframeScheme::dispatch(Engine& engine) {
  account(engine.now());
  const IssueStop stop = issue_ready(engine, issuable_, running_, level_bound_, [this](TaskId t) {
    ready_by_dataflow_.erase(static_cast<std::uint32_t>(t));
  });
  // A stall the buffer causes: room on an SM, and an unbounded buffer would
  // offer a task (the lowest ready one, which the policy allows) that this one
  // does not.
  stalled_on_buffer_ = false;
  if (stop != IssueStop::NoRoom && engine.sms().free_slots() > 0 && !ready_by_dataflow_.empty()) {
    const auto first = static_cast<TaskId>(ready_by_dataflow_.min());
    stalled_on_buffer_ =
        level_bound_ < 0 || running_.allows(engine.graph().level(first), level_bound_);
  }
}

std::string WireframeScheme::stuck_reason(const Engine& engine, TaskId t) const {
  const TaskGraph& g = engine.graph();
  for (const TaskId s : stalled_)
    for (const TaskId c : g.children(s))
      if (c == t)
        return "its parent task " + std::to_string(g.original_id(s)) +
               " finished, but that completion waits for Pending Update Buffer space (" +
               std::to_string(dgb_.pending_updates()) + " of " +
               std::to_string(dgb_.sizes().pending_updates) +
               " entries in use, for tasks not loaded yet); " + dgb_.explain(t);
  return dgb_.explain(t);
}

std::string WireframeScheme::deadlock_cause(const Engine& engine) const {
  if (stalled_.empty()) return {};
  const TaskGraph& g = engine.graph();
  return "the completion of task " + std::to_string(g.original_id(stalled_.front())) +
         " waits for Pending Update Buffer space (" + std::to_string(dgb_.pending_updates()) +
         " of " + std::to_string(dgb_.sizes().pending_updates) +
         " entries in use); entries are freed only as nodes are loaded, and loading waits for "
         "completions to free node-array space: pending_updates is too small for this graph "
         "and node_buffer with when_pub_full: stall (spill never waits)";
}

void WireframeScheme::write_stats(const Engine& engine, std::span<double> out) const {
  const auto now = static_cast<double>(engine.now());
  const double area = pub_area_ + static_cast<double>(dgb_.pending_updates()) *
                                      (now - static_cast<double>(last_));
  const std::int64_t own = workload_.mem_requests();
  out[0] = running_.max_range();
  out[1] = static_cast<double>(dgb_.pending_updates_peak());
  out[2] = now > 0 ? area / now : 0.0;
  out[3] = stall_cycles_;
  out[4] = static_cast<double>(stalled_completions_);
  out[5] = static_cast<double>(spilled_);
  out[6] = static_cast<double>(fetches_);
  out[7] = static_cast<double>(requests_);
  out[8] = own > 0 ? static_cast<double>(requests_) / static_cast<double>(own)
                   : std::numeric_limits<double>::quiet_NaN();
  out[9] = storage_bytes();
  const auto size = [](std::int64_t v) {
    return v == kUnbounded ? std::numeric_limits<double>::infinity() : static_cast<double>(v);
  };
  out[10] = size(dgb_.sizes().node_buffer);
  out[11] = size(dgb_.sizes().edge_buffer);
}

double WireframeScheme::storage_bytes() const { return storage_bytes(dgb_.sizes(), node_entry_bytes_); }

}  // namespace tbdse
