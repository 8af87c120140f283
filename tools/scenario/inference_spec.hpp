#pragma once
// The scenario's `inference` section (models/inference): services, each a model served by
// replicas on the cluster's nodes, with its requests, router, autoscaler, gateway and SLA.

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec inference_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
