// ClusterSimulation's side of its collaborators: what each reads of the jobs (job_table.hpp) and
// asks of the core through its Host (silent_corruption.hpp, elastic_failover.hpp,
// precursor_drain.hpp, service_jobs.hpp, cloud_pool.hpp), and the checkpoints the store and the
// gate see (checkpoint_io.hpp, CheckpointGate). The mechanisms are the collaborators'; here the
// core acts on their calls.
//
// Silent data corruption (silent_corruption.hpp): which jobs a corrupted GPU reaches, and what a
// catch does to the job. The corruption, its detection, the integrity_events table and the
// integrity/* summary are SilentCorruption's (silent_corruption.hpp). By hand:
//   caught         the job rolls back to its latest kept checkpoint at or before clean_through
//                  (0: it starts over) like an interruption by that cause (the work since is lost,
//                  goodput/lost_gpu_h_by_cause/<cause>), and the node is quarantined (down) for the
//                  quarantine time;
//   checkpoints    a job can roll back to every one it saved since its restart point, or the
//                  store's keep_checkpoints latest when it keeps them in the store (a rollback past
//                  those starts over).
// A checkpoint corrupted on its way into the store (storage_subsystem.hpp) is found by its
// checksums when a restart reads it (the job goes back to the one before: read in turn) or
// loaded unnoticed: then the job's state past the checkpoint before is wrong, as if a GPU had
// corrupted it (no node to quarantine), and only its loss checks can catch it.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

// The jobs as the collaborators read them (job_table.hpp).

bool ClusterJobs::running(std::size_t job) const { return jobs_[job]->state == ClusterJob::State::kRunning; }

bool ClusterJobs::stepping(std::size_t job) const { return running(job) && jobs_[job]->run != nullptr; }

const std::vector<int>& ClusterJobs::nodes(std::size_t job) const { return jobs_[job]->nodes; }

double ClusterJobs::step_time_s(std::size_t job) const { return jobs_[job]->current_plan().step.step_time_s; }

int ClusterJobs::clean_checkpoint(std::size_t job, int step) const {
  const std::vector<int>& steps = jobs_[job]->checkpoint_steps;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (*it <= step) return *it;
  }
  return 0;
}

// Silent data corruption (SilentCorruption::Host) and the checkpoints a rollback goes to.

void ClusterSimulation::corrupt_jobs_on_node(int node, const std::string& cause, sim::Time quarantine) {
  if (!config_.sdc_detection) {
    throw sim::InternalError("silent data corruption on node " + std::to_string(node) +
                             " in a cluster without sdc_detection settings (this is a bug: the scenario layer "
                             "sets them whenever a corruption can happen)");
  }
  bool hit = false;
  for (std::size_t j : pool_.jobs_on(node)) {
    const Job& job = *jobs_[j];
    if (!job_table_.stepping(j)) continue;  // restarting: no state on the GPUs yet
    hit = true;
    if (job.plan) {
      corruption_->corrupt(j, job.spec.name, job.spec.nodes * job.gpus_per_node, node, cause, quarantine,
                           static_cast<int>(std::floor(job.training->steps_done())));
    } else {
      corruption_->unprotected(job.spec.name, node);
    }
  }
  corruption_->count_fault(hit);
}

bool ClusterSimulation::roll_back(std::size_t job_index, int step, const std::string& cause, int node,
                                  sim::Time quarantine) {
  Job& job = *jobs_[job_index];
  const bool quarantined = quarantine > sim::Time::zero() && node >= 0 && !pool_.is_cloud(node);
  const bool on_node = std::find(job.nodes.begin(), job.nodes.end(), node) != job.nodes.end();
  job.rollback_step = step;
  interrupt_job(job_index, cause, quarantined && on_node ? std::vector<int>{node} : std::vector<int>{});
  job.rollback_step = -1;
  if (quarantined) {
    set_node_down(node, cause + " (quarantine)");  // schedules the freed nodes
    sim_.after(
        quarantine, [this, node] { set_node_up(node); }, sim::Priority::kFirst);
  } else {
    try_schedule();
  }
  return quarantined;
}

void ClusterSimulation::restart_from(Job& job, double resume_s, int resume_step, int checkpoint_step) {
  job.resume_s = resume_s;
  job.resume_step = resume_step;
  job.checkpoint_step = checkpoint_step;
  const std::size_t before = job.checkpoint_steps.size();
  while (!job.checkpoint_steps.empty() && job.checkpoint_steps.back() > job.checkpoint_step) {
    job.checkpoint_steps.pop_back();
  }
  // The store keeps the same list: the checkpoints after the restart point go there too.
  if (job.checkpoint_steps.size() != before && job.plan) {
    checkpoint_io_.keep_oldest(job.spec.name, job.current_plan(), job.checkpoint_steps.size());
  }
  corruption_->restart_from(job.index, job.resume_step);
}

// The shared store and NVMe-oF namespaces: what a restart's read finds.

void ClusterSimulation::attach_checkpoint_store(seams::CheckpointStore& store) {
  checkpoint_io_.attach_store(store);
  for (auto& job : jobs_) {
    if (job->spec.training && checkpoint_io_.in_store(*job->spec.training))
      job->plan = plan_with_policy_interval(job->spec);
    if (job->plan && job->plan->dataset.from_store) {
      store.hold_dataset(job->spec.name, job->plan->dataset.pool, job->plan->dataset_bytes_stored);
    }
  }
}

void ClusterSimulation::attach_checkpoint_namespaces(seams::CheckpointNamespaces& namespaces) {
  checkpoint_io_.attach_namespaces(namespaces);
  for (auto& job : jobs_) {
    if (job->spec.training && checkpoint_io_.in_namespaces(*job->spec.training))
      job->plan = plan_with_policy_interval(job->spec);
  }
}

bool ClusterSimulation::on_checkpoint_read(std::size_t job_index, seams::CheckpointRead result) {
  Job& job = *jobs_[job_index];
  if (result == seams::CheckpointRead::kUnavailable || result == seams::CheckpointRead::kCorruptFound) {
    // Unavailable (some of it on no OSD up): the job starts over. Found corrupt by its checksums:
    // it goes back to the checkpoint before, read in turn, or starts over when there is none.
    int back_to = 0;
    if (result == seams::CheckpointRead::kCorruptFound) {
      corruption_->corrupt_checkpoint_found(job.spec.name, job.checkpoint_step);
      if (job.checkpoint_steps.size() >= 2) back_to = job.checkpoint_steps[job.checkpoint_steps.size() - 2];
    }
    const double step_s = job.current_plan().step.step_time_s;
    const double kept_s = back_to * step_s;
    const double lost = std::max(0.0, job.resume_s - kept_s) * job.gpus();
    job.lost_gpu_s += lost;
    goodput_.lost_gpu_s += lost;
    if (result == seams::CheckpointRead::kCorruptFound) {
      corruption_->count_corrupt_fallback(lost);
    }
    restart_from(job, kept_s, back_to, back_to);
    if (back_to > 0) return true;
  }
  begin_run(job_index);
  if (result == seams::CheckpointRead::kCorruptUnnoticed) {
    // Nothing checked it: the job steps on from a corrupted state, as if a GPU had corrupted it
    // right after the checkpoint before (no node to blame); only its loss checks can catch it now.
    corruption_->corrupt(job_index, job.spec.name, job.spec.nodes * job.gpus_per_node, -1, "corrupt checkpoint",
                         sim::Time::zero(), job.resume_step - 1);
  }
  return false;
}

std::shared_ptr<const workload::TrainingJobPlan> ClusterSimulation::plan_with_policy_interval(
    const workload::JobSpec& spec) const {
  const workload::TrainingJobPlan& plan = *spec.training;
  // Only jobs that checkpoint (a target and an interval in their spec) get the policy's interval:
  // one without checkpoints has nowhere to write them, and gets none for free.
  if (plan.checkpoint_interval_steps <= 0) return spec.training;
  const double per_node = config_.node_fault_rate_per_hour;
  const double mtbf_s = per_node > 0 ? 3600.0 / (per_node * spec.nodes) : std::numeric_limits<double>::infinity();
  // A synchronous save into the shared store (or to NVMe-oF namespaces) stalls the job at least
  // as long as the drives take; the plan's cost is its nodes' NIC bound.
  const double cost_s = checkpoint_io_.sync_save_cost_s(plan, spec.nodes, plan.checkpoint_s);
  const double interval_s = failover_->checkpoint_interval_s(cost_s, mtbf_s);
  if (!(interval_s > 0)) return spec.training;
  auto changed = std::make_shared<workload::TrainingJobPlan>(plan);
  changed->checkpoint_interval_steps = std::max(1, static_cast<int>(std::llround(interval_s / plan.step.step_time_s)));
  changed->checkpoints = (changed->steps - 1) / changed->checkpoint_interval_steps;
  return changed;
}

// CheckpointGate: held checkpoints stall the job.

void ClusterSimulation::hold_checkpoints(std::size_t job_index) { jobs_[job_index]->checkpoints_held = true; }

bool ClusterSimulation::stall_at_checkpoint(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  if (!job.checkpoints_held || job.cloud) return false;
  job.stalled = true;
  job.stalled_since = sim_.now();
  job.stall_return = precursor_.migrating(job.index) ? "migrating" : "running";
  transition(job, job.stall_return, "stalled", "off-site copy");
  for (int node : job.nodes) update_node_utilization(node);  // idle while stalled
  telemetry_->mark_dirty();
  return true;
}

void ClusterSimulation::release_checkpoints(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.checkpoints_held = false;
  if (!job.stalled) return;
  close_run_accounts(job);
  job.stalled = false;
  if (job.stall_return != nullptr) transition(job, "stalled", job.stall_return, "off-site copy");
  for (int node : job.nodes) update_node_utilization(node);
  telemetry_->mark_dirty();
  job.training->write_held_checkpoint();
}

// Elastic data parallelism (ElasticFailover::Host).

void ClusterSimulation::reconfigure_job(std::size_t job_index, const std::vector<int>& failed_nodes,
                                        const policy::FailoverDecision& d, bool reload) {
  Job& job = *jobs_[job_index];
  const ElasticFailover::Reform r =
      elastic_.reform(job_index, job.spec.name, job.plan, job.nodes, failed_nodes, d.replicas, d.reconfigure_time);
  job.run_plan = r.shrunk ? r.plan : nullptr;
  // State from the checkpoint: every node reads its share of it back, as a restart does.
  job.restart_delay = d.reconfigure_time + checkpoint_io_.reload_time(job_index, *r.plan, reload);
  ++(r.shrunk ? goodput_.elastic_shrinks : goodput_.elastic_reforms);
  job.start_label = {"interrupted", r.shrunk ? "elastic_shrink" : "elastic_reform"};
  start_job(job_index, r.nodes);
}

void ClusterSimulation::grow(std::size_t job_index, const std::vector<int>& nodes,
                             const workload::TrainingJobPlan* plan, sim::Time delay) {
  Job& job = *jobs_[job_index];
  // The whole steps done are kept (every replica holds them); the step in flight is lost.
  const double steps = job.training->steps_done();
  const int whole = static_cast<int>(std::floor(steps));
  const double lost = (steps - whole) * job.current_plan().step.step_time_s * job.gpus();
  job.lost_gpu_s += lost;
  goodput_.lost_gpu_s += lost;
  goodput_.expand_lost_gpu_s += lost;
  job.resume_step = whole;
  job.resume_s = whole * job.current_plan().step.step_time_s;
  job.checkpoint_step = job.training->steps_saved();
  const char* from = job.running_label();  // stalled at a held checkpoint, or running
  stop_running(job_index);                 // grown from the replicas' memory: no checkpoint to read
  job.run_plan = plan;
  job.restart_delay = delay;
  ++goodput_.elastic_expands;
  job.start_label = {from, "elastic_expand"};
  start_job(job_index, nodes);
}

// Precursor warnings (PrecursorDrain::Host): the policy decides, the core drains and moves.

void ClusterSimulation::warn_node(int node, const std::string& cause, sim::Time drain_until, bool false_alarm) {
  if (node < 0 || node >= config_.nodes) return;
  ++(false_alarm ? goodput_.false_alarms : goodput_.alarms);
  precursor_.drain(node, drain_until);
  for (std::size_t index : pool_.jobs_on(node)) {
    const Job& job = *jobs_[index];
    if (job.state != Job::State::kRunning) continue;
    const bool checkpoints = job.plan && job.plan->checkpoint_interval_steps > 0 && job.plan->checkpoint_bytes > 0;
    const policy::FailoverDecision d = failover_->on_warning({index, node, checkpoints});
    if (d.action == policy::FailoverDecision::Action::kMigrate && checkpoints) {
      precursor_.migrate(index, d.relaunch_overhead, cause);
    }
  }
  try_schedule();
}

void ClusterSimulation::set_drained(int node, bool drained) {
  pool_.set_drained(node, drained);
  if (!drained) try_schedule();
}

void ClusterSimulation::save_for_move(std::size_t job_index, const std::string& cause, std::function<void()> saved) {
  Job& job = *jobs_[job_index];
  transition(job, job.running_label(), "migrating", cause);
  job.stall_return = nullptr;  // a stall in progress ends within migrating: no row for it
  if (!job.run) {
    saved();  // in its restart delay: nothing new to save, it moves now
    return;
  }
  job.training->checkpoint_at_step_end(std::move(saved));
}

void ClusterSimulation::move(std::size_t job_index, sim::Time relaunch) {
  Job& job = *jobs_[job_index];
  // Replacements for the job's drained nodes: healthy free nodes first, then spares.
  std::vector<int> leaving;
  for (int n : job.nodes) {
    if (pool_.at(n).state.drained) leaving.push_back(n);
  }
  const std::span<const int> free = pool_.free_nodes();
  std::vector<int> replacements(free.begin(),
                                free.begin() + static_cast<std::ptrdiff_t>(std::min(leaving.size(), free.size())));
  std::vector<int> spares_used;
  for (int spare : pool_.spares().ready()) {
    if (replacements.size() == leaving.size()) break;
    replacements.push_back(spare);
    spares_used.push_back(spare);
  }
  if (replacements.size() < leaving.size()) {
    ++goodput_.alarm_stays;
    transition(job, "migrating", "running", "no free node");
    return;  // the run goes on from its fresh checkpoint
  }
  if (job.run) {
    job.checkpoint_step = job.training->steps_saved();
    job.resume_step = job.checkpoint_step;
    job.resume_s = job.run->saved_s();
  }
  stop_running(job_index);
  for (int spare : spares_used) pool_.use_spare(spare);  // taken by the job below
  std::vector<int> nodes = job.nodes;
  for (std::size_t k = 0; k < leaving.size(); ++k)
    std::replace(nodes.begin(), nodes.end(), leaving[k], replacements[k]);
  job.restart_delay = relaunch + checkpoint_io_.reload_time(job_index, job.current_plan(), true);
  ++goodput_.migrations;
  job.start_label = {"migrating", "migrated"};
  start_job(job_index, nodes);
  try_schedule();
}

// Inference replicas (ServiceJobs::Host).

std::size_t ClusterSimulation::add_job(workload::JobSpec spec) {
  auto job = std::make_unique<Job>();
  job->spec = std::move(spec);
  job->gpus_per_node = job->spec.gpus_per_node > 0 ? job->spec.gpus_per_node : config_.node.gpus;
  job->service = true;
  job->index = jobs_.size();
  jobs_.push_back(std::move(job));
  return jobs_.size() - 1;
}

void ClusterSimulation::end_job(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  if (job.state == Job::State::kRunning) {
    if (job.run == nullptr) end_start_delay(job);  // still in its restart delay: nothing ran yet
    on_completion(job_index);
  } else if (job.state == Job::State::kWaiting) {
    waiting_.erase_job(job_index);
    job.state = Job::State::kDone;
    job.finish = sim_.now();
    ++finished_;
    transition(job, "waiting", "completed", "withdrawn");
    job_report_.row(job.report_row(pool_.fabric_groups(job.nodes)));
    telemetry_->mark_dirty();
  }
}

// The cloud pool (CloudPool::Host).

void ClusterSimulation::set_instance_provisioned(int node, bool provisioned) {
  pool_.at(node).state.provisioned = provisioned;
}

double ClusterSimulation::interrupt_instance_jobs(int node, const std::string& cause) {
  const double lost_before = goodput_.lost_gpu_s;
  for (std::size_t j : pool_.jobs_on(node)) interrupt_job(j, cause, {node});
  return goodput_.lost_gpu_s - lost_before;
}

void ClusterSimulation::cloud_capacity_changed() { try_schedule(); }

}  // namespace dcsim::models::cluster
