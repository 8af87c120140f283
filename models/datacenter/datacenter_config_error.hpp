#pragma once
// The error a datacenter part's config earns (datacenter.hpp): which part, and the part's own
// field, so the scenario layer can map the pair to a JSON pointer.

#include <string>

#include "sim/error.hpp"

namespace dcsim::models::datacenter {

// A part rejected its config: `part` is "cluster", "fabric", "facility" or a subsystem's name,
// field() the part's own field name (the scenario layer maps the pair to a JSON pointer).
class DatacenterConfigError : public sim::ConfigError {
 public:
  DatacenterConfigError(std::string part, const sim::ConfigError& error)
      : sim::ConfigError(error.field(), error.detail()), part_(std::move(part)) {}
  DatacenterConfigError(std::string part, std::string field, const std::string& detail)
      : sim::ConfigError(std::move(field), detail), part_(std::move(part)) {}
  const std::string& part() const { return part_; }

 private:
  std::string part_;
};

}  // namespace dcsim::models::datacenter
