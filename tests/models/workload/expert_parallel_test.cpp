// Issue 41 item 2: expert parallelism in the closed-form step (expert_parallel.hpp), with
// expectations worked by hand.
#include <catch2/catch.hpp>

#include <string>

#include "models/collective/collective_estimator.hpp"
#include "models/compute/compute_model.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/expert_parallel.hpp"
#include "models/workload/plan_search.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "tests/models/workload/collective_registry.hpp"
#include "tests/models/workload/moe_jobs.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;
namespace cm = dcsim::models::compute;

namespace {

constexpr double kExact = 1e-12;

using mw::test::fabric_of;
using mw::test::mixtral_64_gpus;

mw::ExpertLayerCost layer_cost(const mw::TrainingJobConfig& j) {
  const auto node = hardware::hgx_h100();
  return mw::expert_layer_cost(j, node, fabric_of(node), cm::ComputeModel(node.gpu));
}

}  // namespace

TEST_CASE("an EP all-to-all sends tokens x top-k x hidden x bytes x (EP-1)/EP per rank", "[models][workload][moe]") {
  // EP 8 inside one node: 4096 tokens, top-2, hidden 4096, BF16: 7/8 of the routed copies go to
  // the other 7 GPUs, all over NVLink, none over the NICs.
  const auto j = mixtral_64_gpus();
  const auto c = layer_cost(j);
  const double bytes = 4096.0 * 2 * 4096 * 2 * 7 / 8;
  CHECK(c.bytes_sent == Approx(bytes).epsilon(kExact));
  CHECK(c.nvlink_bytes == Approx(bytes).epsilon(kExact));
  CHECK(c.nic_bytes == 0.0);
  CHECK(c.all_to_all_s == Approx(bytes / hardware::hgx_h100().gpu.nvlink_bandwidth_bytes_per_s).epsilon(kExact));
  // Dispatch and combine forward, their gradients backward: 4 per MoE layer and micro-batch; the
  // slot stage holds 8 of the 32 layers, a replica runs 128 / 16 = 8 micro-batches.
  const auto r = mw::estimate_training_step(j, hardware::hgx_h100(), fabric_of(hardware::hgx_h100()),
                                            mw::test::collective_registry());
  CHECK(r.ep_bytes_per_gpu == Approx(8 * 8 * 4 * bytes).epsilon(kExact));
  CHECK(r.ep_s == Approx(r.ep_comm_s).epsilon(kExact));  // ep_overlap 0: all exposed
  CHECK(r.ep_s == Approx(8 * 8 * 4 * c.all_to_all_s).epsilon(kExact));
}

TEST_CASE("across nodes each routed copy crosses the fabric once, node-limited routing once per node",
          "[models][workload][moe]") {
  // EP 16 over 2 nodes: half of a token's 2 copies land on the other node (NICs, one RDMA hop on
  // the rail); 7/8 of all copies go to another GPU of the destination node (NVLink leg).
  auto j = mixtral_64_gpus();
  j.model.moe.experts = 16;
  j.parallelism.ep = 16;
  const double per_copy = 4096.0 * 4096 * 2;
  auto c = layer_cost(j);
  CHECK(c.nic_bytes == Approx(per_copy * 2 / 2).epsilon(kExact));
  CHECK(c.nvlink_bytes == Approx(per_copy * 2 * 7 / 8).epsilon(kExact));
  // At most one node per token: one copy crosses to the other node (half the time), then NVLink.
  j.moe_max_nodes_per_token = 1;
  c = layer_cost(j);
  CHECK(c.nic_bytes == Approx(per_copy * 1 / 2).epsilon(kExact));
  CHECK(c.nvlink_bytes == Approx(per_copy * 2 * 7 / 8).epsilon(kExact));
}

TEST_CASE("with skew the busiest expert's GPU sets the MoE layer's time", "[models][workload][moe]") {
  // One expert per GPU (8 experts, EP 8): the busiest expert's 2x load is its GPU's; it receives
  // twice the mean bytes and runs its expert GEMMs at twice the tokens.
  auto j = mixtral_64_gpus();
  const auto even = layer_cost(j);
  j.moe_skew = 2.0;
  const auto skewed = layer_cost(j);
  CHECK(skewed.gpu_load == 2.0);
  CHECK(skewed.all_to_all_s == Approx(2.0 * even.all_to_all_s).epsilon(kExact));
  const cm::ComputeModel cmod(hardware::hgx_h100().gpu);
  const double te = 4096.0 * 2;  // 4096 tokens x top-2 / 8 experts x EP 8
  const auto mlp = [&](double t) {
    return cmod.gemm(t, 2.0 * 14336, 4096, cm::Precision::kBf16).time_s +
           cmod.gemm(t, 4096, 14336, cm::Precision::kBf16).time_s;
  };
  const double rest = cmod.gemm(4096, 8, 4096, cm::Precision::kBf16).time_s +
                      cmod.memory_op(2.0 * (2.0 * 4096 * 2 * 3 * 14336 + 4 * 4096.0 * 2 * 4096)).time_s;
  CHECK(skewed.forward_s == Approx(mlp(2 * te) + rest).epsilon(kExact));
  // A capacity factor of 1.25 drops what exceeds it: the busiest GPU runs at 1.25 x the mean.
  j.model.moe.capacity_factor = 1.25;
  CHECK(layer_cost(j).all_to_all_s == Approx(1.25 * even.all_to_all_s).epsilon(kExact));
  // Four experts per GPU (EP 2): the busiest expert adds (2 - 1) / 4 to its GPU's mean load.
  j = mixtral_64_gpus();
  j.parallelism.ep = 2;
  j.moe_skew = 2.0;
  CHECK(mw::busiest_gpu_load(j) == Approx(1.25).epsilon(kExact));
}

TEST_CASE("DualPipe-style overlap hides ep_overlap of the all-to-alls", "[models][workload][moe]") {
  auto j = mixtral_64_gpus();
  const auto node = hardware::hgx_h100();
  const auto exposed = mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry());
  j.parallelism.ep_overlap = 0.75;
  const auto hidden = mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry());
  CHECK(hidden.ep_s == Approx(0.25 * exposed.ep_s).epsilon(kExact));
  CHECK(exposed.step_time_s - hidden.step_time_s > 0.0);
}

TEST_CASE("Qwen3-235B-A22B fits 256 H100s with NeMo's TP 2 PP 8 VP 4 EP 32", "[models][workload][moe]") {
  // Megatron-Bridge's published H100 layout (moe-hardware-stacks.md section 2), with the
  // distributed optimizer and selective recomputation as its recipes use: the step model must
  // accept it (an 80 GB GPU, 4 GB reserve).
  mw::TrainingJobConfig j;
  j.name = "qwen3";
  j.model = mw::qwen3_235b_a22b();
  j.nodes = 32;
  j.parallelism.tp = 2;
  j.parallelism.pp = 8;
  j.parallelism.virtual_stages = 4;
  j.parallelism.ep = 32;
  j.parallelism.distributed_optimizer = true;
  j.global_batch_sequences = 512;
  const auto node = hardware::hgx_h100();
  const auto r = mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry());
  CHECK(r.memory.total_bytes() < node.gpu.hbm_bytes - j.memory_reserve_bytes);
  // EP 32 spans 4 nodes: part of each all-to-all crosses the NICs.
  CHECK(r.ep_s > 0.0);
  // Without EP the experts do not fit: 94 x 128 x 18.9M / 8 stages of BF16 weights alone are
  // 57 GB, and the message names the parallelism.
  j.parallelism.ep = 1;
  CHECK_THROWS_AS(mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry()),
                  dcsim::sim::ConfigError);
}

TEST_CASE("impossible expert parallelism is a config error naming the field", "[models][workload][moe]") {
  const auto node = hardware::hgx_h100();
  const auto field_of = [&](const mw::TrainingJobConfig& j) {
    try {
      mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry());
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field() + ": " + e.detail();
    }
    return std::string("accepted");
  };
  auto j = mixtral_64_gpus();
  j.parallelism.ep = 16;  // 8 experts
  CHECK_THAT(field_of(j), Catch::StartsWith("parallelism.ep: expert parallelism 16 must divide the 8 experts"));
  j = mixtral_64_gpus();
  j.model.moe.experts = 64;
  j.parallelism.ep = 32;  // tp x cp x dp = 16 per stage
  CHECK_THAT(field_of(j), Catch::StartsWith("parallelism.ep: expert parallelism 32 must divide tp x cp x dp = 16"));
  j = mixtral_64_gpus();
  j.model = mw::llama3_8b();
  j.parallelism.ep = 2;
  CHECK_THAT(field_of(j), Catch::StartsWith("parallelism.ep: llama3-8b is dense"));
}

TEST_CASE("an automatic plan for an MoE model searches ep", "[models][workload][moe][plan]") {
  // Mixtral on 64 GPUs, tp 1, micro-batch 1, selective recomputation and the distributed
  // optimizer pinned: the search over cp, pp, virtual stages and ep includes the plan above (pp
  // 4, ep 8), so it finds at least that plan's throughput, with experts split (ep > 1).
  const auto node = hardware::hgx_h100();
  const auto j = mixtral_64_gpus();
  mw::PlanSearchOptions options;
  options.pins.tp = options.pins.micro_batch_size = options.pins.recompute = true;
  options.pins.zero_stage = options.pins.distributed_optimizer = true;
  const auto found =
      mw::search_training_plan(j, node, fabric_of(node), mw::test::collective_registry(), {}, {}, options);
  const auto given = mw::estimate_training_step(j, node, fabric_of(node), mw::test::collective_registry());
  CHECK(found.best.job.parallelism.ep > 1);
  CHECK(8 % found.best.job.parallelism.ep == 0);
  CHECK(found.best.step.tokens_per_s >= given.tokens_per_s * (1.0 - 1e-9));
  CHECK_THAT(mw::describe_plan(found.best.job, found.best.step), Catch::Contains(", ep "));
}
