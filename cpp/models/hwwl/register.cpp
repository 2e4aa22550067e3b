#include "models/hwwl/register.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "models/hwwl/hwwl_machine.hpp"
#include "models/hwwl/software_machine.hpp"
#include "models/registry.hpp"

namespace tbdse {

namespace {

using hwwl::HwwlMachine;
using hwwl::HwwlParams;
using hwwl::SoftwareMachine;
using hwwl::SoftwareParams;
using hwwl::WorklistProblem;

// What every worklist run needs: a worklist workload and a GPU whose shape
// the machine can take.
const WorklistProblem& problem_of(const ResolvedRun& r) {
  (void)hwwl::Shape::of(r.gpu);
  return r.workload->input_as<WorklistProblem>();
}

// While one long item runs, every hwwl warp without work pulls WAIT and spins:
// one event per warp every wait_spin cycles, ~1e6 events a second.  A run
// expected to take more than this many such events is refused by check.
constexpr double kMaxSpinEvents = 1e9;

std::string number(double v) {
  char out[32];
  std::snprintf(out, sizeof out, "%.3g", v);
  return out;
}

void check_spin(const HwwlParams& p, const ResolvedRun& r) {
  const auto& op = problem_of(r).op();
  const bool synthetic = op.kind == hwwl::OperatorKind::SYNTHETIC;
  const double item =
      synthetic
          ? op.work_mean * std::pow(std::max(1.0, op.work_growth), op.generations - 1)
          : static_cast<double>(op.node_instructions) + static_cast<double>(op.arc_instructions);
  const double warps = hwwl::Shape::of(r.gpu).warps();
  const double events = warps * item / static_cast<double>(p.wait_spin);
  if (events <= kMaxSpinEvents) return;
  const std::string key =
      synthetic ? "work_mean = " + number(op.work_mean) + " (x work_growth per generation)"
                : "node_instructions = " + std::to_string(op.node_instructions) +
                      " (+ arc_instructions = " + std::to_string(op.arc_instructions) + ")";
  throw ConfigError("workload '" + r.workload->name + "': " + key +
                    " makes one work item take about " + number(item) +
                    " cycles; meanwhile " + number(warps) +
                    " warps without work spin every wait_spin = " + std::to_string(p.wait_spin) +
                    " cycles: about " + number(events) + " events, more than the " +
                    number(kMaxSpinEvents) +
                    " a run may take (hours of simulation); use fewer instructions per item");
}

template <SoftwareMachine::Mode M, class P>
SchemeInfo software(const char* name, const char* summary, const char* paper_ref) {
  return describe_simulator<P>(
      name, summary, paper_ref, "worklist", hwwl::worklist_metrics(), SoftwareMachine::stat_info(),
      [](const P&, const ResolvedRun& r) { (void)problem_of(r); },
      [name](const P& p, const ResolvedRun& r, const RunOptions& o) {
        SoftwareMachine machine(M, p, problem_of(r), r.gpu, r, o.record);
        return machine.run(name, p.check_results, o.values);
      });
}

}  // namespace

void register_hwwl_schemes(SchemeRegistry& registry) {
  registry.add(describe_simulator<HwwlParams>(
      "hwwl",
      "fine-grain hardware worklist: per-lane banks, WAIT/DONE pulls, work redistribution and "
      "virtualization to an overflow buffer, data-driven threads that never leave the kernel",
      "HWWL (Kim & Batten, MICRO-47 2014) §III", "worklist", hwwl::worklist_metrics(),
      HwwlMachine::stat_info(),
      [](const HwwlParams& p, const ResolvedRun& r) {
        hwwl::check_redistribution(p);
        check_spin(p, r);
      },
      [](const HwwlParams& p, const ResolvedRun& r, const RunOptions& o) {
        HwwlMachine machine(p, problem_of(r), r.gpu, r, o.record);
        return machine.run("hwwl", p.check_results, o.values);
      },
      [](const HwwlParams& p, const ResolvedRun& r) { return HwwlMachine::storage_bytes(p, r.gpu); }));
  registry.add(software<SoftwareMachine::Mode::TOPOLOGY, hwwl::TopologyParams>(
      "topology",
      "topology-driven software baseline: a kernel per super-step over every node, active "
      "nodes flagged",
      "HWWL §II-A, Fig. 1a"));
  registry.add(software<SoftwareMachine::Mode::DATA, hwwl::DataParams>(
      "data",
      "data-driven software baseline: double-buffered worklist in memory, pulls split "
      "statically, pushes by one atomic per warp, a kernel per super-step",
      "HWWL §II-C, Fig. 2"));
}

}  // namespace tbdse
