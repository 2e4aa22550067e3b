// Wireframe's Dependency Graph Buffer (DGB, MICRO-50 2017 §4.2): the window of
// the task graph the thread-block scheduler holds on chip, and the loader that
// fills it from the CSR in global memory.  A state machine with no notion of
// time or SMs: the scheme (wireframe.hpp) drives it and turns what it reports
// into events, so the paper's Fig. 7 walk-through can be replayed step by step.
//
// Nodes are TaskGraph node ids, which are already the paper's virtual ids
// (§3.2.2: renamed level by level), so "node i goes to slot i mod |LNA|".
//
//   Local Node Array (node_buffer): the loaded nodes are the window
//     [tail, head); a node is inserted only when the window has room.
//   Local Edge Array (edge_buffer): the window's nodes hold their child lists;
//     a node is inserted only if all of its edges fit.  Node and edge entries
//     are freed when the tail advances over finished nodes (§4.2.2).
//   Pending Update Buffer (pending_updates): a finishing node's update to a
//     child not yet loaded is kept as one entry and applied when the child is
//     loaded.  If there is no room for all of a node's such updates, either
//     its completion waits (PubFull::Stall, §4.2.2 "PUB Insertion"), or the
//     updates that do not fit are spilled (PubFull::Spill): written to the
//     child's parent counter in global memory, one write each, landing when
//     the scheme says (land_spill).  A spilled update counts against the
//     child until it lands: in memory if the child is not loaded by then (the
//     load reads the counter with the node entry), on chip if it is.  The
//     parent's completion is final, and the tail may pass it, only once all
//     its spilled writes have landed: a node is complete when every update
//     it makes is delivered, as with Stall.
//   Node Insertion Buffer (insertion_buffer): fetched nodes wait here until
//     their slot is free and their edges fit; nodes enter in order, so one
//     that cannot enter holds back those behind it ("loading halts").
//   Loader: fetches the next chunk of chunk_nodes nodes (one 128-byte memory
//     request for the node entries, plus the requests for their edges) when
//     the insertion buffer has room for it and everything in flight.  With
//     prefetch (the default) that is all: a node whose slot "is occupied by a
//     prior node" waits in the insertion buffer, as §4.2.2 describes.  Without
//     it the loader also waits until the node array has room for the whole
//     chunk, as the Fig. 7 walk-through shows ("there is enough empty space
//     in the Local Node Array to load a new chunk of nodes").
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/task_graph.hpp"
#include "core/types.hpp"

namespace tbdse {

// What a completion does when the Pending Update Buffer lacks room for its
// updates to children not yet loaded.
enum class PubFull : std::uint8_t {
  Stall,  // wait until loads free entries (can deadlock on wide graphs)
  Spill,  // put what fits in the PUB, write the rest to the counters in memory
};

struct DgbSizes {
  std::int64_t node_buffer = 128;      // entries, or kUnbounded
  std::int64_t edge_buffer = 512;      // entries, or kUnbounded
  std::int64_t pending_updates = 64;   // entries, or kUnbounded
  std::int64_t insertion_buffer = 16;  // nodes, or kUnbounded
  std::int32_t chunk_nodes = 16;       // nodes per fetch (chunk_bytes / node_entry_bytes)
  std::int64_t chunk_bytes = 128;      // one memory request
  std::int64_t edge_entry_bytes = 4;   // a global edge-array entry (a child id)
  bool prefetch = true;                // fetch into the insertion buffer before slots free
  PubFull when_pub_full = PubFull::Spill;  // a completion the PUB cannot take
};

class DependencyGraphBuffer {
 public:
  // Throws ConfigError when the sizes can never hold this graph (a node with
  // more children than the edge array, a chunk that could never be fetched
  // without prefetch, ...), naming the node and the buffer.
  DependencyGraphBuffer(const TaskGraph& graph, const DgbSizes& sizes);

  struct Fetch {
    TaskId first = 0, end = 0;      // nodes [first, end)
    std::int64_t requests = 0;      // memory requests: node entries + edge entries
  };
  // The next chunk to request, if the buffers have room for it (call until
  // it returns false); the chunk counts as in flight until arrive().
  bool next_fetch(Fetch& fetch);
  // The oldest chunk in flight arrived (all fetches take the same latency, so
  // they arrive in the order they were issued): its nodes join the insertion
  // buffer.
  void arrive();

  // Moves waiting nodes from the insertion buffer into the node/edge arrays
  // while they fit, applying their pending updates; appends the nodes that
  // became ready.  Returns whether anything was inserted.
  bool insert(std::vector<TaskId>& became_ready);

  // Node t's TB finished: decrement its loaded children, record updates for the
  // others in the PUB, free entries behind the tail.  When the PUB has no
  // room for all its updates: with Stall, false (and nothing changes): try
  // again later; with Spill, the updates that do not fit (to t's highest-id
  // unloaded children, which are loaded last) join the spilled writes, and
  // t's completion is final once they have landed.
  bool complete(TaskId t, std::vector<TaskId>& became_ready);

  // Spilled writes not landed yet; they land in the order they were queued.
  std::int64_t spills_in_flight() const { return static_cast<std::int64_t>(spills_.size()); }
  // The oldest spilled write landed: its update reaches the child (now, if it
  // is loaded: appended to became_ready when it was the last it waited for),
  // and the parent's completion is final with its last write.
  void land_spill(std::vector<TaskId>& became_ready);

  // ---- state, for the scheme, statistics and tests
  TaskId tail() const { return tail_; }             // oldest node still held
  TaskId head() const { return head_; }             // next node to insert
  TaskId waiting_end() const { return arrived_; }   // insertion buffer: [head, arrived)
  TaskId fetched_end() const { return fetched_; }   // in flight: [arrived, fetched)
  bool loaded(TaskId t) const { return t >= tail_ && t < head_; }
  bool finished(TaskId t) const { return done_[t] != 0; }  // completion final
  std::int32_t open_parents(TaskId t) const { return remaining_[t]; }
  std::int64_t pending_updates() const { return pub_used_; }
  // Most PUB entries in use at once, including entries that a load released
  // right away: the PUB size that lets every completion go through at once.
  std::int64_t pending_updates_peak() const { return pub_peak_; }
  std::int32_t pending_updates_for(TaskId t) const { return pub_count_[t]; }
  std::int64_t edges_held() const { return edges_used_; }
  // The newest loaded node, which may not issue while it has children: its
  // child count is known only once the next node is loaded (§4.2.2).
  bool head_rule_blocks(TaskId t) const {
    return t == head_ - 1 && graph_.child_count(t) > 0;
  }
  // Why node t (not finished) cannot go on, naming the buffer that holds it back.
  std::string explain(TaskId t) const;

  const DgbSizes& sizes() const { return sizes_; }

 private:
  bool node_fits() const;
  // What keeps the loader from requesting the next chunk, if anything.
  enum class FetchBlock { None, AllFetched, InsertionBufferFull, NodeArrayFull };
  FetchBlock fetch_block() const;
  std::string describe(FetchBlock block) const;
  bool edges_fit(TaskId t) const;
  std::int64_t unloaded_children(TaskId t) const;
  void finalise(TaskId t);  // t's completion is final: the tail may pass it

  struct SpilledWrite {
    TaskId parent, child;
  };

  const TaskGraph& graph_;
  DgbSizes sizes_;
  TaskId tail_ = 0, head_ = 0, arrived_ = 0, fetched_ = 0;
  std::int64_t edges_used_ = 0;
  std::int64_t pub_used_ = 0, pub_peak_ = 0;
  std::deque<TaskId> chunk_ends_;        // chunks in flight, oldest first
  std::vector<std::int32_t> remaining_;  // loaded nodes: parents' updates not yet received
  std::vector<std::int32_t> pub_count_;  // pending updates waiting for each node
  std::vector<std::uint8_t> done_;       // completion final
  std::deque<SpilledWrite> spills_;      // spilled writes in flight, oldest first
  std::vector<std::int32_t> spills_out_;   // per parent: its spilled writes not landed
  std::vector<std::int32_t> in_memory_;    // per child: spilled updates landed before its load
};

}  // namespace tbdse
