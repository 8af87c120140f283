#pragma once
// The scenario keys of training jobs and of the node's hardware figures (issue 4), bound to the
// members they feed (binding.hpp); cluster_spec.cpp places them in its sections:
//   /cluster/node/{gpu_hbm, gpu_hbm_bandwidth, gpu_bf16_tflops, gpu_fp8_tflops, nvlink_bandwidth,
//                  nvls, compute_nics, compute_nic_bandwidth, storage_nics,
//                  storage_nic_bandwidth, nvme_write_bandwidth}   (default: from the preset)
//   /workload/training/*   training jobs (model preset + shape overrides, parallelism, batch,
//                          precision, steps, arrival, checkpoints: models/workload/training_job.hpp)

#include <string>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/model_registries.hpp"
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
// divide or fit). Throws ConfigError "training[i].<field>".
void finish_training_jobs(const nlohmann::json& list, const models::ModelRegistries& registries,
                          models::cluster::ClusterConfig& config);

}  // namespace dcsim::tools::scenario
