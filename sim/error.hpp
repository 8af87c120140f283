#pragma once
// Typed errors. The library throws and never exits; the CLI maps the types to exit codes
// (InputError -> 2, anything else -> 1). An error that escapes an event other than bad input
// becomes an InternalError carrying the event's number, the simulated time and the code that
// scheduled it (the callable's type: class and function; Simulator::step_until), OMNeT++'s
// cRuntimeError habit, so a failure deep in a long run can be located.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace dcsim::sim {

// Messages are for people: one longer than this many bytes (a 100 KB value or key echoed back)
// keeps its start and end around a marker that says how much was left out; a list of more than
// kMaxInputErrors problems (100,001 duplicate job names) keeps the first and says how many more.
inline constexpr std::size_t kMaxMessageBytes = 2000;
inline constexpr std::size_t kMaxInputErrors = 100;

// `text` cut to at most `max_bytes` (kept on UTF-8 character boundaries): its start and end with
// " [... N bytes left out ...] " between them. Clipping a clipped message again (a prefix added
// to it) cuts at the same place and adds up the bytes left out.
std::string clip_message(std::string text, std::size_t max_bytes = kMaxMessageBytes);

// Bad user input of any kind (scenario, command line, data file). Exit code 2. The message is
// clipped (clip_message).
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message);
  explicit InputError(const char* message);

 protected:
  struct Unclipped {};
  InputError(Unclipped, const std::string& message) : std::runtime_error(message) {}
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

// Several input errors reported together (validation reports all, not just the first). Each
// message is clipped; past kMaxInputErrors, the rest are counted in one last line.
class InputErrors : public InputError {
 public:
  explicit InputErrors(std::vector<std::string> messages);
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  struct Capped {};
  InputErrors(Capped, std::vector<std::string> messages);
  std::vector<std::string> messages_;
};

// A violated invariant: "this is a bug". Exit code 1.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace dcsim::sim
