#include "models/inference/iteration_cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/error.hpp"
#include <cstdio>

namespace dcsim::models::inference {

namespace {

constexpr double kBf16Bytes = 2.0;
constexpr double kFp32Bytes = 4.0;

std::string gb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

std::string fraction(double f) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", f);
  return text;
}

void add(IterationCost& total, const compute::OpTime& op) {
  total.time_s += op.time_s;
  (op.compute_bound ? total.compute_s : total.memory_s) += op.time_s;
}

// KV heads each GPU holds: its share, or one replicated head when tp exceeds the KV heads (as
// vLLM does for GQA models at high TP).
int kv_heads_per_gpu(const workload::TransformerModel& m, int tp) { return std::max(1, m.kv_heads / tp); }

}  // namespace

IterationCostModel::IterationCostModel(const workload::TransformerModel& model, const EngineConfig& engine,
                                       const hardware::NodeSpec& node, std::function<double(double)> tp_all_reduce_s)
    : model_(model), engine_(engine), compute_(node.gpu), tp_all_reduce_s_(std::move(tp_all_reduce_s)) {
  workload::validate(model_);
  const int tp = engine_.tp;
  // A replica's TP stays inside its node: replicas are placed per node (an NVL72 tray's 4 GPUs,
  // though its NVLink domain is the rack's 72).
  const int domain = std::min(node.gpus, node.nvlink_domain_gpus > 0 ? node.nvlink_domain_gpus : node.gpus);
  if (tp < 1 || tp > domain) {
    throw sim::ConfigError("engine.tp", "must be between 1 and the " + std::to_string(domain) +
                                            " GPUs of one NVLink domain, got " + std::to_string(tp));
  }
  if (model_.heads % tp != 0) {
    throw sim::ConfigError("engine.tp", "must divide the model's " + std::to_string(model_.heads) +
                                            " attention heads, got " + std::to_string(tp));
  }
  if (model_.kv_heads % tp != 0 && tp % model_.kv_heads != 0) {
    throw sim::ConfigError("engine.tp", "must divide the model's " + std::to_string(model_.kv_heads) +
                                            " KV heads or be a multiple of them, got " + std::to_string(tp));
  }
  const int pp = engine_.pp;
  if (pp < 1 || pp > model_.layers) {
    throw sim::ConfigError("engine.pp", "must be between 1 and the model's " + std::to_string(model_.layers) +
                                            " layers, got " + std::to_string(pp));
  }
  if (tp * pp > node.gpus && (tp * pp) % node.gpus != 0) {
    throw sim::ConfigError("engine.pp", "tp x pp = " + std::to_string(tp * pp) + " GPUs span nodes, so must be whole " +
                                            std::to_string(node.gpus) + "-GPU nodes");
  }
  if (engine_.weights == compute::Precision::kFp8 || engine_.kv_cache == compute::Precision::kFp8) {
    (void)compute::peak_flops(node.gpu, compute::Precision::kFp8);  // ConfigError without FP8 tensor cores
  }
  const double h = model_.hidden, d = model_.head_dim();
  const double embeddings = static_cast<double>(model_.vocab) * h * (model_.tied_embeddings ? 1.0 : 2.0) +
                            static_cast<double>(model_.learned_positions) * h;
  // Embeddings and the LM head stay BF16 in FP8 checkpoints. The largest pipeline stage holds
  // ceil(layers / pp) layers and, with pp > 1, one vocabulary table (the first stage the input
  // embedding, the last the LM head).
  const double stage_layers = std::ceil(static_cast<double>(model_.layers) / pp);
  const double layer_bytes = model_.layer_params() * compute::bytes_per_element(engine_.weights);
  const double stage_tables = pp == 1 ? embeddings : static_cast<double>(model_.vocab) * h;
  memory_.weight_bytes = (stage_layers * layer_bytes + stage_tables * kBf16Bytes) / tp;
  replica_weight_bytes_ = model_.layers * layer_bytes + embeddings * kBf16Bytes;
  const double qkv = (h + 2.0 * model_.kv_heads * d) / tp;
  const double mlp = (model_.gated_mlp ? 2.0 : 1.0) * model_.ffn_hidden / tp;
  const double max_tokens = std::max(engine_.max_batched_tokens, engine_.max_batch);
  memory_.activation_bytes = max_tokens * (std::max(qkv, mlp) + 2.0 * h) * kBf16Bytes +
                             static_cast<double>(engine_.max_batch) * model_.vocab / tp * kFp32Bytes;
  memory_.usable_bytes = engine_.memory_fraction * node.gpu.hbm_bytes;
  memory_.kv_bytes_per_token =
      2.0 * stage_layers * kv_heads_per_gpu(model_, tp) * d * compute::bytes_per_element(engine_.kv_cache);
  replica_kv_bytes_per_token_ =
      2.0 * model_.layers * kv_heads_per_gpu(model_, tp) * tp * d * compute::bytes_per_element(engine_.kv_cache);
  // Between stages each TP rank sends its copy of the hidden states to its peer: over NVLink
  // inside a node, else over its NIC (NICs shared when fewer than the ranks).
  if (pp > 1) {
    const bool across_nodes = tp * pp > node.gpus;
    const double nics = std::min(tp, std::max(1, node.compute_nics));
    pp_send_bytes_per_s_ = across_nodes ? node.compute_nic_bandwidth_bytes_per_s() * nics / tp
                                        : node.gpu.nvlink_bandwidth_bytes_per_s;
  }
  memory_.kv_capacity_tokens = std::floor(
      (memory_.usable_bytes - memory_.weight_bytes - memory_.activation_bytes) / memory_.kv_bytes_per_token);
  if (memory_.kv_capacity_tokens < 1.0) {
    throw sim::ConfigError(
        "engine.memory",
        "the model does not fit one replica's GPUs: " + gb(memory_.weight_bytes) +
            " of weights and " + gb(memory_.activation_bytes) + " of activations per GPU at tp " +
            std::to_string(tp) + (pp > 1 ? " pp " + std::to_string(pp) : std::string()) + " leave no KV cache in " + gb(memory_.usable_bytes) + " (" +
            fraction(engine_.memory_fraction) + " of " + gb(node.gpu.hbm_bytes) +
            "); raise tp or pp, use FP8 weights or lower max_batched_tokens");
  }
  heads_per_gpu_ = static_cast<double>(model_.heads) / engine_.tp;
  head_dim_ = model_.head_dim();
  kv_heads_per_gpu_ = kv_heads_per_gpu(model_, tp);
  kv_element_bytes_ = compute::bytes_per_element(engine_.kv_cache);
}

compute::OpTime IterationCostModel::linear(double m, double n, double k, compute::Precision p) const {
  const compute::OpTime tiled = compute_.gemm(m, n, k, p);
  // Split-K (stream-K): the k loop spread over every SM, one wave, as cuBLAS and TensorRT-LLM run
  // GEMMs whose output has fewer tiles than the GPU has SMs (decode batches); the partial sums'
  // reduction is m x n, negligible beside the weights.
  const compute::ComputeModelConfig& cfg = compute_.config();
  const double flops = 2.0 * m * n * k;
  const double bytes = compute::bytes_per_element(p) * (m * k + k * n) + kBf16Bytes * m * n;
  // One wave: the k-loop slices at the sustained rate plus one tile's fill and epilogue, as the
  // tiled model charges per wave (its memory stream overlaps them).
  const double compute_s = flops / (compute::peak_flops(compute_.gpu(), p) * cfg.gemm_sustained_fraction) /
                               cfg.clock_factor +
                           cfg.gemm_tile_overhead_s;
  const double memory_s = bytes / (compute_.gpu().hbm_bandwidth_bytes_per_s * cfg.mem_efficiency);
  compute::OpTime split;
  split.flops = flops;
  split.bytes = bytes;
  split.compute_bound = compute_s >= memory_s;
  split.time_s = std::max(compute_s, memory_s) + cfg.kernel_overhead_s;
  return split.time_s < tiled.time_s ? split : tiled;
}

const IterationCost& IterationCostModel::dense_layer(int tokens) const {
  return dense_by_tokens_.get(tokens, [&] {
    IterationCost c;
    const double T = tokens, h = model_.hidden, d = model_.head_dim(), tp = engine_.tp;
    const double ffn = model_.ffn_hidden / tp;
    const compute::Precision p = engine_.weights;
    add(c, linear(T, (h + 2.0 * model_.kv_heads * d) / tp, h, p));             // QKV
    add(c, linear(T, h, h / tp, p));                                           // attention out
    add(c, linear(T, (model_.gated_mlp ? 2.0 : 1.0) * ffn, h, p));             // MLP up (+ gate)
    add(c, linear(T, h, ffn, p));                                              // MLP down
    add(c, compute_.memory_op(T * (2.0 * 4.0 * h + 3.0 * ffn) * kBf16Bytes));  // norms, residuals, SiLU-and-mul
    if (engine_.tp > 1) {
      const double ar = 2.0 * tp_all_reduce_s_(T * h * kBf16Bytes);
      c.time_s += ar;
      c.communication_s += ar;
    }
    return c;
  });
}

const compute::OpTime& IterationCostModel::lm_head(int sampled) const {
  // Two GEMM models and a roofline each (~60 ns): a quarter of a fluid curve's time before it was
  // memoised, as every iteration samples.
  return lm_head_by_sampled_.get(sampled, [&] {
    return linear(sampled, static_cast<double>(model_.vocab) / engine_.tp, model_.hidden, compute::Precision::kBf16);
  });
}

IterationCost IterationCostModel::cost(const std::vector<PrefillChunk>& prefills, int decodes,
                                       double decode_kv_tokens, int sampled) const {
  int tokens = decodes;
  for (const auto& c : prefills) tokens += c.tokens;
  IterationCost layer;
  if (tokens == 0) return layer;
  layer = dense_layer(tokens);
  const double heads = heads_per_gpu_, d = head_dim_;
  for (const auto& c : prefills) {
    // chunk x (context + chunk / 2) query-key pairs: the causal square of the chunk plus the
    // whole context before it.
    add(layer, compute_.attention_forward(heads, c.tokens, c.context + c.tokens / 2.0, d, false));
  }
  if (decodes > 0) {
    const double kv_bytes = decode_kv_tokens * 2.0 * kv_heads_per_gpu_ * d * kv_element_bytes_;
    add(layer, compute_.memory_op(kv_bytes, 4.0 * decode_kv_tokens * heads * d));
  }
  IterationCost total;
  total.time_s = layer.time_s * model_.layers;
  total.compute_s = layer.compute_s * model_.layers;
  total.memory_s = layer.memory_s * model_.layers;
  total.communication_s = layer.communication_s * model_.layers;
  if (engine_.pp > 1) {
    // Every stage boundary passes the iteration's hidden states on.
    const double send = (engine_.pp - 1) * tokens * model_.hidden * kBf16Bytes / pp_send_bytes_per_s_;
    total.time_s += send;
    total.communication_s += send;
  }
  if (sampled > 0) add(total, lm_head(sampled));
  return total;
}

}  // namespace dcsim::models::inference
