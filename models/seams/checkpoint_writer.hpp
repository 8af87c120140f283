#pragma once
// Where a training run's checkpoint writes go when they are more than a rate: the seam between
// TrainingJobRun and the targets that move the bytes (a store host of a network,
// network_write.hpp; the shared object store, store_checkpoints.hpp). Without one a run writes
// at its plan's analytic rate.

#include <functional>

namespace dcsim::models::seams {

class CheckpointWriter {
 public:
  virtual ~CheckpointWriter() = default;
  // Every node of the job writes `bytes_per_node`; on_done(saved) once all have. saved is false
  // when the target refused the write or lost it (a full pool, every copy of some data down):
  // the job's previous checkpoint stays its last. One write at a time.
  virtual void start(double bytes_per_node, std::function<void(bool saved)> on_done) = 0;
  // The run stopped: a write in flight or started later saves nothing (its on_done is still
  // called, and ignored); a target that keeps checkpoints drops its bytes.
  virtual void abandon() {}
};

}  // namespace dcsim::models::seams
