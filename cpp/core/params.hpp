// Named, documented parameters.  A parameter struct (GpuConfig, a scheme's
// Params) keeps its defaults in its member initialisers; a ParamTable binds
// each member to a ParamInfo (meaning, unit, paper section, valid range) so
// that the same description serves validation, Python's listing and the
// sweep runner.  Values cross layers as doubles: integers exactly, booleans as
// 0/1, a choice as its index and "unbounded" as +infinity.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "errors.hpp"

namespace tbdse {

enum class ParamKind { INT, FLOAT, BOOL, CHOICE };

inline constexpr double kUnboundedValue = std::numeric_limits<double>::infinity();
// An integer parameter set to "unbounded" holds this value.
inline constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
// "auto" (the scheme derives the value, e.g. from another parameter) is -1,
// encoded and in the struct alike.
inline constexpr double kAutoValue = -1.0;
inline constexpr std::int64_t kAuto = -1;

// One term of a read condition: `param`'s value is (among) or is not (!among)
// one of `values`, written as a user writes them: a choice's name,
// "true"/"false", "unbounded", "auto" or a number.  `param` names a parameter
// of the same table, or "gpu.<field>" a field of the run's GPU
// (GpuConfig::params()), e.g. {"gpu.sm_model", {"shared"}}.
struct ReadTerm {
  std::string param;
  std::vector<std::string> values;
  bool among = true;
};

// A condition under which a parameter is read: any of its terms holds.  Most
// have one term, written as the term itself ({"policy", {"lvl"}}); an "or"
// of several is written any_of({...}, {...}).
struct ReadWhen {
  std::vector<ReadTerm> any;

  ReadWhen(std::string param, std::vector<std::string> values, bool among = true)
      : any{{std::move(param), std::move(values), among}} {}
  explicit ReadWhen(std::vector<ReadTerm> terms) : any(std::move(terms)) {}
};

// "read when a or b": .read_when = {any_of({{"a", {"x"}, false}, {"b", {"x"}, false}})}.
inline ReadWhen any_of(std::vector<ReadTerm> terms) { return ReadWhen(std::move(terms)); }

inline constexpr std::string_view kGpuPrefix = "gpu.";

struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::INT;
  std::string unit;                  // "cycles", "us", "entries", "" for none
  std::string doc;                   // what it means
  std::string paper_ref;             // where it comes from, e.g. "Wireframe §4.2"
  std::vector<std::string> choices;  // CHOICE only, in index order
  bool unbounded_ok = false;         // "unbounded" (+inf) is a valid value
  bool auto_ok = false;              // "auto" (-1) is a valid value
  double min_value = -std::numeric_limits<double>::infinity();
  double max_value = std::numeric_limits<double>::infinity();
  // The run reads this parameter only when every condition holds (empty:
  // always).  A value a user sets where one fails changes nothing, so it is
  // refused rather than silently ignored: by check_params_read over the
  // scheme's own values; a condition on the GPU (a term on "gpu.<field>") by
  // the sweep's plan (python/tbdse/simulation/plan_checks.py), which knows
  // every GPU of the run and refuses a parameter no GPU of it reads.
  std::vector<ReadWhen> read_when;
};

// Checks `value` against `info`; throws ConfigError naming `owner` and the
// parameter and saying what is valid.
void check_param_value(const ParamInfo& info, double value, std::string_view owner);

// Index of `name` in `infos`, or ConfigError listing the valid names.
std::size_t find_param(const std::vector<ParamInfo>& infos, std::string_view name,
                       std::string_view owner);

// "policy is 'lvl'", "pending_updates is not 'unbounded'", "gpu.sm_model is
// 'shared'": the conditions of `info` joined by " and ", a condition's terms
// by " or " (in parentheses where another condition follows or precedes):
// "" when it is always read.
std::string read_when_words(const ParamInfo& info);

// std::logic_error (a bug in a model's table) unless every term of every
// parameter's read_when names a parameter of `infos`, or a field of
// `gpu_infos` after "gpu.", and values that parameter or field can take.
void check_read_when(const std::vector<ParamInfo>& infos,
                     const std::vector<ParamInfo>& gpu_infos);

// Whether parameter `i` is read at encoded `values` (one per info), as far as
// the scheme's own values decide: a term on a GPU field holds (the GPU is not
// known here).  When not, `why` (if given) gets the failing condition's values,
// e.g. "policy = 'fifo'" or "a = 'unbounded' and b = 'unbounded'", and
// `controls` the parameters that decide it ("policy", "a or b").
bool param_read(const std::vector<ParamInfo>& infos, std::span<const double> values,
                std::size_t i, std::string* why = nullptr, std::string* controls = nullptr);

// ConfigError when a parameter in `given` (indices a user set explicitly) is
// not read at `values`, naming it, the values that make it unread and the
// parameters the run reads.  Defaults are never refused.
void check_params_read(const std::vector<ParamInfo>& infos, std::span<const double> values,
                       std::span<const std::size_t> given, std::string_view owner);

// A value as the encoded double, and back (see the comment at the top).
inline double encode_value(const std::int64_t& v, const ParamInfo&) {
  return v == kUnbounded ? kUnboundedValue : static_cast<double>(v);
}
inline double encode_value(const double& v, const ParamInfo&) { return v; }
inline double encode_value(const bool& v, const ParamInfo&) { return v ? 1.0 : 0.0; }
inline double encode_value(const std::string& v, const ParamInfo& info) {
  for (std::size_t c = 0; c < info.choices.size(); ++c)
    if (info.choices[c] == v) return static_cast<double>(c);
  return -1.0;
}
inline void decode_value(std::int64_t& v, const ParamInfo&, double value) {
  v = value == kUnboundedValue ? kUnbounded : static_cast<std::int64_t>(value);
}
inline void decode_value(double& v, const ParamInfo&, double value) { v = value; }
inline void decode_value(bool& v, const ParamInfo&, double value) { v = value != 0.0; }
inline void decode_value(std::string& v, const ParamInfo& info, double value) {
  v = info.choices[static_cast<std::size_t>(value)];
}

template <class P>
class ParamTable {
 public:
  // Binds a member of type int64_t, double, bool or std::string (a choice),
  // of P or of a base of P (one struct's fields shared by schemes whose
  // tables list different ones).  The accessors are made here, for that
  // member's type only.
  template <class T, class B>
  ParamTable& add(T B::*base_member, ParamInfo info) {
    static_assert(std::is_base_of_v<B, P>, "a member of P or of a base of P");
    T P::*member = base_member;
    if constexpr (std::is_same_v<T, std::int64_t>) info.kind = ParamKind::INT;
    else if constexpr (std::is_same_v<T, double>) info.kind = ParamKind::FLOAT;
    else if constexpr (std::is_same_v<T, bool>) info.kind = ParamKind::BOOL;
    else if constexpr (std::is_same_v<T, std::string>) info.kind = ParamKind::CHOICE;
    else static_assert(sizeof(T) == 0, "parameters are int64_t, double, bool or std::string");
    getters_.emplace_back([member](const P& p, const ParamInfo& i) { return encode_value(p.*member, i); });
    setters_.emplace_back([member](P& p, const ParamInfo& i, double v) { decode_value(p.*member, i, v); });
    infos_.push_back(std::move(info));
    return *this;
  }

  const std::vector<ParamInfo>& infos() const { return infos_; }
  std::size_t size() const { return infos_.size(); }

  double get(const P& p, std::size_t i) const { return getters_[i](p, infos_[i]); }

  void set(P& p, std::size_t i, double value, std::string_view owner) const {
    check_param_value(infos_[i], value, owner);
    setters_[i](p, infos_[i], value);
  }

  std::vector<double> encode(const P& p) const {
    std::vector<double> out(size());
    for (std::size_t i = 0; i < size(); ++i) out[i] = get(p, i);
    return out;
  }

  // Builds a P from encoded values, validating each.
  P decode(const std::vector<double>& values, std::string_view owner) const {
    if (values.size() != size())
      throw ConfigError(std::string(owner) + ": expected " + std::to_string(size()) +
                        " parameter values, got " + std::to_string(values.size()));
    P p{};
    for (std::size_t i = 0; i < size(); ++i) set(p, i, values[i], owner);
    return p;
  }

 private:
  std::vector<std::function<double(const P&, const ParamInfo&)>> getters_;
  std::vector<std::function<void(P&, const ParamInfo&, double)>> setters_;
  std::vector<ParamInfo> infos_;
};

}  // namespace tbdse
