#pragma once
// The scenario's `economics` section (models/economics, economics_model.hpp): each key declared
// once, with the EconomicsConfig member it feeds (tools/scenario/binding.hpp). The price presets
// are built by map_economics_section (economics_mapping.hpp) from their registries; their keys
// locate the model's errors about the prices they chose. Absent section: the run prices nothing.

#include "models/economics/economics_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

Bindings<models::economics::EconomicsConfig> economics_bindings(const models::ModelRegistries& registries);
FieldSpec economics_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
