// Mixture-of-experts serving in the iteration cost model (models/inference/iteration_cost.hpp,
// issue 41 item 3) and the expert-parallel all-to-all it pays (expert_all_to_all.hpp), by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/collective/expert_all_to_all.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/inference/iteration_cost.hpp"
#include "sim/error.hpp"

namespace mi = dcsim::models::inference;
namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;
using dcsim::models::compute::Precision;

namespace {

mi::IterationCostModel model(const mw::TransformerModel& m, mi::EngineConfig e,
                             const dcsim::models::hardware::NodeSpec& node = dcsim::models::hardware::hgx_h100()) {
  return mi::IterationCostModel(m, e, node, [](double) { return 0.0; });
}

mi::EngineConfig engine(int tp, int ep, Precision weights = Precision::kFp8) {
  mi::EngineConfig e;
  e.tp = tp;
  e.ep = ep;
  e.weights = weights;
  return e;
}

}  // namespace

TEST_CASE("an expert-parallel all-to-all puts the in-domain copies on NVLink and one NIC hop per remote copy") {
  // 1,024 tokens per rank, top-8, hidden 7168, BF16, EP 16 over two 8-GPU domains:
  // sent  T k h B (ep-1)/ep = 1024 x 8 x 7168 x 2 x 15/16 = 110.1 MB
  // NVLink T k h B (g-1)/g  = 117.4 MB x 7/8 = 102.8 MB
  // NIC    T h B k (N-1)/N  = 14.68 MB x 8 x 1/2 = 58.7 MB; node-limited to M = 1: 7.3 MB
  mc::ExpertAllToAllShape s;
  s.tokens_per_rank = 1024;
  s.experts_per_token = 8;
  s.hidden = 7168;
  s.element_bytes = 2.0;
  s.ep = 16;
  s.domain_gpus = 8;
  const double copy = 1024.0 * 7168.0 * 2.0;
  const auto a = mc::expert_all_to_all(s, 450e9, 50e9, 2e-6);
  CHECK(a.sent_bytes == Approx(copy * 8 * 15.0 / 16.0));
  CHECK(a.nvlink_bytes == Approx(copy * 8 * 7.0 / 8.0));
  CHECK(a.nic_bytes == Approx(copy * 8 * 0.5));
  // The NIC leg binds: 58.7 MB / 50 GB/s = 1.17 ms against 0.23 ms on NVLink, plus the crossing.
  CHECK(a.time_s == Approx(2e-6 + copy * 4 / 50e9));
  s.max_nodes_per_token = 1;
  CHECK(mc::expert_all_to_all(s, 450e9, 50e9, 2e-6).nic_bytes == Approx(copy * 0.5));
  // Inside one domain nothing crosses the fabric and no crossing latency is paid.
  s.ep = 8;
  const auto inside = mc::expert_all_to_all(s, 450e9, 50e9, 2e-6);
  CHECK(inside.nic_bytes == 0.0);
  CHECK(inside.time_s == Approx(copy * 8 * 7.0 / 8.0 / 450e9));
  // The busiest GPU, twice the mean load, takes twice as long.
  s.load = 2.0;
  CHECK(mc::expert_all_to_all(s, 450e9, 50e9, 2e-6).time_s == Approx(2.0 * inside.time_s));
}

TEST_CASE("MLA caches DeepSeek-V3's latent: 70,272 bytes per token in BF16") {
  // (512 latent + 64 RoPE key) x 61 layers x 2 bytes (ISCA'25 "Insights into DeepSeek-V3", Table 1:
  // 70.272 KB), the same on every TP rank; on H200 (141 GB) eight GPUs hold the FP8 weights.
  mi::EngineConfig e = engine(8, 1);
  const auto cost = model(mw::deepseek_v3(), e, dcsim::models::hardware::hgx_h200());
  CHECK(cost.memory().kv_bytes_per_token == Approx(70272.0));
  CHECK(cost.replica_kv_bytes_per_token() == Approx(70272.0));
}

TEST_CASE("expert parallelism spreads whole experts: weights per GPU fall, KV capacity adds up over attention ranks") {
  // Qwen3-235B-A22B in FP8 on one HGX H100: tp 8 shards every expert 8 ways in width; ep 8 with
  // tp 1 keeps 16 whole experts per GPU and replicates attention on 8 data-parallel ranks.
  const mw::TransformerModel m = mw::qwen3_235b_a22b();
  const auto tp8 = model(m, engine(8, 1));
  const auto ep8 = model(m, engine(1, 8));
  const double routed = m.moe_layers() * m.moe.experts * m.mlp_params(m.moe.expert_ffn_hidden);  // 227B
  const double rest = m.parameters() - routed - 2.0 * m.vocab * m.hidden;                        // attention + routers
  // Routed experts the same bytes per GPU either way (1/8 each), the rest 1/8 vs whole.
  CHECK(tp8.memory().weight_bytes == Approx(routed / 8 + rest / 8 + 2.0 * 2.0 * m.vocab * m.hidden / 8).epsilon(1e-9));
  CHECK(ep8.memory().weight_bytes == Approx(routed / 8 + rest + 2.0 * 2.0 * m.vocab * m.hidden).epsilon(1e-9));
  // The replica's KV: 8 ranks each holding whole-head KV vs one rank's KV split 8 ways.
  const double per_gpu_free_ep = ep8.memory().usable_bytes - ep8.memory().weight_bytes - ep8.memory().activation_bytes;
  CHECK(ep8.memory().kv_capacity_tokens == Approx(8.0 * std::floor(per_gpu_free_ep / ep8.memory().kv_bytes_per_token)));
}

TEST_CASE("a small decode batch reads only the experts its tokens chose") {
  // One token picks 8 of Qwen3's 128 experts in each layer: with ep 8 each GPU's 16 experts are
  // touched with probability 8/128, so the busiest GPU reads about one expert (the floor of one),
  // not sixteen. 256 tokens touch all of them: the routed weights are read whole.
  const mw::TransformerModel m = mw::qwen3_235b_a22b();
  const auto cost = model(m, engine(1, 8));
  const double one = cost.cost({}, 1, 1000.0, 1).time_s;
  const double many = cost.cost({}, 256, 256000.0, 256).time_s;
  const double expert_bytes = m.mlp_params(m.moe.expert_ffn_hidden);  // FP8: one byte per weight
  // The difference is dominated by 15 more experts per layer read from HBM (2.97 TB/s effective).
  CHECK(many - one > 0.8 * 15 * expert_bytes * m.moe_layers() / 2.97e12);
}

TEST_CASE("the busiest expert's GPU sets the MoE layer's time, capped by the capacity factor") {
  mw::TransformerModel m = mw::mixtral_8x7b();
  mi::EngineConfig even = engine(1, 8);
  mi::EngineConfig skewed = even;
  skewed.expert_skew = 2.0;
  // A prefill of 4,096 tokens: compute bound, so the busiest expert's 2x rows double its GEMMs.
  const double t_even = model(m, even).cost({{4096, 0}}, 0, 0.0, 1).time_s;
  const double t_skew = model(m, skewed).cost({{4096, 0}}, 0, 0.0, 1).time_s;
  CHECK(t_skew > 1.3 * t_even);
  // A capacity factor of 1 drops what exceeds the even share: no skew is left.
  m.moe.capacity_factor = 1.0;
  CHECK(model(m, skewed).cost({{4096, 0}}, 0, 0.0, 1).time_s ==
        Approx(model(m, even).cost({{4096, 0}}, 0, 0.0, 1).time_s));
}

TEST_CASE("expert parallelism across nodes pays the NIC leg of every MoE layer's all-to-alls") {
  // The same 64 GPUs' worth of Qwen3 decode: ep 8 inside a node vs ep 32 over four nodes. Per
  // GPU the second has a quarter of the tokens but sends 3/4 of its copies over 400G NICs.
  const mw::TransformerModel m = mw::qwen3_235b_a22b();
  const auto node = model(m, engine(1, 8)).cost({}, 64, 64000.0, 64);
  const auto wide = model(m, engine(1, 32)).cost({}, 256, 256000.0, 256);
  CHECK(wide.communication_s > 2.0 * node.communication_s);
}

TEST_CASE("expert parallelism is refused where it cannot run") {
  auto field = [](const mw::TransformerModel& m, mi::EngineConfig e) {
    try {
      (void)model(m, e);
    } catch (const dcsim::sim::ConfigError& err) {
      return err.field();
    }
    return std::string("accepted");
  };
  CHECK(field(mw::llama3_70b(), engine(8, 16)) == "engine.ep");       // a dense model
  CHECK(field(mw::mixtral_8x7b(), engine(1, 16)) == "engine.ep");     // 16 does not divide 8 experts
  CHECK(field(mw::qwen3_235b_a22b(), engine(4, 10)) == "engine.ep");  // not a multiple of tp
  mi::EngineConfig split = engine(1, 4);
  split.pp = 3;
  CHECK(field(mw::qwen3_235b_a22b(), split) == "engine.ep");  // ep x pp = 12 GPUs: not whole nodes
  CHECK(field(mw::qwen3_235b_a22b(), engine(2, 16)) == "accepted");
  mi::EngineConfig e = engine(1, 8);
  e.expert_skew = 0.5;
  CHECK(field(mw::qwen3_235b_a22b(), e) == "engine.expert_skew");
  // DeepSeek-V3 in FP8 does not fit one H100 node's 8 GPUs, with or without EP.
  CHECK(field(mw::deepseek_v3(), engine(8, 1)) == "engine.memory");
  CHECK(field(mw::deepseek_v3(), engine(1, 32)) == "accepted");
}

TEST_CASE("on GB200 NVL72 an expert-parallel replica's all-to-alls stay on the rack's NVLink") {
  // ep 8 on 4-GPU trays: two trays. With the rack's 72-GPU NVLink domain (8 divides 72) every copy
  // goes over NVLink; the same trays with a domain of one tray send half the copies over the NICs.
  const mw::TransformerModel m = mw::qwen3_235b_a22b();
  dcsim::models::hardware::NodeSpec rack = dcsim::models::hardware::gb200_nvl72_tray();
  dcsim::models::hardware::NodeSpec tray = rack;
  tray.nvlink_domain_gpus = tray.gpus;
  const auto on_nvlink = model(m, engine(1, 8), rack).cost({}, 256, 256000.0, 256);
  const auto on_nics = model(m, engine(1, 8), tray).cost({}, 256, 256000.0, 256);
  CHECK(on_nvlink.communication_s < 0.5 * on_nics.communication_s);
  // ep 16 (4 trays) does not divide 72: a replica could straddle two racks, so the NICs count.
  const auto straddling = model(m, engine(1, 16), rack).cost({}, 256, 256000.0, 256);
  const auto tray16 = model(m, engine(1, 16), tray).cost({}, 256, 256000.0, 256);
  CHECK(straddling.communication_s == Approx(tray16.communication_s));
}
