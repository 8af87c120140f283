#pragma once
// Inference replicas as cluster jobs: the cluster's side of seams::ServiceJobHost. A replica is a
// job of one node's GPUs (or whole nodes), submitted while the run goes on, placed by the
// scheduler, held until the service ends it; its work is the rest of the run (what backfilling
// plans with), its GPUs idle until the service reports their activity. Its run (ServiceJobRun)
// has no work of its own to finish and no progress to keep or lose: an interruption tells the
// service (its requests in flight go elsewhere), a restart reloads no checkpoint.
//
// The replicas' callbacks and ends are here; the cluster that holds it owns the jobs (handles are
// its job indices), which it reads (job_table.hpp) and acts on through Host, which this class
// declares.
//
// Cost: every call O(1) here (a lookup by handle), plus what the cluster does.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cluster/checkpoint_io.hpp"
#include "models/cluster/job_run.hpp"
#include "models/cluster/job_table.hpp"
#include "models/seams/service_job_host.hpp"
#include "models/workload/job_spec.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

class ServiceJobs final : public seams::ServiceJobHost {
 public:
  // What a replica needs of the cluster.
  class Host {
   public:
    // A job of `spec` (its index is the handle), and its arrival now: it waits for the scheduler.
    virtual std::size_t add_job(workload::JobSpec spec) = 0;
    virtual void on_arrival(std::size_t job) = 0;
    // The job ends now: completed while it runs, withdrawn while it waits.
    virtual void end_job(std::size_t job) = 0;
    // Its GPUs' activity from now on.
    virtual void set_job_utilization(std::size_t job, double utilization) = 0;

   protected:
    ~Host() = default;
  };

  // `node_gpus`: GPUs per node; `duration`: the run's (max: open-ended); `storage_nic_bytes_per_s`:
  // a node's storage NICs together, for the retry of a read that found no OSD up.
  ServiceJobs(int node_gpus, sim::Time duration, double storage_nic_bytes_per_s, const CheckpointIo& io,
              const JobTable& jobs, Host& host, sim::Simulator& sim);

  std::size_t submit_service_job(const std::string& name, int gpus, int priority, Callbacks callbacks) override;
  void end_service_job(std::size_t handle) override;
  void set_service_job_activity(std::size_t handle, double activity) override;
  const std::vector<int>& service_job_nodes(std::size_t handle) const override;
  void read_from_store(std::size_t handle, const std::string& pool, double bytes, std::function<void()> done) override;

  // The replica's run, for a start of job `handle` (its GPUs idle until the service says); then
  // started() once it is the job's run: the service hears of it, then of `clock()` (its slowest
  // node's clock factor).
  std::unique_ptr<JobRun> run(std::size_t handle);
  void started(std::size_t handle, const std::function<double()>& clock);

 private:
  struct Replica {
    std::string name;
    Callbacks callbacks;
    bool ended = false;
  };

  int node_gpus_ = 0;
  sim::Time duration_;
  double storage_nic_bytes_per_s_ = 0.0;
  const CheckpointIo& io_;
  const JobTable& job_table_;
  Host& host_;
  sim::Simulator& sim_;
  std::map<std::size_t, Replica> replicas_;  // by handle
};

}  // namespace dcsim::models::cluster
