#pragma once
// The scenario's `economics` section (models/economics, economics_model.hpp): its FieldSpec.
// Absent section: the run prices nothing.

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec economics_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
