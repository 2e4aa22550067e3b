// What the C++ benchmarks share: repeated timings with their best and median,
// a timed call, and the --reps / count argument check.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/sweep.hpp"

namespace tbdse::bench {

// Seconds of repeated measurements; best() is what the benchmarks compare.
struct Timing {
  std::vector<double> s;
  void add(double seconds) { s.push_back(seconds); }
  double best() const { return *std::min_element(s.begin(), s.end()); }
  double median() const {
    std::vector<double> v = s;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
  }
};

// Seconds `f()` takes.
template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A whole number in [lo, hi] from the command line, else a message and exit 2.
inline long parse_count(const char* program, const char* what, const char* text, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "%s: %s must be a whole number in %ld..%ld; got '%s'\n", program, what, lo,
                 hi, text);
    std::exit(2);
  }
  return v;
}

// Seconds one run of a sweep takes through the normal path (run_single).
inline double run_seconds(const SweepSpec& spec, std::size_t run) {
  return seconds([&] { (void)run_single(spec, run, false); });
}

// Repetitions from `--reps N` (the only argument these benchmarks take),
// else `fallback`; anything else is a usage message and exit 2.
inline int reps_arg(int argc, char** argv, const char* program, int fallback = 5) {
  if (argc == 1) return fallback;
  if (argc == 3 && std::string(argv[1]) == "--reps")
    return static_cast<int>(parse_count(program, "--reps", argv[2], 1, 1000));
  std::fprintf(stderr, "usage: %s [--reps N]\n", argv[0]);
  std::exit(2);
}

}  // namespace tbdse::bench
