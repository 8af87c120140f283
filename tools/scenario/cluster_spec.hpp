#pragma once
// The keys that feed the cluster model (models/cluster/cluster_config.hpp), each declared once
// with the member it feeds (binding.hpp): /cluster (the node, racks, GPU phase power; its
// cloud_pool is cloud_pool_spec.hpp's), /workload (jobs, generators, traces; training jobs are
// training_spec.hpp's), /policies and /outputs. The model names its fields after ClusterConfig
// ("node.gpus", "jobs[2].work", "generators[0].work_s", "scheduler_params.backfill_depth",
// "training[1].parallelism.tp"); cluster_pointer() finds their keys.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/model_registries.hpp"
#include "models/workload/plan_search.hpp"
#include "tools/scenario/binding.hpp"

namespace dcsim::tools::scenario {

// /cluster/node: a preset and the figures that override it.
Bindings<models::hardware::NodeSpec> node_bindings(const models::ModelRegistries& registries);
Bindings<models::cluster::ClusterConfig> cluster_bindings(const models::ModelRegistries& registries);
Bindings<models::cluster::ClusterConfig> workload_bindings(const models::ModelRegistries& registries);
Bindings<models::cluster::ClusterConfig> policies_bindings(const models::ModelRegistries& registries);
Bindings<models::cluster::ClusterConfig> outputs_bindings();

// Resolved /cluster, /workload, /policies and /outputs -> `config` (what the keys say; the
// loader adds what depends on the rest of the scenario: seed, duration, traces). `given` (the
// scenario as read) tells which keys an automatic training plan pins; returns the searched plans
// (finish_training_jobs). Training job i runs with software[i] (its own `software`, else
// /software).
std::vector<std::pair<std::size_t, models::workload::PlanSearchOutcome>> map_cluster_sections(
    const nlohmann::json& resolved, const nlohmann::json& given, const models::ModelRegistries& registries,
    const std::vector<models::workload::SoftwareStack>& software, models::cluster::ClusterConfig& config);

// The key of a cluster model's field (`resolved`: the whole resolved scenario), or nothing for
// a value of the model's own.
std::optional<std::string> cluster_pointer(std::string_view field, const models::ModelRegistries& registries,
                                           const nlohmann::json& resolved);

}  // namespace dcsim::tools::scenario
