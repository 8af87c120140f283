#pragma once
// Helpers shared by the economics tests.

#include <string>

#include "sim/error.hpp"

namespace dcsim::test {

// The field a sim::ConfigError thrown by f names; "" when f throws nothing (a failed CHECK then
// shows the expected field against "").
template <class F>
std::string config_error_field(F&& f) {
  try {
    f();
  } catch (const sim::ConfigError& e) {
    return e.field();
  }
  return "";
}

}  // namespace dcsim::test
