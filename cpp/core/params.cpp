#include "params.hpp"

#include <cmath>
#include <sstream>

namespace tbdse {

namespace {

std::string format_number(double v) {
  if (std::isinf(v)) return v > 0 ? "unbounded" : "-inf";
  std::ostringstream out;
  out.precision(12);
  out << v;
  return out.str();
}

std::string kind_word(const ParamInfo& info) {
  switch (info.kind) {
    case ParamKind::INT: return "an integer";
    case ParamKind::FLOAT: return "a number";
    case ParamKind::BOOL: return "true or false";
    case ParamKind::CHOICE: return "one of " + join_names(info.choices, " or ");
  }
  return "a value";
}

std::string range_words(const ParamInfo& info) {
  std::string out;
  const bool has_min = std::isfinite(info.min_value);
  const bool has_max = std::isfinite(info.max_value);
  if (has_min && has_max) {
    out = " in [" + format_number(info.min_value) + ", " + format_number(info.max_value) + "]";
  } else if (has_min) {
    out = " >= " + format_number(info.min_value);
  } else if (has_max) {
    out = " <= " + format_number(info.max_value);
  }
  if (info.unbounded_ok) out += " or 'unbounded'";
  if (info.auto_ok) out += " or 'auto'";
  return out;
}

}  // namespace

void check_param_value(const ParamInfo& info, double value, std::string_view owner) {
  const auto fail = [&](const std::string& got) {
    throw ConfigError(std::string(owner) + " parameter '" + info.name + "' must be " +
                      kind_word(info) + range_words(info) + "; got " + got);
  };
  if (std::isnan(value)) fail("nan");
  if (info.auto_ok && value == kAutoValue) return;
  if (std::isinf(value)) {
    if (value > 0 && info.unbounded_ok) return;
    fail(value > 0 ? "unbounded" : "-inf");
  }
  switch (info.kind) {
    case ParamKind::INT:
      if (std::floor(value) != value) fail(format_number(value));
      if (std::abs(value) > 9007199254740992.0) fail(format_number(value));
      break;
    case ParamKind::BOOL:
      if (value != 0.0 && value != 1.0) fail(format_number(value));
      return;
    case ParamKind::CHOICE:
      if (std::floor(value) != value || value < 0 ||
          value >= static_cast<double>(info.choices.size()))
        fail("choice index " + format_number(value));
      return;
    case ParamKind::FLOAT: break;
  }
  if (value < info.min_value || value > info.max_value) fail(format_number(value));
}

std::size_t find_param(const std::vector<ParamInfo>& infos, std::string_view name,
                       std::string_view owner) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    if (infos[i].name == name) return i;
    names.push_back(infos[i].name);
  }
  if (names.empty())
    throw ConfigError(std::string(owner) + " has no parameters; got '" + std::string(name) + "'");
  throw_unknown_name(std::string(owner) + " parameter", name, names);
}

}  // namespace tbdse
