#include "models/wireframe/dependency_graph_buffer.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace tbdse {

namespace {

bool bounded(std::int64_t size) { return size != kUnbounded; }

std::string task_name(const TaskGraph& g, TaskId t) {
  return "task " + std::to_string(g.original_id(t));
}

}  // namespace

DependencyGraphBuffer::DependencyGraphBuffer(const TaskGraph& graph, const DgbSizes& sizes)
    : graph_(graph),
      sizes_(sizes),
      remaining_(static_cast<std::size_t>(graph.size()), 0),
      pub_count_(static_cast<std::size_t>(graph.size()), 0),
      done_(static_cast<std::size_t>(graph.size()), 0),
      spills_out_(static_cast<std::size_t>(graph.size()), 0),
      in_memory_(static_cast<std::size_t>(graph.size()), 0) {
  const std::int32_t n = graph.size();
  const std::int64_t chunk = sizes.chunk_nodes;
  if (chunk < 1) throw ConfigError("wireframe: a chunk must hold at least one node entry");
  if (bounded(sizes.node_buffer) && sizes.node_buffer < chunk)
    throw ConfigError("wireframe: node_buffer (" + std::to_string(sizes.node_buffer) +
                      " entries) is smaller than one chunk (" + std::to_string(chunk) +
                      " nodes of chunk_bytes / node_entry_bytes): no chunk could ever be loaded");
  if (bounded(sizes.insertion_buffer) && sizes.insertion_buffer < chunk)
    throw ConfigError("wireframe: insertion_buffer (" + std::to_string(sizes.insertion_buffer) +
                      " nodes) is smaller than one chunk (" + std::to_string(chunk) +
                      " nodes): a fetched chunk could never be received");
  if (graph.edge_count() > 0 && bounded(sizes.node_buffer) && sizes.node_buffer < 2)
    throw ConfigError("wireframe: node_buffer must hold at least 2 nodes when tasks have "
                      "children: the newest loaded node may not issue until another is loaded");
  // Without prefetch the loader waits until the node array has room for a
  // whole chunk; the newest node before a chunk boundary stays loaded (the
  // head-pointer rule) until that chunk arrives, so room for it plus the next
  // chunk is needed.
  if (!sizes.prefetch && bounded(sizes.node_buffer)) {
    for (std::int64_t first = chunk; first < n; first += chunk) {
      const auto held = static_cast<TaskId>(first - 1);
      const std::int64_t next = std::min<std::int64_t>(chunk, n - first);
      if (graph.child_count(held) > 0 && 1 + next > sizes.node_buffer)
        throw ConfigError(
            "wireframe: with prefetch false, node_buffer (" + std::to_string(sizes.node_buffer) +
            " entries) must hold the chunk of " + std::to_string(next) + " nodes after " +
            task_name(graph, held) + " while that task, the newest loaded and with children, "
            "waits for it (the head-pointer rule): node_buffer >= " + std::to_string(1 + next) +
            " needed, or prefetch true, or a smaller chunk_bytes");
    }
  }
  if (bounded(sizes.edge_buffer)) {
    for (TaskId t = 0; t < n; ++t) {
      const std::int64_t c = graph.child_count(t);
      if (c > sizes.edge_buffer)
        throw ConfigError("wireframe: " + task_name(graph, t) + " has " + std::to_string(c) +
                          " children but edge_buffer holds " + std::to_string(sizes.edge_buffer) +
                          " entries: it can never be loaded (edge_buffer >= " +
                          std::to_string(c) + " needed)");
      // The newest node issues only once the next is loaded next to it.
      if (c > 0 && t + 1 < n && c + graph.child_count(t + 1) > sizes.edge_buffer)
        throw ConfigError(
            "wireframe: " + task_name(graph, t) + " (" + std::to_string(c) + " children) and " +
            task_name(graph, t + 1) + ", loaded after it (" +
            std::to_string(graph.child_count(t + 1)) + " children), need " +
            std::to_string(c + graph.child_count(t + 1)) + " edge entries together, but "
            "edge_buffer holds " + std::to_string(sizes.edge_buffer) +
            ": the first could never issue (the head-pointer rule)");
    }
  }
}

DependencyGraphBuffer::FetchBlock DependencyGraphBuffer::fetch_block() const {
  const std::int32_t n = graph_.size();
  if (fetched_ >= n) return FetchBlock::AllFetched;
  const std::int64_t size = std::min<std::int64_t>(n - fetched_, sizes_.chunk_nodes);
  const std::int64_t pending = fetched_ - head_;  // waiting in the insertion buffer or in flight
  if (bounded(sizes_.insertion_buffer) && pending + size > sizes_.insertion_buffer)
    return FetchBlock::InsertionBufferFull;
  if (!sizes_.prefetch && bounded(sizes_.node_buffer) &&
      (head_ - tail_) + pending + size > sizes_.node_buffer)
    return FetchBlock::NodeArrayFull;
  return FetchBlock::None;
}

std::string DependencyGraphBuffer::describe(FetchBlock block) const {
  const std::string on_the_way = std::to_string(fetched_ - head_) + " waiting or in flight";
  switch (block) {
    case FetchBlock::None: return "the next chunk may be requested";
    case FetchBlock::AllFetched: return "every node is fetched";
    case FetchBlock::InsertionBufferFull:
      return "the insertion buffer has no room for the next chunk (insertion_buffer " +
             std::to_string(sizes_.insertion_buffer) + " nodes, " + on_the_way + ")";
    case FetchBlock::NodeArrayFull:
      return "without prefetch the next chunk waits for room in the node array (node_buffer " +
             std::to_string(sizes_.node_buffer) + ", " + std::to_string(head_ - tail_) +
             " held, " + on_the_way + ")";
  }
  return "";
}

bool DependencyGraphBuffer::next_fetch(Fetch& fetch) {
  if (fetch_block() != FetchBlock::None) return false;
  const TaskId end = std::min<TaskId>(graph_.size(), fetched_ + sizes_.chunk_nodes);
  std::int64_t edges = 0;
  for (TaskId t = fetched_; t < end; ++t) edges += graph_.child_count(t);
  fetch.first = fetched_;
  fetch.end = end;
  fetch.requests = 1 + (edges * sizes_.edge_entry_bytes + sizes_.chunk_bytes - 1) / sizes_.chunk_bytes;
  fetched_ = end;
  chunk_ends_.push_back(end);
  return true;
}

void DependencyGraphBuffer::arrive() {
  if (chunk_ends_.empty()) throw SimulationError("internal: wireframe chunk arrived unrequested");
  arrived_ = chunk_ends_.front();
  chunk_ends_.pop_front();
}

bool DependencyGraphBuffer::node_fits() const {
  return !bounded(sizes_.node_buffer) || head_ - tail_ < sizes_.node_buffer;
}

bool DependencyGraphBuffer::edges_fit(TaskId t) const {
  return !bounded(sizes_.edge_buffer) || edges_used_ + graph_.child_count(t) <= sizes_.edge_buffer;
}

bool DependencyGraphBuffer::insert(std::vector<TaskId>& became_ready) {
  bool any = false;
  while (head_ < arrived_ && node_fits() && edges_fit(head_)) {
    const TaskId t = head_++;
    edges_used_ += graph_.child_count(t);
    // Pending updates recorded for t while it was not loaded (§4.2.2 "PUB
    // Removal"), and spilled ones that reached its counter in memory.
    remaining_[t] = graph_.parent_count(t) - pub_count_[t] - in_memory_[t];
    pub_used_ -= pub_count_[t];
    pub_count_[t] = 0;
    if (remaining_[t] == 0) became_ready.push_back(t);
    any = true;
  }
  return any;
}

std::int64_t DependencyGraphBuffer::unloaded_children(TaskId t) const {
  std::int64_t count = 0;
  for (const TaskId c : graph_.children(t)) count += c >= head_ ? 1 : 0;
  return count;
}

bool DependencyGraphBuffer::complete(TaskId t, std::vector<TaskId>& became_ready) {
  const std::int64_t unloaded = unloaded_children(t);
  const bool bounded_pub = bounded(sizes_.pending_updates);
  if (bounded_pub && pub_used_ + unloaded > sizes_.pending_updates &&
      sizes_.when_pub_full == PubFull::Stall)
    return false;
  // PUB entries this completion may take; children come in id order, so the
  // ones loaded soonest get them and the spilled writes have the longest to land.
  std::int64_t room = bounded_pub ? sizes_.pending_updates - pub_used_ : unloaded;
  std::int32_t spilled = 0;
  for (const TaskId c : graph_.children(t)) {
    if (c < head_) {
      if (--remaining_[c] == 0) became_ready.push_back(c);
    } else if (room > 0) {
      --room;
      ++pub_count_[c];
      ++pub_used_;
    } else {
      spills_.push_back({t, c});
      ++spilled;
    }
  }
  pub_peak_ = std::max(pub_peak_, pub_used_);
  if (spilled == 0) {
    finalise(t);
  } else {
    spills_out_[t] = spilled;
  }
  return true;
}

void DependencyGraphBuffer::land_spill(std::vector<TaskId>& became_ready) {
  if (spills_.empty()) throw SimulationError("internal: wireframe spilled write landed unrequested");
  const SpilledWrite w = spills_.front();
  spills_.pop_front();
  if (w.child < head_) {  // loaded (and not finished: it waited for this update)
    if (--remaining_[w.child] == 0) became_ready.push_back(w.child);
  } else {
    ++in_memory_[w.child];
  }
  if (--spills_out_[w.parent] == 0) finalise(w.parent);
}

void DependencyGraphBuffer::finalise(TaskId t) {
  done_[t] = 1;
  while (tail_ < head_ && done_[tail_] != 0) edges_used_ -= graph_.child_count(tail_++);
}

std::string DependencyGraphBuffer::explain(TaskId t) const {
  const auto buffer_state = [&] {
    return "node_buffer holds " + std::to_string(head_ - tail_) + " nodes from " +
           task_name(graph_, tail_) + " (the oldest not yet completed), edge_buffer " + std::to_string(edges_used_) +
           " entries, pending_updates " + std::to_string(pub_used_) + " entries";
  };
  if (t >= fetched_) return "not fetched yet: " + describe(fetch_block()) + " (" + buffer_state() + ")";
  if (t >= arrived_) return "being fetched";
  if (t >= head_) {
    if (t != head_) return "in the insertion buffer behind " + task_name(graph_, head_);
    if (!node_fits())
      return "in the insertion buffer: the Local Node Array is full (node_buffer " +
             std::to_string(sizes_.node_buffer) + ", oldest not yet completed " +
             task_name(graph_, tail_) + ")";
    return "in the insertion buffer: its " + std::to_string(graph_.child_count(t)) +
           " edges do not fit the Local Edge Array (edge_buffer " +
           std::to_string(sizes_.edge_buffer) + ", " + std::to_string(edges_used_) + " in use)";
  }
  if (remaining_[t] > 0) {
    const auto writes = std::count_if(spills_.begin(), spills_.end(),
                                      [t](const SpilledWrite& w) { return w.child == t; });
    return "loaded, waiting for " + std::to_string(remaining_[t]) + " parent update(s)" +
           (writes > 0 ? ", " + std::to_string(writes) + " of them spilled writes to memory "
                                                          "not landed yet"
                       : std::string()) +
           " (" + buffer_state() + ")";
  }
  if (head_rule_blocks(t))
    return "ready but it is the newest loaded node and has children (head-pointer rule); " +
           (head_ < arrived_ ? "the next node does not fit: " + explain(head_)
                             : std::string("no further node is loaded (") + buffer_state() + ")");
  return "ready in the buffer";
}

}  // namespace tbdse
