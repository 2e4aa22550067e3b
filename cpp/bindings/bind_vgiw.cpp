// The control-flow machines' workload: a kernel as a CFG of basic blocks
// (models/vgiw/kernel.hpp), as a ModelInput Python can put in a Workload and
// pickle.  Blocks cross as dicts of their fields (python/tbdse/workloads/cfg.py).
#include <pybind11/stl.h>

#include <cmath>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "models/vgiw/energy.hpp"
#include "models/vgiw/kernel.hpp"

namespace tbdse::bindings {

namespace {

using vgiw::BasicBlock;
using vgiw::BranchKind;
using vgiw::CfgKernel;

const std::vector<std::pair<const char*, BranchKind>> kBranches = {
    {"none", BranchKind::NONE},       {"probability", BranchKind::PROBABILITY},
    {"predicate", BranchKind::PREDICATE}, {"loop", BranchKind::LOOP},
    {"paths", BranchKind::PATHS}};
const std::vector<std::pair<const char*, vgiw::MemPattern>> kPatterns = {
    {"coalesced", vgiw::MemPattern::COALESCED}, {"strided", vgiw::MemPattern::STRIDED},
    {"scattered", vgiw::MemPattern::SCATTERED}};

// A number that is not a bool (True would otherwise pass as 1).
double number(const py::handle& v, const std::string& where) {
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    throw ConfigError(where + " must be a number; got " + py::repr(v).cast<std::string>());
  return v.cast<double>();
}

std::string text(const py::handle& v, const std::string& where) {
  if (!py::isinstance<py::str>(v))
    throw ConfigError(where + " must be text; got " + py::repr(v).cast<std::string>());
  return v.cast<std::string>();
}

// A list or tuple (a string is not a list of names).
py::sequence items(const py::handle& v, const std::string& where, const char* what) {
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v))
    throw ConfigError(where + " must be a list of " + what + "; got " +
                      py::repr(v).cast<std::string>());
  return py::reinterpret_borrow<py::sequence>(v);
}

std::vector<std::string> names(const py::handle& v, const std::string& where) {
  std::vector<std::string> out;
  for (const auto& x : items(v, where, "value names")) out.push_back(text(x, where + " entry"));
  return out;
}

std::int64_t whole(const py::handle& v, const std::string& where) {
  const double d = number(v, where);
  if (!(d == std::floor(d) && std::abs(d) < 9.2e18))
    throw ConfigError(where + " must be a whole number");
  return static_cast<std::int64_t>(d);
}

BasicBlock block_from(const py::dict& d, std::size_t index) {
  BasicBlock b;
  const std::string where = "block " + std::to_string(index) + ": key ";
  for (const auto& [k, v] : d) {
    const auto key = k.cast<std::string>();
    const std::string at = where + "'" + key + "'";
    if (key == "name") b.name = text(v, at);
    else if (key == "alu") b.alu = whole(v, at);
    else if (key == "special") b.special = whole(v, at);
    else if (key == "ldst") b.ldst = whole(v, at);
    else if (key == "lv_loads") b.lv_loads = whole(v, at);
    else if (key == "lv_stores") b.lv_stores = whole(v, at);
    else if (key == "split_join") b.split_join = whole(v, at);
    else if (key == "mem_intensity") b.mem_intensity = number(v, at);
    else if (key == "p") b.p = number(v, at);
    else if (key == "trips_min") b.trips_min = whole(v, at);
    else if (key == "trips_max") b.trips_max = whole(v, at);
    else if (key == "succ") {
      for (const auto& s : items(v, at, "block ids"))
        b.succ.push_back(static_cast<std::int32_t>(std::clamp<std::int64_t>(whole(s, at), -1, INT32_MAX)));
    } else if (key == "defs") b.defs = names(v, at);
    else if (key == "uses") b.uses = names(v, at);
    else if (key == "branch") {
      const auto name = text(v, at);
      bool found = false;
      for (const auto& [n, kind] : kBranches)
        if (name == n) b.branch = kind, found = true;
      if (!found)
        throw ConfigError(at + " is '" + name + "'; valid: none, probability, predicate, loop, paths");
    } else if (key == "pattern") {
      const auto name = text(v, at);
      bool found = false;
      for (const auto& [n, kind] : kPatterns)
        if (name == n) b.pattern = kind, found = true;
      if (!found)
        throw ConfigError(at + " is '" + name + "'; valid: coalesced, strided, scattered");
    } else {
      throw ConfigError(where + "'" + key + "' is unknown; valid: name, alu, special, ldst, "
                        "lv_loads, lv_stores, split_join, mem_intensity, pattern, succ, branch, p, "
                        "trips_min, trips_max, defs, uses");
    }
  }
  return b;
}

py::dict block_dict(const BasicBlock& b) {
  py::dict d;
  d["name"] = b.name;
  d["alu"] = b.alu;
  d["special"] = b.special;
  d["ldst"] = b.ldst;
  d["lv_loads"] = b.lv_loads;
  d["lv_stores"] = b.lv_stores;
  d["split_join"] = b.split_join;
  d["mem_intensity"] = b.mem_intensity;
  for (const auto& [n, kind] : kPatterns)
    if (kind == b.pattern) d["pattern"] = n;
  d["succ"] = b.succ;
  for (const auto& [n, kind] : kBranches)
    if (kind == b.branch) d["branch"] = n;
  d["p"] = b.p;
  d["trips_min"] = b.trips_min;
  d["trips_max"] = b.trips_max;
  d["defs"] = b.defs;
  d["uses"] = b.uses;
  return d;
}

std::shared_ptr<CfgKernel> make_kernel(const std::string& name, const py::list& blocks,
                                       std::int64_t threads,
                                       const std::vector<std::vector<std::int32_t>>& paths,
                                       std::int64_t block_threads) {
  std::vector<BasicBlock> parsed;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (!py::isinstance<py::dict>(blocks[i]))
      throw ConfigError("block " + std::to_string(i) + " must be a mapping of its fields");
    parsed.push_back(block_from(blocks[i].cast<py::dict>(), i));
  }
  py::gil_scoped_release release;
  return std::make_shared<CfgKernel>(name, std::move(parsed), threads, paths, block_threads);
}

py::list blocks_of(const CfgKernel& k) {
  py::list out;
  for (const auto& b : k.blocks()) out.append(block_dict(b));
  return out;
}

}  // namespace

void register_vgiw(py::module_& m) {
  // The energy constants (pJ; static powers pJ per cycle), so that Python's ledger,
  // calibration and sensitivity scripts read the values the machines use, not copies.
  namespace e = vgiw::energy;
  py::dict energy;
  energy["warp_issue"] = e::kWarpIssue;
  energy["rf_access"] = e::kRfAccess;
  energy["alu_op"] = e::kAluOp;
  energy["special_op"] = e::kSpecialOp;
  energy["core_static"] = e::kCoreStatic;
  energy["die_static"] = e::kDieStatic;
  energy["dram_static"] = e::kDramStatic;
  m.attr("vgiw_energy_pj") = energy;

  py::class_<CfgKernel, ModelInput, std::shared_ptr<CfgKernel>>(
      m, "CfgKernel",
      "A kernel as a control-flow graph of basic blocks over a number of threads: the "
      "workload of the simt, sgmf and vgiw machines.")
      .def(py::init(&make_kernel), py::arg("name"), py::arg("blocks"), py::arg("threads"),
           py::arg("paths") = std::vector<std::vector<std::int32_t>>{}, py::arg("block_threads") = 0)
      .def_property_readonly("name", &CfgKernel::name)
      .def_property_readonly("threads", &CfgKernel::threads)
      .def_property_readonly("block_threads", &CfgKernel::block_threads,
                             "Threads per thread block of the launch (0: the simt scheme's).")
      .def_property_readonly("blocks", &blocks_of, "Each block's fields as a dict.")
      .def_property_readonly("paths", &CfgKernel::paths)
      .def_property_readonly("ipdom", &CfgKernel::ipdom,
                             "Immediate post-dominator of each block (the block count = the exit).")
      .def("live_values", [](const CfgKernel& k) {
        std::vector<std::pair<std::int64_t, std::int64_t>> out;
        for (std::int32_t b = 0; b < k.block_count(); ++b) out.emplace_back(k.lv_loads(b), k.lv_stores(b));
        return out;
      }, "(LVC loads, LVC stores) per thread of each block, after derivation from defs/uses.")
      .def("units", [](const CfgKernel& k) {
        std::vector<std::vector<std::int64_t>> out;
        for (std::int32_t b = 0; b < k.block_count(); ++b)
          out.emplace_back(k.units(b).begin(), k.units(b).end());
        return out;
      }, "Units of one replica per block: alu, special, ldst, lvu, split_join, cvu.")
      .def(py::pickle(
          [](const CfgKernel& k) {
            return py::make_tuple(k.name(), blocks_of(k), k.threads(), k.paths(), k.block_threads());
          },
          [](const py::tuple& s) {
            if (s.size() != 5) throw ConfigError("CfgKernel: damaged pickled state");
            return make_kernel(s[0].cast<std::string>(), s[1].cast<py::list>(), s[2].cast<std::int64_t>(),
                               s[3].cast<std::vector<std::vector<std::int32_t>>>(),
                               s[4].cast<std::int64_t>());
          }));
}

}  // namespace tbdse::bindings
