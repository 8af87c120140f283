#include "tools/sweep/sweep_runner.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <mutex>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/sweep/parallel_for.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/version.hpp"

namespace dcsim::tools::sweep {

namespace {

using nlohmann::json;

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Time this thread spent runnable but waiting for a core (Linux schedstat; 0 where missing):
// what other processes cost a variant, which the benchmark separates from the sweep's own.
double thread_queued_s() {
  std::ifstream in("/proc/thread-self/schedstat");
  unsigned long long on_cpu = 0, queued = 0;
  if (!(in >> on_cpu >> queued)) return 0.0;
  return static_cast<double>(queued) * 1e-9;
}

}  // namespace

json variant_record(const Sweep& sweep, const Variant& variant, const std::string& scenario_hash) {
  json values = json::object();
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) values[sweep.parameters[i].path] = variant.values[i];
  return {{"variant", variant.name},           {"index", variant.index},
          {"replication", variant.replication}, {"seed", variant.seed},
          {"values", values},                   {"overrides", variant.overrides},
          {"scenario_hash", scenario_hash},     {"dcsim_version", std::string(version())},
          {"dcsim_build", std::string(build_id())}};
}

std::string reuse_problem(const std::filesystem::path& dir, const Variant& variant, const std::string& scenario_hash) {
  const json record = read_json_or_null(dir / kVariantFileName);
  if (!record.is_object()) return "not run yet";
  if (record.value("status", "") != "ok") return "it failed last time";
  if (record.value("overrides", json()) != json(variant.overrides)) {
    return "its values changed since the last run (was: " + record.value("overrides", json()).dump() + ")";
  }
  if (record.value("scenario_hash", "") != scenario_hash) return "the scenario or a data file it reads changed since the last run";
  if (record.value("dcsim_version", "") != version()) return "it ran with another dcsim version";
  if (record.value("dcsim_build", "") != build_id()) return "it ran with another build of dcsim";
  const json summary = read_json_or_null(dir / "summary.json");
  if (!summary.is_object()) return "its summary.json is missing";
  if (summary.value("overrides", json()) != json(variant.overrides) || summary.value("seed", json()) != json(variant.seed)) {
    return "its summary.json is from another run";
  }
  return "";
}

std::size_t share_count(std::size_t variants, int rank, int ranks) {
  const auto r = static_cast<std::size_t>(rank), n = static_cast<std::size_t>(ranks);
  return variants > r ? (variants - r + n - 1) / n : 0;
}

RunTally run_variants(const Sweep& sweep, const Plan& plan, const models::ModelRegistries& registries,
                      const scenario::ResourceLimits& limits, const RunOptions& options, SweepProgress& progress) {
  const std::size_t count = variant_count(sweep);
  const std::size_t share = share_count(count, options.rank, options.ranks);
  RunTally tally;
  std::mutex mutex;
  parallel_for(share, options.jobs, [&](std::size_t k) {
    run::throw_if_interrupted();
    const std::size_t index = static_cast<std::size_t>(options.rank) + k * static_cast<std::size_t>(options.ranks);
    const Variant v = variant_at(sweep, index, plan.base_seed);
    const std::string& hash = plan.scenario_hashes[index];
    const auto dir = options.output_dir / v.name;
    const std::string why = reuse_problem(dir, v, hash);
    if (why.empty()) {
      {
        const std::lock_guard lock(mutex);
        ++tally.reused;
      }
      progress.variant_done(false, true);
      return;
    }
    // Not silent: a finished variant whose values changed is run again, and says so.
    if (why != "not run yet") progress.note("sweep " + sweep.name + ": " + v.name + ": " + why + "; running it again");
    std::error_code ec;
    std::filesystem::remove(dir / kVariantFileName, ec);
    json record = variant_record(sweep, v, hash);
    const double cpu_start = thread_cpu_s();
    const double queued_start = thread_queued_s();
    const auto wall_start = std::chrono::steady_clock::now();
    bool failed = false;
    try {
      const auto scenario = scenario::load_scenario_file(sweep.scenario, v.overrides, std::nullopt, registries, limits);
      run::run_to_directory(scenario, registries, dir);
      record["status"] = "ok";
    } catch (const run::Interrupted&) {
      throw;
    } catch (const sim::InputError& e) {
      // Bad input in this variant (a model refused its configuration): a failed row, the others go on.
      failed = true;
      record["status"] = "failed";
      record["error"] = e.what();
    }
    std::filesystem::create_directories(dir, ec);
    write_json_atomically(dir / kVariantFileName, record);
    const double cpu = thread_cpu_s() - cpu_start;
    const double queued = thread_queued_s() - queued_start;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    {
      const std::lock_guard lock(mutex);
      ++tally.ran;
      tally.failed += failed ? 1 : 0;
      tally.cpu_s += cpu;
      tally.queued_s += queued;
      tally.wall_s += wall;
    }
    progress.variant_done(failed, false);
  });
  return tally;
}

}  // namespace dcsim::tools::sweep
