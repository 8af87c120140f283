#include <catch2/catch.hpp>

#include "models/workload/training_model.hpp"
#include "sim/error.hpp"

using namespace dcsim::models;

TEST_CASE("MoE presets give the published total and active parameter counts", "[models][workload][moe]") {
  // Published counts are rounded to two or three digits and the shape formula leaves out norms
  // and biases; DeepSeek-V3's MLA norms and its 37B rounding make the largest gap (1.5% active).
  constexpr double kPublishedTol = 0.025;
  for (const auto& m :
       {workload::mixtral_8x7b(), workload::mixtral_8x22b(), workload::qwen3_235b_a22b(), workload::deepseek_v3()}) {
    INFO(m.name);
    workload::validate(m);
    CHECK(m.parameters() == Approx(m.published_params).epsilon(kPublishedTol));
    CHECK(m.active_parameters() == Approx(m.published_active_params).epsilon(kPublishedTol));
  }
}

TEST_CASE("MoE layers follow dense_layers and layer_step", "[models][workload][moe]") {
  // DeepSeek-V3: 3 dense layers, then 58 MoE layers; a Maverick-style step 2 makes every second
  // layer MoE (layers 1, 3, ...), as HF's (i + 1) % interleave_moe_layer_step == 0.
  CHECK(workload::deepseek_v3().moe_layers() == 58);
  auto m = workload::mixtral_8x7b();
  m.moe.layer_step = 2;
  CHECK(m.moe_layers() == 16);
  CHECK_FALSE(m.is_moe_layer(0));
  CHECK(m.is_moe_layer(1));
}

TEST_CASE("MoE training FLOPs count the active parameters only", "[models][workload][moe]") {
  // Mixtral 8x7B by hand: attention 2 h^2 + 2 h (8 x 128) = 41.9M, one expert 3 x 4096 x 14336 =
  // 176.2M, router 4096 x 8; a token passes 2 experts. 6 x (32 layers x active layer + output
  // 32000 x 4096) + 12 x 32 x 4096 x 4096.
  const auto m = workload::mixtral_8x7b();
  const double h = 4096, attention = 2 * h * h + 2 * h * 1024, expert = 3 * h * 14336;
  const double active_layer = attention + h * 8 + 2 * expert;
  CHECK(m.moe_layer_active_params() == Approx(active_layer).epsilon(1e-12));
  CHECK(m.training_flops_per_token() ==
        Approx(6 * (32 * active_layer + 32000 * h) + 12 * 32 * h * 4096).epsilon(1e-12));
  // Total is every expert: 8 instead of 2.
  CHECK(m.moe_layer_params() - m.moe_layer_active_params() == Approx(6 * expert).epsilon(1e-12));
}

TEST_CASE("impossible MoE shapes are config errors naming the field", "[models][workload][moe]") {
  const auto fails_on = [](workload::TransformerModel m, const std::string& field) {
    try {
      workload::validate(m);
      FAIL("accepted");
    } catch (const dcsim::sim::ConfigError& e) {
      CHECK(std::string(e.what()).find(field) != std::string::npos);
    }
  };
  auto m = workload::mixtral_8x7b();
  m.moe.experts_per_token = 9;
  fails_on(m, "model.moe.experts_per_token");
  m = workload::mixtral_8x7b();
  m.moe.capacity_factor = 0.5;
  fails_on(m, "model.moe.capacity_factor");
  m = workload::mixtral_8x7b();
  m.moe.dense_layers = 32;
  fails_on(m, "model.moe.dense_layers");
  m = workload::mixtral_8x7b();
  m.moe.expert_ffn_hidden = 0;
  fails_on(m, "model.moe.expert_ffn_hidden");
}
