#include "models/workload/training_job.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {
// BF16 weights (2 B) + Adam fp32 master weights, first and second moments (12 B): ZeRO
// (Rajbhandari et al. 2020) section 3.1 counts 16 B with the gradients, which are not saved.
constexpr double kCheckpointBytesPerParam = 2.0 + 12.0;

// Share of the nominal step that scales with 1 / clock factor (see the header).
double clock_fraction_of(const TrainingStepResult& r) {
  const double m = std::max(1, r.micro_batches);
  const double slot_compute = r.forward_s + r.backward_s;
  const double slot = slot_compute + (r.tp_comm_s + r.cp_exposed_s + r.amax_reduction_s + r.pp_comm_s + r.ep_s) / m;
  const double bubble_clock = slot > 0.0 ? r.bubble_s * slot_compute / slot : 0.0;
  return r.step_time_s > 0.0 ? std::clamp((r.compute_s + bubble_clock) / r.step_time_s, 0.0, 1.0) : 1.0;
}

// Checkpoint count, bytes, per-node share and write rate of `plan` (at its interval) on `nodes`
// nodes (see the header).
void size_checkpoints(TrainingJobPlan& plan, int nodes, const hardware::NodeSpec& node) {
  const CheckpointConfig& ck = plan.checkpoint_config;
  if (plan.checkpoint_interval_steps > 0) {
    plan.checkpoints = (plan.steps - 1) / plan.checkpoint_interval_steps;
    plan.checkpoint_bytes = checkpoint_bytes(plan.job.model, plan.job.lora);
    plan.checkpoint_bytes_per_node = plan.checkpoint_bytes / nodes;
    if (ck.target == CheckpointTarget::kNvme) {
      plan.checkpoint_rate_bytes_per_s = node.nvme_write_bandwidth_bytes_per_s;
      if (!(plan.checkpoint_rate_bytes_per_s > 0.0)) {
        throw sim::ConfigError("node.nvme_write_bandwidth_bytes_per_s",
                               "checkpoints to NVMe need a positive NVMe write bandwidth");
      }
    } else {
      const bool frontend = ck.network == CheckpointNetwork::kFrontend;
      double rate = frontend ? node.storage_nics * node.storage_nic_bandwidth_bps / 8.0
                             : node.compute_nics * node.compute_nic_bandwidth_bps / 8.0;
      if (ck.remote_bandwidth_bps > 0.0) {
        rate = std::min(rate, ck.remote_bandwidth_bps / 8.0 / nodes);
      }
      if (!(rate > 0.0)) {
        throw sim::ConfigError(frontend ? "node.storage_nics" : "node.compute_nics",
                               frontend ? "checkpoints to a remote store over the front-end network need storage NICs"
                                        : "checkpoints to a remote store over the backend need compute NICs");
      }
      plan.checkpoint_rate_bytes_per_s = rate;
      plan.checkpoint_store_host = ck.store_host;
    }
    plan.checkpoint_s = plan.checkpoint_bytes_per_node / plan.checkpoint_rate_bytes_per_s;
    if (ck.async) {
      if (!(ck.snapshot_bytes_per_s_per_gpu > 0.0)) {
        throw sim::ConfigError("checkpoint.snapshot_bytes_per_s_per_gpu", "must be positive");
      }
      plan.checkpoint_snapshot_rate_bytes_per_s = node.gpus * ck.snapshot_bytes_per_s_per_gpu;
      plan.checkpoint_s = plan.checkpoint_bytes_per_node / plan.checkpoint_snapshot_rate_bytes_per_s;
    }
  }
}

}  // namespace

double checkpoint_bytes(const TransformerModel& model) {
  return model.parameters() * kCheckpointBytesPerParam;
}

double checkpoint_bytes(const TransformerModel& model, const LoraConfig& lora) {
  if (!lora.enabled()) return checkpoint_bytes(model);
  // A fine-tuning checkpoint keeps what trains: the adapters and their Adam state.
  return model.layers * lora_parameters_per_layer(model, lora, 1) * kCheckpointBytesPerParam;
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
  plan.software = spec.software;
  plan.step = estimate_training_step(spec.job, node, spec.fabric, collectives, spec.software.kernels,
                                     spec.software.collective_tuning());
  plan.clock_fraction = clock_fraction_of(plan.step);
  plan.steps = spec.steps;

  plan.checkpoint_config = spec.checkpoint;
  plan.checkpoint_interval_steps = spec.checkpoint.interval_steps;
  size_checkpoints(plan, spec.job.nodes, node);
  plan.dataset = spec.dataset;
  if (spec.dataset.from_store) {
    if (spec.dataset.prefetch_steps < 1) throw sim::ConfigError("dataset.prefetch_steps", "must be at least 1");
    if (!(spec.dataset.bytes_per_token >= 0) || !(spec.dataset.bytes_per_sample >= 0)) {
      throw sim::ConfigError("dataset.bytes_per_token", "must be 0 or more");
    }
    const double samples = plan.step.tokens_per_step / std::max(1, spec.job.model.seq_len);
    plan.dataset_bytes_per_step = spec.dataset.bytes_per_sample > 0 ? samples * spec.dataset.bytes_per_sample
                                                                     : plan.step.tokens_per_step *
                                                                           spec.dataset.bytes_per_token;
    if (!(plan.dataset_bytes_per_step > 0)) {
      throw sim::ConfigError("dataset.bytes_per_token", "a dataset read from the store needs bytes per token or "
                                                        "per sample above 0");
    }
    if (!(spec.dataset.size_bytes >= 0)) throw sim::ConfigError("dataset.size_bytes", "must be 0 or more");
    plan.dataset_bytes_stored = spec.dataset.size_bytes > 0 ? spec.dataset.size_bytes
                                                            : static_cast<double>(spec.steps) *
                                                                  plan.dataset_bytes_per_step;
  }
  return plan;
}

TrainingJobPlan replan_data_parallel(const TrainingJobPlan& plan, int dp, const hardware::NodeSpec& node,
                                     const collective::CollectiveRegistry& collectives) {
  const ParallelismPlan& p = plan.job.parallelism;
  const int gpus = dp * p.tp * p.pp;
  if (dp < 1 || gpus % node.gpus != 0) {
    throw sim::ConfigError("parallelism", std::to_string(dp) + " replicas of tp x pp = " + std::to_string(p.tp * p.pp) +
                                              " GPUs do not fill whole nodes of " + std::to_string(node.gpus));
  }
  const int b = plan.job.micro_batch_size;
  const int batch = plan.step.micro_batches * b * plan.step.dp;  // sequences per step, kept
  const int m = (batch + b * dp - 1) / (b * dp);
  TrainingJobPlan out = plan;
  out.job.nodes = gpus / node.gpus;
  out.job.parallelism.dp = dp;
  out.job.global_batch_sequences = m * b * dp;
  out.step = estimate_training_step(out.job, node, out.fabric, collectives, out.software.kernels,
                                    out.software.collective_tuning());
  // The step still trains `batch` sequences: the padding of an uneven split is idle time.
  out.step.tokens_per_step = plan.step.tokens_per_step;
  out.step.tokens_per_s = out.step.tokens_per_step / out.step.step_time_s;
  out.step.model_flops_per_step = plan.step.model_flops_per_step;
  const double scale = plan.step.step_time_s / out.step.step_time_s * plan.step.gpus / out.step.gpus;
  out.step.tflops_per_gpu = plan.step.tflops_per_gpu * scale;
  out.step.mfu = plan.step.mfu * scale;
  out.clock_fraction = clock_fraction_of(out.step);
  size_checkpoints(out, out.job.nodes, node);
  return out;
}

}  // namespace dcsim::models::workload
