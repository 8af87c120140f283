// ClusterSimulation's end of run: rows for unfinished jobs and the summary (energy, power, the
// workload's waits and completions, reliability and goodput).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "models/cluster/cluster_job.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

// Nearest-rank percentile (q in [0, 1]); 0 for no values. Reorders `values`.
double percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0.0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  const std::size_t k = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace

void ClusterSimulation::emit_reliability_summary() {
  // Training jobs: the wall time since each first started that went into steps it kept
  // (nominal step time x steps saved or done), the "effective training time" of Llama 3's report.
  TrainingTimeKept training;
  for (const auto& job : jobs_) {
    if (!job->plan || job->start == sim::Time::max()) continue;
    const double steps = job->training ? job->training->steps_done() : job->resume_step;
    training.kept_s += steps * job->plan->step.step_time_s;
    training.wall_s += ((job->state == Job::State::kDone ? job->finish : sim_.now()) - job->start).seconds();
  }
  emit_goodput_summary(goodput_, training, sink_);
}

void ClusterSimulation::finish() {
  if (finished_run_) throw sim::InternalError("ClusterSimulation::finish called twice (this is a bug)");
  finished_run_ = true;
  if (collective_log_) collective_log_->finish();
  power_->integrate_all(sim_.now());
  // Unfinished jobs get a row too, so the tables account for every job.
  double completion_sum_s = 0.0;
  double slowdown_sum = 0.0;
  std::vector<double> waits_s;
  // The workload's jobs by how they ended. Inference replicas are cluster jobs too (placed, held,
  // interrupted like any), but the service decides when they end: they are counted apart and
  // kept out of the workload's counts, waits and makespan (their service reports its own).
  std::size_t workload_jobs = 0, completed = 0, failed = 0, unfinished = 0, not_arrived = 0, replicas = 0;
  sim::Time makespan = sim::Time::zero();
  for (auto& job : jobs_) {
    // Unfinished training jobs delivered the whole steps they have done (running) or will resume
    // from (waiting), failed and unstarted ones nothing; completed ones reported at completion.
    if (job->state == Job::State::kRunning && job->run != nullptr && job->training != nullptr) {
      report_training_work(*job, std::floor(job->training->steps_done()));
      job->training->record_steps_until_now();  // the steps in flight at the end, in training_steps
    } else if (job->state == Job::State::kRunning || job->state == Job::State::kWaiting) {
      report_training_work(*job, job->resume_step);
    } else if (job->state == Job::State::kFailed || job->state == Job::State::kPending) {
      report_training_work(*job, 0);
    }
    if (job->state == Job::State::kRunning) close_run_accounts(*job);
    if (job->state == Job::State::kRunning || job->state == Job::State::kWaiting) emit_job_row(*job);
    if (job->service) {
      ++replicas;
      continue;
    }
    ++workload_jobs;
    switch (job->state) {
      case Job::State::kDone: ++completed; break;
      case Job::State::kFailed: ++failed; break;
      case Job::State::kPending: ++not_arrived; break;  // a generated job due after the end
      case Job::State::kWaiting:
      case Job::State::kRunning: ++unfinished; break;
    }
    if (job->start != sim::Time::max()) waits_s.push_back((job->start - job->spec.arrival).seconds());
    if (job->state == Job::State::kDone) {
      makespan = std::max(makespan, job->finish);
      const double completion_s = (job->finish - job->spec.arrival).seconds();
      completion_sum_s += completion_s;
      // Bounded slowdown (Feitelson et al., JSSPP 1997): completion over run time, run times
      // below 10 s counted as 10 s so that tiny jobs do not dominate the mean.
      slowdown_sum += std::max(1.0, completion_s / std::max(job->spec.work.seconds(), 10.0));
    }
  }
  double wait_sum_s = 0.0;
  for (double w : waits_s) wait_sum_s += w;
  const std::size_t started_count = waits_s.size();

  const double energy = energy_j();
  const double elapsed_s = sim_.now().seconds();
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  auto put_count = [this](const std::string& path, std::size_t v, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put("energy/it_kwh", energy / kJoulesPerKwh, "kWh", "IT energy of the compute nodes");
  put("power/mean_w", elapsed_s > 0 ? energy / elapsed_s : power_->cluster_power_w(), "W",
      "IT energy / simulated time");
  put("power/peak_w", power_->peak_power_w(), "W", "highest settled cluster IT power");
  put("power/peak_rack_w", power_->peak_rack_power_w(), "W", "highest settled rack IT power");
  put_count("workload/jobs_total", workload_jobs,
            "jobs in the workload (named, generated, from traces; not inference replicas): completed + failed + "
            "unfinished + not arrived");
  put_count("workload/jobs_completed", completed, "jobs finished within the run");
  put_count("workload/jobs_failed", failed, "jobs the failover policy gave up (max_restarts)");
  put_count("workload/jobs_unfinished", unfinished, "jobs waiting or running at the end");
  put_count("workload/jobs_not_arrived", not_arrived, "generated or trace jobs due after the end of the run");
  put_count("workload/service_replica_jobs", replicas,
            "inference replicas submitted as cluster jobs (rows <service>/replica-<k> of /events/jobs)");
  put("workload/mean_wait_s", started_count > 0 ? wait_sum_s / static_cast<double>(started_count) : 0.0,
      "s", "mean start - arrival over started jobs");
  put("workload/mean_completion_s", completed > 0 ? completion_sum_s / static_cast<double>(completed) : 0.0,
      "s", "mean finish - arrival over finished jobs");
  put("workload/wait_p50_s", percentile(waits_s, 0.50), "s", "median start - arrival over started jobs (0 if none)");
  put("workload/wait_p99_s", percentile(waits_s, 0.99), "s", "99th percentile of start - arrival (nearest rank)");
  put("workload/mean_bounded_slowdown", completed > 0 ? slowdown_sum / static_cast<double>(completed) : 0.0, "",
      "mean over finished jobs of max(1, (finish - arrival) / max(work, 10 s))");
  emit_reliability_summary();
  emit_integrity_summary();
  emit_data_stall_summary();
  put("makespan_s", makespan.seconds(), "s", "time of the last job completion (inference replicas' ends excluded)");
  put("simulated_s", elapsed_s, "s", "simulated time at the end of the run");
  put("utilization/node_busy_fraction",
      elapsed_s > 0 ? busy_node_seconds_ / (elapsed_s * static_cast<double>(config_.nodes)) : 0.0, "",
      "on-prem node-seconds held by jobs / (nodes x simulated time); a job on k of a node's GPUs holds k/gpus of "
      "it");
  if (cloud_) {
    std::uint64_t burst_jobs = 0;
    for (const auto& job : jobs_) burst_jobs += job->ran_in_cloud ? 1 : 0;
    cloud_->emit_summary(burst_jobs, goodput_.held_gpu_s, goodput_.transfer_gpu_s, sink_);
  }
}

}  // namespace dcsim::models::cluster
