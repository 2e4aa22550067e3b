#include "models/registry.hpp"

#include <mutex>
#include <stdexcept>

#include "models/baselines/register.hpp"
#include "models/blockmaestro/register.hpp"
#include "models/hwwl/register.hpp"
#include "models/juggler/register.hpp"
#include "models/user_policy/register.hpp"
#include "models/vgiw/register.hpp"
#include "models/wireframe/register.hpp"
#include "core/errors.hpp"
#include "core/gpu.hpp"

namespace tbdse {

void SchemeRegistry::add(SchemeInfo info) {
  for (const auto& s : schemes_)
    if (s->name == info.name) throw ConfigError("scheme '" + info.name + "' is registered twice");
  try {  // a read_when naming what the table or the GPU lacks is a bug in the model
    check_read_when(info.params, GpuConfig::params().infos());
  } catch (const std::logic_error& e) {
    throw std::logic_error("scheme '" + info.name + "': " + e.what());
  }
  schemes_.push_back(std::make_unique<SchemeInfo>(std::move(info)));
}

const SchemeInfo& SchemeRegistry::get(std::string_view name) const {
  for (const auto& s : schemes_)
    if (s->name == name) return *s;
  throw_unknown_name("scheme", name, names());
}

std::vector<std::string> SchemeRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& s : schemes_) out.push_back(s->name);
  return out;
}

SchemeRegistry& scheme_registry() {
  static SchemeRegistry registry;
  return registry;
}

void register_builtin_schemes() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_baseline_schemes(scheme_registry());
    register_wireframe_schemes(scheme_registry());
    register_blockmaestro_schemes(scheme_registry());
    register_hwwl_schemes(scheme_registry());
    register_juggler_schemes(scheme_registry());
    register_vgiw_schemes(scheme_registry());
    register_user_policy_schemes(scheme_registry());
  });
}

SchemeConfig make_scheme_config(std::string_view name,
                                std::span<const std::pair<std::string, double>> params) {
  register_builtin_schemes();
  const SchemeInfo& info = scheme_registry().get(name);
  SchemeConfig config{&info, info.defaults};
  const std::string owner = "scheme '" + info.name + "'";
  std::vector<std::size_t> given;
  for (const auto& [key, value] : params) {
    const std::size_t i = find_param(info.params, key, owner);
    check_param_value(info.params[i], value, owner);
    config.values[i] = value;
    given.push_back(i);
  }
  // A value set where the run does not read it would change nothing (issue 29).
  check_params_read(info.params, config.values, given, owner);
  return config;
}

}  // namespace tbdse
