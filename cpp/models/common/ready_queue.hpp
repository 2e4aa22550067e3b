// Ready tasks waiting for an SM, in the order an issue policy takes them:
//   lrr  - smallest virtual id first (Wireframe §4.3 "loose round-robin");
//   fifo - in the order they became ready (a first-come first-served queue).
// SMs are chosen round robin by the Engine in both cases.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/id_set.hpp"
#include "core/task_graph.hpp"

namespace tbdse {

enum class IssueOrder { LRR, FIFO };

class ReadyQueue {
 public:
  // Node ids are virtual ids (TaskGraph), so "smallest virtual id" is "smallest id".
  ReadyQueue(const TaskGraph& graph, IssueOrder order)
      : order_(order), by_vid_(order == IssueOrder::LRR ? graph.size() : 0) {}

  void push(TaskId t) {
    if (order_ == IssueOrder::FIFO) {
      fifo_.push_back(t);
    } else {
      first_ = by_vid_.empty() ? t : std::min(first_, t);
      by_vid_.insert(static_cast<std::uint32_t>(t));
    }
    peak_ = std::max(peak_, size());
  }
  bool empty() const { return size() == 0; }
  std::size_t size() const {
    return order_ == IssueOrder::FIFO ? fifo_.size() - head_ : by_vid_.size();
  }
  TaskId front() const {
    return order_ == IssueOrder::FIFO ? fifo_[head_] : first_;
  }
  void pop() {
    if (order_ == IssueOrder::FIFO) {
      if (++head_ == fifo_.size()) fifo_.clear(), head_ = 0;
    } else {
      by_vid_.erase(static_cast<std::uint32_t>(first_));
      if (!by_vid_.empty()) first_ = static_cast<TaskId>(by_vid_.min());
    }
  }
  std::size_t peak() const { return peak_; }

 private:
  IssueOrder order_;
  IdSet by_vid_;              // lrr
  TaskId first_ = 0;          // lrr: smallest member of by_vid_ while it is not empty
  std::vector<TaskId> fifo_;  // fifo, read from head_
  std::size_t head_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace tbdse
