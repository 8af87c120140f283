#pragma once
// Fine-tuning with LoRA adapters on frozen weights (issue 15, item 8; Hu et al. 2021, "LoRA:
// Low-Rank Adaptation of Large Language Models"). A target linear W (in x out) keeps W frozen and
// learns B A, A: in x r, B: r x out, so its output is x W + x A B.
//
//   adapter parameters   r (in + out) per target; with tensor parallelism as NeMo shards them:
//                        a column-parallel target (QKV, MLP up) keeps A whole and shards B
//                        (r in + r out / tp per GPU), a row-parallel one (attention out, MLP
//                        down) shards A and keeps B whole (r in / tp + r out)
//   compute              frozen linears skip their weight-gradient GEMM (the backward is the
//                        data gradient only: 1x the forward GEMM instead of 2x, the LM head too);
//                        each adapter adds its two small GEMMs, x A and (x A) B, forward and 2x
//                        backward
//   memory               frozen weights stay (BF16); gradients and Adam state only for the
//                        adapters (sharded as the ZeRO stage / distributed optimizer say)
//   data parallelism     only the adapters' gradients are reduced
//   model FLOPs          4 N_matmul + 12 L h s + 6 N_adapter per token: the PaLM count without
//                        the frozen weights' gradients (attention's backward is still needed)
//   activations          the inputs of frozen linears without an adapter are not kept
//                        (activation_memory.hpp)
// Not modelled: the small all-reduce of a row-parallel adapter's partial x A.
// The MLPerf Training Llama 2 70B LoRA benchmark uses rank 16 on the attention's QKV and output
// projections (MLCommons training reference, llama2_70b_lora), the default targets here.

#include <string>
#include <vector>

#include "models/workload/training_model.hpp"

namespace dcsim::models::workload {

enum class LoraTarget { kQkv, kAttentionOut, kMlpUp, kMlpDown };

struct LoraConfig {
  int rank = 0;  // 0: no adapters, every weight trains
  std::vector<LoraTarget> targets{LoraTarget::kQkv, LoraTarget::kAttentionOut};
  bool enabled() const { return rank > 0; }
};

// "qkv", "attention_out", "mlp_up", "mlp_down"; parse throws sim::ConfigError("lora.targets").
const std::vector<std::string>& lora_target_names();
LoraTarget parse_lora_target(const std::string& name);

// One target linear on one GPU: its features before the adapter (in, out), and whether tensor
// parallelism splits its output (column-parallel) or its input (row-parallel).
struct LinearShape {
  double in = 0.0;   // whole, before TP
  double out = 0.0;  // whole, before TP
  bool column_parallel = true;
};
LinearShape target_shape(const TransformerModel& model, LoraTarget target);

// Adapter parameters of one transformer layer held by one GPU of a tp-way TP group.
double lora_parameters_per_layer(const TransformerModel& model, const LoraConfig& lora, int tp);

// Model FLOPs per token of a LoRA fine-tuning step (see the header).
double lora_training_flops_per_token(const TransformerModel& model, const LoraConfig& lora);

}  // namespace dcsim::models::workload
