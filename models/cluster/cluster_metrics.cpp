// ClusterSimulation's end of run: rows for unfinished jobs and the summary (energy, power, the
// workload's waits and completions, reliability and goodput).

#include <algorithm>
#include <cmath>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/workload_report.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

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
  // The workload's jobs by how they ended. Inference replicas are cluster jobs too (placed, held,
  // interrupted like any), but the service decides when they end: they are counted apart and
  // kept out of the workload's counts, waits and makespan (their service reports its own).
  WorkloadTally workload;
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
      ++workload.replicas;
      continue;
    }
    using Outcome = WorkloadTally::Outcome;
    workload.add(job->state == Job::State::kDone      ? Outcome::kCompleted
                 : job->state == Job::State::kFailed  ? Outcome::kFailed
                 : job->state == Job::State::kPending ? Outcome::kNotArrived
                                                      : Outcome::kUnfinished);
    if (job->start != sim::Time::max()) workload.add_wait((job->start - job->spec.arrival).seconds());
    if (job->state == Job::State::kDone) {
      makespan = std::max(makespan, job->finish);
      workload.add_completion((job->finish - job->spec.arrival).seconds(), job->spec.work.seconds());
    }
  }

  const double energy = energy_j();
  const double elapsed_s = sim_.now().seconds();
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  put("energy/it_kwh", energy / kJoulesPerKwh, "kWh", "IT energy of the compute nodes");
  put("power/mean_w", elapsed_s > 0 ? energy / elapsed_s : power_->cluster_power_w(), "W",
      "IT energy / simulated time");
  put("power/peak_w", power_->peak_power_w(), "W", "highest settled cluster IT power");
  put("power/peak_rack_w", power_->peak_rack_power_w(), "W", "highest settled rack IT power");
  emit_workload_summary(workload, sink_);
  emit_reliability_summary();
  corruption_->finish();
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
