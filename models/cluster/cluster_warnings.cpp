// ClusterSimulation's response to a precursor's warning (warn_node): the node is drained, and a
// job on it that the failover policy moves (kMigrate) checkpoints at the end of its step in
// flight, then starts again on healthy free nodes (or spares) in place of the drained ones,
// resuming from that checkpoint. Accounting, by hand:
//   the checkpoint write   held GPU time, useful (as every checkpoint: goodput/fraction counts
//                          checkpoint writes as useful), in the job's checkpoint_s
//   the move               the policy's relaunch overhead + reading the checkpoint back, as a
//                          restart (goodput/restart_gpu_h); nothing is lost and nothing is
//                          interrupted (reliability/migrations counts it)
// With no healthy free node or spare the job stays on its nodes, its progress saved just now
// (reliability/alarm_stays): a fault then costs only what it did since. A fault that comes
// before the checkpoint is written interrupts the job as any fault does.

#include <algorithm>
#include <string>

#include "models/cluster/cluster_job.hpp"

namespace dcsim::models::cluster {

void ClusterSimulation::warn_node(int node, const std::string& cause, sim::Time drain_until,
                                  bool false_alarm) {
  if (node < 0 || node >= config_.nodes) return;
  ++(false_alarm ? goodput_.false_alarms : goodput_.alarms);
  drain(node, drain_until);
  std::vector<std::size_t> holders;
  for (const auto& [index, gpus] : nodes_[static_cast<std::size_t>(node)].jobs)
    holders.push_back(index);
  for (std::size_t index : holders) {
    Job& job = *jobs_[index];
    if (job.state != Job::State::kRunning) continue;
    const bool checkpoints =
        job.plan && job.plan->checkpoint_interval_steps > 0 && job.plan->checkpoint_bytes > 0;
    const policy::FailoverDecision d = failover_->on_warning({index, node, checkpoints});
    if (d.action == policy::FailoverDecision::Action::kMigrate && checkpoints) {
      begin_migration(index, d.relaunch_overhead, cause);
    }
  }
  try_schedule();
  telemetry_->mark_dirty();
}

void ClusterSimulation::drain(int node, sim::Time until) {
  auto& n = nodes_[static_cast<std::size_t>(node)];
  if (until <= sim_.now()) return;
  if (!n.state.drained && n.state.healthy) {
    if (n.state.spare) {
      spares_.erase(std::lower_bound(spares_.begin(), spares_.end(), node));
    } else {
      take_out_of_pool(node);
    }
  }
  n.state.drained = true;
  if (until > n.drained_until) {
    n.drained_until = until;
    // After the faults of that instant (kFirst): a true alarm's node is down by then.
    sim_.at(until, [this, node] { end_drain(node); });
  }
}

void ClusterSimulation::end_drain(int node) {
  auto& n = nodes_[static_cast<std::size_t>(node)];
  if (!n.state.drained || sim_.now() < n.drained_until) return;  // a later warning extended it
  n.state.drained = false;
  if (n.state.healthy) {
    if (n.state.spare) {
      spares_.insert(std::lower_bound(spares_.begin(), spares_.end(), node), node);
    } else {
      put_back_in_pool(node);
    }
  }
  try_schedule();
  telemetry_->mark_dirty();
}

void ClusterSimulation::begin_migration(std::size_t job_index, sim::Time relaunch_overhead,
                                        const std::string& cause) {
  Job& job = *jobs_[job_index];
  if (job.migrating) return;  // its checkpoint is under way: the move leaves every drained node
  job.migrating = true;
  job.migration_relaunch = relaunch_overhead;
  transition(job, running_label(job), "migrating", cause);
  job.stall_return = nullptr;  // a stall in progress ends within migrating: no row for it
  if (!job.run) {
    // In its restart delay: nothing new to save, it moves now.
    finish_migration(job_index);
    return;
  }
  job.training->checkpoint_at_step_end([this, job_index] { finish_migration(job_index); });
}

void ClusterSimulation::finish_migration(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.migrating = false;
  // Replacements for the job's drained nodes: healthy free nodes first, then spares.
  std::vector<int> leaving;
  for (int n : job.nodes) {
    if (nodes_[static_cast<std::size_t>(n)].state.drained) leaving.push_back(n);
  }
  std::vector<int> replacements(
      free_nodes_.begin(), free_nodes_.begin() + static_cast<std::ptrdiff_t>(
                                                     std::min(leaving.size(), free_nodes_.size())));
  std::vector<int> spares_used;
  for (int spare : spares_) {
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
  for (int spare : spares_used) {
    spares_.erase(std::lower_bound(spares_.begin(), spares_.end(), spare));
    --spares_total_;
    put_back_in_pool(spare);  // an ordinary node from now on, taken by the job below
  }
  std::vector<int> nodes = job.nodes;
  for (std::size_t k = 0; k < leaving.size(); ++k)
    std::replace(nodes.begin(), nodes.end(), leaving[k], replacements[k]);
  const workload::TrainingJobPlan& plan = job.current_plan();
  job.restart_delay = job.migration_relaunch + checkpoint_reload_time(job, plan, true);
  ++goodput_.migrations;
  start_job_after(job_index, nodes, "migrating", "migrated");
  try_schedule();
  telemetry_->mark_dirty();
}

}  // namespace dcsim::models::cluster
