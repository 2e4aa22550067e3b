// The idealised hardware worklists of HWWL Fig. 5 (§IV-B): one worklist of
// unbounded capacity shared by every thread of the GPU, with no ports,
// bandwidth or redistribution — `ideal_fifo` hands ids out in the order they
// were pushed; `ideal_sorted` "sorts the worklist by work ID before every
// pull" (the smallest id first), so threads that pull together get nearby ids
// and their loads share cache lines.  Two partitions for double buffering.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "models/hwwl/worklist_banks.hpp"

namespace tbdse::hwwl {

class IdealWorklist {
 public:
  explicit IdealWorklist(bool sorted) : sorted_(sorted) {}

  bool empty(std::int32_t part) const {
    return sorted_ ? heap_[part].empty() : fifo_[part].empty();
  }
  void push(std::int32_t part, std::int32_t id) {
    if (sorted_) heap_[part].push(id);
    else fifo_[part].push_back(id);
  }
  std::int32_t pop(std::int32_t part) {
    if (!sorted_) return fifo_[part].pop_front();
    const std::int32_t id = heap_[part].top();
    heap_[part].pop();
    return id;
  }

 private:
  using MinHeap = std::priority_queue<std::int32_t, std::vector<std::int32_t>, std::greater<>>;
  bool sorted_;
  IdQueue fifo_[2];
  MinHeap heap_[2];
};

}  // namespace tbdse::hwwl
