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
// The other operations (collective_on_fabric), with the same conventions:
//  - ring all_gather / reduce_scatter: n-1 lock-step steps of S/n per rank (S the total buffer,
//    nccl-tests), the same flow decomposition as all_reduce;
//  - ring broadcast (pipelined chain from rank 0): in steady state every edge streams S at once,
//    so one step in which each node boundary except the one back into the root's node carries S
//    over `channels` flows and NVLink carries S; the pipeline fill (n-2 chunk times) is left out,
//    as in the closed form;
//  - all_to_all (ring and hierarchical, both NCCL's send/recv): one step in which every rank
//    sends S/n to every other rank, over NVLink inside a node and as one fabric flow per
//    (source rank, destination rank) pair between nodes (g x g flows per node pair);
//  - hierarchical all_reduce: the NVLink reduce_scatter and all_gather inside nodes are analytic
//    ((g-1)/g S / B_nvlink each); between them every rail runs a ring all_reduce of S/g across
//    the nodes as flows: 2(N-1) lock-step steps, S/N per node boundary over `channels` flows.
// Latency: the analytic model's Simple-protocol terms, without its fabric_latency_ns (the fabric
// adds the route latency itself).
//
// The fabric is driven directly (next_event_time / advance) from `start`; the function returns
// the finish time. Other flows already on the fabric share links with the collective's flows.

#include <string_view>
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

// Whether flow mode runs `op` with `algorithm` ("ring": all_reduce, all_gather, reduce_scatter,
// broadcast, all_to_all; "hierarchical": all_reduce, all_to_all).
bool flow_mode_supports(CollectiveOp op, std::string_view algorithm);

// Any supported (op, algorithm) pair; sim::ConfigError("algorithm", ...) otherwise, and as
// ring_all_reduce_on_fabric for bad hosts, channels or bytes.
FlowRunResult collective_on_fabric(network::Fabric& fabric,
                                   const std::vector<network::NodeId>& hosts, CollectiveOp op,
                                   double bytes, const CollectiveSystem& system,
                                   const CollectiveTuning& tuning, std::string_view algorithm,
                                   int channels, sim::Time start = sim::Time::zero());

}  // namespace dcsim::models::collective
