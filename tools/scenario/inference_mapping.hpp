#pragma once
// Resolved `inference` section -> models::inference::ServiceConfig per service (Scenario::inference),
// with the checks the spec alone cannot make: the cluster exists (replicas run on its nodes), a
// stream that never ends has a stop or /duration, the arrival process has its parameters, lengths
// have theirs (min <= max), min <= replicas <= max, max_batched_tokens >= max_batch, names are
// unique, the trace file reads (file:line for a bad row), the autoscaler's parameters are its
// own, and the model fits a replica (built once here with the model's own checks: tp dividing
// the heads, weights and KV cache in HBM). Throws sim::InputErrors, each
// "<source>:<JSON pointer>: <problem>".

#include <vector>

#include <nlohmann/json.hpp>

#include "models/inference/service_config.hpp"
#include "models/model_registries.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster and duration mapped; `given` is the document as given (for the
// params keys the autoscaler does not document).
std::vector<models::inference::ServiceConfig> map_inference_section(const nlohmann::json& resolved,
                                                                    const nlohmann::json& given,
                                                                    const Scenario& scenario,
                                                                    const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
