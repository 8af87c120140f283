#pragma once
// What the cluster reports about its workload at the end of a run, declared apart from the
// lifecycle that decides how each job ended, as goodput_report.hpp is: the workload/* summary
// (counts by outcome, waits and their percentiles, completions, bounded slowdown). The cluster
// adds its jobs one by one; inference replicas are counted apart (their service reports them).
// Cost: O(1) per job added; emit O(started jobs) (two nearest-rank selections).

#include <cstddef>
#include <vector>

#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

struct WorkloadTally {
  enum class Outcome { kCompleted, kFailed, kUnfinished, kNotArrived };
  // A workload job (named, generated or from a trace), by how it ended.
  void add(Outcome outcome);
  // A job that started `wait_s` after it arrived.
  void add_wait(double wait_s) { waits_s.push_back(wait_s); }
  // A completed job: `completion_s` from arrival to finish for `work_s` of work.
  void add_completion(double completion_s, double work_s);

  std::size_t jobs = 0, completed = 0, failed = 0, unfinished = 0, not_arrived = 0;
  std::size_t replicas = 0;  // inference replicas submitted as cluster jobs (not workload jobs)
  std::vector<double> waits_s;
  double completion_sum_s = 0.0;
  double slowdown_sum = 0.0;
};

// Emits workload/jobs_* (total, completed, failed, unfinished, not_arrived), service_replica_jobs,
// mean_wait_s, mean_completion_s, wait_p50_s, wait_p99_s and mean_bounded_slowdown. Reorders
// tally.waits_s.
void emit_workload_summary(WorkloadTally& tally, sim::TraceSink& sink);

}  // namespace dcsim::models::cluster
