#pragma once
// The scenario format's `fabric` and `traffic` sections (RoCE fabrics, issue 3). Both are
// optional and stay absent when left out; traffic needs a fabric to run on.

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// Topology parameter keys take the names, defaults and help of the topology registry's
// ParamSpecs, so `dcsim list topology` documents the same keys the scenario accepts.
FieldSpec fabric_section(const models::ModelRegistries& registries);
FieldSpec traffic_section();

}  // namespace dcsim::tools::scenario
