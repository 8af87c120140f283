#pragma once
// Parameters of registered models and policies in scenario files. A registry entry documents
// its parameters as sim::ParamSpecs (name, unit, default, range, help); here they become
// FieldSpecs, so the scenario format validates them like any other key, the schema and the key
// reference (docs/scenario-keys.md) list them, and the mapped sim::Params reach the entry's factory:
//
//   "policies": { "scheduler": "easy_backfill", "scheduler_params": { "queue_depth": 50 } }
//
// The params object accepts the union of every entry's parameters (so the schema can list them);
// a key given that the chosen entry does not document is an error at its JSON pointer naming
// the entry's valid keys. Keys not given take the entry's documented defaults (in the factory's
// config), so a default is stated once, in the registration.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/params.hpp"
#include "sim/registry.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

struct EntryParams {
  std::string name;
  const std::vector<sim::ParamSpec>* params;
};

template <class Factory>
std::vector<EntryParams> entry_params(const sim::Registry<Factory>& registry) {
  std::vector<EntryParams> out;
  for (const auto& e : registry.entries()) out.push_back({e.name, &e.params});
  return out;
}

// "0 < x <= 1", "x >= 1", "x > 0", "" -> Range. InternalError when the text is not one of these
// forms (a registration bug; a contract test parses every registered range).
Range parse_param_range(const std::string& text);

// The FieldSpec of one documented parameter (no default: absent keys stay absent and take the
// entry's default when mapped).
FieldSpec param_field(const sim::ParamSpec& spec, const std::string& used_by);

// The params object `key` of a registry: every entry's parameters, each once (a name documented
// by two entries with different units or ranges is an InternalError).
FieldSpec params_object_field(std::string key, std::string description, const std::vector<EntryParams>& entries);

// Adds an error for each key of `given_params` (the object as given, may be null) that entry
// `chosen` does not document. `pointer` is the params object's JSON pointer.
void check_params_of_entry(const nlohmann::json* given_params, const std::string& pointer,
                           const std::string& kind, const std::string& chosen,
                           const std::vector<EntryParams>& entries, ErrorList& errors);

// The resolved params object (may be null) as sim::Params: given keys only, SI values. Run after
// check_params_of_entry (which refuses keys the entry does not document).
sim::Params params_from_resolved(const nlohmann::json* resolved_params);

}  // namespace dcsim::tools::scenario
