#pragma once
// /cluster/cloud_pool: cloud instances a bursting scheduler rents when on-prem capacity runs short
// (models/cluster/cloud_pool.hpp). The key spec, the checks across keys (the offer and its
// overrides, the instance shape, the scheduler that uses the pool), and the mapping to
// models::cluster::CloudPoolConfig.

#include <optional>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/field_origins.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec cloud_pool_field(const models::ModelRegistries& registries);

// On the resolved document (`given` for the overrides as written): a pool without a scheduler
// that uses one, or such a scheduler without a pool; offer_params the offer does not document or
// rejects; instances whose GPU count is not the node's.
void check_cloud_pool_cross_field(const nlohmann::json& given, const nlohmann::json& resolved,
                                  const models::ModelRegistries& registries, ErrorList& errors);

// The resolved /cluster section's pool, after the checks above passed; none without one. The
// fields' origins are recorded as "cloud_pool.<field>".
std::optional<models::cluster::CloudPoolConfig> map_cloud_pool(const OriginReader& resolved_cluster,
                                                                  const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
