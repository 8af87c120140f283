#include "models/workload/lora.hpp"

#include "sim/error.hpp"

namespace dcsim::models::workload {

const std::vector<std::string>& lora_target_names() {
  static const std::vector<std::string> names{"qkv", "attention_out", "mlp_up", "mlp_down"};
  return names;
}

LoraTarget parse_lora_target(const std::string& name) {
  const auto& names = lora_target_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<LoraTarget>(i);
  }
  throw sim::ConfigError("lora.targets", "unknown target '" + name +
                                              "'; expected qkv, attention_out, mlp_up or mlp_down");
}

LinearShape target_shape(const TransformerModel& md, LoraTarget target) {
  const double h = md.hidden, f = md.ffn_hidden;
  const double kv_cols = static_cast<double>(md.kv_heads) * md.head_dim();
  switch (target) {
    case LoraTarget::kQkv: return {h, h + 2.0 * kv_cols, true};
    case LoraTarget::kAttentionOut: return {h, h, false};
    case LoraTarget::kMlpUp: return {h, (md.gated_mlp ? 2.0 : 1.0) * f, true};
    case LoraTarget::kMlpDown: return {f, h, false};
  }
  return {};
}

double lora_parameters_per_layer(const TransformerModel& md, const LoraConfig& lora, int tp) {
  if (!lora.enabled()) return 0.0;
  double params = 0.0;
  for (LoraTarget t : lora.targets) {
    const LinearShape s = target_shape(md, t);
    params += s.column_parallel ? lora.rank * (s.in + s.out / tp) : lora.rank * (s.in / tp + s.out);
  }
  return params;
}

double lora_training_flops_per_token(const TransformerModel& md, const LoraConfig& lora) {
  return 4.0 * md.matmul_parameters() + 12.0 * md.layers * static_cast<double>(md.hidden) * md.seq_len +
         6.0 * md.layers * lora_parameters_per_layer(md, lora, 1);
}

}  // namespace dcsim::models::workload
