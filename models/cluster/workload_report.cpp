#include "models/cluster/workload_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace dcsim::models::cluster {

namespace {

// Nearest-rank percentile (q in [0, 1]); 0 for no values. Reorders `values`.
double percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0.0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  const std::size_t k = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace

void WorkloadTally::add(Outcome outcome) {
  ++jobs;
  switch (outcome) {
    case Outcome::kCompleted: ++completed; break;
    case Outcome::kFailed: ++failed; break;
    case Outcome::kNotArrived: ++not_arrived; break;  // a generated job due after the end
    case Outcome::kUnfinished: ++unfinished; break;
  }
}

void WorkloadTally::add_completion(double completion_s, double work_s) {
  completion_sum_s += completion_s;
  // Bounded slowdown (Feitelson et al., JSSPP 1997): completion over run time, run times below
  // 10 s counted as 10 s so that tiny jobs do not dominate the mean.
  slowdown_sum += std::max(1.0, completion_s / std::max(work_s, 10.0));
}

void emit_workload_summary(WorkloadTally& t, sim::TraceSink& sink) {
  double wait_sum_s = 0.0;
  for (double w : t.waits_s) wait_sum_s += w;
  const std::size_t started = t.waits_s.size();
  const auto put = [&sink](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  const auto put_count = [&sink](const std::string& path, std::size_t v, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put_count("workload/jobs_total", t.jobs,
            "jobs in the workload (named, generated, from traces; not inference replicas): completed + failed + "
            "unfinished + not arrived");
  put_count("workload/jobs_completed", t.completed, "jobs finished within the run");
  put_count("workload/jobs_failed", t.failed, "jobs the failover policy gave up (max_restarts)");
  put_count("workload/jobs_unfinished", t.unfinished, "jobs waiting or running at the end");
  put_count("workload/jobs_not_arrived", t.not_arrived, "generated or trace jobs due after the end of the run");
  put_count("workload/service_replica_jobs", t.replicas,
            "inference replicas submitted as cluster jobs (rows <service>/replica-<k> of /events/jobs)");
  put("workload/mean_wait_s", started > 0 ? wait_sum_s / static_cast<double>(started) : 0.0, "s",
      "mean start - arrival over started jobs");
  put("workload/mean_completion_s", t.completed > 0 ? t.completion_sum_s / static_cast<double>(t.completed) : 0.0, "s",
      "mean finish - arrival over finished jobs");
  put("workload/wait_p50_s", percentile(t.waits_s, 0.50), "s", "median start - arrival over started jobs (0 if none)");
  put("workload/wait_p99_s", percentile(t.waits_s, 0.99), "s", "99th percentile of start - arrival (nearest rank)");
  put("workload/mean_bounded_slowdown", t.completed > 0 ? t.slowdown_sum / static_cast<double>(t.completed) : 0.0, "",
      "mean over finished jobs of max(1, (finish - arrival) / max(work, 10 s))");
}

}  // namespace dcsim::models::cluster
