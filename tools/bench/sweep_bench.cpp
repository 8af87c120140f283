#include "tools/bench/sweep_bench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stdlib.h>
#include <sys/resource.h>

#include "tools/scenario/resource_guard.hpp"
#include "tools/sweep/mpi_world.hpp"
#include "tools/sweep/parallel_for.hpp"
#include "tools/sweep/sweep_progress.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/sweep/sweep_runner.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace dcsim::tools::bench {

namespace {

// Eight HGX H100 nodes for a simulated year of a Poisson job stream (90,000 jobs) at a
// 15-minute telemetry tick: about 0.8 s of CPU per run on the reference machine, and a 10 MB
// trace.h5, so the HDF5 lock the variants share is exercised too.
constexpr const char* kScenario = R"({
  "name": "bench sweep: 8 HGX H100 nodes, a year of batch jobs",
  "seed": 1,
  "duration": "365 d",
  "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 8, "nodes_per_rack": 4 },
  "workload": {
    "generators": [
      { "name": "batch", "count": 90000, "start": "0 s",
        "interarrival": { "kind": "exponential", "mean": "6 min" },
        "work": { "kind": "lognormal", "median": "20 min", "sigma": 0.8 },
        "nodes": [1, 1, 2, 4], "gpu_utilization": 0.75 }
    ]
  },
  "policies": { "scheduler": "easy_backfill" },
  "outputs": { "telemetry_interval": "15 min" }
})";

// The machine's 1-minute load average: above the core count, other processes took CPU from the
// sweep and the wall ratio measures them too.
double load_average() {
  double load[1] = {0.0};
  return getloadavg(load, 1) == 1 ? load[0] : -1.0;
}

double process_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

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

  const double load_before = load_average();
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_s();
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
  const double rank_cpu_s = process_cpu_s() - cpu_start;
  const auto totals = world.sum({tally.cpu_s, rank_cpu_s, tally.queued_s, tally.wall_s});
  if (world.rank() != 0) return nullptr;
  const double results_cpu_start = process_cpu_s();
  const sweep::ResultsReport report = sweep::write_results(s, plan, results);
  const double process_cpu = totals[1] + process_cpu_s() - results_cpu_start;
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t workers = std::min(jobs * static_cast<std::size_t>(world.size()), sweep::core_count());
  const double ideal_s = totals[0] / static_cast<double>(workers);
  // The variants' traces (10 MB each) are scratch: only the results stay.
  for (std::size_t i = 0; i < variants; ++i) std::filesystem::remove_all(results / sweep::variant_name(i, variants));
  return {{"variants", variants},
          {"jobs", jobs},
          {"ranks", world.size()},
          {"workers", workers},
          {"failed", report.failures.size()},
          {"wall_s", wall_s},
          {"variant_cpu_s", totals[0]},
          {"mean_variant_cpu_s", totals[0] / static_cast<double>(std::max<std::size_t>(variants, 1))},
          {"ideal_s", ideal_s},
          // Everything the processes spent (validation, results, the threads' bookkeeping): on a
          // busy machine the wall ratio measures the neighbours, this ratio only dcsim.
          {"process_cpu_s", process_cpu},
          {"cpu_overhead", process_cpu / totals[0]},
          {"cores", sweep::core_count()},
          {"load_average_before", load_before},
          {"load_average_after", load_average()},
          {"ratio", wall_s / ideal_s},
          // The wall time less the workers' mean wait for a core (the neighbours' share on a
          // busy machine): an estimate of the ratio on a quiet one.
          {"queued_s", totals[2]},
          // Variant threads neither running nor waiting for a core: fsync of each trace.h5 and
          // summary.json (atomic outputs), the HDF5 lock, reading the scenario.
          {"blocked_s", std::max(0.0, totals[3] - totals[0] - totals[2])},
          {"ratio_without_queueing", (wall_s - totals[2] / static_cast<double>(workers)) / ideal_s}};
}

}  // namespace dcsim::tools::bench
