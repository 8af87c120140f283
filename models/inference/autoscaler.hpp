#pragma once
// How many replicas a service should have: a registered policy consulted every period() with
// the fleet's load; the service clamps the answer to [min_replicas, max_replicas], starts
// replicas (each serving after its allocation delay and weight load) or drains the newest ones
// (no new requests; their GPUs are released when their last request ends).
//   hpa        Kubernetes' Horizontal Pod Autoscaler algorithm on one metric (`metric`): busy (the
//              GPU utilisation DCGM reports: time the engine iterates; under continuous batching
//              one request in flight keeps it busy, so it saturates long before the replica
//              does), batch (running sequences / max_batch) or kv_cache (KV cache in use):
//                raw = ceil(ready x utilisation / target), unchanged within the tolerance
//              (|utilisation / target - 1| <= tolerance), the mean taken over the ready
//              (serving) replicas; growing while some replicas are still starting, those count
//              at 0% of the target (raw = ceil(replicas x r'), r' = ratio x ready / replicas,
//              and no change if r' is within the tolerance), as Kubernetes' replica calculator
//              does for pods not yet ready; scale-ups take the lowest raw
//              recommendation of the last scale_up_stabilization, scale-downs the highest of
//              the last scale_down_stabilization (so a decision must hold for the whole window;
//              the fleet as deployed counts as the recommendation at time 0), and a scale-down
//              leaves at least ceil(R x (1 - scale_down_percent / 100)), R the most replicas of
//              the last scale_down_period (Kubernetes' scaleDown policy of type Percent).
//              Defaults are Kubernetes': 15 s sync period, tolerance 0.1, windows 0 s up and
//              300 s down (kubernetes.io, Horizontal Pod Autoscaling).
//   scheduled  replicas by time of day from a schedule "HH:MM=N, HH:MM=N, ..." (the entry at
//              or before the time of day, wrapping around midnight; the run starts at 00:00).

#include <functional>
#include <memory>

#include "sim/params.hpp"
#include "sim/registry.hpp"
#include "sim/time.hpp"

namespace dcsim::models::inference {

struct FleetSample {
  sim::Time now;
  int replicas = 0;          // serving and starting (Kubernetes counts pods, ready or not)
  int ready = 0;             // of those, serving: the replicas the metrics below average over
  double utilization = 0.0;  // busy fraction of the serving replicas over the last period
  double kv_used_fraction = 0.0;  // KV cache in use, mean over the serving replicas, now
  double batch_fraction = 0.0;    // running sequences / max_batch, mean over the serving replicas, now
  int queued = 0;            // requests not yet admitted (gateway and replicas)
};

class Autoscaler {
 public:
  virtual ~Autoscaler() = default;
  virtual sim::Time period() const = 0;
  virtual int desired(const FleetSample& sample) = 0;
};

using AutoscalerFactory = std::function<std::unique_ptr<Autoscaler>(const sim::Params&)>;
using AutoscalerRegistry = sim::Registry<AutoscalerFactory>;

void register_autoscalers(AutoscalerRegistry& registry);

}  // namespace dcsim::models::inference
