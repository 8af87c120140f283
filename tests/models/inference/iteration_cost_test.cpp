// The iteration cost model (models/inference/iteration_cost.hpp), checked by hand against the
// roofline it is built from.
#include <catch2/catch.hpp>

#include "models/hardware/node_presets.hpp"
#include "models/inference/iteration_cost.hpp"
#include "sim/error.hpp"

namespace mi = dcsim::models::inference;
namespace mw = dcsim::models::workload;
using dcsim::models::compute::Precision;

namespace {

mi::IterationCostModel model(const mw::TransformerModel& m, mi::EngineConfig e = {}) {
  return mi::IterationCostModel(m, e, dcsim::models::hardware::hgx_h100(), [](double) { return 0.0; });
}

}  // namespace

TEST_CASE("a lone decode step costs its weights plus its KV cache read from HBM") {
  // One sequence decoding: every GEMM has one row, so it reads its weights and does almost no
  // arithmetic; attention reads the sequence's KV. At HBM bandwidth x the measured STREAM
  // efficiency (3.35 TB/s x 2.97/3.35 = 2.97 TB/s effective):
  const mw::TransformerModel m = mw::llama3_8b();
  const auto cost = model(m);
  const double context = 1000.0;
  const double weights = (m.layers * m.layer_params() + static_cast<double>(m.vocab) * m.hidden) * 2.0;  // BF16
  const double kv = (context + 1.0) * 2.0 * m.layers * m.kv_heads * m.head_dim() * 2.0;  // K and V, BF16
  const double expected_s = (weights + kv) / 2.97e12;
  const mi::IterationCost c = cost.cost({}, 1, context + 1.0, 1);
  // The activations (a few hundred kB per layer against 436 MB of weights) are the difference.
  CHECK(c.time_s == Approx(expected_s).epsilon(0.002));
  CHECK(c.memory_s == Approx(c.time_s));  // nothing compute bound
  // 15.0 GB of matmul weights + 0.13 GB of KV: 5.1 ms, 196 tokens/s for one stream.
  CHECK(expected_s == Approx(5.10e-3).epsilon(0.01));
}

TEST_CASE("a long prefill is compute bound and costs more per token at longer context") {
  const auto cost = model(mw::llama3_8b());
  const mi::IterationCost fresh = cost.cost({{4096, 0}}, 0, 0.0, 1);
  CHECK(fresh.compute_s > fresh.memory_s);
  // The same 4,096 tokens after 28,672 tokens of context: attention grows with the context.
  const mi::IterationCost late = cost.cost({{4096, 28672}}, 0, 0.0, 1);
  CHECK(late.time_s > 1.2 * fresh.time_s);
}

TEST_CASE("FP8 KV cache halves the bytes per token and FP8 weights halve the weight bytes") {
  const mw::TransformerModel m = mw::llama3_70b();
  mi::EngineConfig bf16;
  bf16.tp = 4;
  mi::EngineConfig fp8 = bf16;
  fp8.kv_cache = Precision::kFp8;
  fp8.weights = Precision::kFp8;
  const auto a = model(m, bf16), b = model(m, fp8);
  CHECK(b.memory().kv_bytes_per_token == Approx(a.memory().kv_bytes_per_token / 2.0));
  // 2 x 80 layers x (8 KV heads / 4 GPUs) x 128 x 2 bytes = 81,920 bytes per token per GPU.
  CHECK(a.memory().kv_bytes_per_token == Approx(81920.0));
  CHECK(b.memory().weight_bytes < 0.55 * a.memory().weight_bytes);
  CHECK(b.memory().kv_capacity_tokens > 2.0 * a.memory().kv_capacity_tokens);
}

TEST_CASE("KV capacity is what the weights and activations leave of the usable HBM") {
  const mw::TransformerModel m = mw::llama3_8b();
  const auto cost = model(m);
  const auto& mem = cost.memory();
  const auto node = dcsim::models::hardware::hgx_h100();
  CHECK(mem.usable_bytes == Approx(0.9 * node.gpu.hbm_bytes));
  CHECK(mem.kv_capacity_tokens ==
        std::floor((mem.usable_bytes - mem.weight_bytes - mem.activation_bytes) / mem.kv_bytes_per_token));
  // Llama 3 8B, BF16: 16.1 GB of weights, 128 kB of KV per token: (77.0 - 16.1 - activations)
  // GB / 131,072 B, about 459k tokens in 0.9 of the 81,559 MiB (85.5 GB) an H100 reports.
  CHECK(mem.kv_capacity_tokens == Approx(459000).epsilon(0.03));
}

TEST_CASE("a model that does not fit the replica's GPUs names engine.memory with the numbers") {
  try {
    (void)model(mw::llama3_70b());  // 141 GB of BF16 weights on one 80 GB GPU
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "engine.memory");
    CHECK_THAT(e.detail(), Catch::Contains("141.") && Catch::Contains("GB of weights") && Catch::Contains("tp 1"));
  }
}

TEST_CASE("tensor parallelism must divide the heads and stay in one NVLink domain") {
  mi::EngineConfig e;
  e.tp = 3;
  CHECK_THROWS_WITH(model(mw::llama3_8b(), e), Catch::Contains("32 attention heads"));
  e.tp = 16;
  CHECK_THROWS_WITH(model(mw::llama3_8b(), e), Catch::Contains("NVLink domain"));
}

TEST_CASE("pipeline stages hold their layers: the KV cache holds more tokens and each iteration pays the sends") {
  // Llama 3 70B in FP8 at TP4, one stage against two (8 GPUs of one node): identical layer
  // costs, plus one send of the iteration's hidden states (T x 8192 x 2 B) over NVLink
  // (450 GB/s) between the two stages.
  mi::EngineConfig one, two;
  one.tp = two.tp = 4;
  one.weights = two.weights = Precision::kFp8;  // 70B in FP8 fits 4 GPUs at pp 1
  two.pp = 2;
  const auto a = model(mw::llama3_70b(), one), b = model(mw::llama3_70b(), two);
  const double send_s = 1000.0 * 8192 * 2.0 / 450e9;
  CHECK(b.cost({{1000, 0}}, 0, 0.0, 1).time_s == Approx(a.cost({{1000, 0}}, 0, 0.0, 1).time_s + send_s));
  CHECK(b.memory().kv_bytes_per_token == Approx(a.memory().kv_bytes_per_token / 2.0));
  CHECK(b.memory().kv_capacity_tokens > 2.0 * a.memory().kv_capacity_tokens);
  CHECK(b.replica_weight_bytes() == Approx(a.replica_weight_bytes()));
  CHECK(b.replica_kv_bytes_per_token() == Approx(a.replica_kv_bytes_per_token()));
}

TEST_CASE("Llama 3 405B in BF16 does not fit one HGX node and fits two as TP8 PP2") {
  mi::EngineConfig e;
  e.tp = 8;
  CHECK_THROWS_WITH(model(mw::llama3_405b(), e), Catch::Contains("raise tp or pp"));
  e.pp = 2;  // 16 GPUs: two whole nodes
  const auto c = model(mw::llama3_405b(), e);
  CHECK(c.memory().kv_capacity_tokens > 0.0);
  e.pp = 3;  // 24 GPUs are three nodes: fine; 8 x 3 = 24
  CHECK_NOTHROW(model(mw::llama3_405b(), e));
  e.tp = 4;  // 4 x 3 = 12 GPUs span two nodes without filling them
  CHECK_THROWS_WITH(model(mw::llama3_405b(), e), Catch::Contains("whole 8-GPU nodes"));
}
