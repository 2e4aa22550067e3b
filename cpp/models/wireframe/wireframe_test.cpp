// Wireframe: the paper's Fig. 7 walk-through replayed on the Dependency Graph
// Buffer, and the scheme's guarantees.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/generators.hpp"
#include "core/sweep.hpp"
#include "models/registry.hpp"
#include "models/wireframe/dependency_graph_buffer.hpp"
#include "models/wireframe/wireframe.hpp"

using namespace tbdse;

namespace {

std::vector<TaskId> loaded_ready(const DependencyGraphBuffer& dgb) {
  std::vector<TaskId> out;
  for (TaskId t = dgb.tail(); t < dgb.head(); ++t)
    if (!dgb.finished(t) && dgb.open_parents(t) == 0) out.push_back(t);
  return out;
}

}  // namespace

TEST_CASE("Fig. 7: the Dependency Graph Buffer walk-through") {
  // The graph of Figs. 5-7 is the 3x3 wavefront renamed level by level:
  // 0 -> 1,2; 1 -> 3,4; 2 -> 4,5; 3 -> 6; 4 -> 6,7; 5 -> 7; 6,7 -> 8
  // (12 edges).  As in the paper's running example: a node array of 4
  // entries, an edge array of 12, chunks of 2 nodes; the insertion buffer
  // holds one chunk.
  const TaskGraph g = make_wavefront(3, 3);
  REQUIRE(std::vector<TaskId>(g.children(2).begin(), g.children(2).end()) ==
          std::vector<TaskId>{4, 5});
  DgbSizes sizes;
  sizes.node_buffer = 4;
  sizes.edge_buffer = 12;
  sizes.pending_updates = 8;
  sizes.insertion_buffer = 2;
  sizes.chunk_nodes = 2;
  sizes.prefetch = false;  // the walk-through loads a chunk once the node array has room for it
  DependencyGraphBuffer dgb(g, sizes);
  std::vector<TaskId> ready;
  DependencyGraphBuffer::Fetch f;

  // (a) Initial state: chunks {0,1} and {2,3} fill the node array, one fetch
  // at a time (the insertion buffer holds one chunk).  Node 0 is ready (it
  // starts processing); nodes 1-3 wait.  Node 3, the newest, has a child, so
  // the head-pointer rule holds it back; no further chunk fits.
  REQUIRE(dgb.next_fetch(f));
  CHECK((f.first == 0 && f.end == 2));
  CHECK_FALSE(dgb.next_fetch(f));  // insertion buffer full with the chunk in flight
  dgb.arrive();
  CHECK(dgb.insert(ready));
  CHECK(ready == std::vector<TaskId>{0});
  REQUIRE(dgb.next_fetch(f));
  CHECK((f.first == 2 && f.end == 4));
  dgb.arrive();
  ready.clear();
  CHECK(dgb.insert(ready));
  CHECK(ready.empty());
  CHECK_FALSE(dgb.next_fetch(f));  // the node array is full
  CHECK((dgb.tail() == 0 && dgb.head() == 4));
  CHECK(dgb.edges_held() == 7);  // 2 + 2 + 2 + 1 child entries
  CHECK(dgb.head_rule_blocks(3));
  CHECK(dgb.pending_updates() == 0);

  // (b) Node 0 completes: the parent counters of 1 and 2 drop to 0, both are
  // ready; the tail moves to node-array index 1 and edge-array index 2.
  ready.clear();
  CHECK(dgb.complete(0, ready));
  CHECK(ready == std::vector<TaskId>{1, 2});
  CHECK(dgb.tail() == 1);
  CHECK(dgb.edges_held() == 5);
  CHECK_FALSE(dgb.next_fetch(f));  // one free entry: less than a chunk

  // (c) Node 2 completes before node 1 (out of order): its children 4 and 5
  // are not loaded, so the updates go to the Pending Update Buffer; the tail
  // stays (node 1 still runs).
  ready.clear();
  CHECK(dgb.complete(2, ready));
  CHECK(ready.empty());
  CHECK(dgb.pending_updates() == 2);
  CHECK((dgb.pending_updates_for(4) == 1 && dgb.pending_updates_for(5) == 1));
  CHECK(dgb.tail() == 1);

  // (d) Node 1 completes: node 3 becomes ready, node 4 gets a second pending
  // update; nodes 1 and 2 are invalid now, so the tail advances to node 3,
  // leaving room for a chunk: its fetch is issued.
  ready.clear();
  CHECK(dgb.complete(1, ready));
  CHECK(ready == std::vector<TaskId>{3});
  CHECK(dgb.pending_updates() == 3);
  CHECK(dgb.pending_updates_for(4) == 2);
  CHECK(dgb.tail() == 3);
  CHECK(dgb.head_rule_blocks(3));  // still the newest node
  REQUIRE(dgb.next_fetch(f));
  CHECK((f.first == 4 && f.end == 6));

  // (e)-(g) The chunk {4,5} is inserted into entries 0 and 1; the pending
  // updates are applied and removed: node 4 (two updates) and node 5 (one)
  // become ready.  Node 3 is no longer the newest node and may begin.
  dgb.arrive();
  ready.clear();
  CHECK(dgb.insert(ready));
  CHECK(ready == std::vector<TaskId>{4, 5});
  CHECK(dgb.pending_updates() == 0);
  CHECK_FALSE(dgb.head_rule_blocks(3));
  CHECK(dgb.head_rule_blocks(5));
  CHECK(loaded_ready(dgb) == std::vector<TaskId>{3, 4, 5});
  CHECK(dgb.edges_held() == 4);  // node 3: 1, node 4: 2, node 5: 1
}

TEST_CASE("with stall the Pending Update Buffer holds a completion back when it is full") {
  const TaskGraph g = make_wavefront(3, 3);
  DgbSizes sizes;
  sizes.node_buffer = 4;
  sizes.edge_buffer = 12;
  sizes.pending_updates = 1;
  sizes.insertion_buffer = 2;
  sizes.chunk_nodes = 2;
  sizes.when_pub_full = PubFull::Stall;
  DependencyGraphBuffer dgb(g, sizes);
  std::vector<TaskId> ready;
  DependencyGraphBuffer::Fetch f;
  for (int k = 0; k < 2; ++k) {
    REQUIRE(dgb.next_fetch(f));
    dgb.arrive();
    dgb.insert(ready);
  }
  CHECK(dgb.complete(0, ready));
  // Node 2 has two unloaded children but the PUB holds one entry: it waits.
  ready.clear();
  CHECK_FALSE(dgb.complete(2, ready));
  CHECK(dgb.pending_updates() == 0);
  CHECK_FALSE(dgb.finished(2));
}

TEST_CASE("with spill an update counts against its child until its write lands") {
  // 3x3 wavefront (0 -> 1,2; 1 -> 3,4; 2 -> 4,5; ...), node array of 4,
  // chunks of 2, no PUB entries: every update to an unloaded child spills.
  const TaskGraph g = make_wavefront(3, 3);
  DgbSizes sizes;
  sizes.node_buffer = 4;
  sizes.edge_buffer = 12;
  sizes.pending_updates = 0;
  sizes.insertion_buffer = 2;
  sizes.chunk_nodes = 2;
  sizes.when_pub_full = PubFull::Spill;
  DependencyGraphBuffer dgb(g, sizes);
  std::vector<TaskId> ready;
  DependencyGraphBuffer::Fetch f;
  for (int k = 0; k < 2; ++k) {  // nodes 0-3 loaded
    REQUIRE(dgb.next_fetch(f));
    dgb.arrive();
    dgb.insert(ready);
  }
  ready.clear();
  CHECK(dgb.complete(0, ready));  // children 1 and 2 are loaded: no spill
  CHECK(ready == std::vector<TaskId>{1, 2});
  CHECK((dgb.spills_in_flight() == 0 && dgb.tail() == 1));

  // Node 2 finishes: its children 4 and 5 are not loaded and the PUB has no
  // entry, so both updates are written to memory; its completion is not final
  // until they land.  Then node 1: node 3 becomes ready, its update to 4 spills.
  ready.clear();
  CHECK(dgb.complete(2, ready));
  CHECK(ready.empty());
  CHECK((dgb.spills_in_flight() == 2 && !dgb.finished(2)));
  CHECK(dgb.complete(1, ready));
  CHECK(ready == std::vector<TaskId>{3});
  CHECK((dgb.spills_in_flight() == 3 && dgb.pending_updates() == 0));
  CHECK(dgb.tail() == 1);  // nodes 1 and 2 keep their entries: their writes are out

  // The next chunk arrives; node 4 fits the one free entry (4 held of 4 after
  // it) but is not ready: its two parents' writes have not landed.
  REQUIRE(dgb.next_fetch(f));
  dgb.arrive();
  ready.clear();
  CHECK(dgb.insert(ready));
  CHECK(ready.empty());
  CHECK((dgb.head() == 5 && dgb.open_parents(4) == 2));
  CHECK(dgb.explain(4).find("2 of them spilled writes to memory not landed yet") !=
        std::string::npos);

  // Writes land in order: 2 -> 4 (applied on chip), 2 -> 5 (node 5 is not
  // loaded: it reaches the counter in memory; node 2 is final but the tail
  // waits on node 1), 1 -> 4 (node 4 ready; node 1 final, the tail passes
  // 1 and 2, node 5 is loaded with its counter read from memory: ready).
  ready.clear();
  dgb.land_spill(ready);
  CHECK((ready.empty() && dgb.open_parents(4) == 1));
  dgb.land_spill(ready);
  CHECK((ready.empty() && dgb.finished(2) && dgb.tail() == 1));
  dgb.land_spill(ready);
  CHECK(ready == std::vector<TaskId>{4});
  CHECK((dgb.finished(1) && dgb.tail() == 3 && dgb.spills_in_flight() == 0));
  ready.clear();
  CHECK(dgb.insert(ready));
  CHECK(ready == std::vector<TaskId>{5});
}

TEST_CASE("impossible buffer sizes are refused up front, naming the node and the buffer") {
  const TaskGraph g = make_wavefront(3, 3);  // nodes have up to 2 children
  DgbSizes sizes;
  sizes.edge_buffer = 1;
  CHECK_THROWS_WITH_AS(DependencyGraphBuffer(g, sizes),
                       doctest::Contains("has 2 children but edge_buffer holds 1"), ConfigError);
  sizes.edge_buffer = 3;  // 2 + 2 children of consecutive nodes 1 and 2 need 4
  CHECK_THROWS_WITH_AS(DependencyGraphBuffer(g, sizes), doctest::Contains("head-pointer rule"),
                       ConfigError);
  sizes = DgbSizes{};
  sizes.node_buffer = 8;  // smaller than a chunk of 16
  CHECK_THROWS_WITH_AS(DependencyGraphBuffer(g, sizes),
                       doctest::Contains("smaller than one chunk"), ConfigError);
}

namespace {

SweepSpec spec_for(TaskGraph graph, const GpuConfig& gpu,
                   std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>>
                       schemes) {
  SweepSpec spec;
  auto w = std::make_shared<Workload>();
  w->name = "test";
  w->graph = std::make_shared<TaskGraph>(std::move(graph));
  w->kernels = {KernelInfo{}};
  spec.workloads = {w};
  spec.gpus = {gpu};
  for (const auto& [name, params] : schemes) spec.schemes.push_back(make_scheme_config(name, params));
  auto cost = CostModel::make(CostModel::Kind::LOGNORMAL);
  cost.set_param("mean", 1000);
  cost.set_param("sigma", 0.4);
  spec.costs = {cost};
  for (std::int32_t s = 0; s < static_cast<std::int32_t>(schemes.size()); ++s) {
    spec.workload_of.push_back(0);
    spec.gpu_of.push_back(0);
    spec.scheme_of.push_back(s);
    spec.cost_of.push_back(0);
    spec.replicate_of.push_back(0);
  }
  spec.seed = 5;
  return spec;
}

GpuConfig gpu(std::int64_t mem_latency) {
  GpuConfig g = gpu_preset("gtx480");
  g.sms = 4;
  g.tb_slots = 4;
  g.mem_latency = mem_latency;
  return g;
}

}  // namespace

TEST_CASE("with unbounded buffers and no fetch latency Wireframe is dataflow_ideal") {
  const double unbounded = kUnboundedValue;
  for (const char* policy : {"lrr", "lvl"}) {
    const double p = std::string(policy) == "lrr" ? 1 : 0;  // wireframe choices: lvl, lrr
    const double q = std::string(policy) == "lrr" ? 0 : 1;  // dataflow_ideal: lrr, lvl, fifo
    const SweepSpec spec = spec_for(
        make_layered_random(12, 9, 0.3, 2, 7), gpu(0),
        {{"wireframe",
          {{"policy", p}, {"node_buffer", unbounded}, {"edge_buffer", unbounded},
           {"pending_updates", unbounded}, {"insertion_buffer", unbounded}}},
         {"dataflow_ideal", {{"policy", q}}}});
    const auto wf = run_single(spec, 0, true);
    const auto ideal = run_single(spec, 1, true);
    CHECK_MESSAGE(wf.output.makespan == ideal.output.makespan, policy);
    CHECK(wf.output.timeline->start == ideal.output.timeline->start);
    CHECK(wf.output.timeline->sm == ideal.output.timeline->sm);
  }
}

TEST_CASE("with stall a full Pending Update Buffer that can never drain is a deadlock naming it") {
  // Node buffer of 2 nodes, chunks of 1: node 0 finishes while its child 2 is
  // not loaded; the PUB has no entry, so the completion waits, the tail stays
  // on node 0 and node 2 can never be loaded.  With spill (the default) the
  // update is written to memory and the run finishes.
  const double stall = 1;  // when_pub_full choices: spill, stall
  std::vector<std::pair<std::string, double>> params = {
      {"node_buffer", 2}, {"edge_buffer", 8}, {"pending_updates", 0}, {"chunk_bytes", 8}};
  const SweepSpec spill_spec = spec_for(make_wavefront(3, 3), gpu(10), {{"wireframe", params}});
  params.emplace_back("when_pub_full", stall);
  const SweepSpec spec = spec_for(make_wavefront(3, 3), gpu(10), {{"wireframe", params}});
  CHECK_THROWS_WITH_AS(run_single(spec, 0, false),
                       doctest::Contains("Pending Update Buffer space (0 of 0 entries in use"),
                       DeadlockError);
  CHECK(run_single(spill_spec, 0, false).output.makespan > 0);
}

TEST_CASE("LVL keeps the running levels within the bound and reaches it, LRR runs ahead") {
  // "Not more than level_bound levels apart" (§3.3): the range max - min of
  // the running levels is at most the bound, and with run-time spread and
  // enough slots it gets there.
  const double lvl = 0, lrr = 1;
  const SweepSpec spec = spec_for(make_wavefront(40, 40), gpu(400),
                                  {{"wireframe", {{"policy", lvl}, {"level_bound", 3}}},
                                   {"wireframe", {{"policy", lrr}}},
                                   {"wireframe", {{"policy", lvl}, {"level_bound", 1}}}});
  const auto res = run_sweep(spec, {});
  const auto col = [&](const char* name) {
    return std::find(res.columns.begin(), res.columns.end(), name) - res.columns.begin();
  };
  CHECK(res.metrics(0, col("max_level_range")) == 3);
  CHECK(res.metrics(1, col("max_level_range")) > 3);
  CHECK(res.metrics(2, col("max_level_range")) == 1);
  // They finish every task and report their storage: 128/512/64/16 and 512/2048/64/16 entries.
  CHECK(res.metrics(0, col("dgb_bytes")) == 128 * 8 + 512 * 2 + 64 * 4 + 16 * 8);
  CHECK(res.metrics(1, col("dgb_bytes")) == 512 * 8 + 2048 * 2 + 64 * 4 + 16 * 8);
  // The common storage_bytes column (third, after the makespans) is the DGB.
  CHECK(res.columns[2] == "storage_bytes");
  for (Eigen::Index row = 0; row < 3; ++row)
    CHECK(res.metrics(row, 2) == res.metrics(row, col("dgb_bytes")));
}

TEST_CASE("check_sweep collects each run's error; validate_sweep throws the first") {
  // node_buffer 4 is smaller than a 16-node chunk: refused by the check, after
  // the run resolved (its hash is known); gpu.sms 0 does not even resolve (0).
  SweepSpec spec = spec_for(make_wavefront(3, 3), gpu(10),
                            {{"wireframe", {{"node_buffer", 4}}}, {"wireframe", {}}});
  spec.workload_of = {0, 0, 0};
  spec.gpu_of = {0, 0, 0};
  spec.cost_of = {0, 0, 0};
  spec.replicate_of = {0, 0, 0};
  spec.scheme_of = {0, 1, 1};
  const double keep = std::numeric_limits<double>::quiet_NaN();
  spec.overrides = {ParamOverride{ParamOverride::Target::GPU, "sms", {keep, keep, 0}}};
  const SweepValidation v = check_sweep(spec);
  REQUIRE(v.errors.size() == 3);
  CHECK(v.errors[0].find("run 0: scheme 'wireframe'") == 0);
  CHECK(v.errors[0].find("smaller than one chunk") != std::string::npos);
  CHECK(v.hashes[0] != 0);
  CHECK(v.errors[1].empty());
  CHECK(v.hashes[1] == validate_sweep(spec, 0, {1}).at(0));
  CHECK(v.errors[2].find("gpu.sms=0") != std::string::npos);
  CHECK(v.hashes[2] == 0);
  const SweepValidation some = check_sweep(spec, 1, {2, 1});
  CHECK(some.errors[0] == v.errors[2]);
  CHECK(some.errors[1].empty());
  CHECK_THROWS_WITH_AS(validate_sweep(spec), doctest::Contains("smaller than one chunk"),
                       ConfigError);
}

TEST_CASE("DGB storage by the paper's formula: 2304 bytes for 128 / 512 / 32") {
  DgbSizes s;
  s.node_buffer = 128;
  s.edge_buffer = 512;
  s.pending_updates = 32;
  s.insertion_buffer = 16;
  CHECK(WireframeScheme::storage_bytes(s, 8) == 2304);
  s.edge_buffer = kUnbounded;
  CHECK(std::isinf(WireframeScheme::storage_bytes(s, 8)));
}
