#include "tools/bench/design_grid_bench.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "sim/error.hpp"
#include "tools/design/design_evaluator.hpp"
#include "tools/design/design_runner.hpp"
#include "tools/design/design_spec.hpp"
#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::bench {

namespace {

namespace td = tools::design;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The site: one Llama 3 70B pre-training on every node, an hour of it.
json base_scenario(bool auto_plan) {
  json parallelism = auto_plan ? json{{"auto", true}} : json{{"tp", 8}, {"pp", 4}, {"zero_stage", 1}};
  return {{"name", "design bench: Llama 3 70B on 128 HGX H100 nodes (1,024 GPUs), owned"},
          {"seed", 37},
          {"duration", "1 h"},
          {"cluster", {{"node", {{"preset", "hgx-h100"}}}, {"nodes", 128}, {"nodes_per_rack", 4}}},
          {"workload",
           {{"training",
             {{{"name", "llama3-70b"},
               {"model", "llama3-70b"},
               {"nodes", 128},
               {"parallelism", parallelism},
               {"global_batch", 1024},
               {"steps", 100000}}}}}},
          {"facility", {{"tick", "5 min"}, {"cooling", {{"mode", "d2c"}, {"d2c_capture", 0.8}}}}},
          {"economics", {{"node_price", "hgx-h100"}, {"site_prices", "us"}, {"site", "colocation"}}}};
}

// Batches of 64 candidates: the grid strategy's default, what a user gets.
json design_document(const std::string& scenario_file) {
  return {{"name", "grid-1000-designs-training"},
          {"scenario", scenario_file},
          {"variables",
           {{{"path", "facility.gpu_power_limit"},
             {"range", {{"low", 300}, {"high", 700}, {"unit", "W"}, {"grid_points", 5}}}},
            {{"path", "cluster.nodes_per_rack"}, {"values", {2, 4, 6, 8, 10}}},
            {{"path", "facility.cooling"},
             {"values",
              {{{"mode", "air"}},
               {{"mode", "d2c"}, {"d2c_capture", 0.6}},
               {{"mode", "d2c"}, {"d2c_capture", 0.8}},
               {{"mode", "d2c"}, {"d2c_capture", 0.8}, {"rdhx", true}}}}},
            {{"path", "workload.training.0.global_batch"}, {"values", {256, 512, 1024, 2048, 4096}}},
            {{"path", "economics.electricity"}, {"values", {"0.06 USD/kWh", "0.12 USD/kWh"}}}}},
          {"constraints", {{{"key", "power/peak_rack_w"}, {"max", 60e3}}, {{"key", "thermal/max_gpu_c"}, {"max", 85}}}},
          {"objectives", {{{"key", "cost/owned/usd_per_million_tokens"}}}},
          {"strategy", {{"name", "grid"}, {"params", {{"batch", 64}}}}}};
}

struct Pass {
  double wall_s = 0.0;
  td::SearchResult result;
};

Pass search(const td::Design& design, const models::ModelRegistries& registries, std::size_t jobs) {
  td::StrategyRegistry strategies{"search strategy"};
  td::register_builtin_strategies(strategies);
  const td::DesignEvaluator evaluator(design, registries, scenario::ResourceLimits::for_this_machine(),
                                      td::design_seed(design, registries), {});
  td::SearchOptions options;
  options.jobs = jobs;
  const auto start = Clock::now();
  Pass p;
  p.result = td::run_search(design, strategies, evaluator, options, nullptr);
  p.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  return p;
}

json one_case(const models::ModelRegistries& registries, std::size_t jobs, bool auto_plan,
              const std::filesystem::path& dir) {
  const auto scenario_file = dir / (auto_plan ? "auto-plan.json" : "fixed-plan.json");
  std::ofstream(scenario_file) << base_scenario(auto_plan).dump(2);
  const auto design = td::parse_design(design_document(scenario_file.string()), "grid-1000", dir.string());
  const Pass all = search(design, registries, jobs);
  std::size_t counts[4] = {0, 0, 0, 0};
  double best = 0.0;
  double plans = 0.0, with_plans = 0.0;  // plans the step model estimated per candidate (auto plan)
  for (const auto& e : all.result.evaluations) {
    ++counts[static_cast<int>(e.status)];
    for (const auto& [key, value] : e.summary) {
      if (key == "training/plans/llama3-70b/plans_evaluated" && value.is_number()) {
        plans += value.get<double>();
        with_plans += 1.0;
      }
    }
  }
  if (all.result.best) best = all.result.evaluations[*all.result.best].objectives[0];
  // The parallel efficiency on the first 100 designs (batches of 64 and 36).
  auto first = design;
  first.variables[3].choices.resize(1);  // 200 designs: one global batch
  first.variables[4].choices.resize(1);  // 100: one price
  const Pass one = search(first, registries, 1);
  const Pass two = search(first, registries, 2);
  const double n = static_cast<double>(all.result.evaluations.size());
  return {{"name", auto_plan ? "grid-1000-designs-training" : "grid-1000-designs-training-fixed-plan"},
          {"plan", auto_plan ? "auto (searched per candidate)" : "fixed: TP 8 x PP 4, ZeRO 1"},
          {"designs", all.result.evaluations.size()},
          {"feasible", counts[0]},
          {"infeasible", counts[1]},
          {"pruned", counts[2]},
          {"failed", counts[3]},
          {"jobs", jobs},
          {"wall_s", all.wall_s},
          {"ms_per_design", all.wall_s / n * 1e3},
          {"target_wall_s", 120},
          {"best_usd_per_million_tokens", best},
          {"plans_evaluated_per_design", with_plans > 0 ? json(plans / with_plans) : json(nullptr)},
          {"efficiency_100_designs",
           {{"wall_1_thread_s", one.wall_s},
            {"wall_2_threads_s", two.wall_s},
            {"speedup", one.wall_s / two.wall_s},
            {"efficiency", one.wall_s / two.wall_s / 2.0}}}};
}

}  // namespace

json run_design_grid_bench(const models::ModelRegistries& registries, std::size_t jobs) {
  const auto dir = std::filesystem::temp_directory_path() / ("dcsim-design-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  json cases = json::array();
  try {
    cases.push_back(one_case(registries, jobs, true, dir));
    cases.push_back(one_case(registries, jobs, false, dir));
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  std::filesystem::remove_all(dir);
  return cases;
}

}  // namespace dcsim::tools::bench
