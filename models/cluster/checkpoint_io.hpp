#pragma once
// Where a training job's checkpoints are written and read back, and its dataset read: the plan's
// analytic rate (nothing here), flows to a store host on a network (network_write.hpp), the
// shared object store (seams::CheckpointStore) or NVMe-oF namespaces (seams::CheckpointNamespaces),
// whichever the plan names and the datacenter attached. The cluster asks per run. A restart's
// read is kept here from the interruption that owes it to its end (a stopped run's is ignored);
// what the read finds does to the job (its restart point) is the cluster's (cluster_hosts.cpp).
//
// Cost: each call O(the job's nodes) (the node lists it hands on), plus O(log jobs owing a read);
// nothing per step.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cluster/data_feed.hpp"
#include "models/seams/checkpoint_store.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/workload/training_job.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

class TrainingFabric;
class TrainingJobRun;

class CheckpointIo {
 public:
  // Not owned; each attached before the run starts, or never.
  void attach_store(seams::CheckpointStore& store) { store_ = &store; }
  void attach_namespaces(seams::CheckpointNamespaces& namespaces) { namespaces_ = &namespaces; }
  void set_frontend_network(TrainingFabric* network) { frontend_ = network; }
  // Null without a shared store.
  seams::CheckpointStore* store() const { return store_; }

  // The plan's checkpoints (some bytes) go into the attached store, or NVMe-oF namespaces: a
  // restart reads them back there, as flows, instead of paying the plan's rate.
  bool in_store(const workload::TrainingJobPlan& plan) const;
  bool in_namespaces(const workload::TrainingJobPlan& plan) const;
  // The plan names the attached store as its target: how many of its checkpoints it keeps there
  // (at least 1), 0 when it does not (every checkpoint since its restart point is kept).
  std::size_t kept_checkpoints(const workload::TrainingJobPlan& plan) const;
  // The job goes on from its `count` oldest kept checkpoints; the store drops the newer ones
  // (nothing when the plan's target is not the attached store).
  void keep_oldest(const std::string& job, const workload::TrainingJobPlan& plan, std::size_t count) const;
  // At least `cost_s`, and at least what a synchronous save from `nodes` nodes stalls on the
  // drives where the plan writes (the interval's cost to optimise against).
  double sync_save_cost_s(const workload::TrainingJobPlan& plan, int nodes, double cost_s) const;

  // A restart of job `index` under `plan`, from its checkpoint when `reload`: what reading it back
  // costs before the work resumes, bytes per node at the plan's checkpoint rate. Zero when the plan
  // keeps it in the store or namespaces: the job then owes the read, as flows, at its run's begin.
  sim::Time reload_time(std::size_t index, const workload::TrainingJobPlan& plan, bool reload);
  // Starts the read job `index` (named `job`) owes, if any: every node reads its share of the
  // newest checkpoint kept there (namespaces: kOk or kUnavailable). True when the run waits for
  // `done`, which returns true to read again (it went back to an older checkpoint).
  bool read_owed(std::size_t index, const std::string& job, const workload::TrainingJobPlan& plan,
                 const std::vector<int>& nodes, std::function<bool(seams::CheckpointRead)> done);
  // Job `index`'s run stopped: it owes no read, and the end of one in flight is ignored.
  void forget_read(std::size_t index) { reads_.erase(index); }
  // The run's checkpoint writes go where the plan says: namespaces, the store, or as flows to a
  // store host on the front end or on `backend` (the training fabric); else the plan's rate.
  void connect_writes(TrainingJobRun& run, const std::string& job, const workload::TrainingJobPlan& plan,
                      const std::vector<int>& nodes, TrainingFabric* backend) const;
  // The run's input reader (dataset_reader.hpp) from `first_step` when the plan reads its dataset
  // from the store; null otherwise. InternalError without a store.
  std::unique_ptr<DataFeed> dataset_feed(const std::string& job, const workload::TrainingJobPlan& plan,
                                         const std::vector<int>& nodes, int first_step, sim::Simulator& sim) const;
  // The announcement of a checkpoint of `bytes` that job `index` (named `job`, running `plan` on
  // `nodes`) just wrote: where it is (its nodes, a store host, the store), for whoever copies it
  // on. A store checkpoint's sources are valid until the next call.
  seams::CheckpointWritten written(sim::Time at, std::size_t index, const std::string& job,
                                   const workload::TrainingJobPlan& plan, const std::vector<int>& nodes, double bytes);

 private:
  seams::CheckpointStore* store_ = nullptr;
  seams::CheckpointNamespaces* namespaces_ = nullptr;
  TrainingFabric* frontend_ = nullptr;
  std::vector<network::UplinkSource> copy_sources_;  // of the latest written()
  std::map<std::size_t, std::uint64_t> reads_;       // jobs owing a read: 0, or the id of the one in flight
  std::uint64_t last_read_ = 0;
};

}  // namespace dcsim::models::cluster
