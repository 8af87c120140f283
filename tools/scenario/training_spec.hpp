#pragma once
// The scenario keys of training jobs and of the node's hardware figures (issue 4), kept apart from
// scenario_spec.cpp so the sections that colleagues own stay untouched:
//   /cluster/node/{gpu_hbm, gpu_hbm_bandwidth, gpu_bf16_tflops, gpu_fp8_tflops, nvlink_bandwidth,
//                  nvls, compute_nics, compute_nic_bandwidth, storage_nics,
//                  storage_nic_bandwidth, nvme_write_bandwidth}   (default: from the preset)
//   /workload/training/*   training jobs (model preset + shape overrides, parallelism, batch,
//                          precision, steps, arrival, checkpoints)
// and their mapping to model configs (models/workload/training_job.hpp).

#include <string>

#include <nlohmann/json.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/cluster/cluster_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/field_origins.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// Adds the node hardware keys to /cluster/node and the training array to /workload of `root`
// (the scenario spec). Sections that are missing are left alone.
void add_training_fields(FieldSpec& root, const models::ModelRegistries& registries);

// Fills the node hardware keys not given from the preset's figures (resolved units: bit/s, B).
void fill_node_hardware_from_preset(nlohmann::json& node, const models::hardware::NodeSpec& preset);
// Resolved /cluster/node (read with the "node." field prefix) -> the hardware fields of `node`.
void map_node_hardware(const OriginReader& node_json, models::hardware::NodeSpec& node);

// Checks across keys: a training job's nodes within /cluster/nodes, names unique among
// /workload/jobs and /workload/training.
void check_training_cross_field(const nlohmann::json& resolved, ErrorList& errors);

// The collective model's view of the fabric for this cluster: the node's compute NICs, with the
// estimator's default switch latency and hops.
models::collective::FabricParams collective_fabric_params(const models::hardware::NodeSpec& node);

// Resolved /workload/training -> config.training_jobs, and plans each one (so `dcsim validate`
// reports a plan that does not divide or fit). Throws ConfigError "training[i].<field>"; the
// fields' origins go to `origins`.
void map_training_jobs(const nlohmann::json& resolved, const models::ModelRegistries& registries,
                       models::cluster::ClusterConfig& config, FieldOrigins& origins);

}  // namespace dcsim::tools::scenario
