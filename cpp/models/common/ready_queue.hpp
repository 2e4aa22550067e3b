// Ready tasks waiting for an SM, in the order an issue policy takes them:
//   lrr  - smallest virtual id first (Wireframe §4.3 "loose round-robin");
//   fifo - in the order they became ready (a first-come first-served queue).
// SMs are chosen round robin by the Engine in both cases.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/task_graph.hpp"

namespace tbdse {

enum class IssueOrder { LRR, FIFO };

class ReadyQueue {
 public:
  ReadyQueue(const TaskGraph& graph, IssueOrder order) : graph_(graph), order_(order) {}

  void push(TaskId t) {
    if (order_ == IssueOrder::FIFO) {
      items_.push_back(t);
    } else {
      items_.push_back(graph_.vid(t));
      std::push_heap(items_.begin(), items_.end(), std::greater<>{});
    }
    peak_ = std::max(peak_, size());
  }
  bool empty() const { return size() == 0; }
  std::size_t size() const { return items_.size() - head_; }
  TaskId front() const {
    return order_ == IssueOrder::FIFO ? items_[head_] : graph_.task_at(items_.front());
  }
  void pop() {
    if (order_ == IssueOrder::FIFO) {
      if (++head_ == items_.size()) items_.clear(), head_ = 0;
    } else {
      std::pop_heap(items_.begin(), items_.end(), std::greater<>{});
      items_.pop_back();
    }
  }
  std::size_t peak() const { return peak_; }

 private:
  const TaskGraph& graph_;
  IssueOrder order_;
  std::vector<std::int32_t> items_;  // task ids (fifo) or a min-heap of virtual ids (lrr)
  std::size_t head_ = 0;             // fifo read position
  std::size_t peak_ = 0;
};

}  // namespace tbdse
