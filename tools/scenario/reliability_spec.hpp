#pragma once
// The scenario's `reliability` section (random component faults, models/reliability): each key
// declared once, with the FaultModelConfig member it feeds (tools/scenario/binding.hpp). Absent
// section: no random faults.

#include "models/reliability/fault_class.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

Bindings<models::reliability::FaultModelConfig> reliability_bindings();
FieldSpec reliability_section();

}  // namespace dcsim::tools::scenario
