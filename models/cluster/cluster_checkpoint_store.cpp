// Where training runs write their checkpoints and what a restart pays to read one back: the
// plan's analytic rate, flows to a store host (network_write.hpp), the shared object store
// (models/seams/checkpoint_store.hpp, CheckpointStore) or NVMe-oF namespaces (CheckpointNamespaces), whose
// reads are flows too.

#include <utility>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

sim::Time ClusterSimulation::checkpoint_reload_time(Job& job, const workload::TrainingJobPlan& plan, bool reload) {
  job.reload_from_store = reload && (checkpoint_io_.in_store(plan) || checkpoint_io_.in_namespaces(plan));
  if (!reload || job.reload_from_store || !(plan.checkpoint_rate_bytes_per_s > 0)) return sim::Time::zero();
  // Reading the checkpoint back costs what writing it did: bytes per node at the checkpoint rate.
  return sim::Time::from_seconds(plan.checkpoint_bytes_per_node / plan.checkpoint_rate_bytes_per_s);
}

void ClusterSimulation::attach_checkpoint_store(seams::CheckpointStore& store) {
  checkpoint_io_.attach_store(store);
  for (auto& job : jobs_) {
    if (job->spec.training && checkpoint_io_.in_store(*job->spec.training)) job->plan = plan_with_policy_interval(job->spec);
    if (job->plan && job->plan->dataset.from_store) {
      store.hold_dataset(job->spec.name, job->plan->dataset.pool, job->plan->dataset_bytes_stored);
    }
  }
}

void ClusterSimulation::attach_checkpoint_namespaces(seams::CheckpointNamespaces& namespaces) {
  checkpoint_io_.attach_namespaces(namespaces);
  for (auto& job : jobs_) {
    if (job->spec.training && checkpoint_io_.in_namespaces(*job->spec.training)) job->plan = plan_with_policy_interval(job->spec);
  }
}

bool ClusterSimulation::read_checkpoint_from_store(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  if (!job.reload_from_store) return false;
  job.reload_from_store = false;
  const workload::TrainingJobPlan& plan = job.current_plan();
  const std::uint64_t id = ++store_reads_;
  job.store_read = id;
  checkpoint_io_.read_checkpoint(job.spec.name, plan, job.nodes, [this, job_index, id](seams::CheckpointRead result) {
    Job& j = *jobs_[job_index];
    if (j.store_read != id) return;  // the run stopped meanwhile
    j.store_read = 0;
    on_checkpoint_read(job_index, result);
  });
  return true;
}

void ClusterSimulation::on_checkpoint_read(std::size_t job_index, seams::CheckpointRead result) {
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
    job.resume_s = kept_s;
    job.resume_step = back_to;
    job.checkpoint_step = back_to;
    settle_restart_point(job);
    if (back_to > 0) {
      job.reload_from_store = true;
      read_checkpoint_from_store(job_index);
      return;
    }
  }
  begin_run(job_index);
  if (result == seams::CheckpointRead::kCorruptUnnoticed) {
    // Nothing checked it: the job steps on from a corrupted state, as if a GPU had corrupted it
    // right after the checkpoint before; only its loss checks can catch it now.
    corrupt_job(job_index, -1, "corrupt checkpoint", sim::Time::zero(), job.resume_step - 1);
  }
}

void ClusterSimulation::emit_data_stall_summary() {
  double total_s = 0.0, gpu_h = 0.0;
  bool any = false;
  for (const auto& job : jobs_) {
    if (!job->plan || !job->plan->dataset.from_store) continue;
    any = true;
    const double s = job->training != nullptr ? job->training->data_stall_s() : 0.0;
    total_s += s;
    gpu_h += s * job->spec.nodes * job->gpus_per_node / 3600.0;
    sink_.set_summary("storage/jobs/" + job->spec.name + "/data_stall_s",
                      sim::SummaryValue{s, "s", "time the job's steps waited for their input from the store"});
  }
  if (!any) return;
  sink_.set_summary("storage/data_stall_s",
                    sim::SummaryValue{total_s, "s", "time training steps waited for input from the store, all jobs"});
  sink_.set_summary("storage/data_stall_gpu_h",
                    sim::SummaryValue{gpu_h, "GPU-h", "those waits x the jobs' GPUs (with storage/stall_gpu_h: the "
                                                      "goodput the store cost)"});
}

}  // namespace dcsim::models::cluster
