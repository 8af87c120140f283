// Issue 15 items 1, 2, 3 and 7: interleaved pipeline schedules, uneven stages, context and
// sequence parallelism, activation memory per stage (pipeline_schedule.hpp,
// activation_memory.hpp, context_parallel.hpp), with hand-solved expectations.
#include <catch2/catch.hpp>

#include <string>

#include "models/hardware/node_presets.hpp"
#include "models/workload/activation_memory.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "tests/models/workload/collective_registry.hpp"
#include "tests/models/workload/llama405b_plan.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;

namespace {

mw::TrainingStepResult estimate(const mw::TrainingJobConfig& j) {
  return mw::estimate_training_step(j, hardware::hgx_h100(), {}, mw::test::collective_registry());
}

// Llama 3 405B as it ran (llama405b_plan.hpp), with full recompute.
mw::TrainingJobConfig llama405b() {
  mw::TrainingJobConfig j = mw::testing::llama405b_table4();
  j.recompute = mw::Recompute::kFull;
  return j;
}

// llama3-8b, tp 1, pp 4, dp 2 on one 8-GPU node: m = 16 / 2 = 8.
mw::TrainingJobConfig small_pipeline() {
  mw::TrainingJobConfig j;
  j.name = "pp";
  j.model = mw::llama3_8b();
  j.nodes = 1;
  j.parallelism.tp = 1;
  j.parallelism.pp = 4;
  j.parallelism.dp = 2;
  j.global_batch_sequences = 16;
  j.recompute = mw::Recompute::kFull;
  return j;
}

std::string order_string(const std::vector<mw::ScheduleItem>& order) {
  std::string out;
  for (const auto& it : order) {
    out += (it.forward ? "F" : "B") + std::to_string(it.chunk) + "." + std::to_string(it.micro_batch) + " ";
  }
  return out;
}

}  // namespace

TEST_CASE("Megatron's interleaved order: chunk-major groups of p micro-batches, 2(p-s-1)+(v-1)p warm-up forwards",
          "[models][workload][pipeline]") {
  // p 2, v 2, m 2, stage 0: warm-up 2 x 1 + 1 x 2 = 4 = v m, so every forward first. Forward k
  // runs chunk (k mod 4) / 2 of micro-batch k mod 2; backward k chunk 1 - that.
  CHECK(order_string(mw::stage_order(2, 2, 2, 0)) == "F0.0 F0.1 F1.0 F1.1 B1.0 B1.1 B0.0 B0.1 ");
  // Stage 1 warms up with (v-1) p = 2 forwards, then alternates.
  CHECK(order_string(mw::stage_order(2, 2, 2, 1)) == "F0.0 F0.1 F1.0 B1.0 F1.1 B1.1 B0.0 B0.1 ");
  // v = 1 is plain 1F1B: p - s - 1 warm-up forwards.
  CHECK(order_string(mw::stage_order(3, 1, 3, 0)) == "F0.0 F0.1 F0.2 B0.0 B0.1 B0.2 ");
  CHECK(order_string(mw::stage_order(3, 1, 3, 2)) == "F0.0 B0.0 F0.1 B0.1 F0.2 B0.2 ");
}

TEST_CASE("the interleaved bubble is (p-1)/(v m) of the ideal time plus the fill's sends", "[models][workload][pipeline]") {
  for (int v : {1, 2, 4}) {
    auto j = small_pipeline();
    j.parallelism.virtual_stages = v;
    const auto r = estimate(j);
    INFO("v = " << v);
    REQUIRE(r.micro_batches == 8);
    // 32 layers on 4 stages: 8 each; the last stage also runs the LM head, so it sets the slot.
    CHECK(r.slot_stage == 3);
    // The fill and drain cross the three other stages, equal ones of 8 layers: slot_0 each.
    const double slot0 = r.stage_forward_s[0] + r.stage_backward_s[0] + r.stage_comm_s[0];
    const double ideal = 8 * slot0;
    // p = 4, m = 8: (p-1)/(v m) = 3/8, 3/16, 3/32 of the ideal time; the fill and drain add
    // 2 (p-1) sends.
    const double expected = (v == 1 ? 3.0 / 8 : v == 2 ? 3.0 / 16 : 3.0 / 32) * ideal + 2 * 3 * r.pp_send_s;
    CHECK(r.bubble_s == Approx(expected).epsilon(1e-12));
    // v chunks send v times the 1F1B bytes: 2 v m sends of T h 2 B = 8192 x 4096 x 2.
    CHECK(r.pp_bytes_per_gpu == Approx(2.0 * v * 8 * 8192 * 4096 * 2));
  }
}

TEST_CASE("the interleaved schedule needs micro-batches a multiple of pp, pointing at virtual_stages",
          "[models][workload][pipeline]") {
  auto j = small_pipeline();
  j.parallelism.virtual_stages = 2;
  j.global_batch_sequences = 12;  // m = 6, not a multiple of 4
  try {
    (void)estimate(j);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism.virtual_stages");
    CHECK(std::string(e.what()).find("multiple of pp 4") != std::string::npos);
  }
  j.global_batch_sequences = 16;
  j.parallelism.virtual_stages = 9;  // 8 layers per stage cannot make 9 chunks
  CHECK_THROWS_AS(estimate(j), dcsim::sim::ConfigError);
}

TEST_CASE("layers that do not divide by pp go to the middle stages; the slowest stage sets the slot",
          "[models][workload][pipeline]") {
  // Llama 3 405B: 126 layers on 16 stages = 7, 8 x 14, 7 (the published trim of the first and
  // last stage).
  const auto r405 = estimate(llama405b());
  REQUIRE(r405.stage_layers.size() == 16);
  CHECK(r405.stage_layers.front() == 7);
  CHECK(r405.stage_layers.back() == 7);
  for (int s = 1; s < 15; ++s) CHECK(r405.stage_layers[static_cast<std::size_t>(s)] == 8);

  // llama3-8b on 4 stages with first 6 and last 6 layers: the middle two get 10 each.
  auto j = small_pipeline();
  j.parallelism.first_stage_layers = 6;
  j.parallelism.last_stage_layers = 6;
  const auto r = estimate(j);
  CHECK(r.stage_layers == std::vector<int>{6, 10, 10, 6});
  // Stage 0 and 1 run layers only: their times are in the ratio of their layers.
  CHECK(r.stage_forward_s[1] == Approx(r.stage_forward_s[0] * 10.0 / 6.0).epsilon(1e-12));
  // A middle stage (10 layers) outweighs the last (6 layers + the LM head) and sets the slot.
  CHECK(r.slot_stage == 1);
  CHECK(r.forward_s == r.stage_forward_s[1]);
  CHECK(r.compute_s == Approx(8 * (r.stage_forward_s[1] + r.stage_backward_s[1]) + r.optimizer_s).epsilon(1e-12));
  // Megatron's account-for-embedding/loss: 32 + 2 units on 4 stages, 8 each and the remainder
  // of 2 to the middle stages: 8, 9, 9, 8 units; the embedding and the loss take one unit at
  // each end: 7, 9, 9, 7 layers.
  auto k = small_pipeline();
  k.parallelism.account_for_embedding = true;
  k.parallelism.account_for_loss = true;
  CHECK(estimate(k).stage_layers == std::vector<int>{7, 9, 9, 7});
  // An impossible split names its key.
  j.parallelism.first_stage_layers = 30;
  try {
    (void)estimate(j);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism.last_stage_layers");
  }
}

TEST_CASE("1F1B holds p - s micro-batches on stage s; the interleaved first stage p + (p-1)/v",
          "[models][workload][pipeline]") {
  CHECK(mw::in_flight_chunks(16, 1, 16, 0) == 16);
  CHECK(mw::in_flight_chunks(16, 1, 16, 15) == 1);
  CHECK(mw::in_flight_chunks(16, 1, 4, 0) == 4);  // never more than m
  // p 4, v 2: 2 x 3 + 1 x 4 + 1 = 11 chunks of half a stage = 5.5 = 4 + 3/2 stage-micro-batches.
  CHECK(mw::in_flight_chunks(4, 2, 8, 0) == 11);

  // Llama 3 405B with full recomputation: one layer keeps its input, 2 s b h / t =
  // 2 x 8192 x 16384 / 8 = 33,554,432 B per micro-batch.
  const auto j = llama405b();
  const double per_layer = 2.0 * 8192 * 16384 / 8;
  CHECK(mw::activation_bytes_per_layer(j) == Approx(per_layer));
  const auto r = estimate(j);
  // Stage 0: 7 layers x 16 micro-batches in flight. Last stage: 7 layers x 1, plus the fp32
  // logits of one micro-batch, 4 x 8192 x 128256 / 8 B.
  CHECK(r.stage_memory.front().activations_bytes == Approx(7 * 16 * per_layer));
  CHECK(r.stage_memory.back().activations_bytes == Approx(7 * per_layer + 4.0 * 8192 * 128256 / 8));
  // Weights: stage 0 has 7 layers and the input embedding, the last stage 7 layers and the
  // untied output layer: the same parameters, 2 B each over tp 8.
  const double params0 = (7 * j.model.layer_params() + 128256.0 * 16384) / 8;
  CHECK(r.stage_memory.front().weights_bytes == Approx(2.0 * params0));
  CHECK(r.stage_memory.back().weights_bytes == Approx(2.0 * params0));
  // Stage 1 needs the most: 8 layers x 15 micro-batches in flight (120 layer-micro-batches)
  // against stage 0's 7 x 16 = 112, more than the embedding's weights make up. The run fits an
  // 80 GB H100 as it did in public.
  CHECK(r.memory_stage == 1);
  CHECK(r.stage_memory[1].activations_bytes == Approx(8 * 15 * per_layer));
  CHECK(r.memory.total_bytes() < 76e9);
}

TEST_CASE("the memory error suggests only what the job does not already use", "[models][workload][pipeline]") {
  // Llama 3 405B on 8,192 GPUs (dp 64: 32 micro-batches) with selective recomputation,
  // interleaved with v = 2: stage 1 holds min(2 x 14 + 16 + 1, 2 x 32) = 45 chunks of 4 layers,
  // 31.75 s b h / t x 180 = 95.9 GB of activations.
  auto j = llama405b();
  j.nodes = 1024;
  j.recompute = mw::Recompute::kSelective;
  j.parallelism.virtual_stages = 2;
  try {
    (void)estimate(j);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("pipeline stage 1") != std::string::npos);
    CHECK(what.find("activations 95.9 GB") != std::string::npos);
    CHECK(what.find("full recomputation") != std::string::npos);
    CHECK(what.find("raise tp") == std::string::npos);  // tp 8 fills the NVLink domain
    CHECK(what.find("micro_batch_size") == std::string::npos);  // already 1
    CHECK(what.find("raise zero_stage") != std::string::npos);  // 1 in use, 3 possible
  }
  j.nodes = 2048;
  j.recompute = mw::Recompute::kFull;
  j.parallelism.zero_stage = 3;
  j.model.seq_len = 262144;  // 32x the activations: 2 s b h / t x 128 layer-chunks = 137 GB
  try {
    (void)estimate(j);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("full recomputation") == std::string::npos);
    CHECK(what.find("zero_stage") == what.rfind("zero_stage 3"));  // only the description
    CHECK(what.find("raise cp") != std::string::npos);
  }
}

TEST_CASE("ring attention passes (cp-1) KV blocks forward and twice that backward", "[models][workload][pipeline]") {
  // llama3-8b, tp 8, cp 2 on 4 nodes: dp = 32 / 16 = 2, m = 8 / 2 = 4. A rank holds
  // 8192 / 2 tokens and, of 8 KV heads over tp 8, one head of 128: its K + V block is
  // 2 x 4096 x 128 x 2 B = 2,097,152 B. Per layer and micro-batch: 1 block forward, 2 backward
  // (KV and dKV), cp - 1 = 1 ring step each: 3 blocks.
  mw::TrainingJobConfig j;
  j.name = "cp";
  j.model = mw::llama3_8b();
  j.nodes = 4;
  j.parallelism.tp = 8;
  j.parallelism.cp = 2;
  j.global_batch_sequences = 8;
  const auto r = estimate(j);
  REQUIRE(r.dp == 2);
  REQUIRE(r.micro_batches == 4);
  const double block = 2.0 * 4096 * 128 * 2;
  CHECK(r.cp_bytes_per_gpu == Approx(4 * 32 * 3 * block));
  CHECK(r.cp_exposed_s <= r.cp_comm_s);
  // Tokens per step do not change with cp (it splits sequences, not the batch).
  CHECK(r.tokens_per_step == Approx(8.0 * 8192));
  // Activations per layer halve against cp 1 (34 s b h / t over cp).
  auto one = j;
  one.parallelism.cp = 1;
  CHECK(mw::activation_bytes_per_layer(j) == Approx(mw::activation_bytes_per_layer(one) / 2));
  // A sequence that does not split into 2 cp chunks is bad input on cp.
  j.parallelism.cp = 3;
  j.nodes = 3;
  try {
    (void)estimate(j);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism.cp");
  }
}

TEST_CASE("without sequence parallelism the non-TP activations are whole on every TP rank",
          "[models][workload][pipeline]") {
  // llama3-8b (f = 14336 / 4096 = 3.5, g = 8 / 32 KV heads, no dropout), selective
  // recomputation, per s b h: whole 8 (two norm inputs, QKV and MLP inputs, 2 B each), sharded
  // 2 (1 + 2 g) + 2 + 3 x 2 f = 3 + 2 + 21 = 26 (Q, K, V; attention output; gate, up, product).
  // tp 8: 34 / 8 = 4.25 with SP, 8 + 26 / 8 = 11.25 without.
  auto j = small_pipeline();
  j.parallelism.tp = 8;
  j.parallelism.pp = 1;
  j.parallelism.dp = 0;
  j.recompute = mw::Recompute::kSelective;
  const double sbh = 8192.0 * 4096;
  CHECK(mw::activation_bytes_per_layer(j) == Approx(34.0 * sbh / 8));
  j.parallelism.sequence_parallel = false;
  CHECK(mw::activation_bytes_per_layer(j) == Approx(sbh * (8.0 + 26.0 / 8)));
  // And the norms run whole: the forward takes longer.
  auto on = j;
  on.parallelism.sequence_parallel = true;
  CHECK(estimate(j).forward_s > estimate(on).forward_s);
}

TEST_CASE("activations per layer follow the layer's shape: MLP width and gating, KV heads, dropout",
          "[models][workload][pipeline]") {
  // GPT-3 175B (GELU MLP of 4 h, multi-head attention, dropout) is the model Korthikanti et al.
  // 2022 count (table 2): 34 s b h / t with sequence parallelism, s b h (10 + 24 / t) without.
  mw::TrainingJobConfig gpt;
  gpt.name = "gpt3";
  gpt.model = mw::gpt3_175b();
  gpt.nodes = 1;
  gpt.parallelism.tp = 8;
  gpt.recompute = mw::Recompute::kSelective;
  const double sbh_gpt = 2048.0 * 12288;
  CHECK(mw::activation_bytes_per_layer(gpt) == Approx(34.0 * sbh_gpt / 8));
  gpt.parallelism.sequence_parallel = false;
  CHECK(mw::activation_bytes_per_layer(gpt) == Approx(sbh_gpt * (10.0 + 24.0 / 8)));
  // Without dropout its two 1-byte masks go: 32 s b h / t.
  gpt.parallelism.sequence_parallel = true;
  gpt.model.dropout = false;
  CHECK(mw::activation_bytes_per_layer(gpt) == Approx(32.0 * sbh_gpt / 8));
  // Llama 3 405B: SwiGLU of f = 53248 / 16384 = 3.25 keeps gate, up and product (19.5), 8 KV
  // heads of 128 keep K and V at 1/16 of Q (2 + 0.25), the attention output 2, norms and the
  // QKV and MLP inputs 8, no dropout: 31.75 s b h / t, not GPT's 34.
  auto j = llama405b();
  j.recompute = mw::Recompute::kSelective;
  const double sbh = 8192.0 * 16384;
  CHECK(mw::activation_bytes_per_layer(j) == Approx(31.75 * sbh / 8));
}

TEST_CASE("Llama 3 405B fits the plan Meta published: TP 8 x PP 16 interleaved, no recomputation",
          "[models][workload][pipeline]") {
  // Dubey et al. 2024, section 3.3: 16,384 GPUs, TP 8, PP 16, DP 128, 16 sequences of 8K per DP
  // rank, an interleaved schedule, one layer fewer on the first and last stages, no activation
  // checkpointing at 8K. With m = p = 16, Megatron's interleaved warm-up runs every forward
  // first (2 x 14 + 3 x 16 + 1 > 4 x 16): stage 1 holds all 16 micro-batches of its 8 layers,
  // 128 x 31.75 s b h / 8 = 68.2 GB, beside 6.4 GB of weights, 6.4 GB of gradients and 0.3 GB
  // of optimizer state: 81.3 GB of the 81.5 GB usable. GPT's 34 s b h would need 86.1 GB.
  auto j = llama405b();
  j.recompute = mw::Recompute::kSelective;
  j.parallelism.virtual_stages = 4;
  j.parallelism.first_stage_layers = 7;
  j.parallelism.last_stage_layers = 7;
  const auto r = estimate(j);
  CHECK(r.memory_stage == 1);
  CHECK(r.memory.activations_bytes == Approx(128 * 31.75 * 8192.0 * 16384 / 8));
  CHECK(r.memory.total_bytes() < 81.5e9);
  CHECK(r.memory.total_bytes() > 81.0e9);
}
