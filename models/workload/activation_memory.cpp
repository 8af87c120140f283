#include "models/workload/activation_memory.hpp"

#include "models/workload/pipeline_schedule.hpp"

namespace dcsim::models::workload {

namespace {
constexpr double kBf16Bytes = 2.0;
// Adam in mixed precision: fp32 master weights, first and second moments (Rajbhandari et al.
// 2020, ZeRO, section 3.1: 12 bytes per parameter).
constexpr double kAdamStateBytes = 12.0;
// Korthikanti et al. 2022, table 2 (see the header): bytes per s b h of one layer.
constexpr double kSelectiveSp = 34.0;         // / t
constexpr double kSelectiveNoSpWhole = 10.0;  // + 24 / t
constexpr double kSelectiveNoSpSharded = 24.0;
constexpr double kFullRecompute = 2.0;  // the layer's input, BF16
// fp32 logits of the cross-entropy.
constexpr double kLogitBytes = 4.0;
}  // namespace

double stage_parameters(const TrainingJobConfig& job, const std::vector<int>& layers, int stage) {
  const TransformerModel& md = job.model;
  const int p = static_cast<int>(layers.size());
  const double embed = static_cast<double>(md.vocab) * md.hidden;
  double params = layers[static_cast<std::size_t>(stage)] * md.layer_params();
  if (stage == 0) params += embed + static_cast<double>(md.learned_positions) * md.hidden;
  if (stage == p - 1 && (!md.tied_embeddings || p > 1)) params += embed;
  return params / job.parallelism.tp;
}

double activation_bytes_per_layer(const TrainingJobConfig& job) {
  const TransformerModel& md = job.model;
  const ParallelismPlan& pl = job.parallelism;
  const double t = pl.tp;
  const double sbh = static_cast<double>(md.seq_len) * job.micro_batch_size * md.hidden / pl.cp;
  const bool sp = pl.sequence_parallel || pl.tp == 1;
  if (job.recompute == Recompute::kFull) return kFullRecompute * sbh / (sp ? t : 1.0);
  return sp ? kSelectiveSp * sbh / t : sbh * (kSelectiveNoSpWhole + kSelectiveNoSpSharded / t);
}

MemoryBreakdown stage_memory(const TrainingJobConfig& job, int data_shards, int m,
                             const std::vector<int>& layers, int stage) {
  const TransformerModel& md = job.model;
  const ParallelismPlan& pl = job.parallelism;
  const int p = static_cast<int>(layers.size());
  const int v = pl.virtual_stages;
  const double params = stage_parameters(job, layers, stage);
  const int z = pl.zero_stage;
  MemoryBreakdown mem;
  mem.weights_bytes = kBf16Bytes * params / (z >= 3 ? data_shards : 1);
  mem.gradients_bytes = job.grad_bytes_per_param * params / (z >= 2 ? data_shards : 1);
  mem.optimizer_bytes = kAdamStateBytes * params / (z >= 1 ? data_shards : 1);
  const double chunks = in_flight_chunks(p, v, m, stage);
  mem.activations_bytes =
      activation_bytes_per_layer(job) * layers[static_cast<std::size_t>(stage)] * chunks / v;
  if (stage == p - 1) {
    mem.activations_bytes += kLogitBytes * md.seq_len * job.micro_batch_size * md.vocab / (pl.tp * pl.cp);
  }
  return mem;
}

}  // namespace dcsim::models::workload
