#pragma once
// Router: shortest-path routing with ECMP over a Topology whose links can go down and up.
//
// Paths are minimal in hop count among links that are up. At every node the candidates are the
// up links to a neighbour one hop closer to the destination (hosts forward only in direct
// topologies); which candidate a (sub)flow takes depends on the mode:
//  - kEcmp: a switch-local hash of the flow key, seeded: h = mix(seed, key, node) mod n. The key
//    is (src, dst, QP number): with EcmpKey::kQueuePair every flow has its own QPs (RoCE v2
//    puts the QP in the UDP source port); with kConnection the QPs are numbered per host pair,
//    so all flows of a pair share their paths (low entropy, as baseline RoCE ECMP). Collisions
//    emerge from the hash: there is no fudge factor.
//  - kDestinationModK: the candidate index is (dst / D) mod n where D is the product of the
//    candidate counts of the hops already taken: SimGrid's fat-tree routing (d-mod-k), so
//    benchmarks can compare completion times route for route.
//  - kSpray: ideal packet spraying, the upper bound: a flow is split into P subflows that take
//    P distinct paths (subflow j reads its choices as the mixed-radix digits of j), P = the
//    number of minimal paths along the first walk, capped by max_spray_paths.
//
// Distances come from a BFS (over reversed up links) per destination anchor, cached: a
// single-homed host's anchor is its switch, so a fat-tree of any size needs one BFS per edge
// switch. Any link state change drops the cache. route() is O(path length x node degree).

#include <cstdint>
#include <vector>

#include "models/network/topology.hpp"

namespace dcsim::models::network {

enum class RoutingMode { kEcmp, kDestinationModK, kSpray };
enum class EcmpKey { kQueuePair, kConnection };

struct RoutingConfig {
  RoutingMode mode = RoutingMode::kEcmp;
  EcmpKey key = EcmpKey::kQueuePair;
  int qps_per_flow = 1;         // > 1 splits a flow into QP subflows, hashed separately
  int max_spray_paths = 64;
  std::uint64_t seed = 1;       // switch hash seed
};

class Router {
 public:
  Router(const Topology& topology, RoutingConfig config);

  void set_link_up(LinkId link, bool up);
  bool link_up(LinkId link) const { return up_[link] != 0; }
  const RoutingConfig& config() const { return config_; }

  // Subflows a flow from src to dst is split into (1 unless spraying or several QPs).
  int subflow_count(NodeId src, NodeId dst);
  // Replaces `out` with the links of subflow `subflow` of the flow numbered `flow_number`.
  // False when dst is unreachable. src == dst gives an empty route.
  bool route(NodeId src, NodeId dst, std::uint64_t flow_number, int subflow, std::vector<LinkId>& out);
  // Minimal hop count (links), or -1 when unreachable.
  int hops(NodeId src, NodeId dst);

 private:
  static constexpr std::uint16_t kUnreached = UINT16_MAX;
  NodeId anchor_of(NodeId dst) const;
  const std::vector<std::uint16_t>& distances(NodeId anchor);
  bool allowed_next(NodeId v, NodeId dst, NodeId anchor) const;
  void candidates(NodeId cur, NodeId dst, NodeId anchor, const std::vector<std::uint16_t>& d);

  const Topology& topology_;
  RoutingConfig config_;
  std::vector<std::uint8_t> up_;
  std::vector<std::uint32_t> cache_slot_;  // per node: index in cache_ or UINT32_MAX
  std::vector<std::vector<std::uint16_t>> cache_;
  std::vector<NodeId> queue_;
  std::vector<LinkId> cand_;
  // Compact reverse adjacency for the distance searches (sources of the up in-links of each
  // node, CSR), and whether a node forwards; rebuilt lazily after a link changes state.
  void build_adjacency();
  bool adjacency_stale_ = true;
  std::vector<std::uint32_t> in_start_;
  std::vector<NodeId> in_src_;
  std::vector<std::uint8_t> forwards_;
};

}  // namespace dcsim::models::network
