#include "models/workload/training_step.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/compute/fp8_overheads.hpp"
#include "models/workload/activation_memory.hpp"
#include "models/workload/context_parallel.hpp"
#include "models/workload/expert_parallel.hpp"
#include "models/workload/layer_pass.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "models/workload/step_plan.hpp"
#include "models/workload/tp_overlap.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

namespace mc = collective;
namespace cm = compute;

constexpr double kBf16Bytes = 2.0;
// Optimizer step traffic per parameter of the shard: read master, m, v (12) and the gradient,
// write master, m, v (12) and the BF16 weight copy (2).
constexpr double kAdamStepBytes = 24.0 + 2.0;

// Sum of per-bucket collective times for `bytes` in buckets of `bucket` bytes; also the last one.
std::pair<double, double> bucketed(const mc::CollectiveRegistry& reg, mc::CollectiveOp op,
                                   double bytes, double bucket, const mc::CollectiveSystem& sys,
                                   const mc::CollectiveTuning& tuning, const std::string& algo) {
  if (bytes <= 0.0 || sys.ranks() <= 1) return {0.0, 0.0};
  const double full = std::floor(bytes / bucket);
  const double rest = bytes - full * bucket;
  double total = 0.0, last = 0.0;
  if (full > 0) {
    last = mc::estimate_collective(reg, op, bucket, sys, tuning, algo).time_s;
    total += full * last;
  }
  if (rest > 0.0) {
    last = mc::estimate_collective(reg, op, rest, sys, tuning, algo).time_s;
    total += last;
  }
  return {total, last};
}

// estimate_training_step's model as named steps over the job's plan; run() calls them in the
// order of the equations in training_step.hpp (the order matters: later terms read earlier ones,
// and the first failing check is the one reported). Each step is O(pp) collective estimates at
// most; the whole estimate is O(pp + buckets).
class StepEstimator {
 public:
  // Checks the model, the node and the plan (sim::ConfigError naming the field).
  StepEstimator(const TrainingJobConfig& job, const hardware::NodeSpec& node, const mc::FabricParams& fabric,
                const mc::CollectiveRegistry& collectives, const cm::ComputeModelConfig& compute_config,
                const mc::CollectiveTuning& tuning)
      : job_(job),
        node_(node),
        fabric_(fabric),
        collectives_(collectives),
        tuning_(tuning),
        plan_(checked_plan(job, node)),
        cmod_(node.gpu, compute_config),
        peak_(cm::peak_flops(node.gpu, job.precision)),
        md_(job.model),
        tokens_(static_cast<double>(job.micro_batch_size) * job.model.seq_len / plan_.cp) {}

  TrainingStepResult run() {
    set_plan();
    check_memory();
    layer_ = layer_pass(job_, cmod_);
    head_ = head_pass(job_, cmod_);
    expert_parallel();
    tensor_parallel();
    context_parallel();
    fp8_amax_reductions();
    stage_times();
    pipeline_sends();
    data_parallel();
    optimizer();
    fp8_weight_cast();
    pipeline_step();
    throughput();
    return r_;
  }

 private:
  static StepPlan checked_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node) {
    validate(job.model);
    if (node.gpus <= 0) throw sim::ConfigError("node.gpus", "must be a positive integer");
    if (!(job.bucket_bytes > 0.0)) throw sim::ConfigError("bucket_bytes", "must be positive");
    return make_step_plan(job, node);
  }

  // The plan's sizes in the result: O(pp).
  void set_plan() {
    r_.gpus = plan_.gpus;
    r_.dp = plan_.dp;
    r_.micro_batches = plan_.m;
    r_.virtual_stages = plan_.v;
    r_.stage_layers = plan_.layers;
  }

  // Memory of every stage; the one that needs the most is reported and must fit: O(pp).
  void check_memory() {
    const double usable = node_.gpu.hbm_bytes - job_.memory_reserve_bytes;
    for (int s = 0; s < plan_.pp; ++s) {
      r_.stage_memory.push_back(stage_memory(job_, plan_.data_shards, plan_.m, plan_.layers, s));
      if (r_.stage_memory.back().total_bytes() >
          r_.stage_memory[static_cast<std::size_t>(r_.memory_stage)].total_bytes()) {
        r_.memory_stage = s;
      }
    }
    r_.memory = r_.stage_memory[static_cast<std::size_t>(r_.memory_stage)];
    if (r_.memory.total_bytes() > usable) {
      throw sim::ConfigError("parallelism", memory_error(job_, plan_, node_, r_.memory, r_.memory_stage, usable));
    }
  }

  // Tensor parallelism: inside one NVLink domain (a node, or trays of an NVL72 rack) over NVLink. 4 all-reduces per
  // layer (6 with full recomputation); with sequence parallelism reduce-scatter + all-gather pairs of the same bytes.
  // Sets the exposed and the collective time per layer: 1-3 estimates.
  void tensor_parallel() {
    if (plan_.tp <= 1) return;
    mc::CollectiveSystem tps = mc::make_collective_system(node_, std::max(1, plan_.tp / node_.gpus), fabric_, plan_.tp);
    const double per_layer_collectives = job_.recompute == Recompute::kFull ? 6.0 : 4.0;
    const double tp_bytes = tokens_ * md_.hidden * kBf16Bytes;
    tp_collective_per_layer_ =
        per_layer_collectives *
        mc::estimate_collective(collectives_, mc::CollectiveOp::kAllReduce, tp_bytes, tps, tuning_, job_.tp_algorithm)
            .time_s;
    tp_per_layer_ = tp_collective_per_layer_;
    if (job_.parallelism.tp_comm_overlap) {
      // Each half of an all-reduce pair next to its GEMM (tp_overlap.hpp): forward AG + QKV,
      // attention out + RS, AG + MLP up, MLP down + RS; the backward pairs the same GEMMs' data
      // gradients (same shapes) with RS and AG; full recomputation repeats the forward pairs.
      const double ag =
          mc::estimate_collective(collectives_, mc::CollectiveOp::kAllGather, tp_bytes, tps, tuning_, job_.tp_algorithm)
              .time_s;
      const double rs = mc::estimate_collective(collectives_, mc::CollectiveOp::kReduceScatter, tp_bytes, tps, tuning_,
                                                job_.tp_algorithm)
                            .time_s;
      const double pass_comm[4] = {ag, rs, ag, rs};
      double pass = 0.0;
      for (int i = 0; i < 4; ++i) {
        pass += overlapped_tp_exposed_s(pass_comm[i], layer_.linear_gemm_s[i], layer_.linear_split_gemm_s[i], plan_.tp);
      }
      tp_collective_per_layer_ = (per_layer_collectives / 2.0) * 2.0 * (ag + rs);
      tp_per_layer_ = (per_layer_collectives / 2.0) * pass;
    }
  }

  // Issue 41 item 2: an MoE layer is a dense layer's attention half plus the expert block and its
  // all-to-alls on the busiest GPU (expert_parallel.hpp). One compute-model pass, no estimates.
  void expert_parallel() {
    if (!md_.moe.enabled()) return;
    moe_attention_ = layer_pass(job_, cmod_, false);
    experts_ = expert_layer_cost(job_, node_, fabric_, cmod_);
  }

  // A point-to-point transfer between neighbours `stride` ranks apart in the rank order: on
  // other nodes once the stride reaches a node. One estimate.
  double p2p_time(double bytes, bool cross_node) const {
    mc::CollectiveSystem sys =
        mc::make_collective_system(node_, cross_node ? 2 : 1, fabric_, cross_node ? 2 * node_.gpus : 2);
    return mc::estimate_collective(collectives_, mc::CollectiveOp::kPointToPoint, bytes, sys, tuning_, "ring").time_s;
  }

  // Context parallelism: the KV ring (context_parallel.hpp); CP neighbours are tp ranks apart
  // (Megatron's tp-cp-dp-pp order), so the ring leaves the node once tp x cp exceeds it. Two
  // estimates.
  void context_parallel() {
    if (plan_.cp <= 1) return;
    const double kv_per_rank = std::max(1.0, static_cast<double>(md_.kv_heads) / plan_.tp);
    const double block = 2.0 * tokens_ * kv_per_rank * md_.head_dim() * kBf16Bytes;
    const bool cross = plan_.tp * plan_.cp > node_.gpus;
    ring_ = ring_attention_cost(plan_.cp, block, p2p_time(block, cross), p2p_time(2.0 * block, cross),
                                layer_.attention_forward_s, layer_.attention_backward_s,
                                job_.recompute == Recompute::kFull);
  }

  // FP8 scaling factors: two amax all-reduces per micro-batch over the stage's tp x cp x dp ranks
  // (fp8_overheads.hpp), on the stream (exposed), after each forward and each backward. Two
  // estimates.
  void fp8_amax_reductions() {
    if (!(job_.precision == cm::Precision::kFp8 && job_.fp8_amax_reduction && plan_.tp * plan_.cp * plan_.dp > 1)) {
      return;
    }
    const int amax_ranks = plan_.tp * plan_.cp * plan_.dp;
    const int amax_nodes = std::max(1, amax_ranks / node_.gpus);
    const mc::CollectiveSystem amax_sys = mc::make_collective_system(node_, amax_nodes, fabric_, amax_ranks);
    int max_layers = 0;
    for (int n : plan_.layers) max_layers = std::max(max_layers, n);
    const double tensors = static_cast<double>(max_layers) * layer_.fp8.amax_tensors;
    // Forward: the inputs' and weights' amaxes (2 of 3 per linear), backward: the gradients'.
    for (const double bytes : {4.0 * tensors * 2.0 / 3.0, 4.0 * tensors / 3.0}) {
      amax_per_micro_ +=
          mc::estimate_collective(collectives_, mc::CollectiveOp::kAllReduce, bytes, amax_sys, tuning_, "auto").time_s;
    }
  }

  // Per stage: its layers, the LM head on the last stage; the slowest stage sets the slot. O(pp).
  void stage_times() {
    for (int s = 0; s < plan_.pp; ++s) {
      const double n = plan_.layers[static_cast<std::size_t>(s)];
      const bool last = s == plan_.pp - 1;
      r_.stage_forward_s.push_back(n * layer_.forward_s + (last ? head_.forward_s : 0.0));
      r_.stage_backward_s.push_back(n * layer_.backward_s + (last ? head_.backward_s : 0.0));
      r_.stage_comm_s.push_back(n * (tp_per_layer_ + ring_.exposed_s) + amax_per_micro_);
      hw_flops_per_micro_ += n * layer_.flops + (last ? head_.flops : 0.0);
      if (md_.moe.enabled()) {
        // Its MoE layers trade the dense MLP for the expert block and add the exposed all-to-alls.
        const double moe = plan_.moe_layers[static_cast<std::size_t>(s)];
        r_.stage_forward_s.back() += moe * (moe_attention_.forward_s + experts_.forward_s - layer_.forward_s);
        r_.stage_backward_s.back() += moe * (moe_attention_.backward_s + experts_.backward_s - layer_.backward_s);
        r_.stage_comm_s.back() += moe * experts_.exposed_s;
        r_.stage_moe_layers.push_back(plan_.moe_layers[static_cast<std::size_t>(s)]);
        r_.stage_ep_s.push_back(moe * experts_.exposed_s);
        hw_flops_per_micro_ += moe * (moe_attention_.flops + experts_.flops - layer_.flops);
      }
      auto slot_of = [&](int k) {
        const auto u = static_cast<std::size_t>(k);
        return r_.stage_forward_s[u] + r_.stage_backward_s[u] + r_.stage_comm_s[u];
      };
      if (slot_of(s) > slot_of(r_.slot_stage)) r_.slot_stage = s;
    }
    slot_u_ = static_cast<std::size_t>(r_.slot_stage);
    r_.forward_s = r_.stage_forward_s[slot_u_];
    r_.backward_s = r_.stage_backward_s[slot_u_];
    slot_layers_ = plan_.layers[slot_u_];
    // The slot stage's HBM-bound kernels of one micro-batch (its GPU power, gpu_phase_power.hpp).
    slot_memory_bound_s_ = slot_layers_ * layer_.memory_bound_s;
    if (r_.slot_stage == plan_.pp - 1) slot_memory_bound_s_ += head_.memory_bound_s;
    if (md_.moe.enabled()) {
      slot_memory_bound_s_ +=
          plan_.moe_layers[slot_u_] * (moe_attention_.memory_bound_s + experts_.memory_bound_s - layer_.memory_bound_s);
    }
  }

  // Pipeline parallelism: stages hold tp x cp x dp GPUs; they sit on different nodes once a
  // stage fills a node. v chunks per stage send v times per micro-batch (pipeline_schedule.hpp).
  // Also the step's CP and amax totals of the slot stage. One estimate.
  void pipeline_sends() {
    if (plan_.pp > 1) {
      const double bytes = tokens_ * md_.hidden * kBf16Bytes / plan_.tp;
      p2p_ = p2p_time(bytes, plan_.tp * plan_.cp * plan_.dp >= node_.gpus);
      r_.pp_bytes_per_gpu = plan_.m * 2.0 * plan_.v * bytes;
    }
    r_.pp_send_s = p2p_;
    r_.cp_comm_s = plan_.m * slot_layers_ * ring_.comm_s;
    r_.cp_exposed_s = plan_.m * slot_layers_ * ring_.exposed_s;
    r_.amax_reduction_s = plan_.m * amax_per_micro_;
    r_.cp_bytes_per_gpu = plan_.m * md_.layers / plan_.pp * ring_.bytes;
    if (md_.moe.enabled()) {
      const double moe = plan_.moe_layers[slot_u_];
      r_.ep_s = plan_.m * moe * experts_.exposed_s;
      r_.ep_comm_s = plan_.m * moe * experts_.comm_s;
      r_.ep_bytes_per_gpu = plan_.m * moe * experts_.all_to_alls * experts_.bytes_sent;
    }
  }

  // Data parallelism: the dp x cp ranks with the same (tp rank, stage) hold the same weights and
  // reduce their gradients together (Megatron's data-and-context-parallel group); in the
  // tp-cp-dp-pp order they are tp ranks apart, so g_local of them are on each node, and they get
  // g_local / gpus of the node's NICs. The first stage, whose last backward ends the pipeline,
  // sets the exposed tail: its parameters are the bytes. Up to 4 estimates.
  void data_parallel() {
    double dp_exposed = 0.0, ag_exposed = 0.0;
    const int shards = plan_.data_shards;
    if (shards > 1) {
      const int g_local = std::max(1, std::min(shards, node_.gpus / plan_.tp));
      mc::CollectiveSystem dps;
      dps.nodes = shards / g_local;
      dps.gpus_per_node = g_local;
      dps.nvlink_bandwidth_bytes_per_s = node_.gpu.nvlink_bandwidth_bytes_per_s;
      dps.nvls = node_.nvls && node_.nvswitch && g_local == node_.gpus;
      const int nics = fabric_.nics_per_node > 0 ? fabric_.nics_per_node : node_.compute_nics;
      const double nic_bps =
          fabric_.nic_bandwidth_bps > 0.0 ? fabric_.nic_bandwidth_bps : node_.compute_nic_bandwidth_bps;
      dps.nics_per_node = 1;
      dps.nic_bandwidth_bps = nics * nic_bps * g_local / node_.gpus;
      dps.fabric_latency_ns = fabric_.switch_hops * fabric_.per_hop_latency_ns + fabric_.cable_latency_ns;
      if (dps.nodes > 1 && !(dps.nic_bandwidth_bps > 0.0)) {
        throw sim::ConfigError("fabric.nics_per_node", "data parallelism across nodes needs NICs");
      }
      const double params = stage_trainable_parameters(job_, plan_.layers, 0);
      const double grad_bytes = params * job_.grad_bytes_per_param;
      r_.dp_bucket_bytes = dp_bucket_bytes(job_, shards);
      const int z = job_.parallelism.zero_stage;
      const mc::CollectiveOp grad_op = job_.parallelism.reduce_scatters_gradients() ? mc::CollectiveOp::kReduceScatter
                                                                                    : mc::CollectiveOp::kAllReduce;
      const auto [grad_s, grad_last] =
          bucketed(collectives_, grad_op, grad_bytes, r_.dp_bucket_bytes, dps, tuning_, job_.dp_algorithm);
      // The last backward on the stream (one chunk of the last micro-batch) hides the buckets that
      // are ready before it ends.
      const double window = r_.stage_backward_s.front() / plan_.v;
      dp_exposed = std::min(grad_s, std::max(grad_last, grad_s - window));
      r_.dp_grad_bytes = grad_bytes;
      r_.dp_system = dps;
      r_.dp_groups_per_node = node_.gpus / g_local;
      double dp_total = grad_s;
      if (job_.parallelism.gathers_parameters()) {
        // Parameter all_gather (ZeRO >= 1 and the distributed optimizer after the optimizer step;
        // ZeRO 3 again before backward),
        // hidden by the next forward up to its last bucket.
        const auto [ag_s, ag_last] =
            bucketed(collectives_, mc::CollectiveOp::kAllGather, params * kBf16Bytes,
                     r_.dp_bucket_bytes / job_.grad_bytes_per_param * kBf16Bytes, dps, tuning_, "auto");
        const double passes = z >= 3 ? 2.0 : 1.0;
        ag_exposed = passes * std::min(ag_s, std::max(ag_last, ag_s - r_.stage_forward_s.front() / plan_.v));
        dp_total += passes * ag_s;
      }
      r_.dp_comm_s = dp_total;
    }
    r_.dp_exposed_s = dp_exposed + ag_exposed;
  }

  // Adam over the optimizer shard of the stage with the most trainable parameters: O(pp).
  void optimizer() {
    double max_trainable = 0.0;
    for (int s = 0; s < plan_.pp; ++s) {
      max_trainable = std::max(max_trainable, stage_trainable_parameters(job_, plan_.layers, s));
    }
    r_.trainable_parameters_per_gpu = max_trainable;
    double shard = max_trainable / (job_.parallelism.shards_optimizer() ? plan_.data_shards : 1);
    if (md_.moe.enabled() && job_.parallelism.shards_optimizer()) {
      // The routed experts shard over the expert-data-parallel ranks (activation_memory.hpp).
      double experts = 0.0;
      for (int s = 0; s < plan_.pp; ++s) experts = std::max(experts, stage_expert_parameters(job_, plan_.layers, s));
      const double edp = static_cast<double>(plan_.tp) * plan_.data_shards / plan_.ep;
      shard += experts / edp - experts / plan_.data_shards;
    }
    r_.optimizer_s = cmod_.memory_op(kAdamStepBytes * shard).time_s;
  }

  // FP8: the weights' cast and transpose once per step (fp8_overheads.hpp; TE caches them over
  // the step's micro-batches), HBM-bound work the step counts with the optimizer's. O(pp).
  void fp8_weight_cast() {
    double fp8_weight_cast_s = 0.0;
    if (job_.precision == cm::Precision::kFp8) {
      // Frozen weights (LoRA) keep their FP8 copies: nothing to cast again.
      double max_linear_weight_bytes = 0.0;
      for (int s = 0; s < plan_.pp; ++s) {
        max_linear_weight_bytes = std::max(max_linear_weight_bytes, plan_.layers[static_cast<std::size_t>(s)] *
                                                                        layer_.fp8.weight_bytes_per_step);
      }
      fp8_weight_cast_s = job_.lora.enabled() ? 0.0 : cmod_.memory_op(max_linear_weight_bytes).time_s;
      const double forward_passes = job_.recompute == Recompute::kFull ? 2.0 : 1.0;
      r_.fp8_overhead_s = plan_.m * slot_layers_ * (forward_passes * layer_.fp8_forward_s + layer_.fp8_backward_s) +
                          fp8_weight_cast_s + r_.amax_reduction_s;
    }
    r_.optimizer_s += fp8_weight_cast_s;
  }

  // Pipeline (pipeline_schedule.hpp): m slots of the slowest stage, the exposed sends and the
  // bubble; the step's compute and exposed communication totals. O(pp).
  void pipeline_step() {
    const double slot = r_.forward_s + r_.backward_s + r_.stage_comm_s[slot_u_];
    const double sends = plan_.pp > 1 ? exposed_sends_per_micro_batch_s(plan_.v, p2p_, r_.forward_s) : 0.0;
    r_.tp_comm_s = plan_.m * slot_layers_ * tp_per_layer_;
    r_.tp_collective_s = plan_.m * slot_layers_ * tp_collective_per_layer_;
    r_.pp_comm_s = plan_.m * sends;
    r_.compute_s = plan_.m * (r_.forward_s + r_.backward_s) + r_.optimizer_s;
    r_.memory_bound_s = plan_.m * slot_memory_bound_s_;
    r_.exposed_comm_s = r_.tp_comm_s + r_.cp_exposed_s + r_.pp_comm_s + r_.dp_exposed_s + r_.amax_reduction_s + r_.ep_s;
    double sum_slots = 0.0;
    for (int s = 0; s < plan_.pp; ++s) {
      const auto u = static_cast<std::size_t>(s);
      sum_slots += r_.stage_forward_s[u] + r_.stage_backward_s[u] + r_.stage_comm_s[u];
    }
    r_.bubble_s = plan_.pp > 1 ? pipeline_bubble_s(plan_.pp, plan_.v, sum_slots, slot, p2p_) : 0.0;
    r_.bubble_fraction = r_.bubble_s / (r_.bubble_s + plan_.m * (slot + sends));
    r_.step_time_s = r_.compute_s + r_.exposed_comm_s + r_.bubble_s;
  }

  // Tokens, model and hardware FLOPs, MFU: O(1).
  void throughput() {
    r_.tokens_per_step = static_cast<double>(plan_.m) * job_.micro_batch_size * plan_.dp * md_.seq_len;
    r_.tokens_per_s = r_.tokens_per_step / r_.step_time_s;
    r_.model_flops_per_step =
        (job_.lora.enabled() ? lora_training_flops_per_token(md_, job_.lora) : md_.training_flops_per_token()) *
        r_.tokens_per_step;
    r_.hardware_flops_per_step = hw_flops_per_micro_ * plan_.m * plan_.tp * plan_.cp * plan_.dp;
    r_.tflops_per_gpu = r_.model_flops_per_step / r_.step_time_s / plan_.gpus * 1e-12;
    r_.mfu = r_.model_flops_per_step / (r_.step_time_s * plan_.gpus * peak_);
  }

  // Inputs (referenced, not copied).
  const TrainingJobConfig& job_;
  const hardware::NodeSpec& node_;
  const mc::FabricParams& fabric_;
  const mc::CollectiveRegistry& collectives_;
  const mc::CollectiveTuning& tuning_;
  // Declared in the order they are checked and computed (the constructor's initialisers).
  const StepPlan plan_;
  const cm::ComputeModel cmod_;
  const double peak_;  // dense peak FLOP/s of one GPU at the job's precision
  const TransformerModel& md_;
  const double tokens_;  // per micro-batch and CP rank

  // Terms the steps compute for later ones.
  LayerPass layer_, head_;                // one layer / the LM head, one micro-batch, one GPU
  LayerPass moe_attention_;               // an MoE layer without its experts (MoE models)
  ExpertLayerCost experts_;               // its expert block and all-to-alls (MoE models)
  double tp_per_layer_ = 0.0;             // exposed, per layer and micro-batch
  double tp_collective_per_layer_ = 0.0;  // before overlap
  RingAttentionCost ring_;
  double amax_per_micro_ = 0.0;
  double hw_flops_per_micro_ = 0.0;  // one micro-batch, all stages, one (tp, cp) rank each
  std::size_t slot_u_ = 0;           // the slot stage
  double slot_layers_ = 0.0;         // its layers
  double slot_memory_bound_s_ = 0.0;  // its HBM-bound kernels, one micro-batch
  double p2p_ = 0.0;                 // one pipeline send
  TrainingStepResult r_;
};

}  // namespace

double dp_bucket_bytes(const TrainingJobConfig& job, int data_shards) {
  if (!job.parallelism.distributed_optimizer) return job.bucket_bytes;
  // Megatron-Core's DDP default (DistributedDataParallelConfig.bucket_size): max(40M, 1M x the
  // data-parallel size) parameters, so each rank's shard of a bucket stays >= 1M parameters and
  // the reduce-scatter / all-gather rings stay bandwidth-bound at large dp.
  return std::max(40e6, 1e6 * data_shards) * job.grad_bytes_per_param;
}

TrainingStepResult estimate_training_step(const TrainingJobConfig& job, const hardware::NodeSpec& node,
                                          const mc::FabricParams& fabric, const mc::CollectiveRegistry& collectives,
                                          const cm::ComputeModelConfig& compute_config,
                                          const mc::CollectiveTuning& tuning) {
  return StepEstimator(job, node, fabric, collectives, compute_config, tuning).run();
}

}  // namespace dcsim::models::workload
