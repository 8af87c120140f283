#include "models/workload/training_model.hpp"

#include "sim/error.hpp"

namespace dcsim::models::workload {

double TransformerModel::attention_params() const {
  const double h = hidden;
  const double d = head_dim();
  const double q = static_cast<double>(heads) * d;
  if (mla.enabled()) {
    const double qk = static_cast<double>(heads) * (d + mla.rope_head_dim);
    const double q_proj = mla.q_lora_rank > 0 ? h * mla.q_lora_rank + mla.q_lora_rank * qk : h * qk;
    const double kv_proj = h * (mla.kv_lora_rank + mla.rope_head_dim) + mla.kv_lora_rank * 2.0 * q;
    return q_proj + kv_proj + q * h;
  }
  const double kv = static_cast<double>(kv_heads) * d;
  return 2.0 * h * q + 2.0 * h * kv;
}

bool TransformerModel::is_moe_layer(int layer) const {
  return moe.enabled() && layer >= moe.dense_layers && (layer + 1) % moe.layer_step == 0;
}

int TransformerModel::moe_layers() const {
  int n = 0;
  for (int i = 0; i < layers; ++i) n += is_moe_layer(i) ? 1 : 0;
  return n;
}

double TransformerModel::expert_params_per_layer() const {
  return (moe.experts + moe.shared_experts) * mlp_params(moe.expert_ffn_hidden);
}

double TransformerModel::moe_layer_params() const {
  return attention_params() + static_cast<double>(hidden) * moe.experts + expert_params_per_layer();
}

double TransformerModel::moe_layer_active_params() const {
  return attention_params() + static_cast<double>(hidden) * moe.experts +
         (moe.experts_per_token + moe.shared_experts) * mlp_params(moe.expert_ffn_hidden);
}

namespace {
// The transformer layers' parameters: every expert (total) or a token's experts (active).
double stack_params(const TransformerModel& m, bool active) {
  if (!m.moe.enabled()) return m.layers * m.dense_layer_params();
  const int moe = m.moe_layers();
  return (m.layers - moe) * m.dense_layer_params() +
         moe * (active ? m.moe_layer_active_params() : m.moe_layer_params());
}
}  // namespace

double TransformerModel::layer_params() const {
  return moe.enabled() ? stack_params(*this, false) / layers : dense_layer_params();
}

double TransformerModel::parameters() const {
  const double embed = static_cast<double>(vocab) * hidden;
  return stack_params(*this, false) + embed * (tied_embeddings ? 1.0 : 2.0) +
         static_cast<double>(learned_positions) * hidden;
}

double TransformerModel::active_parameters() const {
  const double embed = static_cast<double>(vocab) * hidden;
  return stack_params(*this, true) + embed * (tied_embeddings ? 1.0 : 2.0) +
         static_cast<double>(learned_positions) * hidden;
}

double TransformerModel::matmul_parameters() const {
  // The output projection always multiplies; an untied input embedding and positions are lookups.
  return stack_params(*this, true) + static_cast<double>(vocab) * hidden;
}

double TransformerModel::training_flops_per_token() const {
  // QK^T is heads x (d_head + rope) wide, PV heads x d_head: 2 h each for a dense model.
  const double q = static_cast<double>(heads) * head_dim();
  const double qk = mla.enabled() ? static_cast<double>(heads) * (head_dim() + mla.rope_head_dim) : q;
  return 6.0 * matmul_parameters() + 6.0 * layers * (qk + q) * seq_len;
}

namespace {
void validate_moe(const TransformerModel& m) {
  const MoeShape& e = m.moe;
  const auto fail = [](const char* field, const std::string& why) { throw sim::ConfigError(field, why); };
  if (e.experts_per_token < 1 || e.experts_per_token > e.experts) {
    fail("model.moe.experts_per_token", std::to_string(e.experts_per_token) + " experts per token with " +
                                            std::to_string(e.experts) + " experts: must be 1 to experts");
  }
  if (e.expert_ffn_hidden <= 0) {
    fail("model.moe.expert_ffn_hidden", "must be a positive integer, got " + std::to_string(e.expert_ffn_hidden));
  }
  if (e.shared_experts < 0) {
    fail("model.moe.shared_experts", "must be 0 or more, got " + std::to_string(e.shared_experts));
  }
  if (e.layer_step < 1) fail("model.moe.layer_step", "must be a positive integer, got " + std::to_string(e.layer_step));
  if (e.dense_layers < 0 || m.moe_layers() == 0) {
    fail("model.moe.dense_layers", std::to_string(e.dense_layers) + " dense layers and layer step " +
                                       std::to_string(e.layer_step) + " leave no MoE layer among " +
                                       std::to_string(m.layers));
  }
  if (e.capacity_factor != 0.0 && e.capacity_factor < 1.0) {
    fail("model.moe.capacity_factor", std::to_string(e.capacity_factor) +
                                          " would drop tokens even when routing is even: 0 (dropless) or at "
                                          "least 1");
  }
}
}  // namespace

void validate(const TransformerModel& m) {
  auto positive = [](int v, const char* field) {
    if (v <= 0) throw sim::ConfigError(field, "must be a positive integer, got " + std::to_string(v));
  };
  positive(m.layers, "model.layers");
  positive(m.hidden, "model.hidden");
  positive(m.heads, "model.heads");
  positive(m.kv_heads, "model.kv_heads");
  positive(m.ffn_hidden, "model.ffn_hidden");
  positive(m.vocab, "model.vocab");
  positive(m.seq_len, "model.seq_len");
  if (m.head_size < 0) throw sim::ConfigError("model.head_dim", "must be positive, got " + std::to_string(m.head_size));
  if (m.head_size == 0 && m.hidden % m.heads != 0) {
    throw sim::ConfigError("model.heads", "hidden " + std::to_string(m.hidden) +
                                              " is not divisible by " + std::to_string(m.heads) +
                                              " heads");
  }
  if (m.heads % m.kv_heads != 0) {
    throw sim::ConfigError("model.kv_heads", std::to_string(m.heads) + " heads are not divisible by " +
                                                 std::to_string(m.kv_heads) + " kv heads");
  }
  if (m.moe.enabled()) validate_moe(m);
}

TransformerModel bert_large() {
  // Devlin et al. 2018 (BERT), BERT-Large: L=24, H=1024, A=16, 340M parameters; FFN 4H; WordPiece
  // vocabulary 30522; 512 learned positions. MLPerf's BERT phase 2 trains at sequence 512.
  TransformerModel m;
  m.name = "bert-large";
  m.layers = 24;
  m.hidden = 1024;
  m.heads = 16;
  m.kv_heads = 16;
  m.ffn_hidden = 4096;
  m.vocab = 30522;
  m.seq_len = 512;
  m.learned_positions = 512;
  m.gated_mlp = false;
  m.causal = false;
  m.tied_embeddings = true;
  m.dropout = true;  // hidden and attention dropout 0.1 (google-research/bert, bert_config.json)
  m.published_params = 340e6;
  return m;
}

TransformerModel gpt3_175b() {
  // Brown et al. 2020, table 2.1: 96 layers, d_model 12288, 96 heads, context 2048; FFN 4 d_model;
  // GPT-2 BPE vocabulary 50257; learned positions; tied embeddings.
  TransformerModel m;
  m.name = "gpt3-175b";
  m.layers = 96;
  m.hidden = 12288;
  m.heads = 96;
  m.kv_heads = 96;
  m.ffn_hidden = 49152;
  m.vocab = 50257;
  m.seq_len = 2048;
  m.learned_positions = 2048;
  m.gated_mlp = false;
  m.causal = true;
  m.tied_embeddings = true;
  // Dropout 0.1 as in Megatron-LM's GPT-3 175B example (its defaults), the configuration
  // Korthikanti et al. 2022 count activations for.
  m.dropout = true;
  m.published_params = 175e9;
  return m;
}

namespace {
TransformerModel llama(std::string name, int layers, int hidden, int heads, int ffn, int vocab,
                       int seq, double published) {
  TransformerModel m;
  m.name = std::move(name);
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = 8;  // grouped-query attention with 8 KV heads in all of these
  m.ffn_hidden = ffn;
  m.vocab = vocab;
  m.seq_len = seq;
  m.gated_mlp = true;
  m.causal = true;
  m.tied_embeddings = false;
  m.dropout = false;  // "attention_dropout": 0.0 and no hidden dropout (meta-llama config.json)
  m.published_params = published;
  return m;
}
}  // namespace

// Touvron et al. 2023 (Llama 2) and the meta-llama/Llama-2-70b-hf config.json: 80 layers, 8192
// hidden, 64 heads, 8 KV heads, FFN 28672, vocabulary 32000, context 4096.
TransformerModel llama2_70b() { return llama("llama2-70b", 80, 8192, 64, 28672, 32000, 4096, 70e9); }
// Llama 3 herd paper (Dubey et al. 2024) table 3 and meta-llama/Meta-Llama-3-8B config.json:
// 32 layers, 4096 hidden, 32 heads, 8 KV heads, FFN 14336, vocabulary 128256, sequence 8192.
TransformerModel llama3_8b() { return llama("llama3-8b", 32, 4096, 32, 14336, 128256, 8192, 8e9); }
// Same sources: 80 layers, 8192 hidden, 64 heads, FFN 28672.
TransformerModel llama3_70b() { return llama("llama3-70b", 80, 8192, 64, 28672, 128256, 8192, 70e9); }
// Same sources: 126 layers, 16384 hidden, 128 heads, FFN 53248.
TransformerModel llama3_405b() {
  return llama("llama3-405b", 126, 16384, 128, 53248, 128256, 8192, 405e9);
}

// Mixture-of-experts presets. Figures from /work/shared/reference/moe-hardware-stacks.md section 1
// (the sources named there); every model trains here at sequence 4096 (DeepSeek-V3 report,
// arXiv 2412.19437 §4.2: pre-training at 4K; the others' contexts are longer, 4096 is our choice).
namespace {
TransformerModel moe_model(std::string name, int layers, int hidden, int heads, int kv_heads, int ffn, int vocab,
                           int experts, int top_k, int expert_ffn, double total, double active) {
  TransformerModel m = llama(std::move(name), layers, hidden, heads, ffn, vocab, 4096, total);
  m.kv_heads = kv_heads;
  m.moe.experts = experts;
  m.moe.experts_per_token = top_k;
  m.moe.expert_ffn_hidden = expert_ffn;
  m.published_active_params = active;
  return m;
}
}  // namespace

// HF mistralai/Mixtral-8x7B-v0.1 config.json: 32 layers, 4096 hidden, 32/8 heads, 8 experts, top-2,
// expert width 14336, vocabulary 32000; 46.7B total / 12.9B active (mistral.ai/news/mixtral-of-experts).
TransformerModel mixtral_8x7b() {
  return moe_model("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 8, 2, 14336, 46.7e9, 12.9e9);
}
// HF mistral-community/Mixtral-8x22B-v0.1 config.json: 56 layers, 6144 hidden, 48/8 heads, 8
// experts, top-2, expert width 16384, vocabulary 32000; 141B / 39B (mistral.ai/news/mixtral-8x22b).
TransformerModel mixtral_8x22b() {
  return moe_model("mixtral-8x22b", 56, 6144, 48, 8, 16384, 32000, 8, 2, 16384, 141e9, 39e9);
}
// NeMo qwen3.py Qwen3Config235B_A22B (@8cfedd7): 94 layers, 4096 hidden, 64/4 heads of width 128
// (so Q is 8192 wide), 128 experts, top-8, expert width 1536, vocabulary 151936, untied; every
// layer MoE (ffn_hidden 12288 is the config's unused dense width); 235B / 22B.
TransformerModel qwen3_235b_a22b() {
  TransformerModel m = moe_model("qwen3-235b-a22b", 94, 4096, 64, 4, 12288, 151936, 128, 8, 1536, 235e9, 22e9);
  m.head_size = 128;
  return m;
}
// deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json @4c2fdb8: 61 layers, 7168 hidden, the
// first 3 dense (width 18432), 256 routed + 1 shared experts of width 2048, top-8, sigmoid router,
// vocabulary 129280; MLA with 128 heads, q_lora 1536, kv_lora 512, 128 + 64 (RoPE) per head,
// v_head 128. 671B / 37B (report arXiv 2412.19437), without the 14B multi-token-prediction module,
// which is not modelled. Activation memory treats MLA's projections as attention of width h.
TransformerModel deepseek_v3() {
  TransformerModel m = moe_model("deepseek-v3", 61, 7168, 128, 128, 18432, 129280, 256, 8, 2048, 671e9, 37e9);
  m.head_size = 128;
  m.mla = {1536, 512, 64};
  m.moe.shared_experts = 1;
  m.moe.dense_layers = 3;
  m.moe.router = MoeShape::Router::kSigmoidTopK;
  return m;
}

void register_training_models(TrainingModelRegistry& registry) {
  registry.add({"bert-large", "BERT-Large: 24 x 1024, 16 heads, 340M parameters, seq 512", {}, &bert_large});
  registry.add({"gpt3-175b", "GPT-3 175B: 96 x 12288, 96 heads, seq 2048", {}, &gpt3_175b});
  registry.add({"llama2-70b", "Llama 2 70B: 80 x 8192, GQA 64/8 heads, SwiGLU 28672, seq 4096", {}, &llama2_70b});
  registry.add({"llama3-8b", "Llama 3 8B: 32 x 4096, GQA 32/8 heads, SwiGLU 14336, seq 8192", {}, &llama3_8b});
  registry.add({"llama3-70b", "Llama 3 70B: 80 x 8192, GQA 64/8 heads, SwiGLU 28672, seq 8192", {}, &llama3_70b});
  registry.add({"llama3-405b", "Llama 3 405B: 126 x 16384, GQA 128/8 heads, SwiGLU 53248, seq 8192", {}, &llama3_405b});
  registry.add({"mixtral-8x7b",
                "Mixtral 8x7B MoE: 32 x 4096, 8 experts top-2 of 14336, 46.7B/12.9B, seq 4096",
                {},
                &mixtral_8x7b});
  registry.add({"mixtral-8x22b",
                "Mixtral 8x22B MoE: 56 x 6144, 8 experts top-2 of 16384, 141B/39B, seq 4096",
                {},
                &mixtral_8x22b});
  registry.add({"qwen3-235b-a22b",
                "Qwen3-235B-A22B MoE: 94 x 4096, 128 experts top-8 of 1536, 235B/22B, seq 4096",
                {},
                &qwen3_235b_a22b});
  registry.add({"deepseek-v3",
                "DeepSeek-V3 MoE: 61 x 7168 (3 dense), MLA, 256+1 experts top-8 of 2048, 671B/37B",
                {},
                &deepseek_v3});
}

}  // namespace dcsim::models::workload
