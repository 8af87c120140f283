#include "models/workload/training_job.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {
// BF16 weights (2 B) + Adam fp32 master weights, first and second moments (12 B): ZeRO
// (Rajbhandari et al. 2020) section 3.1 counts 16 B with the gradients, which are not saved.
constexpr double kCheckpointBytesPerParam = 2.0 + 12.0;
}  // namespace

double checkpoint_bytes(const TransformerModel& model) {
  return model.parameters() * kCheckpointBytesPerParam;
}

double TrainingJobPlan::nominal_duration_s() const {
  return steps * step.step_time_s + checkpoints * checkpoint_s;
}

double TrainingJobPlan::step_time_s(double clock_factor) const {
  return step.step_time_s * (clock_fraction / clock_factor + (1.0 - clock_fraction));
}

TrainingJobPlan plan_training_job(const TrainingJobSpec& spec, const hardware::NodeSpec& node,
                                  const collective::CollectiveRegistry& collectives) {
  if (spec.steps < 1) throw sim::ConfigError("steps", "must be a positive integer");
  if (spec.checkpoint.interval_steps < 0) {
    throw sim::ConfigError("checkpoint.interval_steps", "must not be negative");
  }
  if (spec.checkpoint.store_host >= 0 && spec.checkpoint.target != CheckpointTarget::kRemote) {
    throw sim::ConfigError("checkpoint.store_host", "a store host needs the remote checkpoint target");
  }
  if (spec.graph.max_dp_chunks < 1) {
    throw sim::ConfigError("max_dp_chunks", "must be a positive integer");
  }
  TrainingJobPlan plan;
  plan.job = spec.job;
  plan.fabric = spec.fabric;
  plan.graph_options = spec.graph;
  plan.step = estimate_training_step(spec.job, node, spec.fabric, collectives);
  const TrainingStepResult& r = plan.step;
  const double m = std::max(1, r.micro_batches);
  const double slot_compute = r.forward_s + r.backward_s;
  const double slot = slot_compute + (r.tp_comm_s + r.pp_comm_s) / m;
  const double bubble_clock = slot > 0.0 ? r.bubble_s * slot_compute / slot : 0.0;
  plan.clock_fraction =
      r.step_time_s > 0.0 ? std::clamp((r.compute_s + bubble_clock) / r.step_time_s, 0.0, 1.0) : 1.0;
  plan.steps = spec.steps;

  const auto& ck = spec.checkpoint;
  plan.checkpoint_interval_steps = ck.interval_steps;
  if (ck.interval_steps > 0) {
    plan.checkpoints = (spec.steps - 1) / ck.interval_steps;
    plan.checkpoint_bytes = checkpoint_bytes(spec.job.model);
    plan.checkpoint_bytes_per_node = plan.checkpoint_bytes / spec.job.nodes;
    if (ck.target == CheckpointTarget::kNvme) {
      plan.checkpoint_rate_bytes_per_s = node.nvme_write_bandwidth_bytes_per_s;
      if (!(plan.checkpoint_rate_bytes_per_s > 0.0)) {
        throw sim::ConfigError("node.nvme_write_bandwidth_bytes_per_s",
                               "checkpoints to NVMe need a positive NVMe write bandwidth");
      }
    } else {
      double rate = node.storage_nics * node.storage_nic_bandwidth_bps / 8.0;
      if (ck.remote_bandwidth_bps > 0.0) {
        rate = std::min(rate, ck.remote_bandwidth_bps / 8.0 / spec.job.nodes);
      }
      if (!(rate > 0.0)) {
        throw sim::ConfigError("node.storage_nics",
                               "checkpoints to a remote store need storage NICs");
      }
      plan.checkpoint_rate_bytes_per_s = rate;
      plan.checkpoint_store_host = ck.store_host;
    }
    plan.checkpoint_s = plan.checkpoint_bytes_per_node / plan.checkpoint_rate_bytes_per_s;
  }
  return plan;
}

}  // namespace dcsim::models::workload
