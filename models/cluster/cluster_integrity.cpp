// ClusterSimulation and silent data corruption: a GPU that computes wrong numbers without any
// error (FaultEffect::kSilentCorruption, scripted /faults entries). By hand:
//   corrupted      a training job stepping on the node: its state after the steps it had
//                  finished (clean_through) is wrong, and so is every checkpoint it saves later;
//   caught         with the detection probability (one draw per corruption from the job's own
//                  stream "integrity/<job>"), latency_steps x its nominal step time later, by its
//                  loss checks: the job rolls back to its latest kept checkpoint at or before
//                  clean_through (0: it starts over) like an interruption by that cause (the work
//                  since is lost, goodput/lost_gpu_h_by_cause/<cause>), and the node is
//                  quarantined (down) for the quarantine time;
//   missed         never caught: the job runs on and ends with a wrong result, unless a restart
//                  from a checkpoint at or before clean_through washes it out first;
//   unprotected    a batch or service job has no loss checks: counted, never caught.
// A second corruption of an already corrupted job changes nothing: the rollback must go to
// before the first anyway. Checkpoints a job can roll back to: every one it saved since its
// restart point, or the store's keep_checkpoints latest when it keeps them in the store (a
// rollback past those starts over).
//
// A checkpoint corrupted on its way into the store (storage_subsystem.hpp) is found by its
// checksums when a restart reads it (the job goes back to the one before: read in turn) or
// loaded unnoticed: then the job's state past the checkpoint before is wrong, as if a GPU had
// corrupted it (no node to quarantine), and only its loss checks can catch it.
//
// Emits (only when the scenario can corrupt, config sdc_detection or integrity_events):
//   table    integrity_events: time_s, job, node, event (corrupted, corrupted_unnoticed,
//            corrupted_again, unprotected, caught, washed_out, finished_corrupted), step
//   summary  integrity/corrupt_checkpoint_fallbacks, corrupt_checkpoint_lost_gpu_h (the store's
//            checksums found a checkpoint corrupt at a restart read: back to the one before),
//            integrity/sdc_faults, sdc_on_idle_gpus, jobs_corrupted, caught, missed, unprotected,
//            washed_out, quarantines, wrong_results, corrupted_at_end, corrupted_gpu_h (the work
//            rollbacks discarded is goodput/lost_gpu_h_by_cause/<cause>, as for any interruption)

#include <algorithm>
#include <cmath>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

void ClusterSimulation::corrupt_jobs_on_node(int node, const std::string& cause,
                                             sim::Time quarantine) {
  if (!config_.sdc_detection) {
    throw sim::InternalError(
        "silent data corruption on node " + std::to_string(node) +
        " in a cluster without sdc_detection settings (this is a bug: the scenario layer "
        "sets them whenever a corruption can happen)");
  }
  ++integrity_.counts.faults;
  std::vector<std::size_t> victims;
  for (const auto& [index, gpus] : nodes_[static_cast<std::size_t>(node)].jobs)
    victims.push_back(index);
  bool hit = false;
  for (std::size_t j : victims) {
    Job& job = *jobs_[j];
    if (job.state != Job::State::kRunning || job.run == nullptr)
      continue;  // restarting: no state on the GPUs yet
    hit = true;
    if (job.plan) {
      corrupt_job(j, node, cause, quarantine, static_cast<int>(std::floor(job.training->steps_done())));
    } else {
      ++integrity_.counts.unprotected;
      log_integrity(job, node, "unprotected", -1);
    }
  }
  if (!hit) ++integrity_.counts.idle;
}

void ClusterSimulation::corrupt_job(std::size_t job_index, int node, const std::string& cause,
                                    sim::Time quarantine, int clean_through) {
  if (!config_.sdc_detection) {
    throw sim::InternalError("job '" + jobs_[job_index]->spec.name +
                             "' corrupted in a cluster without sdc_detection settings (this is a bug: the "
                             "scenario layer sets them whenever a corruption can happen)");
  }
  Job& job = *jobs_[job_index];
  const int steps = std::max(0, clean_through);
  if (job.corruption.active) {
    log_integrity(job, node, "corrupted_again", steps);
    return;
  }
  ++integrity_.counts.corrupted;
  job.corruption = Job::Corruption{true, steps, sim_.now(), node, quarantine, cause, 0, false};
  if (!job.integrity_stream)
    job.integrity_stream.emplace(config_.seed, "integrity/" + job.spec.name);
  const bool caught = job.integrity_stream->uniform01() < config_.sdc_detection->probability;
  log_integrity(job, node, caught ? "corrupted" : "corrupted_unnoticed", steps);
  if (caught) {
    schedule_detection(job_index);
  } else {
    ++integrity_.counts.missed;
  }
}

void ClusterSimulation::schedule_detection(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  const std::uint64_t id = ++detections_;
  job.corruption.caught = id;
  job.corruption.caught_pending = false;
  const double after_s = config_.sdc_detection->latency_steps * job.current_plan().step.step_time_s;
  sim_.after(sim::Time::from_seconds(after_s),
             [this, job_index, id] { on_corruption_caught(job_index, id); });
}

void ClusterSimulation::on_corruption_caught(std::size_t job_index, std::uint64_t id) {
  Job& job = *jobs_[job_index];
  if (!job.corruption.active || job.corruption.caught != id)
    return;  // washed out or ended meanwhile
  if (job.state != Job::State::kRunning || job.run == nullptr) {
    // Not stepping (waiting, restarting): its checks see the loss once it runs again (begin_run).
    job.corruption.caught_pending = true;
    return;
  }
  ++integrity_.counts.caught;
  const Job::Corruption c = job.corruption;
  int clean = 0;
  for (auto it = job.checkpoint_steps.rbegin(); it != job.checkpoint_steps.rend(); ++it) {
    if (*it <= c.clean_through) {
      clean = *it;
      break;
    }
  }
  log_integrity(job, c.node, "caught", clean);
  end_corruption(job, nullptr);
  const bool quarantine = c.quarantine > sim::Time::zero() && c.node >= 0 && !is_cloud(c.node);
  const bool on_node = std::find(job.nodes.begin(), job.nodes.end(), c.node) != job.nodes.end();
  job.rollback_step = clean;
  interrupt_job(job_index, c.cause,
                quarantine && on_node ? std::vector<int>{c.node} : std::vector<int>{});
  job.rollback_step = -1;
  if (quarantine) {
    ++integrity_.counts.quarantines;
    set_node_down(c.node, c.cause + " (quarantine)");  // schedules the freed nodes
    sim_.after(
        c.quarantine, [this, node = c.node] { set_node_up(node); }, sim::Priority::kFirst);
  } else {
    try_schedule();
    telemetry_->mark_dirty();
  }
}

void ClusterSimulation::record_checkpoint(Job& job) {
  job.checkpoint_steps.push_back(job.training->steps_saved());
  const workload::TrainingJobPlan& plan = job.current_plan();
  const bool in_store = checkpoint_store_ != nullptr &&
                        plan.checkpoint_config.target == workload::CheckpointTarget::kStore;
  const std::size_t kept =
      in_store ? static_cast<std::size_t>(std::max(1, checkpoint_store_->kept_checkpoints())) : 0;
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
  if (job.checkpoint_steps.size() != before && checkpoint_store_ != nullptr && job.plan &&
      job.current_plan().checkpoint_config.target == workload::CheckpointTarget::kStore) {
    checkpoint_store_->keep_oldest(job.spec.name, job.checkpoint_steps.size());
  }
  if (job.corruption.active && job.resume_step <= job.corruption.clean_through) {
    ++integrity_.counts.washed_out;
    log_integrity(job, job.corruption.node, "washed_out", job.resume_step);
    end_corruption(job, nullptr);
  }
}

void ClusterSimulation::end_corruption(Job& job, const char* event) {
  if (!job.corruption.active) return;
  integrity_.counts.corrupted_gpu_s +=
      job.spec.nodes * job.gpus_per_node * (sim_.now() - job.corruption.since).seconds();
  if (event != nullptr) log_integrity(job, job.corruption.node, event, -1);
  job.corruption = {};
}

void ClusterSimulation::log_integrity(const Job& job, int node, const char* event, int step) {
  integrity_.log(sim_.now(), job.spec.name, node, event, step);
}

void ClusterSimulation::emit_integrity_summary() {
  if (!config_.sdc_detection && !config_.integrity_events) return;
  std::size_t at_end = 0;
  for (const auto& job : jobs_) {
    if (!job->corruption.active) continue;
    ++at_end;
    end_corruption(*job, nullptr);
  }
  integrity_.emit(at_end);
}

}  // namespace dcsim::models::cluster
