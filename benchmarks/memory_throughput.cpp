// Memory-hierarchy throughput: accesses per second of tbdse's MemoryHierarchy
// (core/mem_hierarchy.hpp; gtx480 preset: 15 SMs x 16 KB 4-way L1, 768 KB L2
// in 12 banks, 6 DRAM channels) versus a minimal hand-written sectored
// set-associative LRU cache of the same L1 geometry compiled right here, on
// the same stream of 4-byte reads (4,000,000, deterministic; SM i % 15 at
// cycle i / 15).  Two streams:
//   * l1: each SM walks its own 12 KB array word by word (it fits L1: after
//     the first pass every read hits).  This is the L1 path that the target
//     is about: tbdse >= 0.5 x the reference.
//   * mixed: two of three reads walk a 24 KB array per SM (a little larger
//     than L1), the third is uniform over 4 MB (misses to L2 and DRAM).
//     tbdse does the whole hierarchy's work here (MSHRs, L2 banks, DRAM
//     channels, statistics) and the reference only L1's, so the ratio is
//     reported without a target.
// Both must count the same L1 hits on each stream (exit 1 otherwise).
//
// Output: accesses per second for both (best and median of --reps) and the
// ratio tbdse / reference.  Exit status: 0 = ran and the hit counts agree
// (whether or not the target is met), 1 = they differ, 2 = bad arguments or
// an error.
//
// Usage: tbdse_memory_throughput [--reps N]
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

#include "core/gpu.hpp"
#include "core/mem_hierarchy.hpp"
#include "timing.hpp"

namespace {

using tbdse::Cycle;

struct Access {
  std::int64_t sm;
  Cycle cycle;
  std::uint64_t address;
};

std::vector<Access> make_stream(std::int64_t n, std::int64_t sms, std::uint64_t hot_bytes,
                                bool random_third) {
  std::vector<Access> s(static_cast<std::size_t>(n));
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t sm = i % sms;
    std::uint64_t a;
    if (random_third && i % 3 == 2) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      a = (x % (std::uint64_t{1} << 20)) * 4;  // uniform over 4 MB
    } else {
      a = (std::uint64_t{1} << 30) + static_cast<std::uint64_t>(sm) * hot_bytes +
          static_cast<std::uint64_t>(i / sms) * 4 % hot_bytes;
    }
    s[static_cast<std::size_t>(i)] = {sm, i / sms, a};
  }
  return s;
}

// The reference: per SM, sets x ways of (tag, LRU stamp, sector mask).
class MinimalCache {
 public:
  MinimalCache(std::int64_t sms, std::int64_t sets, std::int64_t ways)
      : sets_(sets), ways_(ways),
        tag_(static_cast<std::size_t>(sms * sets * ways), ~std::uint64_t{0}),
        stamp_(tag_.size(), 0), valid_(tag_.size(), 0) {}

  bool read(std::int64_t sm, std::uint64_t address) {
    const std::uint64_t line = address >> 7;
    const std::uint8_t sector = static_cast<std::uint8_t>(1u << ((address >> 5) & 3));
    const std::size_t base =
        static_cast<std::size_t>((sm * sets_ + static_cast<std::int64_t>(line & (sets_ - 1))) * ways_);
    std::size_t victim = base;
    for (std::size_t w = base; w < base + static_cast<std::size_t>(ways_); ++w) {
      if (tag_[w] == line) {
        stamp_[w] = ++clock_;
        const bool hit = valid_[w] & sector;
        valid_[w] |= sector;
        return hit;
      }
      if (stamp_[w] < stamp_[victim]) victim = w;
    }
    tag_[victim] = line;
    stamp_[victim] = ++clock_;
    valid_[victim] = sector;
    return false;
  }

 private:
  std::int64_t sets_, ways_;
  std::vector<std::uint64_t> tag_, stamp_;
  std::vector<std::uint8_t> valid_;
  std::uint64_t clock_ = 0;
};

// Times both on `stream`; prints a line each and the ratio.  False when the
// L1 hit counts differ.
bool compare(const char* name, const std::vector<Access>& stream, const tbdse::MemoryConfig& config,
             int reps, bool target) {
  using namespace tbdse;
  bench::Timing ours, ref;
  std::int64_t our_hits = 0, ref_hits = 0;
  Cycle sink = 0;
  for (int r = 0; r < reps; ++r) {
    MemoryHierarchy h(config);
    ours.add(bench::seconds([&] {
      for (const Access& a : stream) sink += h.access(a.sm, a.cycle, a.address, 4, false);
    }));
    our_hits = h.stats().l1_read_hits;
    MinimalCache c(config.sms, config.l1_sets, config.l1_ways);
    std::int64_t hits = 0;
    ref.add(bench::seconds([&] {
      for (const Access& a : stream) hits += c.read(a.sm, a.address);
    }));
    ref_hits = hits;
  }
  const double nd = static_cast<double>(stream.size());
  std::printf("%s stream: %zu 4-byte reads, L1 hit rate %.3f\n", name, stream.size(),
              static_cast<double>(our_hits) / nd);
  std::printf("  tbdse MemoryHierarchy : %.1f M accesses/s best, %.1f median\n",
              nd / ours.best() / 1e6, nd / ours.median() / 1e6);
  std::printf("  minimal L1 reference  : %.1f M accesses/s best, %.1f median\n",
              nd / ref.best() / 1e6, nd / ref.median() / 1e6);
  const double ratio = ref.best() / ours.best();
  if (target)
    std::printf("  ratio tbdse / reference: %.2f (target >= 0.5: %s)  [checksum %lld]\n", ratio,
                ratio >= 0.5 ? "met" : "NOT met", static_cast<long long>(sink % 1000));
  else
    std::printf("  ratio tbdse / reference: %.2f (whole hierarchy vs L1 alone; no target)  "
                "[checksum %lld]\n",
                ratio, static_cast<long long>(sink % 1000));
  if (our_hits != ref_hits) {
    std::printf("  L1 hits differ: tbdse %lld, reference %lld\n", static_cast<long long>(our_hits),
                static_cast<long long>(ref_hits));
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace tbdse;
  const int reps = bench::reps_arg(argc, argv, "tbdse_memory_throughput");
  const MemoryConfig config = memory_config(gpu_preset("gtx480"));
  const std::int64_t n = 4'000'000;
  std::printf("memory_throughput: gtx480 memory hierarchy vs a minimal set-associative L1\n");
  bool ok = compare("l1", make_stream(n, config.sms, 12288, false), config, reps, true);
  ok = compare("mixed", make_stream(n, config.sms, 24576, true), config, reps, false) && ok;
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tbdse_memory_throughput: %s\n", e.what());
  return 2;
}
