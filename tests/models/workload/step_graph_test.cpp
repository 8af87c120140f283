// The step graph (models/workload/step_graph.hpp): its longest path on an ideal network is the
// mechanism behind the closed form of training_step.hpp, so the two agree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/workload/step_graph.hpp"
#include "models/workload/training_step.hpp"

namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;
using dcsim::models::ModelRegistries;

namespace {

// Graph and closed form within 2% (issue 4: "both modes agree within 2%").
constexpr double kAgreeTol = 0.02;

ModelRegistries builtin() {
  ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

struct Case {
  mw::TrainingJobConfig job;
  mw::TrainingStepResult step;
  mw::StepGraph graph;
};

Case make(const ModelRegistries& reg, mw::TrainingJobConfig job, mw::StepGraphOptions options = {}) {
  const auto node = dcsim::models::hardware::hgx_h100();
  mc::FabricParams fabric;
  Case c{job, {}, {}};
  c.step = mw::estimate_training_step(job, node, fabric, reg.collective_algorithms);
  c.graph = mw::build_step_graph(job, c.step, node, fabric, reg.collective_algorithms, options);
  return c;
}

mw::TrainingJobConfig bert(const ModelRegistries& reg, int nodes, int zero = 0) {
  mw::TrainingJobConfig j;
  j.name = "bert";
  j.model = reg.training_models.get("bert-large").factory();
  j.nodes = nodes;
  j.micro_batch_size = 8;
  j.parallelism.zero_stage = zero;
  return j;
}

// llama3-8b with TP 8, PP 4, DP 2 on 8 nodes, 8 micro-batches per step.
mw::TrainingJobConfig llama_3d(const ModelRegistries& reg) {
  mw::TrainingJobConfig j;
  j.name = "llama";
  j.model = reg.training_models.get("llama3-8b").factory();
  j.nodes = 8;
  j.parallelism.tp = 8;
  j.parallelism.pp = 4;
  j.global_batch_sequences = 16;  // m = 16 / (1 x dp 2) = 8
  return j;
}

}  // namespace

TEST_CASE("on an ideal network the step graph's longest path is the closed-form step time",
          "[models][workload][step_graph]") {
  const auto reg = builtin();
  SECTION("data parallel bert-large on 3 nodes") {
    const Case c = make(reg, bert(reg, 3));
    CHECK(mw::critical_path_s(c.graph) == Approx(c.step.step_time_s).epsilon(kAgreeTol));
  }
  SECTION("tp 8 x pp 4 x dp 2 llama3-8b, 8 micro-batches") {
    const Case c = make(reg, llama_3d(reg));
    REQUIRE(c.step.micro_batches == 8);
    CHECK(mw::critical_path_s(c.graph) == Approx(c.step.step_time_s).epsilon(kAgreeTol));
  }
  SECTION("ZeRO 1 and ZeRO 3 bert-large on 3 nodes") {
    for (int zero : {1, 3}) {
      const Case c = make(reg, bert(reg, 3, zero));
      INFO("zero " << zero);
      CHECK(mw::critical_path_s(c.graph) == Approx(c.step.step_time_s).epsilon(kAgreeTol));
    }
  }
}

TEST_CASE("the 1F1B bubble emerges from the graph's dependencies", "[models][workload][step_graph]") {
  const auto reg = builtin();
  // Without communication (pp within one node: tp 1, pp 4, dp 2 on one 8-GPU node) the
  // pipelined time is (m + p - 1) slots of f + b, the bubble (p-1)/(m+p-1) of it.
  mw::TrainingJobConfig j;
  j.name = "pp";
  j.model = reg.training_models.get("bert-large").factory();
  j.nodes = 1;
  j.parallelism.pp = 4;
  j.parallelism.dp = 2;
  j.global_batch_sequences = 16;  // m = 8
  const Case c = make(reg, j);
  // 24 layers, 6 per stage; the last stage also runs the LM head and is the slowest: a
  // micro-batch fills through every stage once, then the slowest paces the other m - 1.
  const double f = c.step.forward_s, b = c.step.backward_s;
  double all_stages = 0.0;
  for (std::size_t s = 0; s < 4; ++s) all_stages += c.step.stage_forward_s[s] + c.step.stage_backward_s[s];
  const double p2p = c.step.pp_send_s;
  const double pipelined = mw::critical_path_s(c.graph) - c.step.optimizer_s - c.step.dp_exposed_s;
  // Blocking sends put at most two transfers per slot on the path (the closed form counts two).
  CHECK(pipelined >= all_stages + 7 * (f + b));
  CHECK(pipelined <= all_stages + 7 * (f + b) + 11 * 2.0 * p2p * (1.0 + 1e-9));
  // What the m slots of work leave idle is the bubble: the closed form's (below 3/11, which
  // equal stages would give: bert-large's LM head weighs 2.5 of the last stage's 6 layers).
  const double bubble_fraction = 1.0 - 8 * (f + b + 2.0 * p2p) / pipelined;
  CHECK(bubble_fraction == Approx(c.step.bubble_fraction).epsilon(kAgreeTol));
  CHECK(bubble_fraction < 3.0 / 11.0);
}

TEST_CASE("DP gradient flows follow the algorithm the collective model picks: ring at 2 nodes, tree at 3",
          "[models][workload][step_graph]") {
  const auto reg = builtin();
  // The largest gradient chunk (whole 25 MB buckets): its flows and their bytes.
  const auto largest_chunk = [&](int nodes) {
    const Case c = make(reg, bert(reg, nodes));
    const mw::StepTask* best = nullptr;
    double best_bytes = 0.0;
    for (const auto& t : c.graph.tasks) {
      if (t.role != mw::StepTaskRole::kDpGrad) continue;
      double bytes = 0.0;
      for (const auto& f : t.flows) bytes += f.bytes;
      if (bytes > best_bytes) best = &t, best_bytes = bytes;
    }
    REQUIRE(best != nullptr);
    return *best;
  };
  // 25 MB all-reduces: NCCL's tuning model picks the ring on 2 nodes and the double binary tree
  // on 3 (dcsim collective --sizes 25M). One flow per NIC (8) per node-to-node transfer.
  const mw::StepTask ring = largest_chunk(2);
  CHECK(ring.flows.size() == 2 * 8);  // 0 -> 1 and 1 -> 0
  const mw::StepTask tree = largest_chunk(3);
  CHECK(tree.flows.size() == 4 * 2 * 8);  // 2 trees x 2 edges x both ways
  // Every tree edge carries half the chunk each way: equal flows, and each node sends what it
  // receives (reduce up, broadcast down).
  std::vector<double> sent(3, 0.0), received(3, 0.0);
  for (const auto& f : tree.flows) {
    CHECK(f.bytes == Approx(tree.flows.front().bytes));
    sent[static_cast<std::size_t>(f.src_node)] += f.bytes;
    received[static_cast<std::size_t>(f.dst_node)] += f.bytes;
  }
  for (int i = 0; i < 3; ++i) CHECK(sent[static_cast<std::size_t>(i)] == Approx(received[static_cast<std::size_t>(i)]));
}

TEST_CASE("gradient buckets coalesce into at most max_dp_chunks collectives, the last bucket alone",
          "[models][workload][step_graph]") {
  const auto reg = builtin();
  // bert-large: 340M parameters x 2 B = 27 buckets of 25 MB (the last one partial), on a ring
  // (the collective model would pick the tree at 3 nodes: see the test below).
  for (int chunks : {1, 4, 8, 64}) {
    mw::StepGraphOptions o;
    o.max_dp_chunks = chunks;
    mw::TrainingJobConfig job = bert(reg, 3);
    job.dp_algorithm = "ring";
    const Case c = make(reg, job, o);
    int dp_tasks = 0;
    double fabric_bytes = 0.0, last_chunk_bytes = 0.0;
    for (const auto& t : c.graph.tasks) {
      if (t.role != mw::StepTaskRole::kDpGrad) continue;
      ++dp_tasks;
      last_chunk_bytes = 0.0;
      for (const auto& f : t.flows) last_chunk_bytes += f.bytes;
      fabric_bytes += last_chunk_bytes;
    }
    const int buckets = static_cast<int>(std::ceil(c.step.dp_grad_bytes / 25e6));
    INFO("max_dp_chunks " << chunks);
    CHECK(dp_tasks <= chunks);
    if (chunks >= buckets) CHECK(dp_tasks == buckets);
    if (chunks == 1) CHECK(dp_tasks == 1);
    // The last chunk is the last bucket (the remainder of 25 MB buckets) alone.
    const double rest = c.step.dp_grad_bytes - (buckets - 1) * 25e6;
    if (chunks > 1) CHECK(last_chunk_bytes / fabric_bytes == Approx(rest / c.step.dp_grad_bytes));
    // Every chunk count moves the same ring bytes: 3 nodes x 8 NICs of flows carrying
    // 2(n-1)/n x S per node boundary in all (n = 24 ranks), over network efficiency 0.94.
    const double n = 24;
    CHECK(fabric_bytes == Approx(3 * 2 * (n - 1) / n * c.step.dp_grad_bytes / 0.94).epsilon(1e-9));
  }
  mw::StepGraphOptions bad;
  bad.max_dp_chunks = 0;
  CHECK_THROWS_AS(make(reg, bert(reg, 3), bad), dcsim::sim::ConfigError);
}

TEST_CASE("pipeline transfers between stages on different nodes are fabric flows",
          "[models][workload][step_graph]") {
  const auto reg = builtin();
  const Case c = make(reg, llama_3d(reg));
  // Stage s holds nodes 2s and 2s+1; each transfer is 8 flows per node pair (one per NIC) of
  // T x h x 2 / tp bytes (one GPU's) over network efficiency.
  const double per_gpu = 8192.0 * 4096 * 2 / 8;
  int transfers = 0;
  for (const auto& t : c.graph.tasks) {
    if (t.role != mw::StepTaskRole::kPp) continue;
    ++transfers;
    REQUIRE(t.kind == mw::StepTaskKind::kFabric);
    REQUIRE(t.flows.size() == 16);
    for (const auto& f : t.flows) {
      CHECK(std::abs(f.dst_node - f.src_node) == 2);
      CHECK(f.bytes == Approx(per_gpu / 0.94));
    }
  }
  CHECK(transfers == 2 * 3 * 8);  // both directions, 3 boundaries, 8 micro-batches
}

TEST_CASE("coalesced gradient buckets keep the overlap of bucket-by-bucket collectives within 2%", "[step_graph]") {
  // llama3-8b TP 2 x DP 64 ZeRO 1 on 16 nodes (scenarios/hgx-h100-16-nodes.json): 320 buckets
  // per stage. A layout that puts most buckets in one head chunk starts the DP stream late in
  // the last backward (+4.4% step time at 8 chunks); the chosen layout stays within 2%.
  const auto reg = builtin();
  mw::TrainingJobConfig j;
  j.name = "llama";
  j.model = reg.training_models.get("llama3-8b").factory();
  j.nodes = 16;
  j.parallelism.tp = 2;
  j.parallelism.zero_stage = 1;
  j.micro_batch_size = 1;
  j.global_batch_sequences = 512;
  mw::StepGraphOptions every_bucket;
  every_bucket.max_dp_chunks = 100000;
  const double reference = mw::critical_path_s(make(reg, j, every_bucket).graph);
  const Case c = make(reg, j);
  CHECK(reference == Approx(c.step.step_time_s).epsilon(1e-3));
  CHECK(mw::critical_path_s(c.graph) == Approx(reference).epsilon(kAgreeTol));
  CHECK(mw::critical_path_s(c.graph) >= reference * (1 - 1e-9));  // coarser never overlaps more
}

TEST_CASE("flow mode refuses a job across the trays of an NVL72 NVLink domain", "[models][workload]") {
  // Its traffic between trays would travel the fabric's NICs instead of NVLink (step_graph_builder).
  const auto reg = builtin();
  const auto tray = dcsim::models::hardware::gb200_nvl72_tray();
  mw::TrainingJobConfig job = bert(reg, 2);
  const mc::FabricParams fabric;
  const auto step = mw::estimate_training_step(job, tray, fabric, reg.collective_algorithms);
  CHECK_THROWS_WITH(mw::build_step_graph(job, step, tray, fabric, reg.collective_algorithms, {}),
                    Catch::Contains("NVLink domain of 18 nodes (72 GPUs)"));
  job.nodes = 1;  // one tray: no traffic between nodes
  CHECK_NOTHROW(mw::build_step_graph(job, mw::estimate_training_step(job, tray, fabric, reg.collective_algorithms),
                                     tray, fabric, reg.collective_algorithms, {}));
}
