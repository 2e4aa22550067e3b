#include "params.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

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

// The encoded value of `text` as a user writes it for `info` (a table's
// read_when values); a value the parameter cannot take is a bug in the table.
double encode_text(const ParamInfo& info, const std::string& text) {
  if (text == "unbounded") return kUnboundedValue;
  if (text == "auto") return kAutoValue;
  if (info.kind == ParamKind::BOOL) {
    if (text == "true" || text == "false") return text == "true" ? 1.0 : 0.0;
  } else if (info.kind == ParamKind::CHOICE) {
    for (std::size_t c = 0; c < info.choices.size(); ++c)
      if (info.choices[c] == text) return static_cast<double>(c);
  } else {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  }
  throw std::logic_error("read_when value '" + text + "' is not a value of parameter '" +
                         info.name + "'");
}

// An encoded value as a user writes it: 'lvl', true, 'unbounded', 'auto', 4.
std::string value_text(const ParamInfo& info, double v) {
  if (std::isinf(v) && v > 0) return "'unbounded'";
  if (info.auto_ok && v == kAutoValue) return "'auto'";
  if (info.kind == ParamKind::BOOL) return v != 0.0 ? "true" : "false";
  if (info.kind == ParamKind::CHOICE) return "'" + info.choices.at(static_cast<std::size_t>(v)) + "'";
  return format_number(v);
}

const ParamInfo* find_info(const std::vector<ParamInfo>& infos, std::string_view name) {
  for (const ParamInfo& info : infos)
    if (info.name == name) return &info;
  return nullptr;
}

bool is_gpu_term(const ReadTerm& t) { return std::string_view(t.param).starts_with(kGpuPrefix); }

std::size_t index_of(const std::vector<ParamInfo>& infos, const std::string& name) {
  for (std::size_t i = 0; i < infos.size(); ++i)
    if (infos[i].name == name) return i;
  throw std::logic_error("read_when names an unknown parameter '" + name + "'");
}

// `parts` joined by `sep` every time ("a and b and c": read_when_words keeps
// each condition's words whole, where join_names writes "a, b and c").
std::string join_all(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? std::string(sep) : "") + parts[i];
  return out;
}

// "policy is 'lrr' or 'grr'", "pending_updates is not 'unbounded'".
std::string term_words(const ReadTerm& t) {
  std::vector<std::string> shown;
  for (const std::string& v : t.values) {
    const bool bare = v == "true" || v == "false" ||
                      v.find_first_not_of("0123456789.-e") == std::string::npos;
    shown.push_back(bare ? v : "'" + v + "'");
  }
  return t.param + (t.among ? " is " : " is not ") + join_names(shown, " or ");
}

// Whether term `t` holds at `values`; a term on a GPU field does (see param_read).
bool term_holds(const std::vector<ParamInfo>& infos, std::span<const double> values,
                const ReadTerm& t) {
  if (is_gpu_term(t)) return true;
  const std::size_t j = index_of(infos, t.param);
  bool among = false;
  for (const std::string& v : t.values) among = among || encode_text(infos[j], v) == values[j];
  return among == t.among;
}

}  // namespace

std::string read_when_words(const ParamInfo& info) {
  std::vector<std::string> conditions;
  for (const ReadWhen& w : info.read_when) {
    std::vector<std::string> terms;
    for (const ReadTerm& t : w.any) terms.push_back(term_words(t));
    std::string text = join_all(terms, " or ");
    if (terms.size() > 1 && info.read_when.size() > 1) text = "(" + text + ")";
    conditions.push_back(std::move(text));
  }
  return join_all(conditions, " and ");
}

void check_read_when(const std::vector<ParamInfo>& infos,
                     const std::vector<ParamInfo>& gpu_infos) {
  for (const ParamInfo& info : infos) {
    for (const ReadWhen& w : info.read_when) {
      if (w.any.empty())
        throw std::logic_error("parameter '" + info.name + "' has a read_when with no terms");
      for (const ReadTerm& t : w.any) {
        const bool gpu = is_gpu_term(t);
        const ParamInfo* other =
            gpu ? find_info(gpu_infos, std::string_view(t.param).substr(kGpuPrefix.size()))
                : find_info(infos, t.param);
        if (other == nullptr)
          throw std::logic_error("read_when of parameter '" + info.name + "' names an unknown " +
                                 (gpu ? "GPU field '" : "parameter '") + t.param + "'");
        if (other == &info)
          throw std::logic_error("parameter '" + info.name + "' is read when it has a value");
        if (t.values.empty())
          throw std::logic_error("read_when of parameter '" + info.name + "' on '" + t.param +
                                 "' names no value");
        for (const std::string& v : t.values) {
          try {
            check_param_value(*other, encode_text(*other, v), "read_when");
          } catch (const ConfigError& e) {
            throw std::logic_error("read_when of parameter '" + info.name + "': " + e.what());
          }
        }
      }
    }
  }
}

bool param_read(const std::vector<ParamInfo>& infos, std::span<const double> values,
                std::size_t i, std::string* why, std::string* controls) {
  for (const ReadWhen& w : infos.at(i).read_when) {
    bool holds = false;
    for (const ReadTerm& t : w.any) holds = holds || term_holds(infos, values, t);
    if (holds) continue;
    std::vector<std::string> now, names;
    for (const ReadTerm& t : w.any) {
      const std::size_t j = index_of(infos, t.param);
      now.push_back(t.param + " = " + value_text(infos[j], values[j]));
      names.push_back(t.param);
    }
    if (why) *why = join_names(now, " and ");
    if (controls) *controls = join_names(names, " or ");
    return false;
  }
  return true;
}

void check_params_read(const std::vector<ParamInfo>& infos, std::span<const double> values,
                       std::span<const std::size_t> given, std::string_view owner) {
  for (const std::size_t g : given) {
    std::string why, controls;
    if (param_read(infos, values, g, &why, &controls)) continue;
    std::vector<std::string> read;
    for (std::size_t i = 0; i < infos.size(); ++i)
      if (param_read(infos, values, i)) read.push_back(infos[i].name);
    const bool one = controls.find(' ') == std::string::npos;
    throw ConfigError(std::string(owner) + " parameter '" + infos[g].name +
                      "' is read only when " + read_when_words(infos[g]) + "; " + why +
                      (one ? " leaves" : " leave") +
                      " it unread, so setting it would change nothing (drop it, or change " +
                      controls + "); this run reads: " +
                      (read.empty() ? std::string("(none)") : join_names(read, ", ")));
  }
}

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
