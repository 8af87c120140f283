#pragma once
// Memory per GPU of one pipeline stage (issue 15, item 7): weights, gradients, optimizer state
// and the activations the schedule keeps in flight.
//
// Parameters of stage s: its layers, plus the input embedding (and learned positions) on the
// first stage and the output layer on the last (a tied embedding keeps its copy there when
// p > 1, as Megatron does), divided by tp. Weights 2 B, gradients grad_bytes_per_param, Adam
// 12 B per parameter; ZeRO shards over the dp x cp ranks that hold the same weights (Megatron's
// distributed optimizer shards over the data-and-context-parallel group): 1 the optimizer,
// 2 + gradients, 3 + weights; the distributed optimizer shards the optimizer only. With LoRA
// (lora.hpp) gradients and optimizer state are the adapters', the weights the frozen ones plus
// the adapters.
//
// Activations per layer and micro-batch of b sequences of s tokens, in units of s b h bytes
// (BF16), counted tensor by tensor as Korthikanti et al. 2022 ("Reducing Activation
// Recomputation in Large Transformer Models", section 4.1) do, for the layer's own shape:
// f = ffn_hidden / h, g = kv_heads / heads (grouped-query attention), dropout or not.
//   kept whole on every TP rank without sequence parallelism (norm region):
//     norm inputs 2 + 2, QKV input 2, MLP input 2, dropout masks 1 + 1 (when the model has dropout)
//   sharded over t:
//     Q 2, K and V 2 g each, attention output (the out-projection's input) 2,
//     MLP GELU: its input and output 2 f each; SwiGLU: gate, up and their product 2 f each
// FlashAttention keeps no s^2 softmax or its dropout mask (it recomputes them), so selective
// recomputation and none coincide. GPT-3 (f 4, g 1, dropout) gives Korthikanti's table 2:
//   selective, sequence parallel      34 s b h / t
//   selective, no sequence parallel   s b h (10 + 24 / t)
// Llama 3 405B (f 3.25, g 1/16, no dropout) keeps 31.75 s b h / t.
//   full recomputation                2 s b h / t with sequence parallelism, 2 s b h without
// less, with LoRA (selective), the inputs of frozen linears that carry no adapter (they only
// served a weight gradient: QKV 2, attention out 2, MLP up 2, MLP down 2 f s b h, / t where
// sharded), divided by cp (each context-parallel rank holds s / cp tokens; Megatron-LM docs, context
// parallelism). Stage s holds in_flight_chunks(p, v, m, s) chunk-micro-batches of 1/v of its
// layers (pipeline_schedule.hpp): the first stage p micro-batches under 1F1B, the last one;
// plus, on the last stage, the fp32 logits of one micro-batch (4 s b vocab / (t cp)).
//
// MoE layers (issue 41, expert_parallel.hpp): attention, router and shared experts divided by
// tp, the routed experts by ep (expert tensor parallelism 1); the routed experts' gradients,
// optimizer state (and ZeRO-3 weights) shard over the expert-data-parallel tp x dp x cp / ep
// ranks. Their activations replace the MLP's 2 f (3 f gated) with, per routed token on the
// busiest GPU (u times the mean, the capacity factor capping it), the dispatched input 2 and the
// expert's inner tensors 2 f_e (3 f_e gated), k per token, plus the shared experts' like a dense
// MLP of width shared x f_e: s b h / t x (2 k u (1 + (2|3) f_e / h) + 2 shared (2|3) f_e / h).

#include <vector>

#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

// Memory of one GPU of stage `stage`, for a job with `data_shards` (dp x cp) ranks per stage
// and tp rank, m micro-batches per step and the given stage split.
MemoryBreakdown stage_memory(const TrainingJobConfig& job, int data_shards, int m,
                             const std::vector<int>& layers, int stage);

// Parameters held by one GPU of stage `stage` (before ZeRO sharding).
double stage_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage);

// The routed experts' share of stage_parameters (0 for a dense model).
double stage_expert_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage);

// Parameters one GPU of stage `stage` trains: all of them, or with LoRA its adapters (lora.hpp).
double stage_trainable_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage);

// Activation bytes of one layer and one micro-batch on one GPU (the table above).
double activation_bytes_per_layer(const TrainingJobConfig& job);
// The same for an MoE layer (the MoE paragraph above).
double moe_activation_bytes_per_layer(const TrainingJobConfig& job);

}  // namespace dcsim::models::workload
