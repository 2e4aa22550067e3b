#include "cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "errors.hpp"
#include "hash.hpp"
#include "rng.hpp"

namespace tbdse {

namespace {

struct KindInfo {
  CostModel::Kind kind;
  const char* name;
  std::vector<std::string> params;
  std::vector<double> defaults;
};

const std::vector<KindInfo>& kinds() {
  using K = CostModel::Kind;
  static const std::vector<KindInfo> list = {
      {K::GRAPH, "graph", {"scale", "jitter"}, {1.0, 0.0}},
      {K::CONSTANT, "constant", {"cycles", "jitter"}, {1000.0, 0.0}},
      {K::PER_KERNEL, "per_kernel", {"jitter"}, {0.0}},
      {K::ARRAY, "array", {"jitter"}, {0.0}},
      {K::UNIFORM, "uniform", {"low", "high"}, {500.0, 1500.0}},
      {K::NORMAL, "normal", {"mean", "std"}, {1000.0, 100.0}},
      {K::LOGNORMAL, "lognormal", {"mean", "sigma"}, {1000.0, 0.2}},
  };
  return list;
}

const KindInfo& info(CostModel::Kind kind) {
  for (const auto& k : kinds())
    if (k.kind == kind) return k;
  throw ConfigError("unknown cost model kind");
}

std::size_t param_index(const CostModel& model, std::string_view name) {
  const auto& names = info(model.kind).params;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  throw_unknown_name("parameter of cost model '" + CostModel::kind_name(model.kind) + "'", name,
                     names);
}

// f(t, z) for every node t, z = rng.normal(i) for the task's input id i (so a
// task's draw does not depend on the graph's internal numbering), two normals
// per generator block.
template <class F>
void for_each_normal(const Philox& rng, const TaskGraph& graph, F f) {
  const std::int32_t n = graph.size();
  for (TaskId i = 0; i + 1 < n; i += 2) {
    const auto z = rng.normal2(static_cast<std::uint64_t>(i) >> 1);
    f(graph.node_of(i), z[0]);
    f(graph.node_of(i + 1), z[1]);
  }
  if (n % 2 == 1) f(graph.node_of(n - 1), rng.normal(static_cast<std::uint64_t>(n - 1)));
}

Cycle clamp_round(double v, Cycle floor_value) {
  if (!(v < 9.2e18)) return static_cast<Cycle>(9.2e18);  // also catches +inf
  return std::max<Cycle>(floor_value, static_cast<Cycle>(std::llround(v)));
}

}  // namespace

CostModel::Kind CostModel::kind_from_name(std::string_view name) {
  for (const auto& k : kinds())
    if (name == k.name) return k.kind;
  throw_unknown_name("cost model", name, kind_names());
}

std::string CostModel::kind_name(Kind kind) { return info(kind).name; }

std::vector<std::string> CostModel::kind_names() {
  std::vector<std::string> names;
  for (const auto& k : kinds()) names.emplace_back(k.name);
  return names;
}

const std::vector<std::string>& CostModel::param_names(Kind kind) { return info(kind).params; }

CostModel CostModel::make(Kind kind) {
  CostModel m;
  m.kind = kind;
  m.params = info(kind).defaults;
  return m;
}

double CostModel::param(std::string_view name) const { return params[param_index(*this, name)]; }

void CostModel::set_param(std::string_view name, double value) {
  params[param_index(*this, name)] = value;
}

void CostModel::check_params() const {
  const std::string owner = "cost model '" + kind_name(kind) + "'";
  if (params.size() != info(kind).params.size())
    throw ConfigError(owner + ": expected " + std::to_string(info(kind).params.size()) +
                      " parameters");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const double v = params[i];
    const std::string& name = info(kind).params[i];
    const bool positive = name == "mean";
    // Cycle counts stay within 2^48 (the engine's limit per task); log-space
    // spreads within 10, beyond which draws overflow that limit anyway.
    const bool spread = name == "sigma" || name == "jitter";
    const double most = spread ? 10.0 : name == "scale" ? 1e12 : 281474976710656.0;
    if (!std::isfinite(v) || v < 0.0 || (positive && v == 0.0) || v > most)
      throw ConfigError(owner + " parameter '" + name + "' must be a finite number " +
                        (positive ? "> 0" : ">= 0") + " and at most " + std::to_string(most) +
                        "; got " + std::to_string(v));
  }
  if (kind == Kind::UNIFORM && param("high") < param("low"))
    throw ConfigError(owner + ": 'high' (" + std::to_string(param("high")) +
                      ") must be >= 'low' (" + std::to_string(param("low")) + ")");
  const auto values = table();
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] < 0 || values[i] > (Cycle{1} << 48))
      throw ConfigError(owner + ": entry " + std::to_string(i) + " (" + std::to_string(values[i]) +
                        " cycles) is outside [0, 2^48]");
}

void CostModel::validate(const TaskGraph& graph) const {
  check_params();
  const std::string owner = "cost model '" + kind_name(kind) + "'";
  const auto values = table();
  if (kind == Kind::ARRAY && values.size() != static_cast<std::size_t>(graph.size()))
    throw ConfigError(owner + " has " + std::to_string(values.size()) +
                      " entries but the graph has " + std::to_string(graph.size()) + " tasks");
  if (kind == Kind::PER_KERNEL && values.size() < static_cast<std::size_t>(graph.num_kernels()))
    throw ConfigError(owner + " gives costs for " + std::to_string(values.size()) +
                      " kernels but the graph uses kernel ids 0.." +
                      std::to_string(graph.num_kernels() - 1));
}

std::uint64_t CostModel::hash() const {
  Hasher h(0xC057);
  h.add(static_cast<std::uint64_t>(kind));
  for (const double p : params) h.add_double(p);
  h.add(table_hash_);
  return h.digest();
}

std::span<const Cycle> CostModel::table() const {
  return table_ ? std::span<const Cycle>(*table_) : std::span<const Cycle>();
}

void CostModel::set_table(std::vector<Cycle> values) {
  table_hash_ = Hasher(0x7AB1E).add_span<Cycle>(values).digest();
  table_ = std::make_shared<const std::vector<Cycle>>(std::move(values));
}

std::vector<Cycle> CostModel::materialize(const TaskGraph& graph, std::uint64_t rng_key) const {
  const std::int32_t n = graph.size();
  std::vector<Cycle> cost(static_cast<std::size_t>(n));
  const Philox rng(rng_key);
  switch (kind) {
    case Kind::UNIFORM: {
      const double lo = param("low"), span = param("high") - lo;
      for (TaskId t = 0; t < n; ++t)
        cost[t] = clamp_round(lo + span * rng.uniform(static_cast<std::uint64_t>(graph.original_id(t))), 1);
      return cost;
    }
    case Kind::NORMAL: {
      const double mean = param("mean"), sd = param("std");
      for_each_normal(rng, graph, [&](TaskId t, double z) { cost[t] = clamp_round(mean + sd * z, 1); });
      return cost;
    }
    case Kind::LOGNORMAL: {
      const double sigma = param("sigma");
      const double mu = std::log(param("mean")) - 0.5 * sigma * sigma;  // so E[cost] = mean
      for_each_normal(rng, graph,
                      [&](TaskId t, double z) { cost[t] = clamp_round(std::exp(mu + sigma * z), 1); });
      return cost;
    }
    case Kind::GRAPH: {
      const double scale = param("scale");
      for (TaskId t = 0; t < n; ++t)
        cost[t] = clamp_round(static_cast<double>(graph.cost(t)) * scale, 0);
      break;
    }
    case Kind::CONSTANT: std::fill(cost.begin(), cost.end(), clamp_round(param("cycles"), 0)); break;
    case Kind::PER_KERNEL: {
      const auto values = table();
      for (TaskId t = 0; t < n; ++t) cost[t] = values[graph.kernel(t)];
      break;
    }
    case Kind::ARRAY: {  // indexed by input id
      const auto values = table();
      for (TaskId t = 0; t < n; ++t) cost[t] = values[graph.original_id(t)];
      break;
    }
  }
  const double jitter = param("jitter");
  if (jitter > 0.0) {
    const double shift = -0.5 * jitter * jitter;  // mean-one factor
    for_each_normal(rng, graph, [&](TaskId t, double z) {
      if (cost[t] > 0)
        cost[t] = clamp_round(static_cast<double>(cost[t]) * std::exp(shift + jitter * z), 1);
    });
  }
  return cost;
}

}  // namespace tbdse
