// The step model against a published measurement it was not fitted to (issue 15: "a dense 7B
// model reaching 60% BF16 MFU on 8 GPUs is not plausible"). NVIDIA's DGX Cloud benchmark recipes
// (github.com/NVIDIA/dgxc-benchmarking, llama3.1 README at tag v25.04, NeMo 25.02) train Llama 3.1
// 8B on one 8 x H100 SXM node: sequence 8192, global batch 128, micro-batch 1, TP 1 x PP 1 x CP 2
// (DP 4), Megatron's distributed optimizer, and report 12.27 s per step in BF16 and 9.33 s in
// FP8 (12.91 / 9.67 s at v24.11.1, NeMo 24.09). With dcsim's FLOP count (6 N + 12 L h s per token,
// the count those READMEs use: 4.74e14 per 8192-token sample) that is 62.5% BF16 MFU and 41.1%
// of the FP8 peak: a single node with its all-reduces on NVLink runs well above the 35-45% of
// large, communication-bound runs. No constant of the GEMM, attention or FP8 models comes from
// these figures (compute_model.hpp: cuBLASLt points and FlashAttention-2's benchmark).
#include <catch2/catch.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_step.hpp"
#include "tests/models/workload/llama405b_plan.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;

namespace {

mw::TrainingStepResult dgxc_llama31_8b(compute::Precision precision) {
  mc::CollectiveRegistry collectives{"collective algorithm"};
  mc::register_collective_algorithms(collectives);
  mw::TrainingJobConfig j;
  j.name = "llama3.1-8b";
  j.model = mw::llama3_8b();  // Llama 3.1 8B has Llama 3 8B's shapes; seq 8192
  j.nodes = 1;
  j.parallelism.cp = 2;
  j.parallelism.distributed_optimizer = true;
  j.micro_batch_size = 1;
  j.global_batch_sequences = 128;
  j.precision = precision;
  return mw::estimate_training_step(j, hardware::hgx_h100(), {}, collectives);
}

}  // namespace

// Tolerance 10%: the spread of NVIDIA's own releases for this recipe is 5% (12.27-12.91 s BF16,
// 9.33-9.67 s FP8) and the training-throughput check asks for the median error to fall
// below 12%.
TEST_CASE("one-node llama3.1-8b steps stay within 10% of NVIDIA's published DGX Cloud runs",
          "[models][workload][published]") {
  const auto bf16 = dgxc_llama31_8b(compute::Precision::kBf16);
  const auto fp8 = dgxc_llama31_8b(compute::Precision::kFp8);
  INFO("BF16 " << bf16.step_time_s << " s (MFU " << bf16.mfu << "), FP8 " << fp8.step_time_s << " s (MFU "
               << fp8.mfu << ")");
  CHECK(bf16.step_time_s == Approx(12.27).epsilon(0.10));
  CHECK(fp8.step_time_s == Approx(9.33).epsilon(0.10));
  // The same FLOP count as the READMEs: 4.74e14 per sample, 128 samples per step.
  CHECK(bf16.model_flops_per_step == Approx(128 * 4.74e14).epsilon(0.005));
  // FP8 gains far less than its doubled peak: attention, the LM head, norms and the casts stay.
  CHECK(bf16.step_time_s / fp8.step_time_s == Approx(12.27 / 9.33).epsilon(0.10));
}

// Llama 3 405B pre-training as the Llama 3 paper describes it (Dubey et al. 2024, section 3.3.2
// and table 4): 16,384 H100 GPUs, TP 8 x PP 16 x DP 128, 16M-token batches of 8K sequences (16
// micro-batches of one sequence per DP rank), an interleaved schedule, 7 layers on the first and
// last stages, no activation checkpointing; measured 400 TFLOP/s per GPU (41% BF16 MFU). The
// paper does not give the number of virtual stages: v = 4 (what the shipped
// llama3-405b-54-days.json assumes) lands within 10%; v = 2 and v = 7 bracket the published
// figure (35% and 44% MFU), which shows the bubble, not a fitted constant, sets the level.
TEST_CASE("llama3-405b on 16,384 GPUs with the paper's plan stays within 10% of Meta's 400 TFLOP/s",
          "[models][workload][published]") {
  mc::CollectiveRegistry collectives{"collective algorithm"};
  mc::register_collective_algorithms(collectives);
  const auto step = [&](int v) {
    mw::TrainingJobConfig j = mw::testing::llama405b_table4();
    j.parallelism.virtual_stages = v;
    j.parallelism.first_stage_layers = 7;
    j.parallelism.last_stage_layers = 7;
    j.recompute = mw::Recompute::kSelective;
    return mw::estimate_training_step(j, hardware::hgx_h100(), {}, collectives);
  };
  const auto r = step(4);
  INFO("step " << r.step_time_s << " s, " << r.tflops_per_gpu << " TFLOP/s per GPU, MFU " << r.mfu);
  CHECK(r.tflops_per_gpu == Approx(400.0).epsilon(0.10));
  CHECK(step(2).mfu < 0.41);
  CHECK(step(7).mfu > 0.41);
}
