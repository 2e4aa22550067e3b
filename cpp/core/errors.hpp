// Error types of the simulator.  Bad input is a ConfigError (Python sees
// tbdse.ConfigError, a ValueError); a run that cannot finish is a
// SimulationError / DeadlockError (RuntimeError in Python).  The simulator
// never aborts or exits: every failure is one of these with a message naming
// the offending key, node or parameter and what would be valid.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "types.hpp"

namespace tbdse {

class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that can never finish.  Carries the ids of (some of) the stuck tasks.
class DeadlockError : public SimulationError {
 public:
  DeadlockError(const std::string& message, std::vector<TaskId> stuck_tasks)
      : SimulationError(message), stuck_tasks_(std::move(stuck_tasks)) {}
  const std::vector<TaskId>& stuck_tasks() const { return stuck_tasks_; }

 private:
  std::vector<TaskId> stuck_tasks_;
};

// "a, b or c" for error messages.
std::string join_names(const std::vector<std::string>& names, std::string_view last_sep = " or ");

// The valid name closest to `name` (edit distance), or "" when none is close.
std::string closest_name(std::string_view name, const std::vector<std::string>& valid);

// ConfigError for an unknown name: "unknown <what> 'x'; did you mean 'y'? valid: a, b, c".
[[noreturn]] void throw_unknown_name(std::string_view what, std::string_view name,
                                     const std::vector<std::string>& valid);

}  // namespace tbdse
