#include "models/cluster/service_jobs.hpp"

#include <algorithm>
#include <utility>

#include "sim/error.hpp"

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

ServiceJobs::ServiceJobs(int node_gpus, sim::Time duration, double storage_nic_bytes_per_s, const CheckpointIo& io,
                         const JobTable& jobs, Host& host, sim::Simulator& sim)
    : node_gpus_(node_gpus),
      duration_(duration),
      storage_nic_bytes_per_s_(storage_nic_bytes_per_s),
      io_(io),
      job_table_(jobs),
      host_(host),
      sim_(sim) {}

std::size_t ServiceJobs::submit_service_job(const std::string& name, int gpus, int priority, Callbacks callbacks) {
  workload::JobSpec spec;
  spec.name = name;
  spec.arrival = sim_.now();
  // Part of one node, or whole nodes (a pipeline-parallel replica whose stages span nodes).
  spec.nodes = std::max(1, gpus / node_gpus_);
  spec.gpus_per_node = gpus >= node_gpus_ ? 0 : gpus;
  // Until the end of the run (what a backfilling scheduler plans around): a year when open-ended.
  spec.work =
      duration_.is_max() ? sim::Time::from_s(365LL * 86400) : std::max(duration_ - sim_.now(), sim::Time::from_ns(1));
  spec.gpu_utilization = 0.0;
  spec.priority = priority;
  const std::size_t handle = host_.add_job(std::move(spec));
  replicas_.emplace(handle, Replica{name, std::move(callbacks), false});
  host_.on_arrival(handle);
  return handle;
}

std::unique_ptr<JobRun> ServiceJobs::run(std::size_t handle) {
  return std::make_unique<ServiceJobRun>(
      [this, handle] {
        const Replica& r = replicas_.at(handle);
        if (!r.ended && r.callbacks.interrupted) r.callbacks.interrupted();
      },
      replicas_.at(handle).callbacks.clock);
}

void ServiceJobs::started(std::size_t handle, const std::function<double()>& clock) {
  const Replica& r = replicas_.at(handle);
  if (r.callbacks.started) r.callbacks.started();
  // After started(): the engine the service builds for this run exists now.
  if (r.callbacks.clock) r.callbacks.clock(clock());
}

void ServiceJobs::end_service_job(std::size_t handle) {
  Replica& r = replicas_.at(handle);
  if (r.ended) return;
  r.ended = true;
  host_.end_job(handle);
}

const std::vector<int>& ServiceJobs::service_job_nodes(std::size_t handle) const {
  static const std::vector<int> kNone;
  return job_table_.running(handle) ? job_table_.nodes(handle) : kNone;
}

void ServiceJobs::set_service_job_activity(std::size_t handle, double activity) {
  if (job_table_.stepping(handle) && !replicas_.at(handle).ended) host_.set_job_utilization(handle, activity);
}

void ServiceJobs::read_from_store(std::size_t handle, const std::string& pool, double bytes,
                                  std::function<void()> done) {
  seams::CheckpointStore* store = io_.store();
  if (store == nullptr) {
    throw sim::InternalError("service job '" + replicas_.at(handle).name +
                             "' reads from a store the datacenter lacks (this is a bug: the scenario layer requires "
                             "/storage)");
  }
  const std::vector<int>& nodes = job_table_.nodes(handle);
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
  store->read_data(seams::CheckpointStore::DataKind::kWeights, replicas_.at(handle).name, pool, nodes, per_node,
                   [this, read, per_node](bool ok) {
                     if (ok) {
                       read->done();
                       return;
                     }
                     // Some of it is on no OSD up: try again after what the nodes' storage NICs would take.
                     const double nic = storage_nic_bytes_per_s_;
                     sim_.after(sim::Time::from_seconds(nic > 0 ? per_node / nic : 1.0), [this, read] {
                       read_from_store(read->handle, read->pool, read->bytes, std::move(read->done));
                     });
                   });
}

}  // namespace dcsim::models::cluster
