#pragma once
// The scenario keys of training jobs and of the node's hardware figures (issue 4), bound to the
// members they feed (binding.hpp); cluster_spec.cpp places them in its sections:
//   /cluster/node/{gpu_hbm, gpu_hbm_bandwidth, gpu_bf16_tflops, gpu_fp8_tflops, nvlink_bandwidth,
//                  nvls, compute_nics, compute_nic_bandwidth, storage_nics,
//                  storage_nic_bandwidth, nvme_write_bandwidth}   (default: from the preset)
//   /workload/training/*   training jobs (model preset + shape overrides, parallelism, batch,
//                          precision, steps, arrival, checkpoints: models/workload/training_job.hpp)

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/model_registries.hpp"
#include "models/workload/plan_search.hpp"
#include "models/workload/training_job.hpp"
#include "tools/scenario/binding.hpp"

namespace dcsim::tools::scenario {

// The node's hardware keys, bound into /cluster/node's bindings (cluster_spec.cpp) with the
// model's names ("node.gpu.hbm_bytes").
void bind_node_hardware(Bindings<models::hardware::NodeSpec>& node);
// One /workload/training entry, bound to TrainingJobSpec ("parallelism.tp", "checkpoint.pool").
Bindings<models::workload::TrainingJobSpec> training_job_bindings(const models::ModelRegistries& registries);

// Checks across keys: a training job's nodes within /cluster/nodes, names unique among
// /workload/jobs and /workload/training.
void check_training_cross_field(const nlohmann::json& resolved, ErrorList& errors);

// The collective model's view of the fabric for this cluster: the node's compute NICs, with the
// estimator's default switch latency and hops.
models::collective::FabricParams collective_fabric_params(const models::hardware::NodeSpec& node);

// After the bindings filled config.training_jobs from `list` (resolved /workload/training):
// what no single key says, then each job's plan (so `dcsim validate` reports a plan that does not
// divide or fit). A job with "parallelism": {"auto": true} gets the plan search_training_plan
// (models/workload/plan_search.hpp) finds, the keys `given_list` (/workload/training as read; may
// be null) gives in its parallelism object, and its micro_batch_size and recompute, pinned.
// Returns those jobs' indices and outcomes. Throws ConfigError "training[i].<field>".
std::vector<std::pair<std::size_t, models::workload::PlanSearchOutcome>> finish_training_jobs(
    const nlohmann::json& list, const nlohmann::json* given_list, const models::ModelRegistries& registries,
    models::cluster::ClusterConfig& config);

// The searched plans written into the resolved scenario (/workload/training/i/parallelism's keys,
// micro_batch_size, recompute; "auto" stays true): a run of the resolved scenario pins them all
// and evaluates that one plan, so it reproduces the choice.
void record_searched_plans(const models::cluster::ClusterConfig& config,
                           const std::vector<std::pair<std::size_t, models::workload::PlanSearchOutcome>>& searched,
                           nlohmann::json& resolved);

}  // namespace dcsim::tools::scenario
