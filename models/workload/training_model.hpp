#pragma once
// A dense transformer described by its shape, and the published presets (bert-large, gpt3-175b,
// llama2-70b, llama3-8b, llama3-70b, llama3-405b), registered under the names scenarios use.
//
// Parameter count from the shape (biases and norm gains ignored: < 0.1%):
//   per layer  attention  h x h (Q) + 2 x h x kv_heads x d_head (K, V) + h x h (O)
//              MLP        (gated ? 3 : 2) x h x ffn            (SwiGLU has gate, up and down)
//   embeddings vocab x h, plus an untied output layer vocab x h, plus learned positions
// Training FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B; also Megatron's formula):
//   6 x N_matmul + 12 x layers x h x seq
// where N_matmul omits the parameters that are looked up rather than multiplied (the input
// embedding when untied, learned positions) and the attention term counts QK^T and PV without
// the causal halving, as PaLM's MFU does.

#include <functional>
#include <string>

#include "sim/registry.hpp"

namespace dcsim::models::workload {

struct TransformerModel {
  std::string name;
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;       // grouped-query attention; = heads for multi-head attention
  int ffn_hidden = 0;
  int vocab = 0;
  int seq_len = 0;        // training sequence length
  int learned_positions = 0;  // rows of a learned position embedding (0: rotary)
  bool gated_mlp = false;     // SwiGLU (Llama) vs GELU (BERT, GPT-3)
  bool causal = true;         // decoder (causal mask) vs encoder (BERT)
  bool tied_embeddings = true;
  // Dropout after attention and MLP (BERT, GPT-3): its 1-byte masks are kept for the backward
  // pass (activation_memory.hpp). Llama trains without dropout.
  bool dropout = false;
  double published_params = 0.0;  // the count the model card quotes, for checks; 0 unknown

  int head_dim() const { return hidden / heads; }
  double layer_params() const;
  double parameters() const;
  // Parameters that take part in matrix multiplies (see the header comment).
  double matmul_parameters() const;
  // 6 N_matmul + 12 L h s.
  double training_flops_per_token() const;
};

// Throws sim::ConfigError naming the field ("model.heads", ...) for impossible shapes: any size
// <= 0, hidden not divisible by heads, heads not divisible by kv_heads.
void validate(const TransformerModel& model);

using TrainingModelFactory = std::function<TransformerModel()>;
using TrainingModelRegistry = sim::Registry<TrainingModelFactory>;

TransformerModel bert_large();
TransformerModel gpt3_175b();
TransformerModel llama2_70b();
TransformerModel llama3_8b();
TransformerModel llama3_70b();
TransformerModel llama3_405b();

void register_training_models(TrainingModelRegistry& registry);

}  // namespace dcsim::models::workload
