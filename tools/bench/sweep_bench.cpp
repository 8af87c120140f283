#include "tools/bench/sweep_bench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/scenario/resource_guard.hpp"
#include "tools/sweep/mpi_world.hpp"
#include "tools/sweep/parallel_for.hpp"
#include "tools/sweep/sweep_progress.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/sweep/sweep_runner.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace dcsim::tools::bench {

namespace {

// Eight HGX H100 nodes for two simulated weeks of a Poisson job stream at a one-minute
// telemetry tick: about a second of CPU per run here, most of it the model, a little the trace.
constexpr const char* kScenario = R"({
  "name": "bench sweep: 8 HGX H100 nodes, two weeks of batch jobs",
  "seed": 1,
  "duration": "14 d",
  "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 8, "nodes_per_rack": 4 },
  "workload": {
    "generators": [
      { "name": "batch", "count": 3000, "start": "0 s",
        "interarrival": { "kind": "exponential", "mean": "6 min" },
        "work": { "kind": "lognormal", "median": "20 min", "sigma": 0.8 },
        "nodes": [1, 1, 2, 4], "gpu_utilization": 0.75 }
    ]
  },
  "policies": { "scheduler": "easy_backfill" },
  "outputs": { "telemetry_interval": "1 min" }
})";

}  // namespace

nlohmann::json bench_scenario_json() { return nlohmann::json::parse(kScenario); }

nlohmann::json run_sweep_bench(const models::ModelRegistries& registries, const sweep::MpiWorld& world,
                               std::size_t variants, std::size_t jobs, const std::string& output_dir) {
  const std::filesystem::path dir(output_dir);
  const auto input = dir / "input";
  const auto results = dir / "results";
  if (world.rank() == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(input);
    std::ofstream(input / "scenario.json") << bench_scenario_json().dump(2) << '\n';
    const nlohmann::json sweep_doc = {{"name", "bench"},
                                      {"scenario", "scenario.json"},
                                      {"parameters", nlohmann::json::array()},
                                      {"replications", variants}};
    std::ofstream(input / "sweep.json") << sweep_doc.dump(2) << '\n';
  }
  world.barrier();

  const auto start = std::chrono::steady_clock::now();
  const sweep::Sweep s = sweep::load_sweep((input / "sweep.json").string());
  auto limits = scenario::ResourceLimits::for_this_machine();
  limits.max_memory_bytes /= static_cast<double>(jobs);
  const sweep::Plan plan = sweep::validate_sweep(s, registries, jobs, limits);
  std::filesystem::create_directories(results);
  sweep::RunOptions options;
  options.output_dir = results;
  options.jobs = jobs;
  options.rank = world.rank();
  options.ranks = world.size();
  std::ostringstream quiet;
  sweep::SweepProgress progress(quiet, s.name, sweep::share_count(sweep::variant_count(s), world.rank(), world.size()),
                                false, false);
  const sweep::RunTally tally = sweep::run_variants(s, plan, registries, limits, options, progress);
  world.barrier();
  const auto totals = world.sum({tally.cpu_s, static_cast<double>(tally.failed)});
  if (world.rank() != 0) return nullptr;
  const sweep::ResultsReport report = sweep::write_results(s, plan, results);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t workers = std::min(jobs * static_cast<std::size_t>(world.size()), sweep::core_count());
  const double ideal_s = totals[0] / static_cast<double>(workers);
  return {{"variants", variants},
          {"jobs", jobs},
          {"ranks", world.size()},
          {"workers", workers},
          {"failed", report.failures.size()},
          {"wall_s", wall_s},
          {"variant_cpu_s", totals[0]},
          {"mean_variant_cpu_s", totals[0] / static_cast<double>(std::max<std::size_t>(variants, 1))},
          {"ideal_s", ideal_s},
          {"ratio", wall_s / ideal_s}};
}

}  // namespace dcsim::tools::bench
