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

namespace {

// Core 0 makes one load of `lines` scattered line requests at cycle 0 (past
// its 32 MSHRs the rest wait for one to free); core 1 loads one line at
// cycle 10.  Records when core 1's load returns.
class TwoCores : public WarpMachine {
 public:
  TwoCores(const WorklistProblem& p, const GpuConfig& g, const ResolvedRun& r, std::int32_t lines)
      : WarpMachine(p, g, r, false, 1000, 128), lines_(lines) {}
  Cycle second_done = -1;
  bool first_back = false;

 protected:
  void start() override {
    std::uint64_t address[kWarp];
    for (std::int32_t part = 0; part * kWarp < lines_; ++part) {
      std::uint32_t active = 0;
      for (std::int32_t k = 0; k < kWarp && part * kWarp + k < lines_; ++k) {
        address[k] = static_cast<std::uint64_t>(part * kWarp + k) * 4096;
        active |= 1u << k;
      }
      const std::int32_t g = open_group(WARP, 1);
      warp_access(g, 0, 0, address, active, 4, false);
      close_group(g, 0);
    }
    post(10, WARP, 2);
  }
  void handle(const Event& e) override {
    if (e.kind == 1) first_back = true;
    if (e.kind == 2) {
      const std::uint64_t line = std::uint64_t{3} << 40;
      const std::int32_t g = open_group(WARP, 3);
      warp_access(g, 1, now_, &line, 1u, 4, false);
      close_group(g, now_);
    }
    if (e.kind == 3) second_done = e.time;
  }
  bool finished() const override { return first_back && second_done >= 0; }
  std::vector<double> stats() const override { return {}; }
  void sample_more(std::vector<Series>&, bool) override {}

 private:
  std::int32_t lines_;
};

}  // namespace

TEST_CASE("line requests waiting for MSHRs do not delay another core's earlier request") {
  Setup s;
  s.gpu.sms = 2;
  s.run.gpu = s.gpu;
  // The first 32 line requests are the same in both; the 32 more of `many`
  // wait for core 0's MSHRs and reach L2 and DRAM later than core 1's load.
  TwoCores few(*s.problem, s.gpu, s.run, 32), many(*s.problem, s.gpu, s.run, 64);
  (void)few.run("probe", false, false);
  (void)many.run("probe", false, false);
  CHECK(many.second_done == few.second_done);
}
