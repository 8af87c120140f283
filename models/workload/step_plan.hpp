#pragma once
// Private to models/workload: how the step model (training_step.cpp) lays a job's GPUs out,
// checked against the node: tp x cp x pp x dp ranks, the virtual stages, the micro-batches per
// step and the layers of each stage. Every check throws sim::ConfigError naming the job's field.

#include <string>
#include <vector>

#include "models/hardware/node_spec.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

struct StepPlan {
  int gpus, tp, pp, dp, cp, v, m;
  int ep;                   // expert parallelism (1: none)
  int data_shards;          // dp x cp: ranks per stage and tp rank that hold the same weights
  std::vector<int> layers;  // per stage
  std::vector<int> moe_layers;  // per stage: those with experts (issue 41)
};

// Throws sim::ConfigError for a plan that does not divide the GPUs, a TP group larger than the
// NVLink domain, a batch that does not divide, a pipeline deeper than the layers, ...
StepPlan make_step_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node);

// The message of a plan whose stage `stage` needs `m` per GPU, more than `usable` bytes: the
// breakdown, and only the changes the job does not already use.
std::string memory_error(const TrainingJobConfig& job, const StepPlan& plan, const hardware::NodeSpec& node,
                         const MemoryBreakdown& m, int stage, double usable);

}  // namespace dcsim::models::workload
