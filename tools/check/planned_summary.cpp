#include "tools/check/planned_summary.hpp"

#include <algorithm>
#include <optional>

#include "sim/simulator.hpp"
#include "tools/check/summary_path.hpp"
#include "tools/output/summary.hpp"
#include "tools/output/summary_sink.hpp"
#include "tools/run/build_datacenter.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/did_you_mean.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

// Named jobs (the scenario's jobs and training jobs: cluster_simulation.cpp's `named`) get their
// headline row when they end or when the run does, but never at time zero, when none has
// arrived: a row each, its cells as the table declares them.
void add_named_job_rows(const scenario::Scenario& scenario, output::SummaryRecorder& summary) {
  if (!scenario.has_cluster) return;
  std::vector<std::string> names;
  for (const auto& j : scenario.cluster.jobs) names.push_back(j.name);
  for (const auto& t : scenario.cluster.training_jobs) names.push_back(t.job.name);
  for (std::size_t t = 0; t < summary.tables().size(); ++t) {
    const auto& table = summary.tables()[t];
    if (table.name != "jobs" || !table.rows.empty()) continue;
    for (const auto& name : names) {
      std::vector<sim::Cell> row;
      for (const auto& c : table.columns) {
        if (c.name == "name") {
          row.emplace_back(name);
        } else if (c.type == sim::ColumnType::kString) {
          row.emplace_back(std::string());
        } else if (c.type == sim::ColumnType::kInt64) {
          row.emplace_back(std::int64_t{0});
        } else {
          row.emplace_back(0.0);
        }
      }
      summary.append_row(t, std::move(row));
    }
  }
}

json summary_at_start(const scenario::Scenario& given, const models::ModelRegistries& registries) {
  // Closed at time zero the run has simulated nothing, and the economics refuse to price an empty
  // span unless a horizon is asked for: ask for one (1 s) when none is; the keys are the same.
  // (A copy only then: a scenario may hold millions of flow records.)
  std::optional<scenario::Scenario> with_horizon;
  if (given.economics && given.economics->horizon.is_max()) {
    with_horizon = given;
    with_horizon->economics->horizon = sim::Time::from_s(1);
  }
  const scenario::Scenario& scenario = with_horizon ? *with_horizon : given;
  sim::Simulator simulator;
  output::SummarySink sink;
  {
    const auto datacenter = run::build_datacenter(scenario, registries, simulator, sink);
    datacenter->start();
    datacenter->finish();
  }
  add_named_job_rows(scenario, sink.summary());
  // What run::simulate adds after the models' own summaries.
  sink.set_summary("engine/events", sim::SummaryValue{std::int64_t{0}, "", ""});
  sink.set_summary("engine/fingerprint", sim::SummaryValue{std::string(), "", ""});
  sink.set_summary("engine/timing_fingerprint", sim::SummaryValue{std::string(), "", ""});
  run::report_plan_searches(scenario, sink);
  output::RunMeta meta;
  meta.scenario_name = scenario.name;
  meta.seed = scenario.seed;
  return output::summary_json(sink.summary(), meta);
}

bool matches(const std::string& pattern, const std::string& path) {
  std::size_t p = 0, q = 0;
  while (p <= pattern.size() && q <= path.size()) {
    const std::size_t pe = std::min(pattern.find('/', p), pattern.size());
    const std::size_t qe = std::min(path.find('/', q), path.size());
    const std::string_view a(pattern.data() + p, pe - p), b(path.data() + q, qe - q);
    if (a != "*" && a != b) return false;
    if (pe == pattern.size() || qe == path.size()) return pe == pattern.size() && qe == path.size();
    p = pe + 1;
    q = qe + 1;
  }
  return false;
}

}  // namespace

const std::vector<std::string>& conditional_summary_keys() {
  // Each with the model code that reports it only when something happened. A model that adds
  // such a key adds it here (planned_summary_test runs every shipped scenario against this).
  static const std::vector<std::string> keys = {
      "facility/cooling_warning",             // facility/cooling_shortfall.cpp: the cooling fell short
      "goodput/effective_training_fraction",  // cluster/goodput_report.cpp: a training job started
      "goodput/lost_gpu_h_by_cause/*",        // goodput_report.cpp: a cause interrupted a job (elastic_expand:
      "reliability/interruptions/*",          //   a shrunk job grew back)
      "cost/burst/usd_per_gpu_hour",          // economics/burst_account.cpp: a job ran in the cloud
      "cost/hybrid/usd_per_gpu_hour",         // burst_account.cpp: a GPU-hour was delivered
      // storage/storage_subsystem.cpp: a job wrote or read the store (its input: dataset_*)
      "storage/jobs/*/checkpoint_write_s_p50",
      "storage/jobs/*/checkpoint_write_s_max",
      "storage/jobs/*/checkpoint_read_s_p50",
      "storage/jobs/*/checkpoint_read_s_max",
      "storage/jobs/*/stall_s",
      "storage/jobs/*/stall_gpu_h",
      "storage/jobs/*/dataset_reads",
      "storage/jobs/*/dataset_bytes",
  };
  return keys;
}

PlannedSummary::PlannedSummary(const scenario::Scenario& scenario, const models::ModelRegistries& registries)
    : PlannedSummary(summary_at_start(scenario, registries)) {}

PlannedSummary::PlannedSummary(json summary_at_start)
    : summary_(std::move(summary_at_start)), paths_(leaf_paths(summary_)) {}

bool PlannedSummary::may_report(const std::string& path) const {
  if (std::binary_search(paths_.begin(), paths_.end(), path)) return true;
  const auto& keys = conditional_summary_keys();
  return std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return matches(k, path); });
}

std::string PlannedSummary::why_not(const std::string& path) const {
  std::string out = "'" + path + "' is not a value this run reports;" + scenario::did_you_mean(path, paths_);
  // What there is at the deepest level of the path that exists.
  std::string parent = path;
  std::vector<std::string> siblings;
  while (siblings.empty()) {
    const auto slash = parent.rfind('/');
    parent = slash == std::string::npos ? std::string() : parent.substr(0, slash);
    const std::string prefix = parent.empty() ? "" : parent + "/";
    for (const auto& p : paths_) {
      if (p.rfind(prefix, 0) != 0) continue;
      const std::string next = p.substr(prefix.size(), p.find('/', prefix.size()) - prefix.size());
      siblings.push_back(next);
    }
    if (parent.empty()) break;
  }
  std::sort(siblings.begin(), siblings.end());
  siblings.erase(std::unique(siblings.begin(), siblings.end()), siblings.end());
  constexpr std::size_t kListed = 24;
  std::string list;
  for (std::size_t i = 0; i < siblings.size() && i < kListed; ++i) list += (i == 0 ? "" : ", ") + siblings[i];
  if (siblings.size() > kListed) list += ", ... (" + std::to_string(siblings.size() - kListed) + " more)";
  out += parent.empty() ? " its sections: " + list : " under " + parent + "/: " + list;
  return out;
}

}  // namespace dcsim::tools::check
