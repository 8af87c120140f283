#include "models/workload/training_step.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/compute/fp8_overheads.hpp"
#include "models/workload/activation_memory.hpp"
#include "models/workload/context_parallel.hpp"
#include "models/workload/layer_pass.hpp"
#include "models/workload/pipeline_schedule.hpp"
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

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes * 1e-9);
  return buf;
}

struct Plan {
  int gpus, tp, pp, dp, cp, v, m;
  int data_shards;          // dp x cp: ranks per stage and tp rank that hold the same weights
  std::vector<int> layers;  // per stage
};

Plan make_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node) {
  if (job.nodes <= 0) throw sim::ConfigError("nodes", "must be a positive integer");
  const ParallelismPlan& p = job.parallelism;
  Plan plan{};
  plan.gpus = job.nodes * node.gpus;
  plan.tp = p.tp;
  plan.pp = p.pp;
  plan.cp = p.cp;
  plan.v = p.virtual_stages;
  if (p.tp <= 0 || p.pp <= 0 || p.dp < 0) {
    throw sim::ConfigError("parallelism", "tp and pp must be positive and dp non-negative");
  }
  if (p.cp <= 0) throw sim::ConfigError("parallelism.cp", "must be a positive integer, got " + std::to_string(p.cp));
  if (p.zero_stage < 0 || p.zero_stage > 3) {
    throw sim::ConfigError("parallelism.zero_stage", "must be 0, 1, 2 or 3");
  }
  if (p.distributed_optimizer && p.zero_stage != 0) {
    throw sim::ConfigError("parallelism.distributed_optimizer",
                           "is Megatron-LM's own optimizer sharding and does not combine with zero_stage " +
                               std::to_string(p.zero_stage) + "; use zero_stage 0 with it");
  }
  if (p.tp_comm_overlap && p.tp > 1 && !p.sequence_parallel) {
    throw sim::ConfigError("parallelism.tp_comm_overlap",
                           "overlaps sequence parallelism's all-gathers and reduce-scatters; turn "
                           "sequence_parallel on or tp_comm_overlap off");
  }
  if (job.lora.rank < 0) {
    throw sim::ConfigError("lora.rank", "must be a positive integer (0: no adapters), got " +
                                            std::to_string(job.lora.rank));
  }
  if (job.lora.enabled() && job.lora.targets.empty()) {
    throw sim::ConfigError("lora.targets", "needs at least one of qkv, attention_out, mlp_up, mlp_down on");
  }
  const int model_ranks = p.tp * p.cp * p.pp;
  if (plan.gpus % model_ranks != 0) {
    throw sim::ConfigError("parallelism", "tp x cp x pp = " + std::to_string(model_ranks) +
                                              " does not divide " + std::to_string(plan.gpus) +
                                              " GPUs");
  }
  plan.dp = p.dp > 0 ? p.dp : plan.gpus / model_ranks;
  if (model_ranks * plan.dp != plan.gpus) {
    throw sim::ConfigError("parallelism", "tp x cp x pp x dp = " + std::to_string(p.tp) + " x " +
                                              std::to_string(p.cp) + " x " + std::to_string(p.pp) + " x " +
                                              std::to_string(plan.dp) + " must equal the " +
                                              std::to_string(plan.gpus) + " GPUs of " +
                                              std::to_string(job.nodes) + " nodes");
  }
  plan.data_shards = plan.dp * plan.cp;
  const int domain = node.nvlink_domain_gpus > 0 ? node.nvlink_domain_gpus : node.gpus;
  if (p.tp > domain || node.gpus % p.tp != 0) {
    throw sim::ConfigError("parallelism.tp", "tensor parallelism " + std::to_string(p.tp) +
                                                 " must divide the " + std::to_string(node.gpus) +
                                                 " GPUs of a node (one NVLink domain)");
  }
  if (job.model.heads % p.tp != 0 || job.model.kv_heads % std::min(p.tp, job.model.kv_heads) != 0) {
    throw sim::ConfigError("parallelism.tp", "tensor parallelism " + std::to_string(p.tp) +
                                                 " must divide the " +
                                                 std::to_string(job.model.heads) + " heads");
  }
  // Megatron splits each sequence into 2 cp chunks (load-balanced causal attention).
  if (job.model.seq_len % (2 * p.cp) != 0 && p.cp > 1) {
    throw sim::ConfigError("parallelism.cp", "context parallelism " + std::to_string(p.cp) +
                                                 " needs the sequence length (" +
                                                 std::to_string(job.model.seq_len) +
                                                 ") to be a multiple of 2 x cp");
  }
  if (p.pp > job.model.layers) {
    throw sim::ConfigError("parallelism.pp", "more pipeline stages than layers");
  }
  if (job.micro_batch_size <= 0) {
    throw sim::ConfigError("micro_batch_size", "must be a positive integer");
  }
  if (job.global_batch_sequences < 0) {
    throw sim::ConfigError("global_batch_sequences", "must not be negative");
  }
  if (job.global_batch_sequences == 0) {
    plan.m = p.pp == 1 ? 1 : 4 * p.pp;
  } else {
    const int per_step = job.micro_batch_size * plan.dp;
    if (job.global_batch_sequences % per_step != 0) {
      throw sim::ConfigError("global_batch_sequences",
                             std::to_string(job.global_batch_sequences) +
                                 " is not a multiple of micro_batch_size x dp = " +
                                 std::to_string(per_step));
    }
    plan.m = job.global_batch_sequences / per_step;
  }
  plan.layers = stage_layers(job.model, p);
  validate_interleaving(plan.pp, plan.v, plan.m, plan.layers);
  return plan;
}

std::string memory_error(const TrainingJobConfig& job, const Plan& plan, const hardware::NodeSpec& node,
                         const MemoryBreakdown& m, int stage, double usable) {
  const ParallelismPlan& p = job.parallelism;
  // Only what the job does not already use (issue 15 item 7).
  std::vector<std::string> ideas;
  const int domain = node.nvlink_domain_gpus > 0 ? node.nvlink_domain_gpus : node.gpus;
  if (p.tp < domain) ideas.push_back("raise tp");
  if (p.pp < job.model.layers) ideas.push_back("raise pp");
  if (m.activations_bytes > 0.0) ideas.push_back("raise cp");
  if (p.zero_stage < 3 && plan.data_shards > 1) ideas.push_back("raise zero_stage");
  if (job.recompute != Recompute::kFull) ideas.push_back("use full recomputation");
  if (!p.sequence_parallel && p.tp > 1) ideas.push_back("turn sequence_parallel on");
  if (p.virtual_stages > 1) ideas.push_back("use fewer virtual_stages");
  if (job.micro_batch_size > 1) ideas.push_back("use a smaller micro_batch_size");
  std::string hint;
  for (std::size_t i = 0; i < ideas.size(); ++i) {
    hint += (i == 0 ? "" : i + 1 == ideas.size() ? " or " : ", ") + ideas[i];
  }
  return job.model.name + " with tp " + std::to_string(plan.tp) + ", cp " + std::to_string(plan.cp) + ", pp " +
         std::to_string(plan.pp) + ", dp " + std::to_string(plan.dp) + ", zero_stage " +
         std::to_string(p.zero_stage) + " needs " + gb(m.total_bytes()) + " per GPU on pipeline stage " +
         std::to_string(stage) + " (weights " + gb(m.weights_bytes) + ", gradients " + gb(m.gradients_bytes) +
         ", optimizer " + gb(m.optimizer_bytes) + ", activations " + gb(m.activations_bytes) + ") but a " +
         node.gpu.model + " has " + gb(usable) + " usable" + (hint.empty() ? "" : "; " + hint);
}

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

}  // namespace

double dp_bucket_bytes(const TrainingJobConfig& job, int data_shards) {
  if (!job.parallelism.distributed_optimizer) return job.bucket_bytes;
  // Megatron-Core's DDP default (DistributedDataParallelConfig.bucket_size): max(40M, 1M x the
  // data-parallel size) parameters, so each rank's shard of a bucket stays >= 1M parameters and
  // the reduce-scatter / all-gather rings stay bandwidth-bound at large dp.
  return std::max(40e6, 1e6 * data_shards) * job.grad_bytes_per_param;
}

TrainingStepResult estimate_training_step(const TrainingJobConfig& job,
                                          const hardware::NodeSpec& node,
                                          const mc::FabricParams& fabric,
                                          const mc::CollectiveRegistry& collectives,
                                          const cm::ComputeModelConfig& compute_config,
                                          const mc::CollectiveTuning& tuning) {
  validate(job.model);
  if (node.gpus <= 0) throw sim::ConfigError("node.gpus", "must be a positive integer");
  if (!(job.bucket_bytes > 0.0)) throw sim::ConfigError("bucket_bytes", "must be positive");
  const Plan plan = make_plan(job, node);
  const cm::ComputeModel cmod(node.gpu, compute_config);
  const double peak = cm::peak_flops(node.gpu, job.precision);

  TrainingStepResult r;
  r.gpus = plan.gpus;
  r.dp = plan.dp;
  r.micro_batches = plan.m;
  r.virtual_stages = plan.v;
  r.stage_layers = plan.layers;
  // Memory: every stage, the one that needs the most is reported and checked.
  const double usable = node.gpu.hbm_bytes - job.memory_reserve_bytes;
  for (int s = 0; s < plan.pp; ++s) {
    r.stage_memory.push_back(stage_memory(job, plan.data_shards, plan.m, plan.layers, s));
    if (r.stage_memory.back().total_bytes() > r.stage_memory[static_cast<std::size_t>(r.memory_stage)].total_bytes()) {
      r.memory_stage = s;
    }
  }
  r.memory = r.stage_memory[static_cast<std::size_t>(r.memory_stage)];
  if (r.memory.total_bytes() > usable) {
    throw sim::ConfigError("parallelism", memory_error(job, plan, node, r.memory, r.memory_stage, usable));
  }

  const TransformerModel& md = job.model;
  const double T = static_cast<double>(job.micro_batch_size) * md.seq_len / plan.cp;  // per CP rank
  const LayerPass layer = layer_pass(job, cmod);
  const LayerPass head = head_pass(job, cmod);

  // Tensor parallelism: inside one node over NVLink. 4 all-reduces per layer (6 with full
  // recomputation); with sequence parallelism reduce-scatter + all-gather pairs of the same bytes.
  double tp_per_layer = 0.0;            // exposed, per layer and micro-batch
  double tp_collective_per_layer = 0.0;  // before overlap
  if (plan.tp > 1) {
    mc::CollectiveSystem tps = mc::make_collective_system(node, 1, fabric, plan.tp);
    const double per_layer_collectives = job.recompute == Recompute::kFull ? 6.0 : 4.0;
    const double tp_bytes = T * md.hidden * kBf16Bytes;
    tp_collective_per_layer =
        per_layer_collectives *
        mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, tp_bytes, tps, tuning, job.tp_algorithm)
            .time_s;
    tp_per_layer = tp_collective_per_layer;
    if (job.parallelism.tp_comm_overlap) {
      // Each half of an all-reduce pair next to its GEMM (tp_overlap.hpp): forward AG + QKV,
      // attention out + RS, AG + MLP up, MLP down + RS; the backward pairs the same GEMMs' data
      // gradients (same shapes) with RS and AG; full recomputation repeats the forward pairs.
      const double ag = mc::estimate_collective(collectives, mc::CollectiveOp::kAllGather, tp_bytes, tps, tuning,
                                                job.tp_algorithm).time_s;
      const double rs = mc::estimate_collective(collectives, mc::CollectiveOp::kReduceScatter, tp_bytes, tps,
                                                tuning, job.tp_algorithm).time_s;
      const double pass_comm[4] = {ag, rs, ag, rs};
      double pass = 0.0;
      for (int i = 0; i < 4; ++i) {
        pass += overlapped_tp_exposed_s(pass_comm[i], layer.linear_gemm_s[i], layer.linear_split_gemm_s[i], plan.tp);
      }
      tp_collective_per_layer = (per_layer_collectives / 2.0) * 2.0 * (ag + rs);
      tp_per_layer = (per_layer_collectives / 2.0) * pass;
    }
  }

  // A point-to-point transfer between neighbours `stride` ranks apart in the rank order: on
  // other nodes once the stride reaches a node.
  auto p2p_time = [&](double bytes, bool cross_node) {
    mc::CollectiveSystem sys = mc::make_collective_system(node, cross_node ? 2 : 1, fabric,
                                                          cross_node ? 2 * node.gpus : 2);
    return mc::estimate_collective(collectives, mc::CollectiveOp::kPointToPoint, bytes, sys, tuning, "ring").time_s;
  };

  // Context parallelism: the KV ring (context_parallel.hpp); CP neighbours are tp ranks apart
  // (Megatron's tp-cp-dp-pp order), so the ring leaves the node once tp x cp exceeds it.
  RingAttentionCost ring;
  if (plan.cp > 1) {
    const double kv_per_rank = std::max(1.0, static_cast<double>(md.kv_heads) / plan.tp);
    const double block = 2.0 * T * kv_per_rank * md.head_dim() * kBf16Bytes;
    const bool cross = plan.tp * plan.cp > node.gpus;
    ring = ring_attention_cost(plan.cp, block, p2p_time(block, cross), p2p_time(2.0 * block, cross),
                               layer.attention_forward_s, layer.attention_backward_s,
                               job.recompute == Recompute::kFull);
  }

  // FP8 scaling factors: two amax all-reduces per micro-batch over the stage's tp x cp x dp ranks
  // (fp8_overheads.hpp), on the stream (exposed), after each forward and each backward.
  double amax_per_micro = 0.0;
  if (job.precision == cm::Precision::kFp8 && job.fp8_amax_reduction && plan.tp * plan.cp * plan.dp > 1) {
    const int amax_ranks = plan.tp * plan.cp * plan.dp;
    const int amax_nodes = std::max(1, amax_ranks / node.gpus);
    const mc::CollectiveSystem amax_sys = mc::make_collective_system(node, amax_nodes, fabric, amax_ranks);
    int max_layers = 0;
    for (int n : plan.layers) max_layers = std::max(max_layers, n);
    const double tensors = static_cast<double>(max_layers) * layer.fp8.amax_tensors;
    // Forward: the inputs' and weights' amaxes (2 of 3 per linear), backward: the gradients'.
    for (const double bytes : {4.0 * tensors * 2.0 / 3.0, 4.0 * tensors / 3.0}) {
      amax_per_micro += mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, bytes, amax_sys, tuning,
                                                "auto").time_s;
    }
  }

  // Per stage: its layers, the LM head on the last stage; the slowest stage sets the slot.
  double hw_flops_per_micro = 0.0;  // one micro-batch, all stages, one (tp, cp) rank each
  for (int s = 0; s < plan.pp; ++s) {
    const double n = plan.layers[static_cast<std::size_t>(s)];
    const bool last = s == plan.pp - 1;
    r.stage_forward_s.push_back(n * layer.forward_s + (last ? head.forward_s : 0.0));
    r.stage_backward_s.push_back(n * layer.backward_s + (last ? head.backward_s : 0.0));
    r.stage_comm_s.push_back(n * (tp_per_layer + ring.exposed_s) + amax_per_micro);
    hw_flops_per_micro += n * layer.flops + (last ? head.flops : 0.0);
    auto slot_of = [&](int k) {
      const auto u = static_cast<std::size_t>(k);
      return r.stage_forward_s[u] + r.stage_backward_s[u] + r.stage_comm_s[u];
    };
    if (slot_of(s) > slot_of(r.slot_stage)) r.slot_stage = s;
  }
  const auto slot_u = static_cast<std::size_t>(r.slot_stage);
  r.forward_s = r.stage_forward_s[slot_u];
  r.backward_s = r.stage_backward_s[slot_u];
  const double slot_layers = plan.layers[slot_u];

  // Pipeline parallelism: stages hold tp x cp x dp GPUs; they sit on different nodes once a
  // stage fills a node. v chunks per stage send v times per micro-batch (pipeline_schedule.hpp).
  double p2p = 0.0;
  if (plan.pp > 1) {
    const double bytes = T * md.hidden * kBf16Bytes / plan.tp;
    p2p = p2p_time(bytes, plan.tp * plan.cp * plan.dp >= node.gpus);
    r.pp_bytes_per_gpu = plan.m * 2.0 * plan.v * bytes;
  }
  r.pp_send_s = p2p;
  r.cp_comm_s = plan.m * slot_layers * ring.comm_s;
  r.cp_exposed_s = plan.m * slot_layers * ring.exposed_s;
  r.amax_reduction_s = plan.m * amax_per_micro;
  r.cp_bytes_per_gpu = plan.m * md.layers / plan.pp * ring.bytes;

  // Data parallelism: the dp x cp ranks with the same (tp rank, stage) hold the same weights and
  // reduce their gradients together (Megatron's data-and-context-parallel group); in the
  // tp-cp-dp-pp order they are tp ranks apart, so g_local of them are on each node, and they get
  // g_local / gpus of the node's NICs. The first stage, whose last backward ends the pipeline,
  // sets the exposed tail: its parameters are the bytes.
  double dp_exposed = 0.0, ag_exposed = 0.0;
  const int shards = plan.data_shards;
  if (shards > 1) {
    const int g_local = std::max(1, std::min(shards, node.gpus / plan.tp));
    mc::CollectiveSystem dps;
    dps.nodes = shards / g_local;
    dps.gpus_per_node = g_local;
    dps.nvlink_bandwidth_bytes_per_s = node.gpu.nvlink_bandwidth_bytes_per_s;
    dps.nvls = node.nvls && node.nvswitch && g_local == node.gpus;
    const int nics = fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics;
    const double nic_bps =
        fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
    dps.nics_per_node = 1;
    dps.nic_bandwidth_bps = nics * nic_bps * g_local / node.gpus;
    dps.fabric_latency_ns = fabric.switch_hops * fabric.per_hop_latency_ns + fabric.cable_latency_ns;
    if (dps.nodes > 1 && !(dps.nic_bandwidth_bps > 0.0)) {
      throw sim::ConfigError("fabric.nics_per_node", "data parallelism across nodes needs NICs");
    }
    const double params = stage_trainable_parameters(job, plan.layers, 0);
    const double grad_bytes = params * job.grad_bytes_per_param;
    r.dp_bucket_bytes = dp_bucket_bytes(job, shards);
    const int z = job.parallelism.zero_stage;
    const mc::CollectiveOp grad_op = job.parallelism.reduce_scatters_gradients() ? mc::CollectiveOp::kReduceScatter
                                                                                 : mc::CollectiveOp::kAllReduce;
    const auto [grad_s, grad_last] =
        bucketed(collectives, grad_op, grad_bytes, r.dp_bucket_bytes, dps, tuning, job.dp_algorithm);
    // The last backward on the stream (one chunk of the last micro-batch) hides the buckets that
    // are ready before it ends.
    const double window = r.stage_backward_s.front() / plan.v;
    dp_exposed = std::min(grad_s, std::max(grad_last, grad_s - window));
    r.dp_grad_bytes = grad_bytes;
    r.dp_system = dps;
    r.dp_groups_per_node = node.gpus / g_local;
    double dp_total = grad_s;
    if (job.parallelism.gathers_parameters()) {
      // Parameter all_gather (ZeRO >= 1 and the distributed optimizer after the optimizer step;
      // ZeRO 3 again before backward),
      // hidden by the next forward up to its last bucket.
      const auto [ag_s, ag_last] =
          bucketed(collectives, mc::CollectiveOp::kAllGather, params * kBf16Bytes,
                   r.dp_bucket_bytes / job.grad_bytes_per_param * kBf16Bytes, dps, tuning, "auto");
      const double passes = z >= 3 ? 2.0 : 1.0;
      ag_exposed = passes * std::min(ag_s, std::max(ag_last, ag_s - r.stage_forward_s.front() / plan.v));
      dp_total += passes * ag_s;
    }
    r.dp_comm_s = dp_total;
  }
  r.dp_exposed_s = dp_exposed + ag_exposed;

  // Adam over the optimizer shard of the stage with the most trainable parameters.
  double max_trainable = 0.0;
  for (int s = 0; s < plan.pp; ++s) {
    max_trainable = std::max(max_trainable, stage_trainable_parameters(job, plan.layers, s));
  }
  r.trainable_parameters_per_gpu = max_trainable;
  const double shard = max_trainable / (job.parallelism.shards_optimizer() ? shards : 1);
  r.optimizer_s = cmod.memory_op(kAdamStepBytes * shard).time_s;

  // FP8: the weights' cast and transpose once per step (fp8_overheads.hpp; TE caches them over
  // the step's micro-batches), HBM-bound work the step counts with the optimizer's.
  double fp8_weight_cast_s = 0.0;
  if (job.precision == cm::Precision::kFp8) {
    // Frozen weights (LoRA) keep their FP8 copies: nothing to cast again.
    double max_linear_weight_bytes = 0.0;
    for (int s = 0; s < plan.pp; ++s) {
      max_linear_weight_bytes = std::max(max_linear_weight_bytes, plan.layers[static_cast<std::size_t>(s)] * layer.fp8.weight_bytes_per_step);
    }
    fp8_weight_cast_s = job.lora.enabled() ? 0.0 : cmod.memory_op(max_linear_weight_bytes).time_s;
    const double forward_passes = job.recompute == Recompute::kFull ? 2.0 : 1.0;
    r.fp8_overhead_s = plan.m * slot_layers * (forward_passes * layer.fp8_forward_s + layer.fp8_backward_s) +
                       fp8_weight_cast_s + r.amax_reduction_s;
  }
  r.optimizer_s += fp8_weight_cast_s;

  // Pipeline (pipeline_schedule.hpp): m slots of the slowest stage and the bubble.
  const double slot = r.forward_s + r.backward_s + r.stage_comm_s[slot_u];
  const double sends = plan.pp > 1 ? exposed_sends_per_micro_batch_s(plan.v, p2p, r.forward_s) : 0.0;
  r.tp_comm_s = plan.m * slot_layers * tp_per_layer;
  r.tp_collective_s = plan.m * slot_layers * tp_collective_per_layer;
  r.pp_comm_s = plan.m * sends;
  r.compute_s = plan.m * (r.forward_s + r.backward_s) + r.optimizer_s;
  r.exposed_comm_s = r.tp_comm_s + r.cp_exposed_s + r.pp_comm_s + r.dp_exposed_s + r.amax_reduction_s;
  double sum_slots = 0.0;
  for (int s = 0; s < plan.pp; ++s) {
    const auto u = static_cast<std::size_t>(s);
    sum_slots += r.stage_forward_s[u] + r.stage_backward_s[u] + r.stage_comm_s[u];
  }
  r.bubble_s = plan.pp > 1 ? pipeline_bubble_s(plan.pp, plan.v, sum_slots, slot, p2p) : 0.0;
  r.bubble_fraction = r.bubble_s / (r.bubble_s + plan.m * (slot + sends));
  r.step_time_s = r.compute_s + r.exposed_comm_s + r.bubble_s;

  r.tokens_per_step = static_cast<double>(plan.m) * job.micro_batch_size * plan.dp * md.seq_len;
  r.tokens_per_s = r.tokens_per_step / r.step_time_s;
  r.model_flops_per_step =
      (job.lora.enabled() ? lora_training_flops_per_token(md, job.lora) : md.training_flops_per_token()) *
      r.tokens_per_step;
  r.hardware_flops_per_step = hw_flops_per_micro * plan.m * plan.tp * plan.cp * plan.dp;
  r.tflops_per_gpu = r.model_flops_per_step / r.step_time_s / plan.gpus * 1e-12;
  r.mfu = r.model_flops_per_step / (r.step_time_s * plan.gpus * peak);
  return r;
}

}  // namespace dcsim::models::workload
