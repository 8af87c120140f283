// A design search end to end on a space small enough to work out by hand: Llama 3 8B for 10 steps
// on 1 to 4 HGX H100 nodes (TP 2, global batch 64) under a 30 kW power limit, maximising tokens/s.
//   1 node:  DP 4  -- feasible
//   2 nodes: DP 8  -- feasible, twice the GPUs at nearly the same per-GPU rate: the best
//   3 nodes: DP 12 -- 64 sequences do not split over 12 replicas: failed (the model refuses it)
//   4 nodes: DP 16 -- ~9.8 kW per node at load, 39 kW > 30 kW: pruned from the run's first
//                     microsecond, before the run
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tools/design/design_evaluator.hpp"
#include "tools/design/design_runner.hpp"
#include "tools/design/design_spec.hpp"

namespace dd = dcsim::tools::design;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const dcsim::models::ModelRegistries& registries() {
  static const auto r = [] {
    dcsim::models::ModelRegistries out;
    dcsim::models::register_builtin_models(out);
    return out;
  }();
  return r;
}

const dd::StrategyRegistry& strategies() {
  static const auto r = [] {
    dd::StrategyRegistry out{"search strategy"};
    dd::register_builtin_strategies(out);
    return out;
  }();
  return r;
}

dd::Design tiny_design(double max_power_w) {
  json doc = {{"name", "tiny"},
              {"scenario", std::string(DCSIM_SOURCE_DIR) + "/tests/data/design/tiny-training.json"},
              {"variables", {{{"path", "cluster.nodes"}, {"range", {{"low", 1}, {"high", 4}, {"step", 1}}}}}},
              {"couplings", {{{"path", "workload.training.0.nodes"}, {"from", "cluster.nodes"}}}},
              {"objectives", {{{"key", "jobs/llama3-8b/tokens_per_s"}, {"goal", "maximize"}}}},
              {"strategy", {{"name", "grid"}, {"params", {{"batch", 3}}}}}};
  if (max_power_w > 0) doc["constraints"] = {{{"key", "power/peak_w"}, {"max", max_power_w}}};
  return dd::parse_design(doc, "tiny.json", ".");
}

dd::SearchResult search(const dd::Design& d, std::size_t jobs, const fs::path& cache = {}) {
  const dd::DesignEvaluator evaluator(d, registries(), dcsim::tools::scenario::ResourceLimits::for_this_machine(),
                                      dd::design_seed(d, registries()), cache);
  dd::SearchOptions options;
  options.jobs = jobs;
  options.cache_dir = cache;
  return dd::run_search(d, strategies(), evaluator, options, nullptr);
}

}  // namespace

TEST_CASE("the search finds the design worked out by hand: the most nodes the power limit and the batch allow",
          "[design][search]") {
  const auto d = tiny_design(30e3);
  const auto result = search(d, 1);
  REQUIRE(result.evaluations.size() == 4);
  CHECK(result.evaluations[0].status == dd::EvaluationStatus::kFeasible);
  CHECK(result.evaluations[1].status == dd::EvaluationStatus::kFeasible);
  CHECK(result.evaluations[2].status == dd::EvaluationStatus::kFailed);
  CHECK_THAT(result.evaluations[2].reason, Catch::Contains("global_batch"));
  CHECK(result.evaluations[3].status == dd::EvaluationStatus::kPruned);
  CHECK_THAT(result.evaluations[3].reason, Catch::Contains("power/peak_w") && Catch::Contains("before running"));
  REQUIRE(result.best);
  CHECK(*result.best == 1);  // 2 nodes
  // Twice the GPUs, each at nearly the rate it had on one node (DP over the fabric costs a little).
  const double one = result.evaluations[0].objectives[0], two = result.evaluations[1].objectives[0];
  CHECK(two / one == Approx(2.0).epsilon(0.05));
}

TEST_CASE("pruning before the run never drops a design the run would have kept", "[design][search]") {
  // Every candidate pruned under a limit must be over it when run in full (a running maximum's
  // value at the start is a lower bound of the run's); and a limit above every run's peak prunes
  // nothing.
  const auto unconstrained = search(tiny_design(0), 1);
  for (const double limit : {12e3, 21e3, 30e3, 45e3}) {
    const auto constrained = search(tiny_design(limit), 1);
    REQUIRE(constrained.evaluations.size() == unconstrained.evaluations.size());
    for (std::size_t i = 0; i < constrained.evaluations.size(); ++i) {
      if (constrained.evaluations[i].status != dd::EvaluationStatus::kPruned) continue;
      double peak = 0;
      for (const auto& [k, v] : unconstrained.evaluations[i].summary) {
        if (k == "power/peak_w") peak = v.get<double>();
      }
      CHECK(peak > limit);
    }
  }
  for (const auto& e : search(tiny_design(1e9), 1).evaluations) CHECK(e.status != dd::EvaluationStatus::kPruned);
}

TEST_CASE("the same design gives the same evaluations on any number of threads, and again from its cache",
          "[design][search]") {
  const auto d = tiny_design(30e3);
  const auto one = search(d, 1);
  const auto two = search(d, 2);
  const fs::path cache = fs::temp_directory_path() / ("dcsim-design-cache-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  fs::create_directories(cache);
  const auto first = search(d, 2, cache);
  const auto again = search(d, 2, cache);
  REQUIRE(one.evaluations.size() == two.evaluations.size());
  for (std::size_t i = 0; i < one.evaluations.size(); ++i) {
    for (const auto* other : {&two, &first, &again}) {
      CHECK(other->evaluations[i].status == one.evaluations[i].status);
      CHECK(other->evaluations[i].objectives == one.evaluations[i].objectives);
      CHECK(other->evaluations[i].reason == one.evaluations[i].reason);
    }
    CHECK_FALSE(first.evaluations[i].reused);
    // Read back, except a candidate whose scenario does not load (nothing to cache; it fails again at once).
    CHECK(again.evaluations[i].reused == (i != 2));
  }
  fs::remove_all(cache);
}

TEST_CASE("a design's keys are checked before anything runs, with a guess for a mistyped one", "[design][search]") {
  auto d = tiny_design(30e3);
  d.objectives[0].key = "jobs/llama3-8b/tokens_per_sec";
  const dd::DesignEvaluator evaluator(d, registries(), dcsim::tools::scenario::ResourceLimits::for_this_machine(), 5,
                                      {});
  CHECK_THROWS_WITH(evaluator.check(dd::probe_points(dd::search_space(d), 4)),
                    Catch::Contains("tiny.json:/objectives/0/key") && Catch::Contains("tokens_per_s"));
  auto p = tiny_design(30e3);
  p.variables[0].path = "cluster.nodez";
  const dd::DesignEvaluator bad_path(p, registries(), dcsim::tools::scenario::ResourceLimits::for_this_machine(), 5,
                                     {});
  CHECK_THROWS_WITH(bad_path.check(dd::probe_points(dd::search_space(p), 4)),
                    Catch::Contains("tiny.json:/variables/0/path: 'cluster.nodez' is not in the scenario"));
}

TEST_CASE("strategy parameters are checked against what the strategy documents", "[design][search]") {
  auto d = tiny_design(0);
  d.strategy_params = {{"batchsize", 4}};
  CHECK_THROWS_WITH(dd::strategy_params(d, strategies().get("grid")),
                    Catch::Contains("tiny.json:/strategy/params/batchsize: not a parameter of strategy 'grid'"));
  d.strategy_params = {{"batch", 0}};
  CHECK_THROWS_WITH(dd::strategy_params(d, strategies().get("grid")),
                    Catch::Contains("/strategy/params/batch: expected x >= 1, got 0"));
}

TEST_CASE("an objective or a constraint on a value that is not a number is refused before the search",
          "[design][search]") {
  auto d = tiny_design(0);
  d.objectives[0].key = "engine/fingerprint";
  const dd::DesignEvaluator evaluator(d, registries(), dcsim::tools::scenario::ResourceLimits::for_this_machine(), 5,
                                      {});
  CHECK_THROWS_WITH(evaluator.check(dd::probe_points(dd::search_space(d), 4)),
                    Catch::Contains("tiny.json:/objectives/0/key: 'engine/fingerprint' is text") &&
                        Catch::Contains("not a number"));
}

TEST_CASE("successive halving evaluates everything at the cheap fidelity and promotes the best third to the full one",
          "[design][search]") {
  // 3 node counts x 3 power caps; fidelity 0 runs 2 steps, the full one 10. With eta 3 the 3 best
  // of the 9 short runs are run in full, and the best design comes from those alone.
  json doc = {{"name", "sh"},
              {"scenario", std::string(DCSIM_SOURCE_DIR) + "/tests/data/design/tiny-training.json"},
              {"variables",
               {{{"path", "cluster.nodes"}, {"values", {1, 2, 4}}},
                {{"path", "facility.gpu_power_limit"},
                 {"range", {{"low", 400}, {"high", 700}, {"unit", "W"}, {"grid_points", 3}}}}}},
              {"couplings", {{{"path", "workload.training.0.nodes"}, {"from", "cluster.nodes"}}}},
              {"objectives", {{{"key", "jobs/llama3-8b/tokens_per_s"}, {"goal", "maximize"}}}},
              {"fidelities", {{{"name", "short"}, {"set", {"workload.training.0.steps=2"}}}, {{"name", "full"}}}},
              {"strategy", {{"name", "successive_halving"}, {"params", {{"initial", 9}, {"eta", 3}}}}}};
  const auto d = dd::parse_design(doc, "sh.json", ".");
  const auto result = search(d, 2);
  REQUIRE(result.evaluations.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) CHECK(result.evaluations[i].candidate.fidelity == (i < 9 ? 0 : 1));
  // The promoted three are the three fastest short runs: 4 nodes at every cap (4 x 8 GPUs beat 2 x 8
  // at any cap in this range, where the clock falls by less than half).
  for (std::size_t i = 9; i < 12; ++i) CHECK(result.evaluations[i].candidate.point[0] == 2.0);  // choice 2: 4 nodes
  REQUIRE(result.best);
  CHECK(*result.best >= 9);
}
