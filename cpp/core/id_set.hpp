// A set of integers in [0, n) with insert, erase and minimum in a few word
// operations: a hierarchy of bitsets (van Emde Boas-like, 64-way), each level
// holding one bit per non-empty word of the level below.  Used where a binary
// heap of ids would be the textbook choice (smallest ready virtual id first):
// it does the same job without data-dependent branches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tbdse {

class IdSet {
 public:
  explicit IdSet(std::size_t n) {
    std::size_t words = std::max<std::size_t>((n + 63) / 64, 1);
    for (;;) {
      offset_.push_back(words_.size());
      words_.resize(words_.size() + words, 0);
      if (words == 1) break;
      words = (words + 63) / 64;
    }
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  bool contains(std::uint32_t v) const { return (words_[v >> 6] >> (v & 63)) & 1U; }

  void insert(std::uint32_t v) {
    if (contains(v)) return;
    ++size_;
    for (const std::size_t base : offset_) {
      std::uint64_t& word = words_[base + (v >> 6)];
      const bool was_empty = word == 0;
      word |= std::uint64_t{1} << (v & 63);
      if (!was_empty) break;
      v >>= 6;
    }
  }

  void erase(std::uint32_t v) {
    if (!contains(v)) return;
    --size_;
    for (const std::size_t base : offset_) {
      std::uint64_t& word = words_[base + (v >> 6)];
      word &= ~(std::uint64_t{1} << (v & 63));
      if (word != 0) break;
      v >>= 6;
    }
  }

  // Smallest member; the set must not be empty.
  std::uint32_t min() const {
    std::uint32_t v = 0;
    for (auto level = offset_.size(); level-- > 0;)  // every word on the path is non-zero
      v = (v << 6) | static_cast<std::uint32_t>(__builtin_ctzll(words_[offset_[level] + v]));
    return v;
  }

 private:
  std::vector<std::uint64_t> words_;  // all levels; level 0 has one bit per id
  std::vector<std::size_t> offset_;   // where each level starts in words_
  std::size_t size_ = 0;
};

}  // namespace tbdse
