#pragma once
// Flow mode: a collective as flows on the simulated fabric (models/network/fabric.hpp), so that
// congestion, ECMP collisions, oversubscription and failed links slow it down.
//
// Ring all_reduce over hosts h_0 .. h_{N-1} (one host = one node of g GPUs, n = N g ranks): the
// ring runs 2(n-1) lock-step steps; in each, every rank sends S/n to its successor. Inside a node
// the edge is NVLink (S/n / B_nvlink, not on the fabric); at each node boundary the node's
// `channels` rings each send S/(n x channels) to the next node, as one fabric flow per channel
// (NCCL spreads channels over the NICs). A step ends when its slowest edge does:
//   step = max(S/n / B_nvlink, last fabric flow of the step finishes)
// and the protocol latency of the analytic model is added once per run (base + per-step
// alphas), so that on an uncongested fabric with zero switch latency both modes agree exactly in
// the bandwidth term; the fabric adds its route latency to every step (the analytic model adds
// fabric_latency_ns per inter-node step only, a documented difference for small messages).
// Wire bytes are payload / network_efficiency (the documented NIC efficiency of the analytic
// model), so that the fabric's line-rate max-min sharing carries the same goodput.
//
// The fabric is driven directly (next_event_time / advance) from `start`; the function returns
// the finish time. Other flows already on the fabric share links with the collective's flows.

#include <vector>

#include "models/collective/collective_types.hpp"
#include "models/network/fabric.hpp"

namespace dcsim::models::collective {

struct FlowRunResult {
  double time_s = 0.0;
  double bandwidth_s = 0.0;  // sum of step times
  double latency_s = 0.0;    // protocol latency added
  int steps = 0;
  std::size_t flows = 0;
  bool failed = false;       // a flow found no path
};

// Simple protocol. hosts.size() == system.nodes; channels >= 1 (NCCL: one per NIC).
FlowRunResult ring_all_reduce_on_fabric(network::Fabric& fabric,
                                        const std::vector<network::NodeId>& hosts, double bytes,
                                        const CollectiveSystem& system,
                                        const CollectiveTuning& tuning, int channels,
                                        sim::Time start = sim::Time::zero());

}  // namespace dcsim::models::collective
