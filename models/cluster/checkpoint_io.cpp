#include "models/cluster/checkpoint_io.hpp"

#include <algorithm>
#include <utility>

#include "models/cluster/dataset_reader.hpp"
#include "models/cluster/network_write.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/cluster/training_job_run.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

bool CheckpointIo::in_store(const workload::TrainingJobPlan& plan) const {
  return store_ != nullptr && plan.checkpoint_config.target == workload::CheckpointTarget::kStore &&
         plan.checkpoint_bytes > 0;
}

bool CheckpointIo::in_namespaces(const workload::TrainingJobPlan& plan) const {
  return namespaces_ != nullptr && plan.checkpoint_config.target == workload::CheckpointTarget::kNvmeof &&
         plan.checkpoint_bytes > 0;
}

std::size_t CheckpointIo::kept_checkpoints(const workload::TrainingJobPlan& plan) const {
  if (store_ == nullptr || plan.checkpoint_config.target != workload::CheckpointTarget::kStore) return 0;
  return static_cast<std::size_t>(std::max(1, store_->kept_checkpoints()));
}

void CheckpointIo::keep_oldest(const std::string& job, const workload::TrainingJobPlan& plan, std::size_t count) const {
  if (store_ != nullptr && plan.checkpoint_config.target == workload::CheckpointTarget::kStore) {
    store_->keep_oldest(job, count);
  }
}

double CheckpointIo::sync_save_cost_s(const workload::TrainingJobPlan& plan, int nodes, double cost_s) const {
  if (plan.checkpoint_config.async) return cost_s;
  if (store_ != nullptr && plan.checkpoint_config.target == workload::CheckpointTarget::kStore) {
    cost_s = std::max(cost_s, store_->write_bound_s(plan.checkpoint_config.pool, plan.checkpoint_bytes, nodes));
  }
  if (namespaces_ != nullptr && plan.checkpoint_config.target == workload::CheckpointTarget::kNvmeof) {
    cost_s = std::max(cost_s, namespaces_->write_bound_s(plan.checkpoint_bytes, nodes));
  }
  return cost_s;
}

sim::Time CheckpointIo::reload_time(std::size_t index, const workload::TrainingJobPlan& plan, bool reload) {
  if (reload && (in_store(plan) || in_namespaces(plan))) {
    reads_[index] = 0;
    return sim::Time::zero();
  }
  reads_.erase(index);
  if (!reload || !(plan.checkpoint_rate_bytes_per_s > 0)) return sim::Time::zero();
  // Reading the checkpoint back costs what writing it did: bytes per node at the checkpoint rate.
  return sim::Time::from_seconds(plan.checkpoint_bytes_per_node / plan.checkpoint_rate_bytes_per_s);
}

bool CheckpointIo::read_owed(std::size_t index, const std::string& job, const workload::TrainingJobPlan& plan,
                             const std::vector<int>& nodes, std::function<bool(seams::CheckpointRead)> done) {
  const auto owed = reads_.find(index);
  if (owed == reads_.end() || owed->second != 0) return false;
  const std::uint64_t id = owed->second = ++last_read_;
  auto read = [this, index, id, job, &plan, nodes, done](seams::CheckpointRead result) {
    const auto it = reads_.find(index);
    if (it == reads_.end() || it->second != id) return;  // the run stopped meanwhile
    reads_.erase(it);
    if (done(result)) {
      reads_[index] = 0;  // the checkpoint before, in turn
      read_owed(index, job, plan, nodes, done);
    }
  };
  if (in_namespaces(plan)) {
    // From the nodes' NVMe-oF namespaces: all of it, or (a target out of reach) nothing.
    namespaces_->read(nodes, plan.checkpoint_bytes_per_node, [read = std::move(read)](bool ok) {
      read(ok ? seams::CheckpointRead::kOk : seams::CheckpointRead::kUnavailable);
    });
  } else {
    store_->read(job, plan.checkpoint_config.pool, nodes, plan.checkpoint_bytes_per_node, std::move(read));
  }
  return true;
}

void CheckpointIo::connect_writes(TrainingJobRun& run, const std::string& job, const workload::TrainingJobPlan& plan,
                                  const std::vector<int>& nodes, TrainingFabric* backend) const {
  if (in_namespaces(plan)) {
    run.set_checkpoint_write(namespaces_->writer(nodes));
    return;
  }
  if (in_store(plan)) {
    run.set_checkpoint_write(store_->writer(job, plan.checkpoint_config.pool, nodes, !plan.checkpoint_config.async));
    return;
  }
  // Checkpoints to a store host are flows on the network the job names (the datacenter checked
  // that it exists and holds the host).
  TrainingFabric* network =
      plan.checkpoint_config.network == workload::CheckpointNetwork::kFrontend ? frontend_ : backend;
  if (plan.checkpoint_store_host >= 0 && network != nullptr) {
    run.set_checkpoint_write(
        std::make_unique<NetworkWrite>(*network, nodes, static_cast<network::NodeId>(plan.checkpoint_store_host)));
  }
}

std::unique_ptr<DataFeed> CheckpointIo::dataset_feed(const std::string& job, const workload::TrainingJobPlan& plan,
                                                     const std::vector<int>& nodes, int first_step,
                                                     sim::Simulator& sim) const {
  if (!plan.dataset.from_store) return nullptr;
  if (store_ == nullptr) {
    throw sim::InternalError("job '" + job +
                             "' reads its dataset from a store the datacenter lacks (this is a bug: the scenario "
                             "layer requires /storage)");
  }
  DatasetReader::Config c;
  c.first_step = first_step;
  c.last_step = plan.steps;
  c.chunk_steps = plan.dataset.prefetch_steps;
  c.depth = 2;  // the chunk being consumed and the one being read: a loader's double buffer
  c.bytes_per_step = plan.dataset_bytes_per_step;
  c.retry_after = sim::Time::from_seconds(c.chunk_steps * plan.step.step_time_s);
  auto read = [store = store_, name = job, pool = plan.dataset.pool, nodes](double bytes,
                                                                            std::function<void(bool)> done) {
    store->read_data(seams::CheckpointStore::DataKind::kDataset, name, pool, nodes,
                     bytes / static_cast<double>(nodes.size()), std::move(done));
  };
  return std::make_unique<DatasetReader>(c, std::move(read), sim);
}

seams::CheckpointWritten CheckpointIo::written(sim::Time at, std::size_t index, const std::string& job,
                                               const workload::TrainingJobPlan& plan, const std::vector<int>& nodes,
                                               double bytes) {
  const workload::CheckpointConfig& c = plan.checkpoint_config;
  seams::CheckpointWritten w;
  w.at = at;
  w.job = index;
  w.name = job;
  w.bytes = bytes;
  w.nodes = nodes;
  if (c.target == workload::CheckpointTarget::kStore && store_ != nullptr) {
    w.place = seams::CheckpointWritten::Place::kStore;
    copy_sources_ = store_->copy_sources(c.pool);
    w.sources = copy_sources_;
  } else if (c.target == workload::CheckpointTarget::kRemote && c.store_host >= 0) {
    w.place = seams::CheckpointWritten::Place::kNetworkHost;
    w.host = c.store_host;
    w.on_backend = c.network == workload::CheckpointNetwork::kBackend;
  }
  return w;
}

}  // namespace dcsim::models::cluster
