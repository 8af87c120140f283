#pragma once
// Typed errors. The library throws and never exits; the CLI maps the types to exit codes
// (InputError -> 2, anything else -> 1). Runtime errors carry simulated time and component path
// (OMNeT++'s cRuntimeError habit), so a failure deep in a long run can be located.

#include <stdexcept>
#include <string>
#include <vector>

namespace dcsim::sim {

// Bad user input of any kind (scenario, command line, data file). Exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A text that does not parse as the quantity it should be ("40 Gbps" where a duration is due).
// The scenario layer catches it and prefixes the JSON pointer.
class ParseError : public InputError {
 public:
  using InputError::InputError;
};

// A model rejects a config value: `field` is the config field's dotted name relative to the
// model's config struct (e.g. "jobs[3].nodes"), which the scenario layer maps to a JSON pointer.
class ConfigError : public InputError {
 public:
  ConfigError(std::string field, const std::string& message)
      : InputError(field + ": " + message), field_(std::move(field)), detail_(message) {}
  const std::string& field() const { return field_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string field_;
  std::string detail_;
};

// Several input errors reported together (validation reports all, not just the first).
class InputErrors : public InputError {
 public:
  explicit InputErrors(std::vector<std::string> messages);
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
};

// A violated invariant: "this is a bug". Exit code 1.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace dcsim::sim
