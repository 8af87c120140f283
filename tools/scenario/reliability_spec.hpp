#pragma once
// The scenario's `reliability` section (random component faults, models/reliability): its
// FieldSpec. Absent section: no random faults.

#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec reliability_section();

}  // namespace dcsim::tools::scenario
