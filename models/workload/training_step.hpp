#pragma once
// Analytic step time of a data/tensor/pipeline-parallel training job (Megatron-LM style).
//
// Layout: TP innermost (inside one NVLink domain), then CP, DP, PP (Megatron's tp-cp-dp-pp rank
// order); sequence parallelism with TP > 1 unless switched off. Per micro-batch of b sequences
// (T = b x seq / cp tokens per CP rank) and per transformer layer, from the compute model
// (models/compute):
//   forward   QKV, attention-out, MLP GEMMs sharded by TP; FlashAttention (1/cp of it per CP
//             rank); norms, residuals and activations as HBM-bound ops (not sharded by TP
//             without sequence parallelism); the LM head and loss on the last stage only
//   backward  2x each GEMM (dgrad + wgrad; 1x for frozen LoRA weights, lora.hpp), FA2 backward
//             (2.5x), 2x element-wise; full recomputation adds one more forward
//   FP8       GEMMs of the four linears at the FP8 peak, plus Transformer Engine's casts and
//             transposes (fp8_overheads.hpp: per micro-batch in the passes, the weights' once per
//             step with the optimizer's HBM work) and two amax all-reduces per micro-batch on the
//             stream; attention and the LM head stay BF16
//   TP        4 all-reduces of T x h x 2 B per layer per micro-batch (2 forward, 2 backward; with
//             SP they are reduce-scatter + all-gather pairs, the same bytes), inside the node,
//             exposed; with tp_comm_overlap each RS / AG is pipelined with its GEMM in tp pieces
//             and only what tp_overlap.hpp leaves shows
//   CP        the ring-attention KV exchange, its exposed part (context_parallel.hpp)
//   PP        one activation send forward and one gradient send backward per micro-batch and
//             model chunk, T x h x 2 / tp bytes per GPU over its NIC (pipeline_schedule.hpp)
//   EP        MoE models (issue 41): an MoE layer is the attention half of a dense layer plus
//             the expert block on the busiest GPU and its dispatch / combine all-to-alls
//             (expert_parallel.hpp), exposed but for ep_overlap; in the slot as t_ep
// Stages hold stage_layers(...) layers (pipeline_schedule.hpp: uneven splits, first/last stage
// trims); the slowest stage (forward + backward + exposed TP/CP/amax) sets the slot. Schedule 1F1B,
// or interleaved with v chunks per stage (Narayanan et al. 2021):
//   slot   = t_fwd + t_bwd + t_tp + t_cp + t_amax + t_ep  (slowest stage)
//   bubble = (sum of the stages' slots - slot) / v + 2 (p-1) t_p2p
//            (equal stages, v = 1: fraction (p-1)/(m+p-1) of the pipelined time)
//   sends  = 2 t_p2p per micro-batch (1F1B, blocking) or 2 v max(0, t_p2p - t_fwd / v)
//            (interleaved, overlapped as Megatron's overlap_p2p_comm)
// Data parallel: gradients (grad_bytes_per_param per trainable parameter of the first stage's
// shard; LoRA: the adapters') reduced over the dp x cp ranks in buckets (dp_bucket_bytes: PyTorch
// DDP's 25 MB, or Megatron-Core's for the distributed optimizer) as backward produces them:
// all_reduce for ZeRO 0/1, reduce_scatter for ZeRO 2/3 and the distributed optimizer (+ parameter
// all_gather, overlapped with the next forward as Megatron's overlap-param-gather; ZeRO 3 gathers
// parameters again for backward). Only the last backward on the stream (one chunk of the last
// micro-batch) can hide them:
//   exposed_dp = min(t_dp, max(t_last_bucket, t_dp - window))
// step = compute + exposed communication + bubble, with
//   compute = m (t_fwd + t_bwd) + optimizer (Adam: 26 B per trainable parameter of the largest
//             stage's optimizer shard, HBM-bound; with FP8 also the weights' cast);
//   exposed communication = m (t_tp + t_cp + t_amax + t_ep + sends) + exposed_dp + exposed AG
// (MoE: the routed experts' gradients count in the DP bytes over the same DP group, an
// approximation of their expert-data-parallel reduction; the optimizer shards them over it.)
// Not modelled: SM contention between overlapped communication and compute; data loading; the
// embedding lookup's time.
//
// Memory per GPU of every stage (activation_memory.hpp: the activations 1F1B or the
// interleaved schedule keeps in flight on that stage, the embedding on the first, the output
// layer and logits on the last); the stage that needs the most is `memory`. It must fit in
// hbm_bytes less memory_reserve_bytes, else ConfigError("parallelism", "... needs X GB ...")
// suggesting only changes the job does not already use.

#include <string>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/compute/compute_model.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/lora.hpp"
#include "models/workload/training_model.hpp"

namespace dcsim::models::workload {

enum class Recompute { kSelective, kFull };

struct ParallelismPlan {
  int tp = 1;
  int pp = 1;
  int dp = 0;          // 0: GPUs / (tp x pp)
  int zero_stage = 0;  // 0..3 (3 = FSDP full sharding)
  // --- Issue 15 items 1-3 (pipeline schedule, stage split, context/sequence parallelism):
  // pipeline_schedule.hpp, context_parallel.hpp, activation_memory.hpp. ---
  int virtual_stages = 1;       // v model chunks per stage (interleaved schedule); 1: plain 1F1B
  int first_stage_layers = 0;   // 0: the default split (pipeline_schedule.hpp)
  int last_stage_layers = 0;    // 0: the default split
  bool account_for_embedding = false;  // the input embedding counts as one layer of the split
  bool account_for_loss = false;       // the LM head and loss count as one layer of the split
  int cp = 1;                   // context-parallel ranks (ring attention); order tp-cp-dp-pp
  bool sequence_parallel = true;  // with tp > 1: RS + AG and sharded norms/activations
  // --- end issue 15 items 1-3 ---
  // Issue 15 item 4: TP collectives pipelined with their GEMMs (tp_overlap.hpp); needs
  // sequence parallelism.
  bool tp_comm_overlap = false;
  // Issue 15 item 5: Megatron-LM's distributed optimizer (--use-distributed-optimizer): Adam
  // state and fp32 master weights sharded over the dp x cp ranks, gradients reduce-scattered,
  // BF16 parameters all-gathered after the step (overlapped with the next forward). Gradients
  // stay whole (Megatron's contiguous grad buffer): 6 + 12 / d bytes per parameter with BF16
  // gradients as in Megatron-LM's docs ("Distributed Optimizer"). Exclusive with zero_stage.
  bool distributed_optimizer = false;
  // Issue 41 item 2: expert parallelism for MoE models (expert_parallel.hpp): ep consecutive
  // ranks of a stage's tp x cp x dp split each MoE layer's routed experts (Megatron-Core's MoE
  // parallel folding with expert tensor parallelism 1); ep_overlap is the fraction of the EP
  // all-to-alls hidden behind another micro-batch's compute (DualPipe-style; 0: exposed).
  int ep = 1;
  double ep_overlap = 0.0;

  bool shards_optimizer() const { return zero_stage >= 1 || distributed_optimizer; }
  bool reduce_scatters_gradients() const { return zero_stage >= 2 || distributed_optimizer; }
  bool gathers_parameters() const { return zero_stage >= 1 || distributed_optimizer; }
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
  double bucket_bytes = 25e6;         // PyTorch DDP bucket_cap_mb default 25 (not with the
                                      // distributed optimizer: dp_bucket_bytes)
  // The driver's reserve (516 MiB on H100), CUDA context, NCCL buffers, cuBLAS workspaces and
  // allocator fragmentation: an estimate.
  double memory_reserve_bytes = 4e9;
  std::string tp_algorithm = "auto";
  std::string dp_algorithm = "auto";
  LoraConfig lora;  // issue 15 item 8: adapters on frozen weights (lora.hpp); rank 0: off
  // FP8 delayed scaling reduces each tensor's amax over the stage's ranks after every pass
  // (Transformer Engine's DelayedScaling reduce_amax, on by default); off: local amaxes.
  bool fp8_amax_reduction = true;
  // Issue 41 item 2: MoE routing as the step sees it (expert_parallel.hpp).
  double moe_skew = 1.0;            // the busiest expert's tokens / the mean (>= 1)
  int moe_max_nodes_per_token = 0;  // node-limited routing: a token reaches at most M nodes (0: any)
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
  double optimizer_s = 0.0;  // Adam over the shard, and with FP8 the weights' cast (HBM-bound)
  // The HBM-bound kernels of the micro-batches (norms, residuals, activations, FP8 casts, LoRA
  // adapters, cross-entropy), slot stage, all micro-batches: in compute_s, apart from
  // optimizer_s. They draw memory-bound power (power/gpu_phase_power.hpp), the rest of compute_s
  // (GEMMs, attention) the tensor cores'.
  double memory_bound_s = 0.0;
  double tp_comm_s = 0.0;   // all micro-batches
  double pp_comm_s = 0.0;   // all micro-batches
  double dp_comm_s = 0.0;   // total collective time, before overlap
  double dp_exposed_s = 0.0;
  double bubble_fraction = 0.0;
  double dp_grad_bytes = 0.0;  // per DP group and step
  double dp_bucket_bytes = 0.0;  // gradient bucket (dp_bucket_bytes(job, dp x cp))
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
  MemoryBreakdown memory;  // of the stage that needs the most (memory_stage)
  // --- Issue 15 items 1-3, 7 (pipeline helper) ---
  int virtual_stages = 1;
  int slot_stage = 0;    // the slowest stage, which sets the slot (forward_s, backward_s)
  int memory_stage = 0;  // the stage whose memory is `memory`
  std::vector<int> stage_layers;
  std::vector<double> stage_forward_s;   // one micro-batch, all chunks of the stage
  std::vector<double> stage_backward_s;
  std::vector<double> stage_comm_s;  // exposed TP + CP (+ EP) time of one micro-batch on the stage
  // MoE models (issue 41): per stage, its MoE layers and their exposed EP all-to-all time of one
  // micro-batch (in stage_comm_s; the step graph puts those all-to-alls on the fabric when an
  // EP group spans nodes, step_graph.hpp). Empty for dense models.
  std::vector<int> stage_moe_layers;
  std::vector<double> stage_ep_s;
  std::vector<MemoryBreakdown> stage_memory;
  double cp_comm_s = 0.0;     // ring-attention transfer time, all micro-batches (slot stage)
  double cp_exposed_s = 0.0;  // the part attention does not hide (in exposed_comm_s)
  double cp_bytes_per_gpu = 0.0;  // ring-attention bytes one GPU sends per step
  double pp_bytes_per_gpu = 0.0;  // pipeline bytes one GPU sends per step (v x the 1F1B bytes)
  double pp_send_s = 0.0;         // one pipeline send
  // --- end issue 15 ---
  // Issue 15 items 4, 6, 8.
  double tp_collective_s = 0.0;   // TP collective time before overlap, all micro-batches (slot stage)
  double fp8_overhead_s = 0.0;    // FP8 casts and transposes (in compute_s) and amax reductions
                                  // (in exposed_comm_s), per step
  double amax_reduction_s = 0.0;  // the amax all-reduces of a step (exposed)
  double trainable_parameters_per_gpu = 0.0;  // of the stage with the most (LoRA: adapters)
  // Issue 41 item 2: expert parallelism (MoE models; 0 for dense ones), slot stage, per step.
  double ep_s = 0.0;              // exposed EP all-to-all time (in exposed_comm_s)
  double ep_comm_s = 0.0;         // the all-to-alls before overlap
  double ep_bytes_per_gpu = 0.0;  // all-to-all bytes one GPU sends (mean, logical)
};

// Gradient bucket of the DP reduction: bucket_bytes, or with the distributed optimizer
// Megatron-Core's max(40M, 1M x data_shards) parameters of grad_bytes_per_param each.
double dp_bucket_bytes(const TrainingJobConfig& job, int data_shards);

// Throws sim::ConfigError naming the field for a plan that does not divide the GPUs, a TP group
// larger than the NVLink domain, a batch that does not divide, or a plan that does not fit.
TrainingStepResult estimate_training_step(const TrainingJobConfig& job,
                                          const hardware::NodeSpec& node,
                                          const collective::FabricParams& fabric,
                                          const collective::CollectiveRegistry& collectives,
                                          const compute::ComputeModelConfig& compute_config = {},
                                          const collective::CollectiveTuning& tuning = {});

}  // namespace dcsim::models::workload
