#include <catch2/catch.hpp>

#include "models/hardware/node_presets.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "tests/models/workload/collective_registry.hpp"

using namespace dcsim::models;
using workload::TrainingJobConfig;

namespace {
constexpr double kExact = 1e-9;
constexpr double kFlopsTol = 0.02;

TrainingJobConfig llama70b_on_64_nodes() {
  TrainingJobConfig j;
  j.model = workload::llama3_70b();
  j.nodes = 64;
  j.parallelism = {8, 4, 0, 1};
  j.micro_batch_size = 1;
  j.global_batch_sequences = 512;
  return j;
}
}  // namespace

TEST_CASE("preset shapes give the published parameter counts", "[models][workload]") {
  workload::TrainingModelRegistry models{"training model"};
  workload::register_training_models(models);
  for (const auto& e : models.entries()) {
    INFO(e.name);
    const auto m = e.factory();
    workload::validate(m);
    // Published counts are rounded (70B, 405B) and BERT's 340M includes biases, token-type
    // embeddings and the pooler that the shape formula leaves out.
    CHECK(m.parameters() == Approx(m.published_params).epsilon(0.025));
  }
}

TEST_CASE("dense training FLOPs per token are about 6 x parameters", "[models][workload]") {
  auto m = workload::llama3_70b();
  // The attention term 12 L h s is what exceeds 6N at long sequences; without it, 6 N_matmul is
  // 6N less the input-embedding lookup (1.5% of 70B).
  const double no_attention = m.training_flops_per_token() - 12.0 * m.layers * m.hidden * m.seq_len;
  CHECK(no_attention == Approx(6.0 * m.parameters()).epsilon(kFlopsTol));
  // The ops the step model executes add up to the same count, with causal attention at half.
  const auto r = workload::estimate_training_step(llama70b_on_64_nodes(), hardware::hgx_h100(), {},
                                                  workload::test::collective_registry());
  const double executed_per_token = r.hardware_flops_per_step / r.tokens_per_step;
  CHECK(executed_per_token ==
        Approx(no_attention + 6.0 * m.layers * m.hidden * m.seq_len).epsilon(kFlopsTol));
}

TEST_CASE("the 1F1B bubble is the fill and drain through the other stages, (p-1)/(m+p-1) when equal", "[models][workload]") {
  const auto reg = workload::test::collective_registry();
  for (int m : {4, 16, 64}) {
    auto j = llama70b_on_64_nodes();
    j.global_batch_sequences = m * 16;  // dp = 512 / (8 x 4) = 16
    const auto r = workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg);
    INFO("m = " << m);
    REQUIRE(r.micro_batches == m);
    // 80 layers on 4 stages, 20 each; the last one also runs the LM head and sets the pace. The
    // fill and drain cross the 3 others once: 3 slots of a 20-layer stage, plus 6 sends.
    const double p = 4;
    REQUIRE(r.slot_stage == 3);
    const double slot0 = r.stage_forward_s[0] + r.stage_backward_s[0] + r.stage_comm_s[0];
    CHECK(r.bubble_s == Approx((p - 1) * (slot0 + 2.0 * r.pp_send_s)).epsilon(kExact));
    // The pipelined part is m slots of the slowest stage and the bubble.
    const double pipelined = r.step_time_s - r.optimizer_s - r.dp_exposed_s;
    CHECK(r.bubble_s / pipelined == Approx(r.bubble_fraction).epsilon(1e-9));
    // With equal stages that is (p-1)/(m+p-1); the LM head makes the last stage ~3% slower.
    CHECK(r.bubble_fraction == Approx((p - 1) / (m + p - 1)).epsilon(0.05));
  }
}

TEST_CASE("step time is compute + exposed communication + bubble", "[models][workload]") {
  const auto r = workload::estimate_training_step(llama70b_on_64_nodes(), hardware::hgx_h100(), {},
                                                  workload::test::collective_registry());
  CHECK(r.step_time_s == Approx(r.compute_s + r.exposed_comm_s + r.bubble_s).epsilon(kExact));
  CHECK(r.dp_exposed_s <= r.dp_comm_s);
  // Llama 3 405B trained at 38-43% BF16 MFU (Llama 3 paper); a 70B on 512 GPUs should sit in a
  // plausible 30-55% band, not at a fitted value.
  CHECK(r.mfu > 0.30);
  CHECK(r.mfu < 0.55);
  CHECK(r.tokens_per_s == Approx(r.tokens_per_step / r.step_time_s).epsilon(kExact));
}

TEST_CASE("fewer NICs per node slow a data-parallel BERT-Large through gradient all-reduce",
          "[models][workload]") {
  const auto reg = workload::test::collective_registry();
  TrainingJobConfig j;
  j.model = workload::bert_large();
  j.nodes = 3;
  j.micro_batch_size = 8;
  collective::FabricParams four, two;
  four.nics_per_node = 4;
  two.nics_per_node = 2;
  const auto r4 = workload::estimate_training_step(j, hardware::hgx_h100(), four, reg);
  const auto r2 = workload::estimate_training_step(j, hardware::hgx_h100(), two, reg);
  // Compute is the same; only the exposed part of the gradient all-reduce differs. Its total
  // doubles-ish with half the NICs (bandwidth term) while the backward window stays.
  CHECK(r4.compute_s == Approx(r2.compute_s).epsilon(kExact));
  CHECK(r2.dp_comm_s > 1.5 * r4.dp_comm_s);
  const double penalty = 1.0 - r2.tokens_per_s / r4.tokens_per_s;
  CHECK(penalty > 0.0);
  CHECK(penalty < 0.5);
}

TEST_CASE("impossible plans are config errors naming the field", "[models][workload]") {
  const auto reg = workload::test::collective_registry();
  auto j = llama70b_on_64_nodes();
  j.parallelism = {8, 3, 0, 1};  // 24 does not divide 512 GPUs
  try {
    workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg);
    FAIL("expected ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism");
  }
  j = llama70b_on_64_nodes();
  j.nodes = 1;
  j.parallelism = {1, 1, 0, 0};
  j.global_batch_sequences = 8;
  try {
    workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg);
    FAIL("expected ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism");
    CHECK_THAT(e.detail(), Catch::Contains("needs") && Catch::Contains("GB per GPU"));
  }
  j = llama70b_on_64_nodes();
  j.parallelism.tp = 16;  // larger than the 8-GPU NVLink domain
  CHECK_THROWS_AS(workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg),
                  dcsim::sim::ConfigError);
  j = llama70b_on_64_nodes();
  j.global_batch_sequences = 100;  // not a multiple of micro x dp = 16
  CHECK_THROWS_AS(workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg),
                  dcsim::sim::ConfigError);
}

TEST_CASE("TP 16 runs on NVLink inside an NVL72 rack and is refused on HGX H100", "[models][workload]") {
  const auto reg = workload::test::collective_registry();
  TrainingJobConfig j = llama70b_on_64_nodes();
  j.parallelism = {16, 1, 0, 1};  // tp 16, pp 1, dp from the GPUs
  j.global_batch_sequences = 64;
  j.nodes = 8;  // 64 H100s: the 8-GPU NVLink domain is one node
  try {
    workload::estimate_training_step(j, hardware::hgx_h100(), {}, reg);
    FAIL("expected ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism.tp");
    CHECK_THAT(e.detail(), Catch::Contains("tensor parallelism 16") && Catch::Contains("8 GPUs of a node"));
  }
  // 64 GB200s on 16 trays of one 72-GPU domain: each TP group is 4 trays on NVLink 5.
  j.nodes = 16;
  const auto tray = hardware::gb200_nvl72_tray();
  const auto r = workload::estimate_training_step(j, tray, {}, reg);
  CHECK(r.dp == 4);
  // The TP all-reduce ran on the 16-GPU NVLink island that make_collective_system builds.
  const auto island = collective::make_collective_system(tray, 4, {}, 16);
  CHECK(island.nodes == 1);
  CHECK(r.tp_comm_s > 0.0);
  // TP 128 is whole trays but more than the 72-GPU domain: its groups would span two racks.
  j.parallelism = {128, 1, 0, 1};
  j.nodes = 32;
  j.global_batch_sequences = 8;
  CHECK_THROWS_WITH(workload::estimate_training_step(j, tray, {}, reg),
                    Catch::Contains("whole nodes within the 72-GPU NVLink domain"));
}
