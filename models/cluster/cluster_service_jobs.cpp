// Inference replicas as cluster jobs (ServiceJobHost, models/seams/service_job_host.hpp): submitted while the
// run goes on, placed by the scheduler, held until the service ends them.

#include <algorithm>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"

namespace dcsim::models::cluster {

namespace {

// A replica's run: no work of its own to finish (the service decides when it ends) and no progress
// to keep or lose on an interruption (its requests in flight go elsewhere, the service counts
// them), so done and saved work are both zero: a restart reloads no checkpoint. Its clock goes to
// the service's engine, which stretches its iterations' compute.
class ServiceJobRun final : public JobRun {
 public:
  ServiceJobRun(std::function<void()> on_interrupted, std::function<void(double)> on_clock)
      : on_interrupted_(std::move(on_interrupted)), on_clock_(std::move(on_clock)) {}
  void set_clock_factor(double factor) override {
    if (on_clock_) on_clock_(factor);
  }
  void interrupt() override {
    if (on_interrupted_) on_interrupted_();
  }
  double done_s() const override { return 0.0; }
  double saved_s() const override { return 0.0; }

 private:
  std::function<void()> on_interrupted_;
  std::function<void(double)> on_clock_;
};

}  // namespace

std::size_t ClusterSimulation::submit_service_job(const std::string& name, int gpus, int priority,
                                                  Callbacks callbacks) {
  auto job = std::make_unique<Job>();
  job->spec.name = name;
  job->spec.arrival = sim_.now();
  // Part of one node, or whole nodes (a pipeline-parallel replica whose stages span nodes).
  job->spec.nodes = std::max(1, gpus / config_.node.gpus);
  job->spec.gpus_per_node = gpus >= config_.node.gpus ? 0 : gpus;
  // Until the end of the run (what a backfilling scheduler plans around): a year when open-ended.
  job->spec.work = config_.duration.is_max() ? sim::Time::from_s(365LL * 86400)
                                             : std::max(config_.duration - sim_.now(), sim::Time::from_ns(1));
  job->spec.gpu_utilization = 0.0;
  job->spec.priority = priority;
  job->gpus_per_node = job->spec.gpus_per_node > 0 ? job->spec.gpus_per_node : config_.node.gpus;
  job->service = std::move(callbacks);
  job->index = jobs_.size();
  jobs_.push_back(std::move(job));
  const std::size_t index = jobs_.size() - 1;
  on_arrival(index);
  return index;
}

void ClusterSimulation::begin_service_run(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  set_job_utilization(job_index, 0.0);
  job.run = std::make_unique<ServiceJobRun>(
      [this, job_index] {
        const Job& j = *jobs_[job_index];
        if (!j.service_ended && j.service->interrupted) j.service->interrupted();
      },
      job.service->clock);
  if (job.service->started) job.service->started();
  // After started(): the engine the service builds for this run exists now.
  if (job.service->clock) job.service->clock(job_rate(job));
}

void ClusterSimulation::end_service_job(std::size_t handle) {
  Job& job = *jobs_[handle];
  if (job.service_ended) return;
  job.service_ended = true;
  if (job.state == Job::State::kRunning) {
    if (job.run == nullptr) {
      // Still in its restart delay: nothing ran yet.
      sim_.cancel(job.begin_event);
      job.begin_event = {};
      account_start_delay(job);
    }
    on_completion(handle);
    return;
  }
  if (job.state == Job::State::kWaiting) {
    waiting_.erase_job(handle);
    job.state = Job::State::kDone;
    job.finish = sim_.now();
    ++finished_;
    transition(job, "waiting", "completed", "withdrawn");
    emit_job_row(job);
    telemetry_->mark_dirty();
  }
}

const std::vector<int>& ClusterSimulation::service_job_nodes(std::size_t handle) const {
  static const std::vector<int> kNone;
  const Job& job = *jobs_[handle];
  return job.state == Job::State::kRunning ? job.nodes : kNone;
}

void ClusterSimulation::set_service_job_activity(std::size_t handle, double activity) {
  const Job& job = *jobs_[handle];
  if (job.state == Job::State::kRunning && job.run != nullptr && !job.service_ended) {
    set_job_utilization(handle, activity);
  }
}

void ClusterSimulation::read_from_store(std::size_t handle, const std::string& pool, double bytes,
                                        std::function<void()> done) {
  seams::CheckpointStore* store = checkpoint_io_.store();
  if (store == nullptr) {
    throw sim::InternalError("service job '" + jobs_[handle]->spec.name +
                             "' reads from a store the datacenter lacks (this is a bug: the scenario layer requires "
                             "/storage)");
  }
  const std::vector<int>& nodes = jobs_[handle]->nodes;
  if (nodes.empty()) {
    sim_.after(sim::Time::zero(), std::move(done));
    return;
  }
  struct Read {
    std::size_t handle;
    std::string pool;
    double bytes;
    std::function<void()> done;
  };
  auto read = std::make_shared<Read>(Read{handle, pool, bytes, std::move(done)});
  const double per_node = bytes / static_cast<double>(nodes.size());
  store->read_data(seams::CheckpointStore::DataKind::kWeights, jobs_[handle]->spec.name, pool, nodes, per_node,
                                [this, read, per_node](bool ok) {
    if (ok) {
      read->done();
      return;
    }
    // Some of it is on no OSD up: try again after what the nodes' storage NICs would take.
    const double nic = config_.node.storage_nics * config_.node.storage_nic_bandwidth_bps / 8.0;
    sim_.after(sim::Time::from_seconds(nic > 0 ? per_node / nic : 1.0),
               [this, read] { read_from_store(read->handle, read->pool, read->bytes, std::move(read->done)); });
  });
}

}  // namespace dcsim::models::cluster
