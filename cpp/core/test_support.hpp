// Helpers shared by the core's doctest files (*_test.cpp).
#pragma once

#include <functional>
#include <string>

#include "core/errors.hpp"

namespace tbdse::test_support {

// The message of the ConfigError that f throws; "(no ConfigError)" if it throws none.
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no ConfigError)";
}

}  // namespace tbdse::test_support
