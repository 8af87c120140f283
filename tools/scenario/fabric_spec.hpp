#pragma once
// The scenario format's `fabric`, `frontend` and `traffic` sections (RoCE fabrics). All are
// optional and stay absent when left out; traffic needs a fabric to run on.

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// Topology parameter keys take the names, defaults and help of the topology registry's
// ParamSpecs, so `dcsim list topology` documents the same keys the scenario accepts.
FieldSpec fabric_section(const models::ModelRegistries& registries);
// The nodes' front-end network (storage NICs): the same keys as /fabric.
FieldSpec frontend_section(const models::ModelRegistries& registries);
FieldSpec traffic_section();

}  // namespace dcsim::tools::scenario
