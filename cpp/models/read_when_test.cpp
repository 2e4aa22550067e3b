// The models' read conditions (ParamInfo::read_when) as registered: every
// one names what its table and the GPU have, and the two that need an "or"
// or a GPU field state them.
#include <doctest/doctest.h>

#include <utility>

#include "core/errors.hpp"
#include "core/gpu.hpp"
#include "models/registry.hpp"

using namespace tbdse;

namespace {

const ParamInfo& scheme_param(std::string_view scheme, std::string_view name) {
  register_builtin_schemes();
  const SchemeInfo& info = scheme_registry().get(scheme);
  return info.params[find_param(info.params, name, scheme)];
}

}  // namespace

TEST_CASE("every registered scheme's read conditions name its parameters and GPU fields") {
  register_builtin_schemes();
  for (const std::string& name : scheme_registry().names())
    check_read_when(scheme_registry().get(name).params, GpuConfig::params().infos());
}

TEST_CASE("Juggler's spin_weight is read only under shared SMs") {
  const ParamInfo& spin = scheme_param("juggler", "spin_weight");
  REQUIRE(spin.read_when.size() == 1);
  REQUIRE(spin.read_when[0].any.size() == 1);
  CHECK(spin.read_when[0].any[0].param == "gpu.sm_model");
  CHECK(read_when_words(spin) == "gpu.sm_model is 'shared'");
  // The scheme alone knows no GPU: the sweep's plan refuses it on 'fixed' SMs.
  const std::pair<std::string, double> given[] = {{"spin_weight", 2}};
  (void)make_scheme_config("juggler", given);
}

TEST_CASE("BlockMaestro's when_full is read only when a buffer is bounded") {
  const ParamInfo& when_full = scheme_param("blockmaestro", "when_full");
  CHECK(read_when_words(when_full) ==
        "dependency_list_entries is not 'unbounded' or parent_counter_entries is not "
        "'unbounded'");
  const std::pair<std::string, double> both[] = {{"dependency_list_entries", kUnboundedValue},
                                                 {"parent_counter_entries", kUnboundedValue},
                                                 {"when_full", 1}};
  CHECK_THROWS_WITH_AS(
      make_scheme_config("blockmaestro", both),
      doctest::Contains("dependency_list_entries = 'unbounded' and parent_counter_entries = "
                        "'unbounded' leave it unread"),
      ConfigError);
  const std::pair<std::string, double> one[] = {{"dependency_list_entries", kUnboundedValue},
                                                {"parent_counter_entries", 8},
                                                {"when_full", 1}};
  (void)make_scheme_config("blockmaestro", one);
}
