// The step graph with the issue 15 pipeline mechanisms (interleaved schedule, uneven stages,
// context parallelism): its longest path on an ideal network stays the closed form's step.
#include <catch2/catch.hpp>

#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/workload/step_graph.hpp"
#include "models/workload/training_step.hpp"

namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;

namespace {

struct Built {
  mw::TrainingStepResult step;
  mw::StepGraph graph;
};

Built build(const mw::TrainingJobConfig& job) {
  dcsim::models::ModelRegistries reg;
  dcsim::models::register_builtin_models(reg);
  const auto node = dcsim::models::hardware::hgx_h100();
  Built b;
  b.step = mw::estimate_training_step(job, node, {}, reg.collective_algorithms);
  b.graph = mw::build_step_graph(job, b.step, node, {}, reg.collective_algorithms);
  return b;
}

// llama3-8b, tp 8 x pp 4 x dp 2 on 8 nodes, 8 micro-batches.
mw::TrainingJobConfig llama_3d() {
  mw::TrainingJobConfig j;
  j.name = "llama";
  j.model = mw::llama3_8b();
  j.nodes = 8;
  j.parallelism.tp = 8;
  j.parallelism.pp = 4;
  j.global_batch_sequences = 16;
  return j;
}

}  // namespace

TEST_CASE("the interleaved schedule's graph shrinks the bubble as the closed form does",
          "[models][workload][step_graph][pipeline]") {
  const Built one = build(llama_3d());
  auto j = llama_3d();
  j.parallelism.virtual_stages = 2;
  const Built two = build(j);
  // Each stage sends twice as often: 2 x 2 x 3 boundaries x 8 micro-batches, plus the wrap from
  // the last stage's chunk 0 to the first stage's chunk 1 (both directions).
  int transfers = 0;
  for (const auto& t : two.graph.tasks) transfers += t.role == mw::StepTaskRole::kPp ? 1 : 0;
  CHECK(transfers == 2 * (2 * 4 - 1) * 8);
  CHECK(mw::critical_path_s(two.graph) == Approx(two.step.step_time_s).epsilon(0.03));
  // The bubble halves: (p-1)/(v m) of the ideal time, 3/16 instead of 3/8.
  CHECK(mw::critical_path_s(two.graph) < mw::critical_path_s(one.graph));
}

TEST_CASE("uneven stages and context parallelism keep graph and closed form together",
          "[models][workload][step_graph][pipeline]") {
  SECTION("32 layers on 3 stages: 11, 11, 10 (+ the LM head)") {
    auto j = llama_3d();
    j.nodes = 6;
    j.parallelism.pp = 3;
    j.global_batch_sequences = 12;  // dp 2, m 6
    const Built b = build(j);
    REQUIRE(b.step.stage_layers == std::vector<int>{11, 11, 10});
    CHECK(mw::critical_path_s(b.graph) == Approx(b.step.step_time_s).epsilon(0.02));
  }
  SECTION("tp 8 x cp 2 x pp 2 x dp 2") {
    auto j = llama_3d();
    j.parallelism.pp = 2;
    j.parallelism.cp = 2;
    j.global_batch_sequences = 8;  // dp 2, m 4
    const Built b = build(j);
    REQUIRE(b.step.dp == 2);
    CHECK(mw::critical_path_s(b.graph) == Approx(b.step.step_time_s).epsilon(0.02));
  }
}
