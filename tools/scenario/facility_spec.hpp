#pragma once
// The scenario's `facility` section (power delivery, cooling plant, zones, plant faults): each key
// bound to the FacilityConfig member it feeds (binding.hpp). Absent section: no facility model,
// node power from the cluster's linear model.

#include "models/facility/facility_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// The keys of /facility and the FacilityConfig members they feed.
Bindings<models::facility::FacilityConfig> facility_bindings(const models::ModelRegistries& registries);

FieldSpec facility_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
