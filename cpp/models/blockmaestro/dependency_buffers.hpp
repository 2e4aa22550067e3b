// BlockMaestro's on-chip Dependency List Buffer and Parent Counter Buffer
// (ISCA 2021 §III-D1, Fig. 7).  When a TB is scheduled its dependency-list
// entry (its child TBs) is buffered — one entry per `children_per_entry`
// children, or a single entry when the pair's pattern is encoded and the
// child ids can be derived (§IV-C "Area overhead") — and each child without a
// parent counter entry gets one.  List entries are freed when the TB
// finishes, a counter entry when its child TB is scheduled.  A TB whose
// entries cannot be allocated waits or goes unbuffered (BlockMaestroParams::
// when_full).
#pragma once

#include <algorithm>
#include <cstdint>

namespace tbdse::blockmaestro {

class DependencyBuffers {
 public:
  DependencyBuffers(std::int64_t list_entries, std::int64_t children_per_entry,
                    std::int64_t counter_entries)
      : list_entries_(list_entries), per_entry_(children_per_entry), counter_entries_(counter_entries) {}

  void set_capacity(std::int64_t list_entries, std::int64_t counter_entries) {
    list_entries_ = list_entries;
    counter_entries_ = counter_entries;
  }
  // Dependency-list entries a TB with `children` children takes.
  std::int64_t list_entries_for(std::int64_t children, bool encoded) const {
    if (children == 0) return 0;
    return encoded ? 1 : (children + per_entry_ - 1) / per_entry_;
  }
  // `released` counter entries are freed as the entries are taken (a child
  // TB's own counter goes when it is scheduled).
  bool fits(std::int64_t list, std::int64_t counters, std::int64_t released = 0) const {
    return list_used_ + list <= list_entries_ && counter_used_ - released + counters <= counter_entries_;
  }
  void take(std::int64_t list, std::int64_t counters) {
    list_used_ += list;
    counter_used_ += counters;
    list_peak_ = std::max(list_peak_, list_used_);
    counter_peak_ = std::max(counter_peak_, counter_used_);
  }
  void free_list(std::int64_t list) { list_used_ -= list; }
  void free_counter() { --counter_used_; }

  std::int64_t list_entries() const { return list_entries_; }
  std::int64_t counter_entries() const { return counter_entries_; }
  std::int64_t list_used() const { return list_used_; }
  std::int64_t counter_used() const { return counter_used_; }
  std::int64_t list_peak() const { return list_peak_; }
  std::int64_t counter_peak() const { return counter_peak_; }

  // Storage in bytes (§IV-C): a list entry is a 32-bit TB id plus the kernel
  // id bits as its index and `children_per_entry` 32-bit child ids; a counter
  // entry is the same index plus `counter_bits`.  22,400 B for 896 / 4 / 896 /
  // 6 bits with 1 kernel-id bit (two kernels resident), 22,624 B with 2 bits
  // (four kernels, the paper's example): "about 22KB".
  static double storage_bytes(std::int64_t list_entries, std::int64_t children_per_entry,
                              std::int64_t counter_entries, std::int64_t counter_bits,
                              std::int64_t kernel_id_bits) {
    const double index = 32.0 + static_cast<double>(kernel_id_bits);
    const double list = index + 32.0 * static_cast<double>(children_per_entry);
    const double counter = index + static_cast<double>(counter_bits);
    return (static_cast<double>(list_entries) * list + static_cast<double>(counter_entries) * counter) / 8.0;
  }

 private:
  std::int64_t list_entries_, per_entry_, counter_entries_;
  std::int64_t list_used_ = 0, counter_used_ = 0, list_peak_ = 0, counter_peak_ = 0;
};

}  // namespace tbdse::blockmaestro
