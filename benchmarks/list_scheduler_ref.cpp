// A minimal hand-written list scheduler of the dataflow_ideal model on the
// 'fixed' SM timing (benchmarks/README.md "The model every reference
// implements"): a binary heap of ready virtual ids, a heap of finish events,
// a free-slot count per SM.  Standalone (no tbdse code), built -O2 by
// simulate_vs_reference.py.  Reads a binary file written by that script:
// int64 n, m, sms, slots, launch; int32 order[n] (input ids in virtual-id
// order); int64 cost[n] (by input id); int64 starts[n+1]; int32 children[m]
// (CSR by input id).  Prints "makespan seconds" for the best of `reps` runs.
#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

struct Finish { std::int64_t time; std::uint64_t seq; std::int32_t task, sm; };
struct Later {
  bool operator()(const Finish& a, const Finish& b) const {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
};

// Tasks are virtual ids here; cost/starts/children already relabelled.
std::int64_t schedule(std::int32_t n, const std::vector<std::int64_t>& cost,
                      const std::vector<std::int64_t>& starts, const std::vector<std::int32_t>& kids,
                      std::int32_t sms, std::int32_t slots, std::int64_t launch) {
  std::vector<std::int32_t> open(static_cast<std::size_t>(n), 0);
  for (std::int32_t c : kids) ++open[static_cast<std::size_t>(c)];
  std::vector<std::int32_t> free(static_cast<std::size_t>(sms), slots), ready;
  std::int64_t free_total = std::int64_t{sms} * slots, now = launch;
  std::vector<Finish> ev;
  std::uint64_t seq = 0;
  std::int32_t rr = 0, done = 0;
  auto dispatch = [&] {
    while (!ready.empty() && free_total > 0) {
      std::int32_t sm = rr;
      while (free[sm] == 0) sm = sm + 1 == sms ? 0 : sm + 1;
      std::pop_heap(ready.begin(), ready.end(), std::greater<>{});
      const std::int32_t t = ready.back();
      ready.pop_back();
      --free[sm], --free_total, rr = sm + 1 == sms ? 0 : sm + 1;
      ev.push_back({now + cost[t], seq++, t, sm});
      std::push_heap(ev.begin(), ev.end(), Later{});
    }
  };
  for (std::int32_t t = 0; t < n; ++t)
    if (open[t] == 0) ready.push_back(t);
  std::make_heap(ready.begin(), ready.end(), std::greater<>{});
  dispatch();
  while (!ev.empty()) {
    now = ev.front().time;
    do {
      std::pop_heap(ev.begin(), ev.end(), Later{});
      const Finish f = ev.back();
      ev.pop_back();
      ++free[f.sm], ++free_total, ++done;
      for (std::int64_t e = starts[f.task]; e < starts[f.task + 1]; ++e)
        if (--open[kids[e]] == 0) {
          ready.push_back(kids[e]);
          std::push_heap(ready.begin(), ready.end(), std::greater<>{});
        }
    } while (!ev.empty() && ev.front().time == now);
    dispatch();
  }
  return done == n ? now : -1;
}

int main(int argc, char** argv) {
  if (argc != 3) return std::fprintf(stderr, "usage: %s FILE REPS\n", argv[0]), 2;
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) return std::perror(argv[1]), 2;
  std::int64_t h[5];
  if (std::fread(h, 8, 5, f) != 5) return 2;
  const auto n = static_cast<std::size_t>(h[0]), m = static_cast<std::size_t>(h[1]);
  std::vector<std::int32_t> order(n), kids_in(m);
  std::vector<std::int64_t> cost_in(n), starts_in(n + 1);
  if (std::fread(order.data(), 4, n, f) != n || std::fread(cost_in.data(), 8, n, f) != n ||
      std::fread(starts_in.data(), 8, n + 1, f) != n + 1 || std::fread(kids_in.data(), 4, m, f) != m)
    return 2;
  std::fclose(f);
  std::vector<std::int32_t> vid(n), kids(m);
  for (std::size_t v = 0; v < n; ++v) vid[static_cast<std::size_t>(order[v])] = static_cast<std::int32_t>(v);
  std::vector<std::int64_t> cost(n), starts(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {  // CSR by virtual id
    const auto u = static_cast<std::size_t>(order[v]);
    cost[v] = cost_in[u];
    starts[v + 1] = starts[v] + (starts_in[u + 1] - starts_in[u]);
    for (std::int64_t e = starts_in[u]; e < starts_in[u + 1]; ++e)
      kids[static_cast<std::size_t>(starts[v] + (e - starts_in[u]))] = vid[static_cast<std::size_t>(kids_in[e])];
  }
  double best = 1e30;
  std::int64_t makespan = 0;
  for (int r = 0; r < std::atoi(argv[2]); ++r) {
    const std::clock_t t0 = std::clock();
    makespan = schedule(static_cast<std::int32_t>(n), cost, starts, kids, static_cast<std::int32_t>(h[2]),
                        static_cast<std::int32_t>(h[3]), h[4]);
    best = std::min(best, static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC);  // CPU time
  }
  std::printf("%lld %.6f\n", static_cast<long long>(makespan), best);
  return 0;
}
