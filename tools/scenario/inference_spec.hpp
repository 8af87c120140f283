#pragma once
// The scenario's `inference` section (models/inference): services, each a model served by
// replicas on the cluster's nodes, with its requests, router, autoscaler, gateway and SLA.

#include <vector>

#include "models/inference/service_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// What /inference maps to: its services.
struct InferenceSection {
  std::vector<models::inference::ServiceConfig> services;
};

// The keys of /inference and the ServiceConfig members they feed (binding.hpp); `registries`
// must outlive the bindings (the model key builds its preset through them).
Bindings<InferenceSection> inference_bindings(const models::ModelRegistries& registries);

FieldSpec inference_section(const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
