#include "errors.hpp"

#include <algorithm>
#include <cctype>

namespace tbdse {

std::string join_names(const std::vector<std::string>& names, std::string_view last_sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? std::string(last_sep) : std::string(", ");
    out += names[i];
  }
  return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& valid) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& candidate : valid) {
    const std::size_t d = edit_distance(name, candidate);
    if (best.empty() || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // Only suggest when the misspelling is plausibly of that name, or when the
  // name is the start of exactly one valid name (tbdse.params.suggest agrees).
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  if (best_distance <= limit) return best;
  std::string prefix_of;
  if (name.size() >= 3)
    for (const auto& candidate : valid)
      if (candidate.rfind(name, 0) == 0) {
        if (!prefix_of.empty()) return std::string();
        prefix_of = candidate;
      }
  return prefix_of;
}

void throw_unknown_name(std::string_view what, std::string_view name,
                        const std::vector<std::string>& valid) {
  std::string message = "unknown " + std::string(what) + " '" + std::string(name) + "'";
  const std::string suggestion = closest_name(name, valid);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  message += " Valid: " + join_names(valid, ", ") + ".";
  throw ConfigError(message);
}

}  // namespace tbdse
