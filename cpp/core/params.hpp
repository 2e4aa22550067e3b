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
#include <string>
#include <string_view>
#include <variant>
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
};

// Checks `value` against `info`; throws ConfigError naming `owner` and the
// parameter and saying what is valid.
void check_param_value(const ParamInfo& info, double value, std::string_view owner);

// Index of `name` in `infos`, or ConfigError listing the valid names.
std::size_t find_param(const std::vector<ParamInfo>& infos, std::string_view name,
                       std::string_view owner);

template <class P>
class ParamTable {
 public:
  using Member = std::variant<std::int64_t P::*, double P::*, bool P::*, std::string P::*>;

  ParamTable& add(Member member, ParamInfo info) {
    info.kind = std::visit(
        [&](auto m) -> ParamKind {
          using T = std::remove_reference_t<decltype(P{}.*m)>;
          if constexpr (std::is_same_v<T, std::int64_t>) return ParamKind::INT;
          if constexpr (std::is_same_v<T, double>) return ParamKind::FLOAT;
          if constexpr (std::is_same_v<T, bool>) return ParamKind::BOOL;
          if constexpr (std::is_same_v<T, std::string>) return ParamKind::CHOICE;
        },
        member);
    members_.push_back(member);
    infos_.push_back(std::move(info));
    return *this;
  }

  const std::vector<ParamInfo>& infos() const { return infos_; }
  std::size_t size() const { return infos_.size(); }

  double get(const P& p, std::size_t i) const {
    return std::visit(
        [&](auto m) -> double {
          const auto& v = p.*m;
          using T = std::remove_cvref_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::int64_t>) {
            return v == kUnbounded ? kUnboundedValue : static_cast<double>(v);
          } else if constexpr (std::is_same_v<T, std::string>) {
            for (std::size_t c = 0; c < infos_[i].choices.size(); ++c)
              if (infos_[i].choices[c] == v) return static_cast<double>(c);
            return -1.0;
          } else {
            return static_cast<double>(v);
          }
        },
        members_[i]);
  }

  void set(P& p, std::size_t i, double value, std::string_view owner) const {
    check_param_value(infos_[i], value, owner);
    std::visit(
        [&](auto m) {
          auto& v = p.*m;
          using T = std::remove_cvref_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::int64_t>) {
            v = value == kUnboundedValue ? kUnbounded : static_cast<std::int64_t>(value);
          } else if constexpr (std::is_same_v<T, std::string>) {
            v = infos_[i].choices[static_cast<std::size_t>(value)];
          } else if constexpr (std::is_same_v<T, bool>) {
            v = value != 0.0;
          } else {
            v = value;
          }
        },
        members_[i]);
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
  std::vector<Member> members_;
  std::vector<ParamInfo> infos_;
};

}  // namespace tbdse
