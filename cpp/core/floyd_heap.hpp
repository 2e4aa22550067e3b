// A binary min-heap whose pop is Floyd's: the hole left by the minimum sinks
// to a leaf choosing the earlier child without a branch (sentinels after the
// last entry make every node look like it has two children), then the last
// entry rises into it.  The child choice is a coin flip for a branch
// predictor, so taking the branch out of it is what makes the engine's
// hottest operations (TB finishes, scheme events) cheap.
//
// Order supplies the entry type's total order and its sentinel:
//   static constexpr T kSentinel;                      // after every real entry
//   static std::size_t before(const T& a, const T& b); // 1 if a strictly first
// Equal keys must be told apart by the order (a sequence number), so that
// a run is deterministic.
#pragma once

#include <cstddef>
#include <vector>

namespace tbdse {

template <class T, class Order>
class FloydHeap {
 public:
  explicit FloydHeap(std::size_t expected = 0) : heap_(2 * expected + 2, Order::kSentinel) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The first entry; the sentinel when empty.
  const T& top() const { return heap_[0]; }
  void reserve(std::size_t n) {
    if (2 * n + 2 > heap_.size()) heap_.resize(2 * n + 2, Order::kSentinel);
  }

  void push(const T& e) {
    if (2 * (size_ + 1) + 2 > heap_.size()) heap_.resize(2 * heap_.size() + 2, Order::kSentinel);
    rise(size_++, e);
  }

  void pop() {
    const T last = heap_[--size_];
    heap_[size_] = Order::kSentinel;
    std::size_t hole = 0;
    for (std::size_t child = 1; child < size_; child = 2 * hole + 1) {
      child += Order::before(heap_[child + 1], heap_[child]);
      heap_[hole] = heap_[child];
      hole = child;
    }
    if (size_ > 0) {
      rise(hole, last);
    } else {
      heap_[hole] = Order::kSentinel;
    }
  }

 private:
  void rise(std::size_t hole, const T& e) {
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!Order::before(e, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = e;
  }

  std::vector<T> heap_;  // entries [0, size_), then sentinels
  std::size_t size_ = 0;
};

}  // namespace tbdse
