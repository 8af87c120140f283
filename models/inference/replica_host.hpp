#pragma once
// Where a service's replicas get their GPUs: the seam between an inference service and whoever
// owns GPUs. The datacenter's cluster is one host (its replicas are jobs the scheduler places,
// that draw node power and can be interrupted by faults); DedicatedGpus is the other, for a
// service studied alone: GPUs that are there when asked for and never fail.

#include <cstddef>
#include <functional>

#include "sim/error.hpp"

namespace dcsim::models::inference {

class ReplicaHost {
 public:
  virtual ~ReplicaHost() = default;
  struct Callbacks {
    std::function<void()> allocated;    // the GPUs are the service's (now or later; again after a loss)
    std::function<void()> lost;         // taken away (a fault); the host may allocate them again
    std::function<void(double)> clock;  // their SM clock factor changed (throttling), 0 < f <= 1
  };
  // Asks for one replica's `gpus` GPUs (inside one NVLink domain). Returns the handle.
  virtual std::size_t acquire(int gpus, Callbacks callbacks) = 0;
  // Gives the GPUs back (or withdraws a request not yet allocated).
  virtual void release(std::size_t handle) = 0;
  // The replica's mean GPU activity (gpu_phase_power.hpp) from now on, for hosts that draw power.
  virtual void set_activity(std::size_t handle, double activity) { (void)handle, (void)activity; }
  // The replica's nodes read `bytes` of weights from where the host keeps them (a shared store);
  // done() once they have them, as an event. Only for services whose config says so
  // (ServiceConfig::weights_from_store); a host without such a place throws sim::InternalError.
  virtual void load_weights(std::size_t handle, double bytes, std::function<void()> done);
};

inline void ReplicaHost::load_weights(std::size_t, double, std::function<void()>) {
  throw sim::InternalError("a service loads its weights from a store its replica host does not have (this is a bug: "
                           "the scenario layer requires /storage)");
}

// GPUs allocated the moment they are asked for, never lost.
class DedicatedGpus final : public ReplicaHost {
 public:
  std::size_t acquire(int, Callbacks callbacks) override {
    callbacks.allocated();
    return next_++;
  }
  void release(std::size_t) override {}

 private:
  std::size_t next_ = 0;
};

}  // namespace dcsim::models::inference
