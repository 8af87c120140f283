#pragma once
// Flow mode: a collective as flows on the simulated fabric (models/network/fabric.hpp), so that
// congestion, ECMP collisions, oversubscription and failed links slow it down. Every registered
// algorithm runs every operation its closed form runs (flow_mode_algorithms() lists them):
//   ring          all_reduce, all_gather, reduce_scatter, broadcast, all_to_all, point_to_point
//   tree          all_reduce (NCCL's double binary tree; NCCL runs tree for all_reduce only)
//   nvls          all_reduce inside one NVSwitch domain (nodes = 1, NVLS hardware)
//   hierarchical  all_reduce, all_gather, reduce_scatter, all_to_all, point_to_point
// Inside a node NVLink is analytic (not on the fabric); between nodes the bytes are fabric flows.
// Wire bytes are payload / network_efficiency (the documented NIC efficiency of the analytic
// model), so that the fabric's line-rate max-min sharing carries the same goodput.
//
// Ring all_reduce over hosts h_0 .. h_{N-1} (one host = one node of g GPUs, n = N g ranks): the
// ring runs 2(n-1) lock-step steps; in each, every rank sends S/n to its successor. Inside a node
// the edge is NVLink (S/n / B_nvlink); at each node boundary the node's `channels` rings each
// send S/(n x channels) to the next node, as one fabric flow per channel (NCCL spreads channels
// over the NICs). A step ends when its slowest edge does:
//   step = max(S/n / B_nvlink, last fabric flow of the step finishes)
//  - ring all_gather / reduce_scatter: n-1 lock-step steps of S/n per rank (S the total buffer,
//    nccl-tests), the same flow decomposition as all_reduce;
//  - ring broadcast (pipelined chain from rank 0): in steady state every edge streams S at once,
//    so one step in which each node boundary except the one back into the root's node carries S
//    over `channels` flows and NVLink carries S; the pipeline fill is left out, as in the closed
//    form;
//  - all_to_all (ring and hierarchical, both NCCL's send/recv): one step in which every rank
//    sends S/n to every other rank, over NVLink inside a node and as one fabric flow per
//    (source rank, destination rank) pair between nodes (g x g flows per node pair);
//  - point_to_point (ring and hierarchical, send/recv): rank 0 sends S to rank n-1, the case the
//    closed form prices: over NVLink inside one node; else `channels` fabric flows from node 0 to
//    node N-1 of S/channels each. The sending GPU reaches the fabric through its own PCIe path and
//    NICs, which the fabric does not model: it injects at most its share of the node's NICs
//    (at least one NIC), so the transfer takes max(fabric, S / min(B_nvlink, that share)) — the
//    closed form's bandwidth, which the fabric can only lower (congestion, failures);
//  - hierarchical all_reduce: the NVLink reduce_scatter and all_gather inside nodes are analytic
//    ((g-1)/g S / B_nvlink each); between them every rail runs a ring all_reduce of S/g across
//    the nodes as flows: 2(N-1) lock-step steps, S/N per node boundary over `channels` flows;
//    hierarchical all_gather: inter-node rail ring all_gather (N-1 steps of S/N per node
//    boundary) then the NVLink all_gather; reduce_scatter: the same in reverse order;
//  - tree all_reduce (NCCL's double binary tree, src/graph/trees.cc): two complementary binary
//    trees over the NODES (tree 0 rooted at node 0, tree 1 its mirror for even N, its shift by one
//    for odd N; double_binary_tree()), the GPUs of a node chained over NVLink. Each tree carries
//    S/2: reduced up to its root, broadcast back down, pipelined in chunks, so in steady state
//    every tree edge streams concurrently in both directions. It runs as one step in which every
//    edge of both trees carries S/2 up and S/2 down, each as `channels` flows, and the NVLink chain
//    takes 2 S / (B_nvlink x tree_bw_factor) (the closed form's chain); the step ends when the
//    slower of the two does. Tree wire bytes are payload / (network_efficiency x tree_bw_factor),
//    the closed form's bandwidth. From N = 4 on, the busiest node has 4 tree edges (3 in the
//    tree where it is interior, 1 in the other): 4 x S/2 = 2 S per direction on its NICs, the
//    closed form's 2 S / B_node_network; the fabric decides the real bottleneck (at N = 2 and 3
//    no node has 4 edges, so the fabric part is faster than the closed form, which follows
//    NCCL's own cost model there). Pipeline fill (the first chunk's 2 ceil(log2 N) hops) is left
//    out, as in the closed form;
//  - nvls all_reduce: NVLink SHARP reduces in the NVSwitch, nothing crosses the fabric, so flow
//    mode returns the closed form (nvls_algorithm.hpp). NCCL's NVLS-tree across nodes is not
//    modelled by the closed form either: more than one node is refused (ConfigError).
// Size ramp (size_ramp.hpp), as the closed forms apply it: below NCCL's full-channel size every
// ring step lasts at least its bytes over each edge's rate (NVLink, the node's NICs) times the
// channel fraction, and the tree at least its closed-form network time with the channel fraction
// and NCCL's mid-size correction; the fabric can only make a step slower (the limit is the
// channels' SMs, not the links). Hierarchical, all_to_all and point_to_point have no ramp in
// their closed forms either.
// Latency: the analytic model's Simple-protocol terms (base + per-step alphas), without its
// fabric_latency_ns: the fabric adds its own route latency to every flow, so once per lock-step
// step, and once for tree, broadcast, all_to_all and point_to_point, where the closed form adds
// fabric_latency_ns per inter-node step (2 ceil(log2 N) times for tree). Small messages therefore
// differ by the path latency times that count difference; large ones agree to well under 1% on an
// uncongested fabric (tests/models/collective/flow_mode_test.cpp).
//
// The fabric is driven directly (next_event_time / advance) from `start`; the function returns
// the finish time. Other flows already on the fabric share links with the collective's flows.

#include <array>
#include <string>
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

// Whether flow mode runs `op` with `algorithm` at all (the table above).
bool flow_mode_supports(CollectiveOp op, std::string_view algorithm);
// ... and on `system` (nvls needs one node with NVLS, as its closed form).
bool flow_mode_supports(CollectiveOp op, std::string_view algorithm, const CollectiveSystem& system);
// "ring (all_reduce, ...), tree (all_reduce), ...": for error messages and help.
std::string flow_mode_algorithms();

// Any supported (op, algorithm) pair; sim::ConfigError("algorithm", ...) otherwise (naming what
// flow mode runs), and as ring_all_reduce_on_fabric for bad hosts, channels or bytes.
FlowRunResult collective_on_fabric(network::Fabric& fabric,
                                   const std::vector<network::NodeId>& hosts, CollectiveOp op,
                                   double bytes, const CollectiveSystem& system,
                                   const CollectiveTuning& tuning, std::string_view algorithm,
                                   int channels, sim::Time start = sim::Time::zero());

// NCCL's double binary tree over `ranks` ranks: parent[t][r] is rank r's parent in tree t, -1 at
// the root. Tree 0: root 0; the parent of r is r with its lowest set bit b cleared and bit 2b
// set, or just cleared when that is out of range. Tree 1: tree 0 mirrored (r -> ranks-1-r) for
// an even count, shifted by one rank for an odd count. Roots have one child, so a rank has at
// most 4 edges in the two trees together (interior in one, leaf in the other; for an odd count
// rank 0 is tree 0's root and interior in tree 1), and both trees are ceil(log2 ranks) high.
struct DoubleBinaryTree {
  std::array<std::vector<int>, 2> parent;
  int depth = 0;  // ceil(log2 ranks): the closed form's hop count per direction
};
DoubleBinaryTree double_binary_tree(int ranks);

}  // namespace dcsim::models::collective
