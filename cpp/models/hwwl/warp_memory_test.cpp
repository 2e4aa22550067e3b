// Goldens of the worklist machine's memory instructions (warp_memory.cpp): an
// instruction reaches the memory hierarchy when its load-store queue entries
// are free, so a request made later for an earlier cycle never waits behind
// it (hwwl_audit.md 2026-11-29: booked at the future cycle its entries free
// up, a waiting load held the core's L1 port and MSHRs ahead of the
// virtualization loads issued before that cycle).
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "core/digraph.hpp"
#include "models/hwwl/warp_machine.hpp"

using namespace tbdse;
using namespace tbdse::hwwl;

namespace {

GpuConfig one_core() {
  GpuConfig g;
  g.name = "one core";
  g.sms = 1;
  g.threads_per_sm = 64;
  return g;
}

// One core whose warps make scattered loads at cycle 0 (32 line requests
// each) and a one-line virtualization load at cycle 10; records when each
// group's event comes.
class Probe : public WarpMachine {
 public:
  Probe(const WorklistProblem& p, const GpuConfig& g, const ResolvedRun& r, std::int32_t loads)
      : WarpMachine(p, g, r, false, 1000, 65), loads_(loads) {}
  Cycle refill_done = -1;
  std::vector<Cycle> load_done;

 protected:
  void start() override {
    for (std::int32_t i = 0; i < loads_; ++i) {
      std::uint64_t address[kWarp];
      for (std::int32_t k = 0; k < kWarp; ++k)
        address[k] = (static_cast<std::uint64_t>(i) * kWarp + k) * 4096;  // a line each
      const std::int32_t g = open_group(WARP, 1, i);
      warp_access(g, 0, 0, address, ~0u, 4, false);
      close_group(g, 0);
    }
    post(10, WARP, 2);
  }
  void handle(const Event& e) override {
    if (e.kind == 1) load_done.push_back(e.time);
    if (e.kind == 2) {
      REQUIRE(lsu_free(0) >= 1);  // the 65th entry
      post(refill_access(0, std::uint64_t{1} << 40, 4), WARP, 3);
    }
    if (e.kind == 3) refill_done = e.time;
  }
  bool finished() const override {
    return refill_done >= 0 && static_cast<std::int32_t>(load_done.size()) == loads_;
  }
  std::vector<double> stats() const override { return {}; }
  void sample_more(std::vector<Series>&, bool) override {}

 private:
  std::int32_t loads_;
};

struct Setup {
  std::shared_ptr<Digraph> graph =
      std::make_shared<Digraph>(Digraph::build({2, {0}, {1}, {}}));
  OperatorSpec spec;
  std::unique_ptr<WorklistProblem> problem;
  GpuConfig gpu = one_core();
  ResolvedRun run;
  Setup() {
    spec.kind = OperatorKind::BFS;
    problem = std::make_unique<WorklistProblem>(graph, spec);
    run.gpu = gpu;
  }
};

}  // namespace

TEST_CASE("a virtualization load never waits behind loads still waiting for queue entries") {
  Setup s;
  Probe two(*s.problem, s.gpu, s.run, 2);    // 64 of the 65 entries held
  Probe three(*s.problem, s.gpu, s.run, 3);  // and a third load waiting for 32 of them
  (void)two.run("probe", false, false);
  (void)three.run("probe", false, false);
  REQUIRE(two.load_done.size() == 2);
  REQUIRE(three.load_done.size() == 3);
  CHECK(three.refill_done == two.refill_done);
  CHECK(three.load_done[0] == two.load_done[0]);
  CHECK(three.load_done[1] == two.load_done[1]);
  // The third load leaves when the first returns its entries, after the refill.
  CHECK(three.load_done[2] > three.load_done[0]);
  CHECK(three.load_done[2] > three.refill_done);
}
