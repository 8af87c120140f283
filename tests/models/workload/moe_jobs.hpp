#pragma once
// The MoE jobs and the fabric parameters the expert-parallel tests share (issue 41).
#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/training_model.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload::test {

// The node's own compute NICs as the fabric the step model sees.
inline collective::FabricParams fabric_of(const hardware::NodeSpec& node) {
  collective::FabricParams f;
  f.nics_per_node = node.compute_nics;
  f.nic_bandwidth_bps = node.compute_nic_bandwidth_bps;
  return f;
}

// Mixtral 8x7B on 64 H100s as NeMo runs it with EP 8 (moe-hardware-stacks.md section 2); PP 4
// so that it fits, DP 16, the distributed optimizer, sequence 4096, one sequence per
// micro-batch, 128 a step (8 micro-batches per replica).
inline TrainingJobConfig mixtral_64_gpus() {
  TrainingJobConfig j;
  j.name = "mixtral";
  j.model = mixtral_8x7b();
  j.nodes = 8;
  j.parallelism.pp = 4;
  j.parallelism.ep = 8;
  j.parallelism.distributed_optimizer = true;
  j.global_batch_sequences = 128;
  return j;
}

}  // namespace dcsim::models::workload::test
