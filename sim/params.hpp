#pragma once
// Parameters of one registered model or policy, validated against the ParamSpecs its registry
// entry documents (sim/registry.hpp) and handed to its factory. The scenario layer fills every
// documented parameter (given or default), so a factory reads what it needs without defaults of
// its own: `dcsim list`, the schema, `validate` and `run` cannot disagree.
//
// Values are numbers in the canonical SI unit of the spec's unit kind (durations in seconds,
// temperatures in C, power in W; see sim/units.hpp), booleans as 0/1, or text.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::sim {

struct ParamSpec;

class Params {
 public:
  // Every parameter of `specs` at its documented default (tests, programmatic use).
  static Params defaults(const std::vector<ParamSpec>& specs);

  void set_number(const std::string& name, double value) { numbers_[name] = value; }
  void set_text(const std::string& name, std::string value) { texts_[name] = std::move(value); }

  // Sets every parameter of `specs` not set yet to its documented default.
  void fill_defaults(const std::vector<ParamSpec>& specs);
  // Names set, sorted (for checks against the documented ones).
  std::vector<std::string> names() const;
  // ConfigError("<field_prefix><name>", "is not a parameter of <owner> (valid: ...)") for the
  // first parameter set that `specs` does not document.
  void require_documented(const std::vector<ParamSpec>& specs, const std::string& field_prefix,
                          const std::string& owner) const;

  bool has(const std::string& name) const { return numbers_.count(name) + texts_.count(name) > 0; }
  // A parameter the factory did not document is a bug (InternalError), not bad input.
  double number(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool flag(const std::string& name) const { return number(name) != 0.0; }
  Time duration(const std::string& name) const { return Time::from_seconds(number(name)); }
  const std::string& text(const std::string& name) const;

 private:
  std::map<std::string, double> numbers_;
  std::map<std::string, std::string> texts_;
};

// The value a ParamSpec's default_value text denotes, as Params stores it. `unit` is "" (number),
// "integer", "boolean", "string" or a quantity kind name ("duration", "power", ...).
// Sets it into `params`; InternalError when the text does not parse (a registration bug).
void set_param_from_text(Params& params, const ParamSpec& spec, const std::string& text);

}  // namespace dcsim::sim
