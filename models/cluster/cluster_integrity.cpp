// ClusterSimulation and silent data corruption: which jobs a corrupted GPU reaches, and what a
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
// corrupted it (no node to quarantine), and only its loss checks can catch it
// (cluster_checkpoint_store.cpp).

#include <algorithm>
#include <cmath>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

void ClusterSimulation::corrupt_jobs_on_node(int node, const std::string& cause, sim::Time quarantine) {
  if (!config_.sdc_detection) {
    throw sim::InternalError("silent data corruption on node " + std::to_string(node) +
                             " in a cluster without sdc_detection settings (this is a bug: the scenario layer "
                             "sets them whenever a corruption can happen)");
  }
  std::vector<std::size_t> victims;
  for (const auto& [index, gpus] : nodes_[static_cast<std::size_t>(node)].jobs) victims.push_back(index);
  bool hit = false;
  for (std::size_t j : victims) {
    const Job& job = *jobs_[j];
    if (!stepping(j)) continue;  // restarting: no state on the GPUs yet
    hit = true;
    if (job.plan) {
      corrupt_job(j, node, cause, quarantine, static_cast<int>(std::floor(job.training->steps_done())));
    } else {
      corruption_->unprotected(job.spec.name, node);
    }
  }
  corruption_->count_fault(hit);
}

void ClusterSimulation::corrupt_job(std::size_t job_index, int node, const std::string& cause, sim::Time quarantine,
                                    int clean_through) {
  const Job& job = *jobs_[job_index];
  corruption_->corrupt(job_index, job.spec.name, job.spec.nodes * job.gpus_per_node, node, cause, quarantine,
                       clean_through);
}

bool ClusterSimulation::stepping(std::size_t job_index) const {
  const Job& job = *jobs_[job_index];
  return job.state == Job::State::kRunning && job.run != nullptr;
}

double ClusterSimulation::step_time_s(std::size_t job_index) const {
  return jobs_[job_index]->current_plan().step.step_time_s;
}

int ClusterSimulation::clean_checkpoint(std::size_t job_index, int step) const {
  const Job& job = *jobs_[job_index];
  for (auto it = job.checkpoint_steps.rbegin(); it != job.checkpoint_steps.rend(); ++it) {
    if (*it <= step) return *it;
  }
  return 0;
}

bool ClusterSimulation::roll_back(std::size_t job_index, int step, const std::string& cause, int node,
                                  sim::Time quarantine) {
  Job& job = *jobs_[job_index];
  const bool quarantined = quarantine > sim::Time::zero() && node >= 0 && !is_cloud(node);
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
    telemetry_->mark_dirty();
  }
  return quarantined;
}

void ClusterSimulation::record_checkpoint(Job& job) {
  job.checkpoint_steps.push_back(job.training->steps_saved());
  const std::size_t kept = checkpoint_io_.kept_checkpoints(job.current_plan());
  if (kept > 0 && job.checkpoint_steps.size() > kept) {
    job.checkpoint_steps.erase(job.checkpoint_steps.begin(),
                               job.checkpoint_steps.end() - static_cast<std::ptrdiff_t>(kept));
  }
}

void ClusterSimulation::settle_restart_point(Job& job) {
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

}  // namespace dcsim::models::cluster
