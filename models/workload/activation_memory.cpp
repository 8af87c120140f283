#include "models/workload/activation_memory.hpp"

#include "models/workload/expert_parallel.hpp"
#include "models/workload/pipeline_schedule.hpp"

namespace dcsim::models::workload {

namespace {
constexpr double kBf16Bytes = 2.0;
// Adam in mixed precision: fp32 master weights, first and second moments (Rajbhandari et al.
// 2020, ZeRO, section 3.1: 12 bytes per parameter).
constexpr double kAdamStateBytes = 12.0;
constexpr double kFullRecompute = 2.0;  // the layer's input, BF16
constexpr double kDropoutMaskBytes = 1.0;  // per element
// fp32 logits of the cross-entropy.
constexpr double kLogitBytes = 4.0;
}  // namespace

double stage_expert_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage) {
  const TransformerModel& md = job.model;
  if (!md.moe.enabled()) return 0.0;
  const int moe = stage_moe_layers(md, layers, job.parallelism.virtual_stages)[static_cast<std::size_t>(stage)];
  return moe * md.moe.experts * md.mlp_params(md.moe.expert_ffn_hidden) / job.parallelism.ep;
}

double stage_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage) {
  const TransformerModel& md = job.model;
  const int p = static_cast<int>(layers.size());
  const double embed = static_cast<double>(md.vocab) * md.hidden;
  const int n = layers[static_cast<std::size_t>(stage)];
  double params = n * md.layer_params();
  double experts = 0.0;
  if (md.moe.enabled()) {
    // Dense layers, and MoE layers without their routed experts, shard by tp; the experts by ep.
    experts = stage_expert_parameters(job, layers, stage);
    const int moe = stage_moe_layers(md, layers, job.parallelism.virtual_stages)[static_cast<std::size_t>(stage)];
    params = (n - moe) * md.dense_layer_params() +
             moe * (md.moe_layer_params() - md.moe.experts * md.mlp_params(md.moe.expert_ffn_hidden));
  }
  if (stage == 0) params += embed + static_cast<double>(md.learned_positions) * md.hidden;
  if (stage == p - 1 && (!md.tied_embeddings || p > 1)) params += embed;
  return params / job.parallelism.tp + experts;
}

namespace {
// LoRA: a frozen linear's input is kept only for a weight gradient, so the inputs of frozen
// linears without an adapter are not stored (Korthikanti et al. 2022, section 4.1: QKV input
// 2 sbh, attention-out input 2 sbh, MLP up input 2 sbh, MLP down input 2 f sbh (8 for GELU's
// 4 h); without sequence parallelism the QKV and MLP up inputs are whole on every TP rank).
double frozen_inputs_bytes(const TrainingJobConfig& job, double sbh, bool sp) {
  if (!job.lora.enabled()) return 0.0;
  const double t = job.parallelism.tp;
  const auto adapted = [&](LoraTarget x) {
    for (LoraTarget y : job.lora.targets) {
      if (x == y) return true;
    }
    return false;
  };
  double per_sbh = 0.0;
  if (!adapted(LoraTarget::kQkv)) per_sbh += 2.0 / (sp ? t : 1.0);
  if (!adapted(LoraTarget::kAttentionOut)) per_sbh += 2.0 / t;
  if (!adapted(LoraTarget::kMlpUp)) per_sbh += 2.0 / (sp ? t : 1.0);
  if (!adapted(LoraTarget::kMlpDown)) per_sbh += kBf16Bytes * job.model.ffn_hidden / job.model.hidden / t;
  return per_sbh * sbh;
}
}  // namespace

double stage_trainable_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage) {
  if (!job.lora.enabled()) return stage_parameters(job, layers, stage);
  return layers[static_cast<std::size_t>(stage)] *
         lora_parameters_per_layer(job.model, job.lora, job.parallelism.tp);
}

namespace {
// Bytes per s b h of one layer kept with selective recomputation (the header's tensor count):
// the part every TP rank keeps whole without sequence parallelism, and the part sharded over tp.
struct LayerActivations {
  double whole = 0.0;
  double sharded = 0.0;
};

LayerActivations selective_activations(const TransformerModel& md) {
  const double f = static_cast<double>(md.ffn_hidden) / md.hidden;
  const double g = static_cast<double>(md.kv_heads) / md.heads;
  LayerActivations a;
  a.whole = 4 * kBf16Bytes + (md.dropout ? 2 * kDropoutMaskBytes : 0.0);  // 2 norm inputs, QKV and MLP inputs
  // Q, K and V; the attention output; the MLP's inner tensors.
  a.sharded = kBf16Bytes * (1.0 + 2.0 * g) + kBf16Bytes + kBf16Bytes * f * (md.gated_mlp ? 3.0 : 2.0);
  return a;
}
}  // namespace

namespace {
// An MoE layer's activations in s b h / t units beyond a dense layer's without its MLP (the
// header's MoE paragraph).
double moe_minus_mlp_per_sbh(const TrainingJobConfig& job) {
  const TransformerModel& md = job.model;
  const double wide = md.gated_mlp ? 3.0 : 2.0;
  const double fe = static_cast<double>(md.moe.expert_ffn_hidden) / md.hidden;
  const double f = static_cast<double>(md.ffn_hidden) / md.hidden;
  return kBf16Bytes * (md.moe.experts_per_token * busiest_gpu_load(job) * (1.0 + wide * fe) +
                       md.moe.shared_experts * wide * fe - wide * f);
}
}  // namespace

double moe_activation_bytes_per_layer(const TrainingJobConfig& job) {
  const double dense = activation_bytes_per_layer(job);
  if (job.recompute == Recompute::kFull) return dense;
  const TransformerModel& md = job.model;
  const double sbh = static_cast<double>(md.seq_len) * job.micro_batch_size * md.hidden / job.parallelism.cp;
  return dense + moe_minus_mlp_per_sbh(job) * sbh / job.parallelism.tp;
}

double activation_bytes_per_layer(const TrainingJobConfig& job) {
  const TransformerModel& md = job.model;
  const ParallelismPlan& pl = job.parallelism;
  const double t = pl.tp;
  const double sbh = static_cast<double>(md.seq_len) * job.micro_batch_size * md.hidden / pl.cp;
  const bool sp = pl.sequence_parallel || pl.tp == 1;
  if (job.recompute == Recompute::kFull) return kFullRecompute * sbh / (sp ? t : 1.0);
  const LayerActivations a = selective_activations(md);
  const double stored = sp ? (a.whole + a.sharded) * sbh / t : sbh * (a.whole + a.sharded / t);
  return stored - frozen_inputs_bytes(job, sbh, sp);
}

MemoryBreakdown stage_memory(const TrainingJobConfig& job, int data_shards, int m,
                             const std::vector<int>& layers, int stage) {
  const TransformerModel& md = job.model;
  const ParallelismPlan& pl = job.parallelism;
  const int p = static_cast<int>(layers.size());
  const int v = pl.virtual_stages;
  const double params = stage_parameters(job, layers, stage);
  const double trainable = stage_trainable_parameters(job, layers, stage);
  const int z = pl.zero_stage;
  MemoryBreakdown mem;
  // LoRA: the frozen weights and the adapters; gradients and Adam state for the adapters only.
  mem.weights_bytes = kBf16Bytes * params / (z >= 3 ? data_shards : 1) +
                      (job.lora.enabled() ? kBf16Bytes * trainable : 0.0);
  mem.gradients_bytes = job.grad_bytes_per_param * trainable / (z >= 2 ? data_shards : 1);
  mem.optimizer_bytes = kAdamStateBytes * trainable / (pl.shards_optimizer() ? data_shards : 1);
  const double chunks = in_flight_chunks(p, v, m, stage);
  mem.activations_bytes =
      activation_bytes_per_layer(job) * layers[static_cast<std::size_t>(stage)] * chunks / v;
  if (md.moe.enabled()) {
    // The routed experts shard over the expert-data-parallel ranks instead (the header).
    const double experts = stage_expert_parameters(job, layers, stage);
    const double edp = static_cast<double>(pl.tp) * data_shards / pl.ep;
    const auto resharded = [&](double per_param, bool sharded) {
      return per_param * experts * (1.0 / (sharded ? edp : 1.0) - 1.0 / (sharded ? data_shards : 1.0));
    };
    mem.weights_bytes += resharded(kBf16Bytes, z >= 3);
    mem.gradients_bytes += resharded(job.grad_bytes_per_param, z >= 2);
    mem.optimizer_bytes += resharded(kAdamStateBytes, pl.shards_optimizer());
    const int moe = stage_moe_layers(md, layers, v)[static_cast<std::size_t>(stage)];
    mem.activations_bytes += (moe_activation_bytes_per_layer(job) - activation_bytes_per_layer(job)) * moe * chunks / v;
  }
  if (stage == p - 1) {
    mem.activations_bytes += kLogitBytes * md.seq_len * job.micro_batch_size * md.vocab / (pl.tp * pl.cp);
  }
  return mem;
}

}  // namespace dcsim::models::workload
