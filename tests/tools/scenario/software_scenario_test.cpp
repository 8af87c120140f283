// /software reaches every part that takes a stack (issue 40, item 1): training jobs' plans and
// inference services' engines, with the preset's values unless a key overrides one.
#include <catch2/catch.hpp>

#include "models/inference/iteration_cost.hpp"
#include "models/workload/training_job.hpp"
#include "scenario_test_support.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;
namespace mw = dcsim::models::workload;

TEST_CASE("/software sets every training job's stack, and a slower stack gives a slower step",
          "[tools][scenario][software]") {
  const auto registries = make_registries();
  const std::string file = (source_dir() / "scenarios/llama3-70b-256-gpus.json").string();
  const Scenario plain = load_scenario_file(file, {}, std::nullopt, registries);
  REQUIRE_FALSE(plain.cluster.training_jobs.empty());
  CHECK(plain.software.name == mw::kDefaultSoftwareStack);
  CHECK(plain.cluster.training_jobs[0].software.name == mw::kDefaultSoftwareStack);

  const Scenario older = load_scenario_file(file, {"software.stack=nemo-24.09"}, std::nullopt, registries);
  CHECK(older.cluster.training_jobs[0].software.name == "nemo-24.09");
  const Scenario slow =
      load_scenario_file(file, {"software.params.gemm_sustained_fraction=0.5"}, std::nullopt, registries);
  CHECK(slow.cluster.training_jobs[0].software.kernels.gemm_sustained_fraction == 0.5);
  // Everything but the GEMM efficiency is the preset's.
  CHECK(slow.cluster.training_jobs[0].software.communication.network_efficiency ==
        plain.cluster.training_jobs[0].software.communication.network_efficiency);
  const auto step = [&](const Scenario& s) {
    return mw::plan_training_job(s.cluster.training_jobs[0], s.cluster.node, registries.collective_algorithms)
        .step.step_time_s;
  };
  CHECK(step(slow) > step(plain));
}

TEST_CASE("/software sets every inference service's engine stack", "[tools][scenario][software]") {
  const auto registries = make_registries();
  const std::string file = (source_dir() / "scenarios/inference-llama70b-8xh100.json").string();
  const Scenario plain = load_scenario_file(file, {}, std::nullopt, registries);
  const Scenario slow = load_scenario_file(file, {"software.params.memory_efficiency=0.5"}, std::nullopt, registries);
  REQUIRE_FALSE(slow.inference.empty());
  const auto& engine = slow.inference.at(0).engine;
  CHECK(engine.software.kernels.mem_efficiency == 0.5);
  // Decode reads the weights and the KV cache from HBM: half the memory efficiency, a slower
  // iteration.
  const auto& service = plain.inference.at(0);
  const dcsim::models::inference::IterationCostModel fast_cost(service.model, service.engine, plain.cluster.node,
                                                               [](double) { return 0.0; });
  const dcsim::models::inference::IterationCostModel slow_cost(service.model, engine, slow.cluster.node,
                                                               [](double) { return 0.0; });
  // 32 sequences decoding with 2,048 tokens of context each: memory bound.
  const auto decode = [](const dcsim::models::inference::IterationCostModel& m) {
    return m.cost({}, 32, 32 * 2048.0, 32).time_s;
  };
  CHECK(decode(slow_cost) > 1.5 * decode(fast_cost));
}

TEST_CASE("a job's or a service's own software replaces /software for it alone", "[tools][scenario][software]") {
  const auto registries = make_registries();
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "two stacks", "duration": "10 min",
    "cluster": {"nodes": 2, "node": {"preset": "hgx-h100"}},
    "software": {"stack": "nemo-25.02", "params": {"network_efficiency": 0.9}},
    "workload": {"training": [
      {"name": "old", "model": "llama3-8b", "parallelism": {"cp": 2, "distributed_optimizer": true},
       "global_batch": 128, "software": {"stack": "nemo-24.09"}},
      {"name": "site", "model": "llama3-8b", "parallelism": {"cp": 2, "distributed_optimizer": true},
       "global_batch": 128}]},
    "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8},
      "requests": {"rate": 1}, "software": {"params": {"memory_efficiency": 0.5}}}]}})");
  const Scenario s = load_scenario_json(doc, "two.json", {}, std::nullopt, registries);
  const auto& old = s.cluster.training_jobs.at(0).software;
  CHECK(old.name == "nemo-24.09");
  CHECK(old.communication.network_efficiency ==
        mw::nemo_25_02().communication.network_efficiency);  // replaced, not merged
  CHECK(s.cluster.training_jobs.at(1).software.communication.network_efficiency == 0.9);
  const auto& chat = s.inference.at(0).engine.software;
  CHECK(chat.name == "nemo-25.02");
  CHECK(chat.kernels.mem_efficiency == 0.5);
  CHECK(chat.communication.network_efficiency == mw::nemo_25_02().communication.network_efficiency);

  nlohmann::json bad = doc;
  bad["workload"]["training"][0]["software"] = nlohmann::json::parse(R"({"params": {"gemm_sustained_fraction": 2}})");
  bad["inference"]["services"][0]["software"] = nlohmann::json::parse(R"({"stack": "nemo-9"})");
  try {
    (void)load_scenario_json(bad, "two.json", {}, std::nullopt, registries);
    FAIL("expected an error");
  } catch (const dcsim::sim::InputErrors& e) {
    std::string all;
    for (const auto& m : e.messages()) all += m + "\n";
    CHECK_THAT(all, Catch::Contains("two.json:/workload/training/0/software/params/gemm_sustained_fraction"));
    CHECK_THAT(all, Catch::Contains("two.json:/inference/services/0/software/stack: unknown software stack 'nemo-9'"));
  }
}
