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

void ClusterSimulation::emit_reliability_summary(double elapsed_s) {
  (void)elapsed_s;
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  sink_.set_summary("reliability/interruptions_total",
                    sim::SummaryValue{static_cast<std::int64_t>(interruptions_), "", "job interruptions by faults"});
  for (const auto& [cause, counts] : by_cause_) {
    sink_.set_summary("reliability/interruptions/" + cause,
                      sim::SummaryValue{static_cast<std::int64_t>(counts.first), "", "jobs interrupted by " + cause});
    put("goodput/lost_gpu_h_by_cause/" + cause, counts.second / 3600.0, "GPU-h", "work lost to " + cause);
  }
  const auto put_count = [this](const std::string& path, std::size_t v, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put_count("reliability/elastic_shrinks", elastic_shrinks_,
            "times an elastic job re-formed after a fault with fewer data-parallel replicas than submitted");
  put_count("reliability/elastic_reforms", elastic_reforms_,
            "times an elastic job re-formed at its full size after a fault (free nodes replaced the failed ones)");
  put_count("reliability/elastic_expands", elastic_expands_, "times a shrunk elastic job grew back as nodes freed up");
  put_count("reliability/alarms", alarms_, "precursor alarms that preceded a fault (true alarms)");
  put_count("reliability/false_alarms", false_alarms_, "precursor alarms that preceded no fault");
  put_count("reliability/migrations", migrations_, "jobs that checkpointed and moved off a warned node");
  put_count("reliability/alarm_stays", alarm_stays_,
            "jobs that checkpointed on a warning but stayed: no healthy free node or spare to move to");
  if (elastic_expands_ > 0) {
    put("goodput/lost_gpu_h_by_cause/elastic_expand", expand_lost_gpu_s_ / 3600.0, "GPU-h",
        "steps in flight abandoned when shrunk jobs grew back");
  }
  put_count("workload/preemptions", preemptions_,
            "running jobs a preemptive scheduler stopped for a job of higher priority");
  put("goodput/lost_gpu_h_by_cause/preempted", preempted_lost_gpu_s_ / 3600.0, "GPU-h",
      "work preempted jobs lost: progress since their last checkpoint");
  put("goodput/shrunk_missing_gpu_h", shrunk_missing_gpu_s_ / 3600.0, "GPU-h",
      "GPU time elastic jobs ran without: submitted GPUs minus those held while shrunk, x time");
  put("goodput/allocated_gpu_h", held_gpu_s_ / 3600.0, "GPU-h", "GPU time held by jobs");
  put("goodput/lost_gpu_h", lost_gpu_s_ / 3600.0, "GPU-h",
      "work lost to interruptions and preemptions: progress since each job's last checkpoint");
  put("goodput/restart_gpu_h", restart_gpu_s_ / 3600.0, "GPU-h",
      "GPU time held by restarting jobs before their work resumed (relaunch, checkpoint reload, spare swap)");
  put("goodput/stalled_gpu_h", stalled_gpu_s_ / 3600.0, "GPU-h",
      "GPU time training jobs held idle, stalled at checkpoints held for staging space (off-site copies not done)");
  // Training jobs: the wall time since each first started that went into steps it kept
  // (nominal step time x steps saved or done), the "effective training time" of Llama 3's report.
  double kept_s = 0.0, wall_s = 0.0;
  for (const auto& job : jobs_) {
    if (!job->plan || job->start == sim::Time::max()) continue;
    const double steps = job->training ? job->training->steps_done() : job->resume_step;
    kept_s += steps * job->plan->step.step_time_s;
    wall_s += ((job->state == Job::State::kDone ? job->finish : sim_.now()) - job->start).seconds();
  }
  if (wall_s > 0) {
    put("goodput/effective_training_fraction", kept_s / wall_s, "",
        "training jobs: steps kept x nominal step time / wall time since their first start");
  }
  const double useful = held_gpu_s_ - lost_gpu_s_ - restart_gpu_s_ - transfer_gpu_s_ - stalled_gpu_s_;
  put("goodput/fraction", held_gpu_s_ > 0 ? useful / held_gpu_s_ : 1.0, "",
      "(allocated - lost - restart - transfer - stalled) / allocated GPU time; checkpoint writes count as useful here");
}

void ClusterSimulation::finish() {
  if (finished_run_) throw sim::InternalError("ClusterSimulation::finish called twice (this is a bug)");
  finished_run_ = true;
  if (collective_log_) collective_log_->finish();
  for (std::size_t i = 0; i < nodes_.size(); ++i) integrate_node(static_cast<int>(i));
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
  put("power/mean_w", elapsed_s > 0 ? energy / elapsed_s : cluster_power_w_, "W",
      "IT energy / simulated time");
  put("power/peak_w", peak_power_w_, "W", "highest settled cluster IT power");
  put("power/peak_rack_w", peak_rack_power_w_, "W", "highest settled rack IT power");
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
  emit_reliability_summary(elapsed_s);
  emit_integrity_summary();
  emit_data_stall_summary();
  put("makespan_s", makespan.seconds(), "s", "time of the last job completion (inference replicas' ends excluded)");
  put("simulated_s", elapsed_s, "s", "simulated time at the end of the run");
  put("utilization/node_busy_fraction",
      elapsed_s > 0 ? busy_node_seconds_ / (elapsed_s * static_cast<double>(config_.nodes)) : 0.0, "",
      "on-prem node-seconds held by jobs / (nodes x simulated time); a job on k of a node's GPUs holds k/gpus of "
      "it");
  emit_cloud_summary();
}

}  // namespace dcsim::models::cluster
