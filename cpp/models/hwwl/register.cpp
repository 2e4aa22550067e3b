#include "models/hwwl/register.hpp"

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

template <SoftwareMachine::Mode M>
SchemeInfo software(const char* name, const char* summary, const char* paper_ref) {
  return describe_simulator<SoftwareParams>(
      name, summary, paper_ref, "worklist", hwwl::worklist_metrics(), SoftwareMachine::stat_info(),
      [](const SoftwareParams&, const ResolvedRun& r) { (void)problem_of(r); },
      [name](const SoftwareParams& p, const ResolvedRun& r, const RunOptions& o) {
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
      [](const HwwlParams&, const ResolvedRun& r) { (void)problem_of(r); },
      [](const HwwlParams& p, const ResolvedRun& r, const RunOptions& o) {
        HwwlMachine machine(p, problem_of(r), r.gpu, r, o.record);
        return machine.run("hwwl", p.check_results, o.values);
      }));
  registry.add(software<SoftwareMachine::Mode::TOPOLOGY>(
      "topology",
      "topology-driven software baseline: a kernel per super-step over every node, active "
      "nodes flagged",
      "HWWL §II-A, Fig. 1a"));
  registry.add(software<SoftwareMachine::Mode::DATA>(
      "data",
      "data-driven software baseline: double-buffered worklist in memory, pulls split "
      "statically, pushes by one atomic per warp, a kernel per super-step",
      "HWWL §II-C, Fig. 2"));
}

}  // namespace tbdse
