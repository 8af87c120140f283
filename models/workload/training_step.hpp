#pragma once
// Analytic step time of a data/tensor/pipeline-parallel training job (Megatron-LM style).
//
// Layout: TP innermost (inside one NVLink domain), then DP, then PP (Megatron's tp-dp-pp rank
// order); sequence parallelism with TP > 1. Per micro-batch of b sequences (T = b x seq tokens)
// and per pipeline stage of ceil(L / pp) layers, from the compute model (models/compute):
//   forward   QKV, attention-out, MLP GEMMs sharded by TP; FlashAttention; norms, residuals and
//             activations as HBM-bound ops; the LM head on the last stage
//   backward  2x each GEMM (dgrad + wgrad), FA2 backward (2.5x), 2x element-wise; full
//             recomputation adds one more forward
//   TP        4 all-reduces of T x h x 2 B per layer per micro-batch (2 forward, 2 backward; with
//             SP they are reduce-scatter + all-gather pairs, the same bytes), inside the node,
//             exposed (no TP communication overlap)
//   PP        one activation send forward and one gradient send backward per micro-batch,
//             T x h x 2 / tp bytes per GPU over its NIC, on the critical path
// 1F1B schedule with m micro-batches on p stages (Narayanan et al. 2021):
//   slot   = t_fwd + t_bwd + t_tp + 2 t_p2p
//   bubble = (p - 1) x slot                 (fraction (p-1)/(m+p-1) of the pipelined time)
// Data parallel: gradients (grad_bytes_per_param per parameter of the stage shard) reduced in
// buckets of bucket_bytes (PyTorch DDP's 25 MB default) as backward produces them: all_reduce
// for ZeRO 0/1, reduce_scatter for ZeRO 2/3 (+ parameter all_gather, overlapped with the next
// forward as Megatron's overlap-param-gather; ZeRO 3 gathers parameters again for backward).
// Only the last micro-batch's backward can hide them:
//   exposed_dp = min(t_dp, max(t_last_bucket, t_dp - window))
// step = compute + exposed communication + bubble, with
//   compute = m (t_fwd + t_bwd) + optimizer (Adam: 30 B per parameter of the optimizer shard,
//             HBM-bound);  exposed communication = m (t_tp + 2 t_p2p) + exposed_dp + exposed AG
// Not modelled: SM contention between overlapped communication and compute; stage imbalance
// from embeddings (the LM head is added to every stage's slot: conservative); data loading.
//
// Memory per GPU (the busiest, first, stage): weights 2 B, gradients grad_bytes_per_param,
// Adam 12 B (fp32 master, m, v) per parameter of the stage shard, divided by dp for what ZeRO
// shards (1: optimizer, 2: + gradients, 3: + weights); activations per layer and micro-batch
// 34 s b h / tp bytes (Korthikanti et al. 2022, SP + selective recomputation; FlashAttention
// stores no s^2 term) or 2 s b h / tp with full recomputation, times min(m, p) micro-batches in
// flight under 1F1B; plus fp32 logits on the last stage. It must fit in hbm_bytes less
// memory_reserve_bytes, else ConfigError("parallelism", "... needs X GB ...").

#include <string>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/compute/compute_model.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/training_model.hpp"

namespace dcsim::models::workload {

enum class Recompute { kSelective, kFull };

struct ParallelismPlan {
  int tp = 1;
  int pp = 1;
  int dp = 0;          // 0: GPUs / (tp x pp)
  int zero_stage = 0;  // 0..3 (3 = FSDP full sharding)
};

struct TrainingJobConfig {
  std::string name;
  TransformerModel model;
  int nodes = 1;
  ParallelismPlan parallelism;
  int micro_batch_size = 1;        // sequences per micro-batch
  int global_batch_sequences = 0;  // 0: m = 4 pp micro-batches per DP rank (1 when pp = 1)
  compute::Precision precision = compute::Precision::kBf16;  // of the GEMMs (attention: BF16)
  Recompute recompute = Recompute::kSelective;
  double grad_bytes_per_param = 2.0;  // BF16 gradient reduction
  double bucket_bytes = 25e6;         // PyTorch DDP bucket_cap_mb default 25
  // CUDA context, NCCL buffers, cuBLAS workspaces and allocator fragmentation: an estimate.
  double memory_reserve_bytes = 4e9;
  std::string tp_algorithm = "auto";
  std::string dp_algorithm = "auto";
};

struct MemoryBreakdown {
  double weights_bytes = 0.0;
  double gradients_bytes = 0.0;
  double optimizer_bytes = 0.0;
  double activations_bytes = 0.0;
  double total_bytes() const {
    return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes;
  }
};

struct TrainingStepResult {
  int gpus = 0;
  int dp = 0;
  int micro_batches = 0;
  double step_time_s = 0.0;
  // step_time_s = compute_s + exposed_comm_s + bubble_s
  double compute_s = 0.0;
  double exposed_comm_s = 0.0;
  double bubble_s = 0.0;
  // Details (per step)
  double forward_s = 0.0;   // one micro-batch, one stage
  double backward_s = 0.0;  // one micro-batch, one stage
  double optimizer_s = 0.0;
  double tp_comm_s = 0.0;   // all micro-batches
  double pp_comm_s = 0.0;   // all micro-batches
  double dp_comm_s = 0.0;   // total collective time, before overlap
  double dp_exposed_s = 0.0;
  double bubble_fraction = 0.0;
  double dp_grad_bytes = 0.0;  // per DP group and step
  // One DP group (the step graph, step_graph.hpp, puts its collectives on the fabric):
  // dp_system.nodes consecutive nodes of a stage, dp_system.gpus_per_node of its
  // ranks on each, with a 1/dp_groups_per_node share of the node's NICs.
  collective::CollectiveSystem dp_system;
  int dp_groups_per_node = 0;
  // Outputs
  double tokens_per_step = 0.0;
  double tokens_per_s = 0.0;
  double model_flops_per_step = 0.0;     // PaLM definition (training_model.hpp)
  double hardware_flops_per_step = 0.0;  // what the ops execute, recomputation included
  double tflops_per_gpu = 0.0;           // model FLOP/s per GPU / 1e12
  double mfu = 0.0;                      // model FLOP/s / (GPUs x dense peak of `precision`)
  MemoryBreakdown memory;
};

// Throws sim::ConfigError naming the field for a plan that does not divide the GPUs, a TP group
// larger than the NVLink domain, a batch that does not divide, or a plan that does not fit.
TrainingStepResult estimate_training_step(const TrainingJobConfig& job,
                                          const hardware::NodeSpec& node,
                                          const collective::FabricParams& fabric,
                                          const collective::CollectiveRegistry& collectives,
                                          const compute::ComputeModelConfig& compute_config = {},
                                          const collective::CollectiveTuning& tuning = {});

}  // namespace dcsim::models::workload
