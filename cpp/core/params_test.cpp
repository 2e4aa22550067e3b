#include "core/params.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "core/errors.hpp"
#include "core/gpu.hpp"

using namespace tbdse;

namespace {

// A table with each form of read condition: one term, an "or" of two, one on
// a GPU field, and two conditions of which one is an "or".
struct Knobs {
  std::string policy = "lrr";
  std::int64_t list = kUnbounded;
  std::int64_t counters = kUnbounded;
  std::string when_full = "bypass";
  std::int64_t level_bound = 2;
  double spin = 1.0;
  std::int64_t both = 0;

  static const ParamTable<Knobs>& params() {
    static const ParamTable<Knobs> table = [] {
      ParamTable<Knobs> t;
      t.add(&Knobs::policy, {.name = "policy", .choices = {"lrr", "lvl"}});
      t.add(&Knobs::list, {.name = "list", .unbounded_ok = true, .min_value = 1});
      t.add(&Knobs::counters, {.name = "counters", .unbounded_ok = true, .min_value = 1});
      t.add(&Knobs::when_full,
            {.name = "when_full", .choices = {"bypass", "wait"},
             .read_when = {any_of({{"list", {"unbounded"}, false},
                                   {"counters", {"unbounded"}, false}})}});
      t.add(&Knobs::level_bound,
            {.name = "level_bound", .min_value = 1, .read_when = {{"policy", {"lvl"}}}});
      t.add(&Knobs::spin, {.name = "spin", .min_value = 0,
                           .read_when = {{"gpu.sm_model", {"shared"}}}});
      t.add(&Knobs::both, {.name = "both", .min_value = 0,
                           .read_when = {{"policy", {"lvl"}},
                                         any_of({{"list", {"unbounded"}, false},
                                                 {"gpu.sm_model", {"shared"}}})}});
      return t;
    }();
    return table;
  }
};

std::size_t index(std::string_view name) {
  return find_param(Knobs::params().infos(), name, "test");
}

const ParamInfo& info(std::string_view name) { return Knobs::params().infos()[index(name)]; }

std::vector<double> values(const Knobs& k) { return Knobs::params().encode(k); }

}  // namespace

TEST_CASE("read_when_words states terms, or-groups and GPU fields") {
  CHECK(read_when_words(info("policy")).empty());
  CHECK(read_when_words(info("level_bound")) == "policy is 'lvl'");
  CHECK(read_when_words(info("when_full")) ==
        "list is not 'unbounded' or counters is not 'unbounded'");
  CHECK(read_when_words(info("spin")) == "gpu.sm_model is 'shared'");
  CHECK(read_when_words(info("both")) ==
        "policy is 'lvl' and (list is not 'unbounded' or gpu.sm_model is 'shared')");
  // Three conditions: each joined by "and", none by a comma.
  ParamInfo three = info("both");
  three.read_when.push_back({"counters", {"unbounded"}, false});
  CHECK(read_when_words(three) ==
        "policy is 'lvl' and (list is not 'unbounded' or gpu.sm_model is 'shared') and "
        "counters is not 'unbounded'");
}

TEST_CASE("an or-group is read when any of its terms holds") {
  const auto& infos = Knobs::params().infos();
  Knobs k;  // both buffers unbounded
  std::string why, controls;
  CHECK_FALSE(param_read(infos, values(k), index("when_full"), &why, &controls));
  CHECK(why == "list = 'unbounded' and counters = 'unbounded'");
  CHECK(controls == "list or counters");
  k.counters = 8;
  CHECK(param_read(infos, values(k), index("when_full")));
  k.counters = kUnbounded;
  k.list = 4;
  CHECK(param_read(infos, values(k), index("when_full")));
}

TEST_CASE("a term on a GPU field holds where the GPU is not known") {
  const auto& infos = Knobs::params().infos();
  Knobs k;
  CHECK(param_read(infos, values(k), index("spin")));
  // A group with a GPU term holds too; the other condition still decides.
  std::string why;
  CHECK_FALSE(param_read(infos, values(k), index("both"), &why));
  CHECK(why == "policy = 'lrr'");
  k.policy = "lvl";
  CHECK(param_read(infos, values(k), index("both")));
}

TEST_CASE("check_params_read names every term of a failing or-group") {
  const auto& infos = Knobs::params().infos();
  const Knobs k;
  const std::vector<std::size_t> given = {index("when_full")};
  CHECK_THROWS_WITH_AS(
      check_params_read(infos, values(k), given, "scheme 'test'"),
      "scheme 'test' parameter 'when_full' is read only when list is not 'unbounded' or "
      "counters is not 'unbounded'; list = 'unbounded' and counters = 'unbounded' leave it "
      "unread, so setting it would change nothing (drop it, or change list or counters); this "
      "run reads: policy, list, counters, spin",
      ConfigError);
  const std::vector<std::size_t> spin = {index("spin")};
  check_params_read(infos, values(k), spin, "scheme 'test'");  // the GPU decides: not here
  const std::vector<std::size_t> level = {index("level_bound")};
  CHECK_THROWS_WITH_AS(check_params_read(infos, values(k), level, "scheme 'test'"),
                       doctest::Contains("policy = 'lrr' leaves it unread"), ConfigError);
}

TEST_CASE("check_read_when refuses a condition on what the table or the GPU lacks") {
  const auto& gpu = GpuConfig::params().infos();
  check_read_when(Knobs::params().infos(), gpu);
  const auto with = [&](ReadWhen w) {
    std::vector<ParamInfo> infos = Knobs::params().infos();
    infos[index("level_bound")].read_when = {std::move(w)};
    check_read_when(infos, gpu);
  };
  CHECK_THROWS_WITH_AS(with({"polcy", {"lvl"}}), doctest::Contains("unknown parameter 'polcy'"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(with({"gpu.sm_mode", {"shared"}}),
                       doctest::Contains("unknown GPU field 'gpu.sm_mode'"), std::logic_error);
  CHECK_THROWS_AS(with({"gpu.sm_model", {"sharde"}}), std::logic_error);
  CHECK_THROWS_AS(with({"policy", {"fifo"}}), std::logic_error);
  CHECK_THROWS_WITH_AS(with({"level_bound", {"4"}}), doctest::Contains("when it has a value"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(with({"when_full", {"unbounded"}}),
                       doctest::Contains("read_when of parameter 'level_bound'"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(with(any_of({})), doctest::Contains("no terms"), std::logic_error);
  with(any_of({{"policy", {"lvl"}}, {"gpu.sm_model", {"fixed"}, false}}));
}
