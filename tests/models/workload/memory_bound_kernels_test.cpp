// Issue 40 item 7: the step model says which part of its compute runs HBM-bound kernels (norms,
// residuals, activations, FP8 casts, cross-entropy), so that GPU power can draw memory-bound
// power for them and tensor-core power for the GEMMs and attention (power/gpu_phase_power.hpp).
#include <catch2/catch.hpp>

#include "models/compute/compute_model.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/layer_pass.hpp"
#include "models/workload/training_model.hpp"
#include "models/workload/training_step.hpp"
#include "tests/models/workload/collective_registry.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;
namespace cm = dcsim::models::compute;

namespace {

// llama3-8b, DP 8 on one node, one 8,192-token sequence per micro-batch.
mw::TrainingJobConfig llama8b(mw::Recompute recompute) {
  mw::TrainingJobConfig j;
  j.name = "llama3-8b";
  j.model = mw::llama3_8b();
  j.nodes = 1;
  j.global_batch_sequences = 16;
  j.parallelism.distributed_optimizer = true;
  j.recompute = recompute;
  return j;
}

// H100 STREAM rate the compute model uses for HBM-bound ops: 2.97 TB/s (compute_model.hpp).
constexpr double kHbmBytesPerS = 2.97e12;

}  // namespace

TEST_CASE("a layer's HBM-bound kernels are its norms, residuals and activation: once forward, twice backward",
          "[training][power]") {
  const cm::ComputeModel cmod(hardware::hgx_h100().gpu);
  const mw::TrainingJobConfig j = llama8b(mw::Recompute::kSelective);
  // Per token, BF16: 2 norms and 2 residual adds read and write 10 h bytes / 2; the SwiGLU
  // activation reads 2 f and writes f: 2 B x (10 x 4096 + 3 x 14336) = 167,936 B per token, over
  // 8,192 tokens = 1.3757 GB, 0.46321 ms at 2.97 TB/s; the backward moves it twice.
  const double ew_s = 2.0 * 8192.0 * (10.0 * 4096.0 + 3.0 * 14336.0) / kHbmBytesPerS;
  const mw::LayerPass layer = mw::layer_pass(j, cmod);
  CHECK(layer.memory_bound_s == Approx(3.0 * ew_s).epsilon(1e-9));
  // Full recomputation runs the forward's kernels once more in the backward.
  const mw::LayerPass recomputed = mw::layer_pass(llama8b(mw::Recompute::kFull), cmod);
  CHECK(recomputed.memory_bound_s == Approx(4.0 * ew_s).epsilon(1e-9));
  // What is left of the pass is tensor-core work: GEMMs and attention.
  CHECK(
      layer.forward_s + layer.backward_s - layer.memory_bound_s ==
      Approx(3.0 * (layer.linear_gemm_s[0] + layer.linear_gemm_s[1] + layer.linear_gemm_s[2] + layer.linear_gemm_s[3]) +
             layer.attention_forward_s + layer.attention_backward_s)
          .epsilon(1e-9));
}

TEST_CASE("the LM head's HBM-bound kernel is the fp32 cross-entropy, forward and backward", "[training][power]") {
  const cm::ComputeModel cmod(hardware::hgx_h100().gpu);
  // 3 passes of 4 B over 8,192 x 128,256 logits each way: 12.609 GB, 4.2454 ms at 2.97 TB/s.
  const double ce_s = 3.0 * 4.0 * 8192.0 * 128256.0 / kHbmBytesPerS;
  CHECK(mw::head_pass(llama8b(mw::Recompute::kSelective), cmod).memory_bound_s == Approx(2.0 * ce_s).epsilon(1e-9));
}

TEST_CASE("a step's HBM-bound time is its micro-batches' kernels of every layer and the head", "[training][power]") {
  // CP 2 x DP 4, as NVIDIA's published 8-GPU run (what fits in 80 GB without recomputation).
  mw::TrainingJobConfig j = llama8b(mw::Recompute::kSelective);
  j.parallelism.cp = 2;
  const auto step = mw::estimate_training_step(j, hardware::hgx_h100(), {}, mw::test::collective_registry());
  const cm::ComputeModel cmod(hardware::hgx_h100().gpu);
  // DP 4 with 16 sequences: 4 micro-batches per replica; 32 layers and the head on the one stage.
  const double per_micro_s = 32.0 * mw::layer_pass(j, cmod).memory_bound_s + mw::head_pass(j, cmod).memory_bound_s;
  CHECK(step.micro_batches == 4);
  CHECK(step.memory_bound_s == Approx(4.0 * per_micro_s).epsilon(1e-9));
  // Part of the compute, apart from the optimizer: 6.5% of it here. Per token and layer the
  // GEMMs run 3 x 2 x 4096 x 53,248 FLOPs (forward and backward), ~1.9 us at ~680 TFLOP/s,
  // against 0.17 us of element-wise traffic (3 x 167,936 B at 2.97 TB/s); attention over 8k
  // tokens adds to the tensor-core side.
  CHECK(step.memory_bound_s + step.optimizer_s < step.compute_s);
  CHECK(step.memory_bound_s / step.compute_s == Approx(0.065).margin(0.005));
}
