// ClusterSimulation's job lifecycle: start (with a restart delay after an interruption), the run,
// completion, interruption by a fault, and what the failover policy decides afterwards; node
// health and the hot-spare pool. Accounting, by hand:
//   lost work    = progress since the job's last completed checkpoint (all of this run's for a
//                  batch job), in nominal seconds x the job's GPUs;
//   restart cost = GPU time a restarting job holds before its work resumes: the policy's
//                  relaunch overhead + reading the checkpoint back (bytes per node / checkpoint
//                  rate) when it resumes from one + the swap time when it waits for spares.
//   stalled      = GPU time a training job holds while its next checkpoint is held
//                  (CheckpointGate: no staging space for it): no progress, GPUs idle.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "models/cluster/batch_job_run.hpp"
#include "models/cluster/cluster_job.hpp"
#include "models/cluster/step_executor.hpp"
#include "models/cluster/training_fabric.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

void ClusterSimulation::transition(Job& job, const char* from, const char* to, const std::string& cause) {
  if (signals_ != nullptr && signals_->job_state.connected()) {
    signals_->job_state.emit(
        seams::JobStateChange{sim_.now(), job.index, job.spec.name, from, to, cause, job.gpus(), job.energy_j, job.cloud});
  }
  // Generated and trace streams (1e6 jobs) keep only their fault-driven transitions and, once a
  // fault or preemption touched a job, its later ones (its restart and end, a handful per fault):
  // with the jobs table's arrival and start, its phases are then complete.
  if (!job.named && cause.empty() && !job.states_logged) return;
  if (!job.named) job.states_logged = true;
  job_report_.state_change(sim_.now(), job.spec.name, from, to, cause, job.nodes);
}

void ClusterSimulation::report_training_work(const Job& job, double steps) {
  if (!job.plan || signals_ == nullptr || !signals_->training_work.connected()) return;
  const workload::TrainingStepResult& step = job.plan->step;  // the submitted plan: the global batch
  signals_->training_work.emit(seams::TrainingWork{sim_.now(), job.index, steps, steps * step.tokens_per_step,
                                            steps * step.model_flops_per_step});
}

void ClusterSimulation::start_job(std::size_t job_index, const std::vector<int>& nodes) {
  Job& job = *jobs_[job_index];
  const bool first = job.start == sim::Time::max();
  const auto [from, cause] = job.start_label.first != nullptr
                                 ? job.start_label
                                 : std::pair<const char*, std::string>{first ? "waiting" : "requeued", ""};
  job.start_label = {};
  job.nodes = nodes;
  job.cloud = pool_.is_cloud(nodes.front());
  // Trays that migration, hot spares or elastic re-forming chose can split an NVLink group over two
  // domains (the schedulers' placements cannot: NodePool::check); the step model still costs it as
  // NVLink, so the run says how often (summary, emit_nvlink_split_summary). O(nodes).
  if (!job.cloud && !policy::nvlink_aligned(nodes, job.nvlink_block_nodes, pool_.nodes_per_nvlink_domain())) {
    ++job.nvlink_split_starts;
  }
  if (job.cloud) {
    job.ran_in_cloud = true;
    const sim::Time transfer = cloud_->send_dataset(job.index);  // zero without a dataset
    if (transfer > sim::Time::zero()) {
      job.transfer_delay = transfer;
      job.restart_delay += transfer;
    }
  }
  // What is left of the last fault's detection and diagnosis opens the delay, on the GPUs the job
  // holds now (all of it for spares and re-formations, which start at once; a job that waited in
  // the queue meanwhile held none).
  if (job.recovered_at > sim_.now()) job.restart_delay += job.recovered_at - sim_.now();
  job.state = Job::State::kRunning;
  if (first) job.start = sim_.now();
  job.run_start = sim_.now();
  job.delay_until = sim_.now() + job.restart_delay;
  job.expected_end = job.delay_until + job.remaining_estimate();
  pool_.start_running(job_index, job.expected_end, job.spec.priority, job.gpus_per_node, job.nodes);
  job.energy_at_start_j = 0.0;
  for (int node : job.nodes) {
    power_->integrate(node, sim_.now());
    job.energy_at_start_j += power_->node_energy_j(node);
  }
  job.awaiting_work = job.restart_delay > sim::Time::zero();
  for (int node : job.nodes) {
    pool_.hold(node, job_index, job.gpus_per_node);
    if (!job.cloud) update_node_utilization(node);  // cloud instances draw no on-prem power
  }
  transition(job, from, "running", cause);
  if (job.restart_delay > sim::Time::zero()) {
    job.begin_event = sim_.at(job.delay_until, [this, job_index] { begin_run(job_index); });
  } else {
    begin_run(job_index);
  }
  job.restart_delay = sim::Time::zero();
}

void ClusterSimulation::begin_run(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.begin_event = {};
  // A read from the store first (begin_run again once read): idle meanwhile. Else the relaunch
  // and reload are over: the work draws power from now.
  const bool reading = job.plan && checkpoint_io_.read_owed(job_index, job.spec.name, job.current_plan(), job.nodes,
                                                            [this, job_index](seams::CheckpointRead r) {
                                                              return on_checkpoint_read(job_index, r);
                                                            });
  if (job.awaiting_work != reading) {
    job.awaiting_work = reading;
    if (!job.cloud) {  // cloud instances draw no on-prem power
      for (int node : job.nodes) update_node_utilization(node);
      telemetry_->mark_dirty();
    }
  }
  if (reading) return;
  end_start_delay(job);
  const auto on_done = [this, job_index] { on_completion(job_index); };
  if (job.service) {
    set_job_utilization(job_index, 0.0);
    job.run = services_.run(job_index);
    services_.started(job_index, [this, &job] { return pool_.slowest_clock(job.nodes); });
    return;
  }
  if (!job.plan) {
    // A utilisation profile starts over with the run (batch jobs restart from scratch).
    std::function<void(double)> on_phase;
    if (!job.spec.utilization_profile.empty()) {
      set_job_utilization(job_index, job.spec.utilization_profile.front().gpu_utilization);
      on_phase = [this, job_index](double utilization) { set_job_utilization(job_index, utilization); };
    }
    job.run = std::make_unique<BatchJobRun>(sim_, job.spec.work.seconds(), pool_.slowest_clock(job.nodes), on_done,
                                            job.spec.utilization_profile, std::move(on_phase));
    return;
  }
  const workload::TrainingJobPlan& plan = job.current_plan();
  // GPU power follows the step's phases (gpu_phase_power.hpp): the plan's breakdown (an elastic
  // job's re-formed plan has its own); in flow mode each measured step's from then on. Before the
  // run exists: a power cap this changes sets the clock the run starts at (its nodes' slowest).
  set_job_utilization(job_index, step_gpu_activity(gpu_activities_, plan.step));
  std::unique_ptr<StepExecutor> executor;
  if (training_fabric_) {
    // Flow mode: every step (or, sampled, a step now and then) as its graph, on the jobs' shared
    // fabric.
    job.step_graphs.push_back(std::make_unique<workload::StepGraph>(
        workload::build_step_graph(plan.job, plan.step, config_.node, plan.fabric, registries_.collective_algorithms,
                                   plan.graph_options, plan.software.collective_tuning())));
    executor = std::make_unique<StepExecutor>(*job.step_graphs.back(), *training_fabric_, job.nodes,
                                              pool_.slowest_clock(job.nodes));
    if (collective_log_) {
      // The step in flight is the one after the steps the run has finished. A replaced run's
      // step draining on the fabric is not logged (its end is ignored).
      executor->set_on_fabric_task([this, job_index, ex = executor.get()](const workload::StepTask& task,
                                                                           sim::Time start, sim::Time end) {
        const Job& j = *jobs_[job_index];
        if (j.training == nullptr || j.training->executor() != ex) return;
        const auto step = static_cast<std::int64_t>(std::floor(j.training->steps_done())) + 1;
        collective_log_->record(j.spec.name, step, task, start, end);
      });
    }
  }
  auto run =
      std::make_unique<TrainingJobRun>(plan, job.training_series, pool_.slowest_clock(job.nodes), sim_, sink_, on_done,
                                       std::move(executor), job.resume_step, job.training, job.checkpoint_step,
                                       job.cloud ? nullptr  // the dataset went along (cloud_pool.hpp)
                                                 : checkpoint_io_.dataset_feed(job.spec.name, plan, job.nodes,
                                                                               job.resume_step, sim_),
                                       config_.training_sample_every);
  // A job on cloud instances writes its checkpoints in the cloud: the site's uplink neither
  // carries nor stages them.
  const bool announce = signals_ != nullptr && signals_->checkpoint_written.connected() && !job.cloud;
  run->set_on_checkpoint([this, job_index, announce, bytes = plan.checkpoint_bytes] {
    Job& j = *jobs_[job_index];
    // One more the job can restart from (the store keeps only its keep_checkpoints latest).
    j.checkpoint_steps.push_back(j.training->steps_saved());
    const std::size_t kept = checkpoint_io_.kept_checkpoints(j.current_plan());
    if (kept > 0 && j.checkpoint_steps.size() > kept) {
      j.checkpoint_steps.erase(j.checkpoint_steps.begin(),
                               j.checkpoint_steps.end() - static_cast<std::ptrdiff_t>(kept));
    }
    if (announce) {
      signals_->checkpoint_written.emit(
          checkpoint_io_.written(sim_.now(), job_index, j.spec.name, j.current_plan(), j.nodes, bytes));
    }
  });
  run->set_checkpoint_hold([this, job_index] { return stall_at_checkpoint(job_index); });
  checkpoint_io_.connect_writes(*run, job.spec.name, plan, job.nodes, training_fabric_);
  if (training_fabric_) {
    run->set_on_step([this, job_index, memory_bound_s = step_memory_bound_s(plan.step)](const StepMeasurement& m) {
      set_job_utilization(job_index, step_gpu_activity(gpu_activities_, m.compute_s, memory_bound_s, m.exposed_comm_s,
                                                       m.bubble_s));
    });
  }
  job.training = run.get();
  job.run = std::move(run);
  // A corruption caught while the job was not stepping shows in its checks once it steps again.
  corruption_->job_stepping(job_index);
  // A shrunk job whose nodes freed up during its reconfiguration grows back now.
  if (job.run_plan != nullptr && !pool_.free_nodes().empty()) {
    sim_.at(sim_.now(), [this] { try_schedule(); });
  }
}

void ClusterSimulation::end_start_delay(Job& job) {
  sim_.cancel(job.begin_event);
  job.begin_event = {};
  const double held_s = (sim_.now() - job.run_start).seconds();
  const double transfer_s = std::min(held_s, job.transfer_delay.seconds());
  goodput_.transfer_gpu_s += job.gpus() * transfer_s;
  const double restart_s = held_s - transfer_s;
  goodput_.restart_gpu_s += job.gpus() * restart_s;
  // Of which what was left of the fault's detection, then of its diagnosis, when the run started
  // (they open the delay: start_job).
  const double detection_s = std::clamp((job.detected_at - job.run_start).seconds(), 0.0, restart_s);
  const double diagnosis_s =
      std::clamp((job.recovered_at - std::max(job.run_start, job.detected_at)).seconds(), 0.0, restart_s - detection_s);
  goodput_.detection_s += detection_s;
  goodput_.diagnosis_s += diagnosis_s;
  goodput_.detection_gpu_s += job.gpus() * detection_s;
  goodput_.diagnosis_gpu_s += job.gpus() * diagnosis_s;
  job.transfer_delay = sim::Time::zero();
}

void ClusterSimulation::close_run_accounts(Job& job) {
  double energy_now = 0.0;
  for (int node : job.nodes) {
    power_->integrate(node, sim_.now());
    energy_now += power_->node_energy_j(node);
  }
  job.energy_j += energy_now - job.energy_at_start_j;
  job.energy_at_start_j = energy_now;
  if (job.cloud) {
    cloud_->add_held_gpu_s(job.gpus() * (sim_.now() - job.run_start).seconds());
  } else {
    // A job on part of a node keeps that part busy: GPU share, so shared nodes count once.
    busy_node_seconds_ += static_cast<double>(job.nodes.size()) * job.gpus_per_node / config_.node.gpus *
                          (sim_.now() - job.run_start).seconds();
  }
  goodput_.held_gpu_s += job.gpus() * (sim_.now() - job.run_start).seconds();
  if (job.run_plan != nullptr) {
    goodput_.shrunk_missing_gpu_s += (job.spec.nodes - static_cast<int>(job.nodes.size())) * job.gpus_per_node *
                             (sim_.now() - job.run_start).seconds();
  }
  job.run_start = sim_.now();
  if (job.stalled) {
    const double stalled_s = (sim_.now() - job.stalled_since).seconds();
    job.stall_s += stalled_s;
    goodput_.stall_s += stalled_s;
    goodput_.stalled_gpu_s += job.gpus() * stalled_s;
    job.stalled_since = sim_.now();
  }
}

void ClusterSimulation::stop_running(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  checkpoint_io_.forget_read(job_index);  // a checkpoint read in flight no longer starts anything
  if (job.run) {
    job.run->interrupt();
    job.retired_runs.push_back(std::move(job.run));
  } else {
    end_start_delay(job);
  }
  close_run_accounts(job);
  job.stalled = false;  // the stall ends with the run; the hold stays for the next one
  release_nodes(job);
}

void ClusterSimulation::release_nodes(Job& job) {
  pool_.end_running(job.index, job.expected_end);
  for (int node : job.nodes) {
    pool_.release(node, job.index, job.gpus_per_node);
    if (!job.cloud) update_node_utilization(node);
  }
}

void ClusterSimulation::on_completion(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.state = Job::State::kDone;
  job.finish = sim_.now();
  close_run_accounts(job);
  release_nodes(job);
  ++finished_;
  transition(job, "running", "completed", "");
  corruption_->job_finished(job_index);
  if (job.plan) report_training_work(job, job.plan->steps);
  if (job.cloud) cloud_->job_finished(job.index);
  job_report_.row(job.report_row(pool_.fabric_groups(job.nodes)));
  try_schedule();
}

void ClusterSimulation::interrupt_job(std::size_t job_index, const std::string& cause,
                                      const std::vector<int>& failed_nodes, const seams::RecoveryDelay& recovery) {
  Job& job = *jobs_[job_index];
  if (job.state != Job::State::kRunning) return;
  // Progress of this run, and what a restart keeps (nothing new while the restart delay ran).
  // A re-formed elastic job that keeps its progress keeps its whole steps (no run yet: its
  // resume point); the step in flight is redone.
  const bool had_run = job.run != nullptr;
  const double done_s = had_run ? job.run->done_s() : job.resume_s;
  double saved_s = had_run ? job.run->saved_s() : job.resume_s;
  const int whole_steps = job.training && had_run ? static_cast<int>(std::floor(job.training->steps_done()))
                                                  : job.resume_step;
  int saved_step = job.training && had_run ? job.training->steps_saved() : job.checkpoint_step;
  const double step_s = job.plan ? job.current_plan().step.step_time_s : 0.0;
  // A caught corruption rolls back to a clean checkpoint (cluster_hosts.cpp): the state in
  // memory and the checkpoints since are wrong.
  const bool rollback = job.rollback_step >= 0 && job.plan != nullptr;
  if (rollback && saved_step > job.rollback_step) {
    saved_step = job.rollback_step;
    saved_s = saved_step * step_s;
  }
  const char* from = job.running_label();
  stop_running(job_index);
  precursor_.cancel(job_index);
  ++job.restarts;
  transition(job, from, "interrupted", cause);

  const bool checkpoints = job.plan && job.plan->checkpoint_interval_steps > 0;
  policy::InterruptedJob info{job_index, job.nodes, failed_nodes, checkpoints, job.restarts};
  // On the cloud side there are no spares and no free nodes to re-form on: the job resumes from
  // its checkpoint or starts over, in the queue (each policy's fallback).
  if (job.plan && failover_->elastic() && !job.cloud) {
    info.replicas = elastic_.replicas(*job.plan, job.gpus_per_node);
    info.replicas_available =
        info.replicas > 0 ? elastic_.replicas_available(job_index, job.plan, job.nodes, failed_nodes) : 0;
    info.zero_stage = job.plan->job.parallelism.zero_stage;
  }
  const policy::FailoverDecision d =
      failover_->on_interrupt(info, job.cloud ? std::vector<int>{} : pool_.spares().ready());
  using Action = policy::FailoverDecision::Action;
  const bool from_checkpoint = d.action != Action::kRequeue && d.action != Action::kFail && saved_s > 0;
  const bool keep_steps = !rollback && d.action == Action::kReconfigure && d.keep_progress && job.training != nullptr;
  const double kept_s = keep_steps ? (had_run ? whole_steps * step_s : done_s) : (from_checkpoint ? saved_s : 0.0);
  // Lost: what the job had done and will not keep (a requeued or failed job keeps nothing,
  // checkpoints and earlier runs' progress included).
  const double lost = std::max(0.0, done_s - kept_s) * job.gpus();
  job.lost_gpu_s += lost;
  goodput_.lost_gpu_s += lost;
  ++goodput_.interruptions;
  auto& [count, cause_lost] = goodput_.by_cause[cause];
  ++count;
  cause_lost += lost;
  if (d.action != Action::kReconfigure && job.run_plan != nullptr) {
    // Restarted (or given up), a job comes back at its submitted size.
    job.run_plan = nullptr;
    elastic_.restored(job_index);
  }
  if (d.action == Action::kFail) {
    --job.restarts;  // it does not start again
    job.state = Job::State::kFailed;
    job.finish = sim_.now();
    ++failed_;
    transition(job, "interrupted", "failed", "max_restarts");
    corruption_->job_given_up(job_index);
    job_report_.row(job.report_row(pool_.fabric_groups(job.nodes)));
    return;
  }
  const int checkpoint_step = from_checkpoint && job.training ? saved_step : 0;
  restart_from(job, keep_steps || from_checkpoint ? kept_s : 0.0, keep_steps ? whole_steps : checkpoint_step,
               checkpoint_step);
  // Detection and diagnosis come first, whatever the policy does next (start_job).
  job.detected_at = sim_.now() + recovery.detection;
  job.recovered_at = job.detected_at + recovery.diagnosis;
  if (d.action == Action::kReconfigure) {
    reconfigure_job(job_index, failed_nodes, d, from_checkpoint && !keep_steps);
    return;
  }
  job.restart_delay =
      d.relaunch_overhead +
      (job.plan ? checkpoint_io_.reload_time(job_index, *job.plan, from_checkpoint) : sim::Time::zero());
  if (d.action == Action::kResumeOnSpares) {
    resume_on_spares(job_index, failed_nodes, d.spares, d.swap_time);
  } else {
    enqueue(job_index, d.action == Action::kResumeFromCheckpoint);
  }
}

void ClusterSimulation::preempt_job(std::size_t job_index, const policy::WaitingJob& by, sim::Time relaunch) {
  Job& job = *jobs_[job_index];
  const Job& winner = *jobs_[by.job_index];
  if (job.state != Job::State::kRunning || job.spec.priority >= by.priority) {
    throw sim::InternalError("scheduler '" + config_.scheduler + "' preempted job '" + job.spec.name +
                             "', which is not a running job of lower priority than '" + winner.spec.name +
                             "' (this is a bug)");
  }
  // What the job keeps: its last checkpoint (training jobs that checkpoint), else nothing. Not a
  // fault: no failover decision and no interruption count, but the lost work is lost all the same.
  const bool had_run = job.run != nullptr;
  const double done_s = had_run ? job.run->done_s() : job.resume_s;
  const double saved_s = had_run ? job.run->saved_s() : job.resume_s;
  const int saved_step = job.training && had_run ? job.training->steps_saved() : job.checkpoint_step;
  const char* from = job.running_label();
  stop_running(job_index);
  precursor_.cancel(job_index);
  if (job.run_plan != nullptr) {  // a shrunk elastic job comes back at its submitted size
    job.run_plan = nullptr;
    elastic_.restored(job_index);
  }
  transition(job, from, "preempted", "preempted by " + winner.spec.name);
  const double lost = std::max(0.0, done_s - saved_s) * job.gpus();
  job.lost_gpu_s += lost;
  goodput_.lost_gpu_s += lost;
  goodput_.preempted_lost_gpu_s += lost;
  ++goodput_.preemptions;
  restart_from(job, saved_s, job.training ? saved_step : 0, job.training ? saved_step : 0);
  job.restart_delay =
      relaunch + (job.plan ? checkpoint_io_.reload_time(job_index, *job.plan, saved_s > 0) : sim::Time::zero());
}

void ClusterSimulation::enqueue(std::size_t job_index, bool ahead_of_queue, const char* from) {
  Job& job = *jobs_[job_index];
  job.state = Job::State::kWaiting;
  if (!ahead_of_queue) {
    waiting_.insert(job.waiting_entry());  // its priority and arrival keep its place among later arrivals
  } else {
    waiting_.push_front(job.waiting_entry());
  }
  transition(job, from, "requeued", ahead_of_queue ? "resume from checkpoint" : "requeue");
}

void ClusterSimulation::resume_on_spares(std::size_t job_index, const std::vector<int>& failed_nodes,
                                         const std::vector<int>& spares, sim::Time swap_time) {
  Job& job = *jobs_[job_index];
  if (spares.size() != failed_nodes.size()) {
    throw sim::InternalError("failover policy '" + config_.failover + "' gave " + std::to_string(spares.size()) +
                             " spares for " + std::to_string(failed_nodes.size()) + " failed nodes (this is a bug)");
  }
  std::vector<int> nodes = job.nodes;
  for (std::size_t k = 0; k < spares.size(); ++k) {
    const int spare = spares[k];
    if (!pool_.spares().is_ready(spare)) {
      throw sim::InternalError("failover policy '" + config_.failover + "' used node " + std::to_string(spare) +
                               ", not a healthy free spare (this is a bug)");
    }
    pool_.use_spare(spare);  // taken by the job below
    std::replace(nodes.begin(), nodes.end(), failed_nodes[k], spare);
  }
  job.restart_delay += swap_time;
  transition(job, "interrupted", "requeued", "resume on hot spares");
  job.state = Job::State::kWaiting;
  start_job(job_index, nodes);
}

void ClusterSimulation::set_node_down(int node, const std::string& cause, const seams::RecoveryDelay& recovery) {
  if (!pool_.fault(node)) return;  // already down: this fault's repair must also come
  if (signals_ != nullptr) signals_->node_health.emit(seams::NodeHealthChange{sim_.now(), node, false, cause});
  for (std::size_t j : pool_.jobs_on(node)) interrupt_job(j, cause, {node}, recovery);
  try_schedule();
}

void ClusterSimulation::crash_jobs_on_node(int node, const std::string& cause, const seams::RecoveryDelay& recovery) {
  for (std::size_t j : pool_.jobs_on(node)) interrupt_job(j, cause, {}, recovery);
  try_schedule();
}

void ClusterSimulation::set_node_up(int node) {
  if (!pool_.repair(node)) return;  // another fault still holds it down
  if (signals_ != nullptr) signals_->node_health.emit(seams::NodeHealthChange{sim_.now(), node, true, "repaired"});
  try_schedule();
}

}  // namespace dcsim::models::cluster
