#pragma once
// A transformer described by its shape, dense or mixture-of-experts (MoE), and the published
// presets (bert-large, gpt3-175b, llama2-70b, llama3-8b, llama3-70b, llama3-405b; MoE:
// mixtral-8x7b, mixtral-8x22b, qwen3-235b-a22b, deepseek-v3), registered under the names
// scenarios use.
//
// Parameter count from the shape (biases and norm gains ignored: < 0.1%), q = heads x d_head
// (= h unless the model sets head_dim, as Qwen3 does):
//   per layer  attention  h x q (Q) + 2 x h x kv_heads x d_head (K, V) + q x h (O)
//                         MLA (DeepSeek-V3) instead: see MlaShape
//              MLP        (gated ? 3 : 2) x h x ffn            (SwiGLU has gate, up and down)
//              MoE layer  router h x experts + (experts + shared) x MLP(expert_ffn) in place of
//                         the MLP; a token passes (top-k + shared) expert MLPs (active)
//   embeddings vocab x h, plus an untied output layer vocab x h, plus learned positions
// Training FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B; also Megatron's formula):
//   6 x N_matmul + 6 x layers x seq x (qk width + v width)   (= 12 x layers x h x seq when dense)
// where N_matmul omits the parameters that are looked up rather than multiplied (the input
// embedding when untied, learned positions) and the attention term counts QK^T and PV without
// the causal halving, as PaLM's MFU does. For MoE models N_matmul counts the ACTIVE parameters
// (the experts a token is routed to), as DeepSeek-V3's and Megatron's MoE FLOP counts do.

#include <functional>
#include <string>

#include "sim/registry.hpp"

namespace dcsim::models::workload {

// Mixture-of-experts shape; experts == 0 is a dense model (every field below then unused).
struct MoeShape {
  int experts = 0;             // routed experts per MoE layer
  int experts_per_token = 0;   // top-k routed experts each token passes
  int shared_experts = 0;      // experts every token passes (DeepSeek-V3: 1)
  int expert_ffn_hidden = 0;   // inner width of one expert's MLP (and a shared expert's)
  int dense_layers = 0;        // the first dense_layers layers are dense (ffn_hidden wide)
  int layer_step = 1;          // after those, layer i (0-based) is MoE when (i + 1) % layer_step == 0
                               // (Llama 4 Maverick: 2, HF interleave_moe_layer_step)
  double capacity_factor = 0;  // tokens an expert takes / its even share; 0: dropless
  enum class Router { kSoftmaxTopK, kSigmoidTopK } router = Router::kSoftmaxTopK;  // DeepSeek-V3: sigmoid

  bool enabled() const { return experts > 0; }
};

// Multi-head latent attention (DeepSeek-V2/V3); kv_lora_rank == 0 is ordinary (GQA) attention.
// Projections: Q down h x q_lora then up q_lora x heads (d_head + rope) (or h x heads (d_head +
// rope) when q_lora_rank is 0); KV down h x (kv_lora + rope) then up kv_lora x heads 2 d_head;
// output heads d_head x h. The KV cache holds kv_lora + rope elements per token and layer.
struct MlaShape {
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int rope_head_dim = 0;  // decoupled RoPE key width per head (shared across heads in the cache)

  bool enabled() const { return kv_lora_rank > 0; }
};

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
  int head_size = 0;  // per-head width when it is not hidden / heads (Qwen3: 128 with h 4096)
  MoeShape moe;
  MlaShape mla;
  double published_params = 0.0;  // the count the model card quotes, for checks; 0 unknown
  double published_active_params = 0.0;  // MoE: the active count the model card quotes

  int head_dim() const { return head_size > 0 ? head_size : hidden / heads; }
  double attention_params() const;
  double mlp_params(int ffn) const { return (gated_mlp ? 3.0 : 2.0) * hidden * ffn; }
  // Whether layer i (0-based) has experts, and how many layers do.
  bool is_moe_layer(int layer) const;
  int moe_layers() const;
  // A dense layer, and an MoE layer with all its experts (total) or with the experts one token
  // passes (active).
  double dense_layer_params() const { return attention_params() + mlp_params(ffn_hidden); }
  double moe_layer_params() const;
  double moe_layer_active_params() const;
  // The experts of one MoE layer (routed and shared; not the router).
  double expert_params_per_layer() const;
  // Parameters of one layer: a dense model's layer, an MoE model's mean over its layers.
  double layer_params() const;
  double parameters() const;         // total
  double active_parameters() const;  // a token's: = parameters() for a dense model
  // Parameters that take part in a token's matrix multiplies (see the header comment).
  double matmul_parameters() const;
  // 6 N_matmul + 6 L s (qk + v widths).
  double training_flops_per_token() const;
};

// Throws sim::ConfigError naming the field ("model.heads", ...) for impossible shapes: any size
// <= 0, hidden not divisible by heads, heads not divisible by kv_heads, experts_per_token above
// experts, a dense_layers count not below layers, a capacity factor in (0, 1).
void validate(const TransformerModel& model);

using TrainingModelFactory = std::function<TransformerModel()>;
using TrainingModelRegistry = sim::Registry<TrainingModelFactory>;

TransformerModel bert_large();
TransformerModel gpt3_175b();
TransformerModel llama2_70b();
TransformerModel llama3_8b();
TransformerModel llama3_70b();
TransformerModel llama3_405b();
TransformerModel mixtral_8x7b();
TransformerModel mixtral_8x22b();
TransformerModel qwen3_235b_a22b();
TransformerModel deepseek_v3();

void register_training_models(TrainingModelRegistry& registry);

}  // namespace dcsim::models::workload
