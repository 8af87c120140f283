#include "models/inference/iteration_cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <cstdio>
#include "models/collective/collective_estimator.hpp"
#include "models/collective/expert_all_to_all.hpp"
#include "models/hardware/nvlink_domain.hpp"
#include "sim/error.hpp"

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

void add(IterationCost& total, const compute::OpTime& op, double count = 1.0) {
  total.time_s += count * op.time_s;
  (op.compute_bound ? total.compute_s : total.memory_s) += count * op.time_s;
}

void add_scaled(IterationCost& total, const IterationCost& part, double count) {
  total.time_s += count * part.time_s;
  total.compute_s += count * part.compute_s;
  total.memory_s += count * part.memory_s;
  total.communication_s += count * part.communication_s;
}

// KV heads each GPU holds: its share, or one replicated head when tp exceeds the KV heads (as
// vLLM does for GQA models at high TP).
int kv_heads_per_gpu(const workload::TransformerModel& m, int tp) { return std::max(1, m.kv_heads / tp); }

}  // namespace

IterationCostModel::IterationCostModel(const workload::TransformerModel& model, const EngineConfig& engine,
                                       const hardware::NodeSpec& node, std::function<double(double)> tp_all_reduce_s)
    : model_(model),
      engine_(engine),
      compute_(node.gpu, engine.software.kernels),
      tp_all_reduce_s_(std::move(tp_all_reduce_s)) {
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
  const int ep = engine_.ep;
  const workload::MoeShape& moe = model_.moe;
  if (ep < 1) throw sim::ConfigError("engine.ep", "must be at least 1, got " + std::to_string(ep));
  if (ep > 1 && !moe.enabled()) {
    throw sim::ConfigError("engine.ep", "applies to mixture-of-experts models, and " + model_.name +
                                            " is dense: leave ep at 1, got " + std::to_string(ep));
  }
  if (ep > 1 && (ep % tp != 0 || moe.experts % ep != 0)) {
    throw sim::ConfigError("engine.ep", "must be a multiple of tp (" + std::to_string(tp) + ") that divides the " +
                                            std::to_string(moe.experts) + " routed experts, got " + std::to_string(ep));
  }
  if (engine_.expert_skew < 1.0) {
    throw sim::ConfigError("engine.expert_skew", "must be at least 1 (the busiest expert's share over the mean)");
  }
  const int stage_gpus = engine_.stage_gpus();
  if (stage_gpus * pp > node.gpus && (stage_gpus * pp) % node.gpus != 0) {
    throw sim::ConfigError(ep > 1 ? "engine.ep" : "engine.pp",
                           (ep > 1 ? "ep x pp = " : "tp x pp = ") + std::to_string(stage_gpus * pp) +
                               " GPUs span nodes, so must be whole " + std::to_string(node.gpus) + "-GPU nodes");
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
  if (!moe.enabled()) {
    memory_.weight_bytes = (stage_layers * layer_bytes + stage_tables * kBf16Bytes) / tp;
  } else {
    // Routed experts split over ep GPUs whole (or tp-way in width without EP); the rest of a
    // layer (attention, router, shared experts, dense layers' MLPs) tp-way as a dense layer.
    const double routed_per_layer = static_cast<double>(model_.moe_layers()) * moe.experts *
                                    model_.mlp_params(moe.expert_ffn_hidden) / model_.layers;
    const double expert_shards = ep > 1 ? ep : tp;
    memory_.weight_bytes = stage_layers * compute::bytes_per_element(engine_.weights) *
                               ((model_.layer_params() - routed_per_layer) / tp + routed_per_layer / expert_shards) +
                           stage_tables * kBf16Bytes / tp;
  }
  replica_weight_bytes_ = model_.layers * layer_bytes + embeddings * kBf16Bytes;
  const double qkv = (h + 2.0 * model_.kv_heads * d) / tp;
  const double mlp = (model_.gated_mlp ? 2.0 : 1.0) * model_.ffn_hidden / tp;
  const double max_tokens = std::max(engine_.max_batched_tokens, engine_.max_batch);
  // MoE: the routed tokens' expert intermediate on one GPU (the widest, with every token's k copies).
  const double routed = moe.enabled() ? moe.experts_per_token * (model_.gated_mlp ? 2.0 : 1.0) * moe.expert_ffn_hidden /
                                            (ep > 1 ? ep : tp)
                                      : 0.0;
  memory_.activation_bytes = max_tokens * (std::max({qkv, mlp, routed}) + 2.0 * h) * kBf16Bytes +
                             static_cast<double>(engine_.max_batch) * model_.vocab / tp * kFp32Bytes;
  memory_.usable_bytes = engine_.memory_fraction * node.gpu.hbm_bytes;
  if (model_.mla.enabled()) {
    // MLA caches one latent (kv_lora_rank) and one shared RoPE key per token and layer, whole on
    // every TP rank (vLLM's MLA backend); DeepSeek-V3: 576 elements x 61 layers (ISCA'25 Table 1).
    const double latent = model_.mla.kv_lora_rank + model_.mla.rope_head_dim;
    memory_.kv_bytes_per_token = stage_layers * latent * compute::bytes_per_element(engine_.kv_cache);
    replica_kv_bytes_per_token_ = model_.layers * latent * compute::bytes_per_element(engine_.kv_cache);
  } else {
    memory_.kv_bytes_per_token =
        2.0 * stage_layers * kv_heads_per_gpu(model_, tp) * d * compute::bytes_per_element(engine_.kv_cache);
    replica_kv_bytes_per_token_ =
        2.0 * model_.layers * kv_heads_per_gpu(model_, tp) * tp * d * compute::bytes_per_element(engine_.kv_cache);
  }
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
        "the model does not fit one replica's GPUs: " + gb(memory_.weight_bytes) + " of weights and " +
            gb(memory_.activation_bytes) + " of activations per GPU at tp " + std::to_string(tp) +
            (pp > 1 ? " pp " + std::to_string(pp) : std::string()) +
            (ep > 1 ? " ep " + std::to_string(ep) : std::string()) + " leave no KV cache in " +
            gb(memory_.usable_bytes) + " (" + fraction(engine_.memory_fraction) + " of " + gb(node.gpu.hbm_bytes) +
            (moe.enabled() ? "); raise tp, pp or ep (the routed experts), use FP8 weights or lower max_batched_tokens"
                           : "); raise tp or pp, use FP8 weights or lower max_batched_tokens"));
  }
  // Each of the attention_dp ranks of a stage holds its own sequences' KV: the replica holds
  // that many times one rank's tokens.
  memory_.kv_capacity_tokens *= engine_.attention_dp();
  if (moe.enabled()) {
    moe_layers_ = model_.moe_layers();
    // The all-to-alls stay on NVLink across trays of a multi-node NVLink domain (GB200 NVL72)
    // when a stage's GPUs are whole nodes that divide the domain, so replicas placed in node order
    // from a domain's start never straddle two domains; otherwise the node is the domain.
    const int rack = hardware::nvlink_domain(node);
    domain_gpus_ = stage_gpus % node.gpus == 0 && rack % stage_gpus == 0 ? rack : domain;
    nvlink_bytes_per_s_ = node.gpu.nvlink_bandwidth_bytes_per_s;
    nic_bytes_per_s_per_gpu_ = std::max(1, node.compute_nics) * node.compute_nic_bandwidth_bytes_per_s() / node.gpus;
    // Replicas know their node, not their fabric: one crossing of the default leaf-spine-leaf path
    // (collective_estimator.hpp FabricParams: 3 hops x 550 ns).
    const collective::FabricParams path;
    fabric_latency_s_ = path.switch_hops * path.per_hop_latency_ns * 1e-9 + path.cable_latency_ns * 1e-9;
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
    const double T = tokens, h = model_.hidden, tp = engine_.tp;
    const double ffn = model_.ffn_hidden / tp;
    const compute::Precision p = engine_.weights;
    add_attention_projections(c, T);
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

void IterationCostModel::add_attention_projections(IterationCost& c, double tokens) const {
  const double h = model_.hidden, tp = engine_.tp;
  const compute::Precision p = engine_.weights;
  if (model_.mla.enabled()) {
    // MLA's down, up and output projections as one GEMM of their parameter count: the same FLOPs
    // and weight bytes; the low-rank shapes' own tile efficiency is not modelled.
    add(c, linear(tokens, model_.attention_params() / h / tp, h, p));
    return;
  }
  const double d = model_.head_dim(), q = static_cast<double>(model_.heads) * d;  // q = h unless head_dim is set
  add(c, linear(tokens, (q + 2.0 * model_.kv_heads * d) / tp, h, p));             // QKV
  add(c, linear(tokens, h, q / tp, p));                                           // attention out
}

const IterationCost& IterationCostModel::moe_layer(int tokens) const {
  return moe_by_tokens_.get(tokens, [&] {
    IterationCost c;
    const workload::MoeShape& e = model_.moe;
    const double T = tokens, h = model_.hidden, tp = engine_.tp, E = e.experts, k = e.experts_per_token;
    const double ranks = engine_.attention_dp();
    const double t_rank = std::ceil(T / ranks);  // one attention rank's share of the iteration
    const compute::Precision p = engine_.weights;
    const double up = model_.gated_mlp ? 2.0 : 1.0;
    add_attention_projections(c, t_rank);
    add(c, compute_.memory_op(t_rank * 2.0 * 4.0 * h * kBf16Bytes));  // norms, residuals
    add(c, linear(t_rank, E, h, compute::Precision::kBf16));          // router
    if (e.shared_experts > 0) {                                       // tp-way, as a dense MLP
      const double width = e.shared_experts * e.expert_ffn_hidden / tp;
      add(c, linear(t_rank, up * width, h, p));
      add(c, linear(t_rank, h, width, p));
      add(c, compute_.memory_op(t_rank * 3.0 * width * kBf16Bytes));
    }
    // Routed experts on the busiest GPU: E / ep whole experts with EP, else every expert tp-way
    // in width. The busiest expert takes s times the mean T k / E rows; an expert no token chose
    // is not read (a decode batch of T tokens touches 1 - (1 - k/E)^T of them), so the rows of a
    // touched expert are the mean over that fraction.
    const bool ep = engine_.ep > 1;
    const double local = ep ? E / engine_.ep : E, width = ep ? e.expert_ffn_hidden : e.expert_ffn_hidden / tp;
    const double s = e.capacity_factor > 0.0 ? std::min(engine_.expert_skew, e.capacity_factor) : engine_.expert_skew;
    const double load = 1.0 + (s - 1.0) * (ep ? engine_.ep : 1.0) / E;  // its GPU's rows over the mean
    const double touched_fraction = 1.0 - std::pow(1.0 - k / E, T);
    const double touched = std::max(1.0, local * touched_fraction);
    const double rows = T * k / E / touched_fraction;
    add(c, linear(s * rows, up * width, h, p));
    add(c, linear(s * rows, h, width, p));
    add(c, linear(rows, up * width, h, p), touched - 1.0);
    add(c, linear(rows, h, width, p), touched - 1.0);
    const double pairs = load * T * k / (ep ? engine_.ep : 1.0);  // routed copies on the busiest GPU
    add(c, compute_.memory_op(pairs * (3.0 * width + (ep ? 4.0 * h : 0.0)) * kBf16Bytes));  // SiLU-and-mul, permutes
    double comm = tp > 1 ? 2.0 * tp_all_reduce_s_(t_rank * h * kBf16Bytes) : 0.0;
    if (ep) {
      // Dispatch (FP8 with FP8 weights, as DeepEP) and combine (BF16), each rank's T / ep tokens.
      collective::ExpertAllToAllShape shape;
      shape.tokens_per_rank = T / engine_.ep;
      shape.experts_per_token = k;
      shape.hidden = h;
      shape.ep = engine_.ep;
      shape.domain_gpus = domain_gpus_;
      shape.load = load;
      const auto all_to_all = [&](double element_bytes) {
        shape.element_bytes = element_bytes;
        return collective::expert_all_to_all(shape, nvlink_bytes_per_s_, nic_bytes_per_s_per_gpu_, fabric_latency_s_)
            .time_s;
      };
      comm += all_to_all(p == compute::Precision::kFp8 ? collective::kFp8DispatchBytesPerElement : kBf16Bytes) +
              all_to_all(kBf16Bytes);
    }
    c.time_s += comm;
    c.communication_s += comm;
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
  const bool moe = model_.moe.enabled();
  const int ranks = engine_.attention_dp();
  // A dense model adds the attention ops to its layer one by one (the sums' order is part of the
  // golden fingerprints); an MoE model collects them apart, as they run per attention rank.
  if (!moe) layer = dense_layer(tokens);
  IterationCost moe_attention;
  IterationCost& attention = moe ? moe_attention : layer;
  const double heads = heads_per_gpu_, d = head_dim_;
  const workload::MlaShape& mla = model_.mla;
  for (const auto& c : prefills) {
    // chunk x (context + chunk / 2) query-key pairs: the causal square of the chunk plus the
    // whole context before it. MLA: the mean of its QK (d + rope) and PV (d) widths.
    add(attention, compute_.attention_forward(heads, c.tokens, c.context + c.tokens / 2.0,
                                              mla.enabled() ? d + mla.rope_head_dim / 2.0 : d, false));
  }
  if (decodes > 0) {
    if (mla.enabled()) {
      // Absorbed MLA decode: every head scores the latent and RoPE key and sums the latent.
      const double latent = mla.kv_lora_rank + mla.rope_head_dim;
      add(attention, compute_.memory_op(decode_kv_tokens * latent * kv_element_bytes_,
                                        2.0 * decode_kv_tokens * heads * (latent + mla.kv_lora_rank)));
    } else {
      const double kv_bytes = decode_kv_tokens * 2.0 * kv_heads_per_gpu_ * d * kv_element_bytes_;
      add(attention, compute_.memory_op(kv_bytes, 4.0 * decode_kv_tokens * heads * d));
    }
  }
  IterationCost total;
  if (!moe) {
    total.time_s = layer.time_s * model_.layers;
    total.compute_s = layer.compute_s * model_.layers;
    total.memory_s = layer.memory_s * model_.layers;
    total.communication_s = layer.communication_s * model_.layers;
  } else {
    // Dense layers run each attention rank's share; the ranks' sequences are spread evenly, so
    // each rank's attention is 1 / ranks of the iteration's.
    add_scaled(total, dense_layer((tokens + ranks - 1) / ranks), model_.layers - moe_layers_);
    add_scaled(total, moe_layer(tokens), moe_layers_);
    add_scaled(total, attention, static_cast<double>(model_.layers) / ranks);
  }
  if (engine_.pp > 1) {
    // Every stage boundary passes the iteration's hidden states on.
    const double send = (engine_.pp - 1) * tokens * model_.hidden * kBf16Bytes / pp_send_bytes_per_s_;
    total.time_s += send;
    total.communication_s += send;
  }
  if (sampled > 0) add(total, lm_head(moe ? (sampled + ranks - 1) / ranks : sampled));  // per attention rank
  return total;
}

}  // namespace dcsim::models::inference
