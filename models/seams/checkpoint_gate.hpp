#pragma once
// The cluster as a keeper of checkpoints sees it (the uplink's staging space): jobs whose next
// checkpoint waits for room.

#include <cstddef>

namespace dcsim::models::seams {

// Holds training jobs' next checkpoints: the seam through which a subsystem that keeps a job's
// earlier checkpoints somewhere finite (the uplink's staging space for off-site copies,
// site_uplink.hpp) makes the job wait for room. Implemented by the cluster, which asks before
// every checkpoint write: a job whose next write is due while held stalls (no progress, GPUs held
// and idle) until released, then writes. One holder per job: hold and release are not counted.
// An interruption ends the stall with the run; a held job's next run stalls at its first
// checkpoint while it stays held.
class CheckpointGate {
 public:
  virtual ~CheckpointGate() = default;
  // The job's next checkpoint waits. O(1).
  virtual void hold_checkpoints(std::size_t job) = 0;
  // The job may write again; a stalled job writes now. O(1), plus the job's nodes when it stalled.
  virtual void release_checkpoints(std::size_t job) = 0;
  // Seconds jobs stalled at held checkpoints, summed over jobs, up to the cluster's last
  // accounting (its finish() closes the stalls still open).
  virtual double checkpoint_stall_s() const = 0;
};

}  // namespace dcsim::models::seams
