#pragma once
// ComputeModel: operation-level roofline for one GPU.
//
//   time(op) = max( flops / (peak(precision) x efficiency(op shape) x clock_factor),
//                   bytes / (hbm_bandwidth x mem_efficiency) ) + kernel_overhead
//
// GEMM efficiency (m x n x k, C = A B). cuBLASLt on Hopper tiles C into CTA tiles of
// tile_m x tile_n (128 x 256 for FP8/BF16 WGMMA kernels; the transposed 256 x 128 is tried too
// and the faster kept, as the heuristic would). The tiles run in waves of `sms` (132 on H100):
//   tiles = ceil(m / tile_m) x ceil(n / tile_n),  waves = ceil(tiles / sms)
//   t_gemm = kernel_overhead + waves x ( 2 tile_m tile_n k / (peak / sms x sustained) + t_tile )
// Three physical parameters:
//   sustained  the fraction of the datasheet peak a fully loaded SM sustains in the k loop
//              (clock drops under the 700 W limit, issue overheads): 0.689 for H100 FP8;
//   t_tile     per-wave fixed cost: pipeline fill of the TMA/WGMMA k loop plus the epilogue that
//              writes a tile, 1.4 us;
//   kernel_overhead  per-kernel fixed cost beyond the tiles: 0 when kernels are queued back to
//              back (as in the benchmark), launch latency hidden by the asynchronous stream.
// They are a least-squares fit in log space to the four measured cuBLASLt FP8 points in
// shared/reference/public-figures.md (Azure ND H100 v5, samuel-bohman/AI-benchmarking-guide):
// 1382 / 1290 / 1217 / 274 TFLOP/s at m=n=k = 32768 / 8192 / 4096 / 1024; the model gives 1350 /
// 1287 / 1255 / 272. Small GEMMs lose to wave quantisation (32 tiles on 132 SMs at 1024) and to
// t_tile against a short k loop; shapes just past a wave boundary show the familiar sawtooth.
// BF16 uses the same tiles at half the per-SM rate, so it reaches a slightly higher fraction.
//
// Attention (FlashAttention-2 forward, per head: QK^T and PV, 4 s_q s_kv d FLOPs, halved when
// causal). FA2 uses Ampere-style mma.sync rather than Hopper WGMMA, so it sustains a fixed
// fraction of peak, `flash_attention_efficiency`, times the wave efficiency of its
// batch x heads x ceil(s_q / 128) query tiles on the SMs. 0.342 is calibrated to the one measured
// point (328 TFLOP/s BF16, head dim 128, batch 2, seq 8192, 16 heads = FA2's benchmark default
// of dim 2048). The backward pass costs 2.5x the forward FLOPs (FA2 paper: 5 matmuls vs 2).
//
// Memory-bound ops (element-wise, norms, optimizer): bytes / (hbm_bandwidth x mem_efficiency),
// mem_efficiency = 2.97 / 3.35 = 0.887 (measured STREAM triad, same Azure source; copy 2.90 gives
// 0.866).
//
// clock_factor (0 < f <= 1) scales the compute-bound term only: a throttled SM clock slows the
// tensor cores, not HBM.

#include "models/compute/precision.hpp"
#include "models/hardware/node_spec.hpp"

namespace dcsim::models::compute {

struct ComputeModelConfig {
  // Fitted to the reference's cuBLASLt FP8 points (see above).
  double gemm_sustained_fraction = 0.689;
  double gemm_tile_overhead_s = 1.4e-6;
  double kernel_overhead_s = 0.0;
  int tile_m = 128;
  int tile_n = 256;
  double flash_attention_efficiency = 0.342;
  int attention_query_tile = 128;
  double mem_efficiency = 2.97 / 3.35;
  double clock_factor = 1.0;  // 0 < f <= 1
};

// Cost of one op, split so callers can explain a time.
struct OpTime {
  double time_s = 0.0;
  double flops = 0.0;
  double bytes = 0.0;
  bool compute_bound = true;
};

class ComputeModel {
 public:
  // Throws sim::ConfigError naming the field for non-positive peaks/bandwidth/SMs or a clock
  // factor outside (0, 1].
  ComputeModel(hardware::GpuSpec gpu, ComputeModelConfig config = {});

  const hardware::GpuSpec& gpu() const { return gpu_; }
  const ComputeModelConfig& config() const { return config_; }
  void set_clock_factor(double f);

  // Achieved FLOP/s fraction of peak for a GEMM (before the clock factor), in (0, sustained].
  double gemm_efficiency(double m, double n, double k, Precision p) const;
  // C[m x n] = A[m x k] B[k x n]; operands in precision p, output in BF16 (FP8 GEMMs too).
  OpTime gemm(double m, double n, double k, Precision p) const;
  // FlashAttention forward over `batch_heads` (batch x query heads) of seq_q x seq_kv, head dim d.
  OpTime attention_forward(double batch_heads, double seq_q, double seq_kv, double head_dim,
                           bool causal) const;
  OpTime attention_backward(double batch_heads, double seq_q, double seq_kv, double head_dim,
                            bool causal) const;
  // A memory-bound op moving `bytes` through HBM (reads + writes), with `flops` of arithmetic.
  OpTime memory_op(double bytes, double flops = 0.0) const;

 private:
  double gemm_time_for_tile(double m, double n, double k, double peak, int tm, int tn) const;
  double attention_rate(double batch_heads, double seq_q) const;
  OpTime roofline(double compute_s, double flops, double bytes) const;

  hardware::GpuSpec gpu_;
  ComputeModelConfig config_;
};

}  // namespace dcsim::models::compute
