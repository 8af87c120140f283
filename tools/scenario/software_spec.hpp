#pragma once
// The scenario's `software` section (issue 40, item 1): the software stack every training job and
// inference service runs with (models/workload/software_stack.hpp), a registered preset with
// what a site measured written over it, or a profile `dcsim calibrate` wrote:
//
//   "software": {"stack": "nemo-24.09"}
//   "software": {"stack": "nemo-25.02", "params": {"network_efficiency": 0.9}}
//   "software": {"profile": "site-a.profile.json"}   (beside the scenario; its own stack and params)
//
// Left out: the default stack (kDefaultSoftwareStack) with its figures as registered.

#include <string>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "models/workload/software_stack.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec software_section(const models::ModelRegistries& registries);

// The `software` key of one training job or inference service: the same object, replacing
// /software for it (`what`: "training job", "service").
FieldSpec software_override_field(const models::ModelRegistries& registries, const std::string& what);

// The stack a resolved software object at `pointer` names (`given_section`: as written, may be
// null). Errors as map_software_section's.
models::workload::SoftwareStack map_software_object(const nlohmann::json* given_section, const nlohmann::json& section,
                                                    const std::string& pointer, const std::string& source,
                                                    const models::ModelRegistries& registries);

// The stack /software names (absent: the default). Throws sim::InputErrors located at the
// offending key: an unknown stack, a parameter the stack does not document or out of its range,
// a profile that cannot be read or does not hold a valid "software" object (located in the
// profile's file).
models::workload::SoftwareStack map_software_section(const nlohmann::json& given, const nlohmann::json& resolved,
                                                     const std::string& source,
                                                     const models::ModelRegistries& registries);

// A profile's "software" object as a scenario writes it: {"stack": name, "params": {...}}, the
// durations as quantities ("1.4e-06 s"). What `dcsim calibrate` writes.
nlohmann::json software_object(const std::string& stack_name, const models::workload::SoftwareStack& stack,
                               const models::workload::SoftwareStack& base);

}  // namespace dcsim::tools::scenario
