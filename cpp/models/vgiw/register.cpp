#include "models/vgiw/register.hpp"

#include "models/registry.hpp"
#include "models/vgiw/machines.hpp"
#include "models/vgiw/run_size.hpp"
#include "models/vgiw/storage.hpp"

namespace tbdse {

namespace {

using vgiw::CfgKernel;

const CfgKernel& kernel_of(const ResolvedRun& r) { return r.workload->input_as<CfgKernel>(); }

// The machines have no statistics beyond the "cfg" kind's metrics.
const std::vector<StatInfo> kNoStats;

}  // namespace

void register_vgiw_schemes(SchemeRegistry& registry) {
  registry.add(describe_simulator<vgiw::SimtParams>(
      "simt",
      "a Fermi SM running a control-flow kernel: warps with active masks, reconvergence at "
      "the immediate post-dominator, issue pipes and DRAM bandwidth",
      "VGIW (Voitsechov & Etsion, MICRO-48 2015) §2, Fig. 1b; §4", "cfg", vgiw::cfg_metrics(),
      kNoStats,
      [](const vgiw::SimtParams&, const ResolvedRun& r) { vgiw::check_run_size(kernel_of(r)); },
      [](const vgiw::SimtParams& p, const ResolvedRun& r, const RunOptions& o) {
        return vgiw::run_simt(p, kernel_of(r), r, o.values);
      }));
  registry.add(describe_simulator<vgiw::SgmfParams>(
      "sgmf",
      "single-graph multiple-flows: the whole kernel mapped on the fabric (or 'does not map'), "
      "every thread through every path",
      "SGMF (ISCA 2014); VGIW §1, Fig. 1c", "cfg", vgiw::cfg_metrics(), kNoStats,
      [](const vgiw::SgmfParams&, const ResolvedRun& r) { vgiw::check_run_size(kernel_of(r)); },
      [](const vgiw::SgmfParams& p, const ResolvedRun& r, const RunOptions& o) {
        return vgiw::run_sgmf(p, kernel_of(r), r, o.values);
      },
      [](const vgiw::SgmfParams& p, const ResolvedRun&) { return vgiw::sgmf_storage_bytes(p); }));
  registry.add(describe_simulator<vgiw::VgiwParams>(
      "vgiw",
      "control-flow coalescing: the smallest block id with waiting threads runs its whole "
      "thread vector on the reconfigured fabric; live values through the LVC",
      "VGIW (Voitsechov & Etsion, MICRO-48 2015) §2-3", "cfg", vgiw::cfg_metrics(), kNoStats,
      [](const vgiw::VgiwParams& p, const ResolvedRun& r) {
        vgiw::check_vgiw(p, kernel_of(r));
        vgiw::check_run_size(kernel_of(r));
      },
      [](const vgiw::VgiwParams& p, const ResolvedRun& r, const RunOptions& o) {
        return vgiw::run_vgiw(p, kernel_of(r), r, o.values);
      },
      [](const vgiw::VgiwParams& p, const ResolvedRun&) { return vgiw::vgiw_storage_bytes(p); }));
}

}  // namespace tbdse
