#pragma once
// The cluster as the inference subsystem sees it: GPUs for replicas, as jobs.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dcsim::models::seams {

// Runs inference replicas as jobs of the cluster: the seam through which the inference subsystem
// gets GPUs. A service job arrives now, waits for its scheduler like any job, holds its GPUs
// (draws their power at the activity it is given) until ended, and is interrupted by faults and
// requeued or given up by the failover policy like any job.
class ServiceJobHost {
 public:
  struct Callbacks {
    std::function<void()> started;      // each time the job starts running (again, after a fault)
    std::function<void()> interrupted;  // a fault or a preemption stopped it
    std::function<void(double)> clock;  // the clock factor of its slowest node, at each start and change
  };
  virtual ~ServiceJobHost() = default;
  // Submits a job named `name` holding `gpus` GPUs (of one node, or whole nodes when more) at
  // queue `priority`; returns its handle.
  virtual std::size_t submit_service_job(const std::string& name, int gpus, int priority, Callbacks callbacks) = 0;
  // The job ends now: completed if running, taken out of the queue if waiting. No callback follows.
  virtual void end_service_job(std::size_t handle) = 0;
  // The mean activity of the job's GPUs (gpu_phase_power.hpp) from now on, while it runs.
  virtual void set_service_job_activity(std::size_t handle, double activity) = 0;
  // The nodes the job holds now (empty while it waits).
  virtual const std::vector<int>& service_job_nodes(std::size_t handle) const = 0;
  // The job's nodes read `bytes` (in all) from the shared store's `pool` (the replica's weights);
  // done() once they have, as an event. A read of data on no OSD up is tried again after the
  // time the nodes' storage NICs would take. Needs the store (CheckpointStore).
  virtual void read_from_store(std::size_t handle, const std::string& pool, double bytes,
                               std::function<void()> done) = 0;
};

}  // namespace dcsim::models::seams
