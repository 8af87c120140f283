#pragma once
// /cluster/cloud_pool: cloud instances a bursting scheduler rents when on-prem capacity runs short
// (models/cluster/cloud_pool.hpp). The key spec, the checks across keys (the offer and its
// overrides, the instance shape, the scheduler that uses the pool), and the mapping to
// models::cluster::CloudPoolConfig.

#include <optional>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// Each key once, with the CloudPoolConfig member it feeds; the pool model names its fields
// "cloud_pool.<key>" (cloud_pool.offer_params.<param> for a figure of the offer).
Bindings<models::cluster::CloudPoolConfig> cloud_pool_bindings(const models::ModelRegistries& registries);
FieldSpec cloud_pool_field(const models::ModelRegistries& registries);

// On the resolved document (`given` for the overrides as written): a pool without a scheduler
// that uses one, or such a scheduler without a pool; offer_params the offer does not document or
// rejects; instances whose GPU count is not the node's.
void check_cloud_pool_cross_field(const nlohmann::json& given, const nlohmann::json& resolved,
                                  const models::ModelRegistries& registries, ErrorList& errors);

// The resolved /cluster section's pool, after the checks above passed; none without one.
std::optional<models::cluster::CloudPoolConfig> map_cloud_pool(const nlohmann::json& resolved_cluster,
                                                               const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
