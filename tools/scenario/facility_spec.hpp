#pragma once
// The scenario's `facility` section (power delivery, cooling plant, zones, plant faults): its
// FieldSpec. Absent section: no facility model, node power from the cluster's linear model.

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec facility_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
