#include "models/workload/training_model.hpp"

#include "sim/error.hpp"

namespace dcsim::models::workload {

double TransformerModel::layer_params() const {
  const double h = hidden;
  const double kv = static_cast<double>(kv_heads) * head_dim();
  const double attention = 2.0 * h * h + 2.0 * h * kv;
  const double mlp = (gated_mlp ? 3.0 : 2.0) * h * ffn_hidden;
  return attention + mlp;
}

double TransformerModel::parameters() const {
  const double embed = static_cast<double>(vocab) * hidden;
  return layers * layer_params() + embed * (tied_embeddings ? 1.0 : 2.0) +
         static_cast<double>(learned_positions) * hidden;
}

double TransformerModel::matmul_parameters() const {
  // The output projection always multiplies; an untied input embedding and positions are lookups.
  return layers * layer_params() + static_cast<double>(vocab) * hidden;
}

double TransformerModel::training_flops_per_token() const {
  return 6.0 * matmul_parameters() + 12.0 * layers * static_cast<double>(hidden) * seq_len;
}

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
  if (m.hidden % m.heads != 0) {
    throw sim::ConfigError("model.heads", "hidden " + std::to_string(m.hidden) +
                                              " is not divisible by " + std::to_string(m.heads) +
                                              " heads");
  }
  if (m.heads % m.kv_heads != 0) {
    throw sim::ConfigError("model.kv_heads", std::to_string(m.heads) + " heads are not divisible by " +
                                                 std::to_string(m.kv_heads) + " kv heads");
  }
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

void register_training_models(TrainingModelRegistry& registry) {
  registry.add({"bert-large", "BERT-Large: 24 x 1024, 16 heads, 340M parameters, seq 512", {}, &bert_large});
  registry.add({"gpt3-175b", "GPT-3 175B: 96 x 12288, 96 heads, seq 2048", {}, &gpt3_175b});
  registry.add({"llama2-70b", "Llama 2 70B: 80 x 8192, GQA 64/8 heads, SwiGLU 28672, seq 4096", {}, &llama2_70b});
  registry.add({"llama3-8b", "Llama 3 8B: 32 x 4096, GQA 32/8 heads, SwiGLU 14336, seq 8192", {}, &llama3_8b});
  registry.add({"llama3-70b", "Llama 3 70B: 80 x 8192, GQA 64/8 heads, SwiGLU 28672, seq 8192", {}, &llama3_70b});
  registry.add({"llama3-405b", "Llama 3 405B: 126 x 16384, GQA 128/8 heads, SwiGLU 53248, seq 8192", {}, &llama3_405b});
}

}  // namespace dcsim::models::workload
