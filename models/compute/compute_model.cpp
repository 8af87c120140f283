#include "models/compute/compute_model.hpp"

#include <algorithm>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::compute {

namespace {

// FA2's backward pass runs 5 matmuls to the forward's 2 (Dao 2023, FlashAttention-2, section 3).
constexpr double kAttentionBackwardFlopRatio = 2.5;

void require_positive(double v, const char* field) {
  if (!(v > 0.0)) throw sim::ConfigError(field, "must be positive");
}

}  // namespace

ComputeModel::ComputeModel(hardware::GpuSpec gpu, ComputeModelConfig config)
    : gpu_(std::move(gpu)), config_(config) {
  require_positive(gpu_.peak_bf16_flops, "gpu.peak_bf16_flops");
  require_positive(gpu_.hbm_bandwidth_bytes_per_s, "gpu.hbm_bandwidth_bytes_per_s");
  if (gpu_.sms <= 0) throw sim::ConfigError("gpu.sms", "must be a positive integer");
  require_positive(config_.gemm_sustained_fraction, "gemm_sustained_fraction");
  require_positive(config_.flash_attention_efficiency, "flash_attention_efficiency");
  require_positive(config_.mem_efficiency, "mem_efficiency");
  if (config_.tile_m <= 0 || config_.tile_n <= 0 || config_.attention_query_tile <= 0) {
    throw sim::ConfigError("tile_m", "tile sizes must be positive");
  }
  set_clock_factor(config_.clock_factor);
}

void ComputeModel::set_clock_factor(double f) {
  if (!(f > 0.0 && f <= 1.0)) {
    throw sim::ConfigError("clock_factor", "must satisfy 0 < f <= 1, got " + std::to_string(f));
  }
  config_.clock_factor = f;
}

double ComputeModel::gemm_time_for_tile(double m, double n, double k, double peak, int tm,
                                        int tn) const {
  const double sms = gpu_.sms;
  const double tiles = std::ceil(m / tm) * std::ceil(n / tn);
  const double waves = std::ceil(tiles / sms);
  const double per_sm_flops = peak / sms * config_.gemm_sustained_fraction;
  const double tile_s = 2.0 * tm * tn * k / per_sm_flops + config_.gemm_tile_overhead_s;
  return waves * tile_s;
}

double ComputeModel::gemm_efficiency(double m, double n, double k, Precision p) const {
  const double peak = peak_flops(gpu_, p);
  const double t = std::min(gemm_time_for_tile(m, n, k, peak, config_.tile_m, config_.tile_n),
                            gemm_time_for_tile(m, n, k, peak, config_.tile_n, config_.tile_m));
  return 2.0 * m * n * k / (t * peak);
}

OpTime ComputeModel::roofline(double compute_s, double flops, double bytes) const {
  const double memory_s = bytes / (gpu_.hbm_bandwidth_bytes_per_s * config_.mem_efficiency);
  const double c = compute_s / config_.clock_factor;
  OpTime out;
  out.flops = flops;
  out.bytes = bytes;
  out.compute_bound = c >= memory_s;
  out.time_s = std::max(c, memory_s) + config_.kernel_overhead_s;
  return out;
}

OpTime ComputeModel::gemm(double m, double n, double k, Precision p) const {
  const double flops = 2.0 * m * n * k;
  const double peak = peak_flops(gpu_, p);
  const double e = bytes_per_element(p);
  const double bytes = e * (m * k + k * n) + 2.0 * m * n;  // BF16 output
  return roofline(flops / (peak * gemm_efficiency(m, n, k, p)), flops, bytes);
}

double ComputeModel::attention_rate(double batch_heads, double seq_q) const {
  const double tiles = batch_heads * std::ceil(seq_q / config_.attention_query_tile);
  const double wave_efficiency = tiles / (std::ceil(tiles / gpu_.sms) * gpu_.sms);
  return gpu_.peak_bf16_flops * config_.flash_attention_efficiency * wave_efficiency;
}

OpTime ComputeModel::attention_forward(double batch_heads, double seq_q, double seq_kv,
                                       double head_dim, bool causal) const {
  const double flops = 4.0 * batch_heads * seq_q * seq_kv * head_dim * (causal ? 0.5 : 1.0);
  // Q, K, V read once and O written once, BF16 (the point of FlashAttention: no s^2 in HBM).
  const double bytes = 2.0 * batch_heads * head_dim * (2.0 * seq_q + 2.0 * seq_kv);
  return roofline(flops / attention_rate(batch_heads, seq_q), flops, bytes);
}

OpTime ComputeModel::attention_backward(double batch_heads, double seq_q, double seq_kv,
                                        double head_dim, bool causal) const {
  const double flops = kAttentionBackwardFlopRatio * 4.0 * batch_heads * seq_q * seq_kv *
                       head_dim * (causal ? 0.5 : 1.0);
  // Reads Q, K, V, O, dO and writes dQ, dK, dV.
  const double bytes = 2.0 * batch_heads * head_dim * (4.0 * seq_q + 4.0 * seq_kv);
  return roofline(flops / attention_rate(batch_heads, seq_q), flops, bytes);
}

OpTime ComputeModel::memory_op(double bytes, double flops) const {
  return roofline(0.0, flops, bytes);
}

}  // namespace dcsim::models::compute
