#pragma once
// Which replica of a service receives a request: a registered policy over the replicas that are
// serving (not starting, not draining), seen only through their load.
//   round_robin          in turn
//   least_outstanding    fewest requests at the replica (queued + running)
//   join_shortest_queue  fewest queued requests; ties to the least KV cache in use
// Ties go to the lowest index (the oldest replica), so routing is deterministic.

#include <functional>
#include <memory>
#include <span>

#include "models/inference/serving_replica.hpp"
#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::inference {

class RequestRouter {
 public:
  virtual ~RequestRouter() = default;
  // Index into `replicas` (non-empty) for the next request.
  virtual std::size_t choose(std::span<const ReplicaLoad> replicas) = 0;
  // The fluid resolution's share of a step's requests for a replica that completes
  // `capacity_per_s` when saturated, before normalising over the serving replicas: a router that
  // reads load sends each replica what it drains (its capacity); one that does not, equal shares.
  virtual double fluid_weight(double capacity_per_s) const { return capacity_per_s; }
};

using RouterFactory = std::function<std::unique_ptr<RequestRouter>(const sim::Params&)>;
using RouterRegistry = sim::Registry<RouterFactory>;

void register_routers(RouterRegistry& registry);

}  // namespace dcsim::models::inference
