#include "models/workload/training_step.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

namespace mc = collective;
namespace cm = compute;

constexpr double kBf16Bytes = 2.0;
// Adam in mixed precision: fp32 master weights, first and second moments (Rajbhandari et al.
// 2020, ZeRO, section 3.1: 12 bytes per parameter).
constexpr double kAdamStateBytes = 12.0;
// Optimizer step traffic per parameter of the shard: read master, m, v (12) and the gradient,
// write master, m, v (12) and the BF16 weight copy (2).
constexpr double kAdamStepBytes = 24.0 + 2.0;
// Activation bytes per layer per token per hidden unit with SP and selective recomputation
// (Korthikanti et al. 2022, "Reducing Activation Recomputation", table 2: 34 s b h / t).
constexpr double kActivationFactorSelective = 34.0;
// Full recomputation keeps only each layer's input (2 bytes per element, sharded by SP).
constexpr double kActivationFactorFull = 2.0;

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes * 1e-9);
  return buf;
}

struct Plan {
  int gpus, tp, pp, dp, m, layers_per_stage;
};

Plan make_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node) {
  if (job.nodes <= 0) throw sim::ConfigError("nodes", "must be a positive integer");
  const ParallelismPlan& p = job.parallelism;
  Plan plan{};
  plan.gpus = job.nodes * node.gpus;
  plan.tp = p.tp;
  plan.pp = p.pp;
  if (p.tp <= 0 || p.pp <= 0 || p.dp < 0) {
    throw sim::ConfigError("parallelism", "tp and pp must be positive and dp non-negative");
  }
  if (p.zero_stage < 0 || p.zero_stage > 3) {
    throw sim::ConfigError("parallelism.zero_stage", "must be 0, 1, 2 or 3");
  }
  if (plan.gpus % (p.tp * p.pp) != 0) {
    throw sim::ConfigError("parallelism", "tp x pp = " + std::to_string(p.tp * p.pp) +
                                              " does not divide " + std::to_string(plan.gpus) +
                                              " GPUs");
  }
  plan.dp = p.dp > 0 ? p.dp : plan.gpus / (p.tp * p.pp);
  if (p.tp * p.pp * plan.dp != plan.gpus) {
    throw sim::ConfigError("parallelism", "tp x pp x dp = " + std::to_string(p.tp) + " x " +
                                              std::to_string(p.pp) + " x " +
                                              std::to_string(plan.dp) + " must equal the " +
                                              std::to_string(plan.gpus) + " GPUs of " +
                                              std::to_string(job.nodes) + " nodes");
  }
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
  plan.layers_per_stage = (job.model.layers + p.pp - 1) / p.pp;
  return plan;
}

struct PassTimes {
  double forward_s = 0.0;
  double backward_s = 0.0;
  double flops = 0.0;  // forward + backward (+ recompute) FLOPs of one micro-batch, one GPU
};

// One micro-batch through one stage (layers_per_stage layers + the LM head).
PassTimes stage_pass(const TrainingJobConfig& job, const Plan& plan, const cm::ComputeModel& cmod) {
  const TransformerModel& md = job.model;
  const double T = static_cast<double>(job.micro_batch_size) * md.seq_len;
  const double h = md.hidden, f = md.ffn_hidden, tp = plan.tp;
  const double d = md.head_dim();
  const double kv_cols = static_cast<double>(md.kv_heads) * d;
  const cm::Precision prec = job.precision;
  double fwd = 0.0, bwd = 0.0, flops = 0.0;
  auto gemm = [&](double m, double n, double k) {
    const cm::OpTime t = cmod.gemm(m, n, k, prec);
    fwd += t.time_s;
    bwd += 2.0 * t.time_s;  // dgrad and wgrad: the same FLOPs twice
    flops += 3.0 * t.flops;
  };
  gemm(T, (h + 2.0 * kv_cols) / tp, h);               // QKV
  gemm(T, h, h / tp);                                 // attention output
  gemm(T, (md.gated_mlp ? 2.0 : 1.0) * f / tp, h);    // MLP up (and gate)
  gemm(T, h, f / tp);                                 // MLP down
  const double bh = job.micro_batch_size * md.heads / tp;
  const cm::OpTime af = cmod.attention_forward(bh, md.seq_len, md.seq_len, d, md.causal);
  const cm::OpTime ab = cmod.attention_backward(bh, md.seq_len, md.seq_len, d, md.causal);
  fwd += af.time_s;
  bwd += ab.time_s;
  flops += af.flops + ab.flops;
  // HBM-bound ops per layer, BF16: 2 norms and 2 residual adds on T x h (SP shards them by tp:
  // read + write each, about 10 h per token), the activation over the MLP width (read 1 or 2,
  // write 1: 3 f / tp per token).
  const double ew_bytes = kBf16Bytes * T * (10.0 * h / tp + 3.0 * f / tp);
  const cm::OpTime ew = cmod.memory_op(ew_bytes);
  fwd += ew.time_s;
  bwd += 2.0 * ew.time_s;
  double layer_fwd = fwd, layer_bwd = bwd, layer_flops = flops;
  if (job.recompute == Recompute::kFull) {
    layer_bwd += layer_fwd;
    layer_flops += layer_flops / 3.0;
  }
  PassTimes out;
  out.forward_s = plan.layers_per_stage * layer_fwd;
  out.backward_s = plan.layers_per_stage * layer_bwd;
  out.flops = plan.layers_per_stage * layer_flops;
  // LM head and the fp32 cross-entropy over T x vocab / tp logits.
  const cm::OpTime head = cmod.gemm(T, md.vocab / tp, h, prec);
  const cm::OpTime ce = cmod.memory_op(3.0 * 4.0 * T * md.vocab / tp);
  out.forward_s += head.time_s + ce.time_s;
  out.backward_s += 2.0 * head.time_s + ce.time_s;
  out.flops += 3.0 * head.flops / plan.pp;  // the head runs on one stage of pp
  return out;
}

MemoryBreakdown memory_per_gpu(const TrainingJobConfig& job, const Plan& plan) {
  const TransformerModel& md = job.model;
  const double params = md.parameters() / (plan.tp * plan.pp);
  const int z = job.parallelism.zero_stage;
  MemoryBreakdown mem;
  mem.weights_bytes = kBf16Bytes * params / (z >= 3 ? plan.dp : 1);
  mem.gradients_bytes = job.grad_bytes_per_param * params / (z >= 2 ? plan.dp : 1);
  mem.optimizer_bytes = kAdamStateBytes * params / (z >= 1 ? plan.dp : 1);
  const double sbh = static_cast<double>(md.seq_len) * job.micro_batch_size * md.hidden;
  const double per_layer = sbh / plan.tp *
                           (job.recompute == Recompute::kFull ? kActivationFactorFull
                                                              : kActivationFactorSelective);
  const double in_flight = std::min(plan.m, plan.pp);
  const double logits = 4.0 * md.seq_len * job.micro_batch_size * md.vocab / plan.tp;
  mem.activations_bytes = plan.layers_per_stage * per_layer * in_flight + logits;
  return mem;
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
  r.memory = memory_per_gpu(job, plan);
  const double usable = node.gpu.hbm_bytes - job.memory_reserve_bytes;
  if (r.memory.total_bytes() > usable) {
    const MemoryBreakdown& m = r.memory;
    throw sim::ConfigError(
        "parallelism",
        job.model.name + " with tp " + std::to_string(plan.tp) + ", pp " + std::to_string(plan.pp) +
            ", dp " + std::to_string(plan.dp) + ", zero_stage " +
            std::to_string(job.parallelism.zero_stage) + " needs " + gb(m.total_bytes()) +
            " per GPU (weights " + gb(m.weights_bytes) + ", gradients " + gb(m.gradients_bytes) +
            ", optimizer " + gb(m.optimizer_bytes) + ", activations " + gb(m.activations_bytes) +
            ") but a " + node.gpu.model + " has " + gb(usable) +
            " usable; raise tp or pp, use zero_stage 3, full recomputation or a smaller micro-batch");
  }

  const PassTimes pass = stage_pass(job, plan, cmod);
  r.forward_s = pass.forward_s;
  r.backward_s = pass.backward_s;

  const TransformerModel& md = job.model;
  const double T = static_cast<double>(job.micro_batch_size) * md.seq_len;

  // Tensor parallelism: inside one node over NVLink.
  double tp_per_micro = 0.0;
  if (plan.tp > 1) {
    mc::CollectiveSystem tps = mc::make_collective_system(node, 1, fabric, plan.tp);
    const double per_layer_collectives = job.recompute == Recompute::kFull ? 6.0 : 4.0;
    tp_per_micro = plan.layers_per_stage * per_layer_collectives *
                   mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce,
                                           T * md.hidden * kBf16Bytes, tps, tuning,
                                           job.tp_algorithm)
                       .time_s;
  }

  // Pipeline parallelism: stages hold tp x dp GPUs; they sit on different nodes once a stage
  // fills a node.
  double p2p = 0.0;
  if (plan.pp > 1) {
    const bool cross_node = plan.tp * plan.dp >= node.gpus;
    mc::CollectiveSystem pps = mc::make_collective_system(
        node, cross_node ? 2 : 1, fabric, cross_node ? 2 * node.gpus : 2);
    p2p = mc::estimate_collective(collectives, mc::CollectiveOp::kPointToPoint,
                                  T * md.hidden * kBf16Bytes / plan.tp, pps, tuning, "ring")
              .time_s;
  }

  // Data parallelism: dp ranks with the same (tp rank, stage); consecutive TP groups share a
  // node, so g_local of them are on each node, and they get g_local / gpus of the node's NICs.
  double dp_exposed = 0.0, ag_exposed = 0.0;
  if (plan.dp > 1) {
    const int g_local = std::max(1, std::min(plan.dp, node.gpus / plan.tp));
    mc::CollectiveSystem dps;
    dps.nodes = plan.dp / g_local;
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
    const double params = md.parameters() / (plan.tp * plan.pp);
    const double grad_bytes = params * job.grad_bytes_per_param;
    const int z = job.parallelism.zero_stage;
    const mc::CollectiveOp grad_op =
        z >= 2 ? mc::CollectiveOp::kReduceScatter : mc::CollectiveOp::kAllReduce;
    const auto [grad_s, grad_last] =
        bucketed(collectives, grad_op, grad_bytes, job.bucket_bytes, dps, tuning, job.dp_algorithm);
    // The last micro-batch's backward hides the buckets that are ready before it ends.
    const double window = pass.backward_s;
    dp_exposed = std::min(grad_s, std::max(grad_last, grad_s - window));
    r.dp_grad_bytes = grad_bytes;
    r.dp_system = dps;
    r.dp_groups_per_node = node.gpus / g_local;
    double dp_total = grad_s;
    if (z >= 1) {
      // Parameter all_gather (ZeRO >= 1 after the optimizer; ZeRO 3 again before backward),
      // hidden by the next forward up to its last bucket.
      const auto [ag_s, ag_last] =
          bucketed(collectives, mc::CollectiveOp::kAllGather, params * kBf16Bytes,
                   job.bucket_bytes, dps, tuning, "auto");
      const double passes = z >= 3 ? 2.0 : 1.0;
      ag_exposed = passes * std::min(ag_s, std::max(ag_last, ag_s - pass.forward_s));
      dp_total += passes * ag_s;
    }
    r.dp_comm_s = dp_total;
  }
  r.dp_exposed_s = dp_exposed + ag_exposed;

  // Adam over the optimizer shard.
  const double shard = md.parameters() / (plan.tp * plan.pp) /
                       (job.parallelism.zero_stage >= 1 ? plan.dp : 1);
  r.optimizer_s = cmod.memory_op(kAdamStepBytes * shard).time_s;

  const double slot = pass.forward_s + pass.backward_s + tp_per_micro + 2.0 * p2p;
  r.tp_comm_s = plan.m * tp_per_micro;
  r.pp_comm_s = plan.m * 2.0 * p2p;
  r.compute_s = plan.m * (pass.forward_s + pass.backward_s) + r.optimizer_s;
  r.exposed_comm_s = r.tp_comm_s + r.pp_comm_s + r.dp_exposed_s;
  r.bubble_s = (plan.pp - 1) * slot;
  r.bubble_fraction = static_cast<double>(plan.pp - 1) / (plan.m + plan.pp - 1);
  r.step_time_s = r.compute_s + r.exposed_comm_s + r.bubble_s;

  r.tokens_per_step = static_cast<double>(plan.m) * job.micro_batch_size * plan.dp * md.seq_len;
  r.tokens_per_s = r.tokens_per_step / r.step_time_s;
  r.model_flops_per_step = md.training_flops_per_token() * r.tokens_per_step;
  r.hardware_flops_per_step = pass.flops * plan.m * plan.tp * plan.pp * plan.dp;
  r.tflops_per_gpu = r.model_flops_per_step / r.step_time_s / plan.gpus * 1e-12;
  r.mfu = r.model_flops_per_step / (r.step_time_s * plan.gpus * peak);
  return r;
}

}  // namespace dcsim::models::workload
