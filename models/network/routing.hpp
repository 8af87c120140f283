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
//  - kSpray: ideal packet spraying, the upper bound: a flow is split into P subflows, routed
//    together hop by hop (spray_batch). Each subflow j proposes a candidate from the mixed-radix
//    digits of j in walk order, skewed: with D the product of the candidate counts of the hops
//    it took and n this hop's, y = j mod (D n), the proposal is (y + floor(y / lcm(D, n))) mod n,
//    turned by a hash of (seed, src, dst, flow, hop) so that flows capped below their path count
//    take different subsets. For each value of the lower digits the map from this hop's digit
//    to the proposal is a bijection (uncapped, every minimal path once, where no move below is
//    needed: the symmetric fabrics the builders make), and
//    any prefix j < P proposes the candidates within one of evenly, also where paths from
//    different nodes rejoin (the destination's NICs, picked at each spine of a rail-optimised
//    fabric). Each node then moves the fewest proposals from over-full to under-full candidates
//    (subflows arriving over a subset of a node's inputs, as a plane's leaf gets half a host's
//    ports, need it): at every node the counts per next hop differ by at most one.
//    P = the number of minimal paths along the first walk when that is at most max_spray_paths,
//    else max_spray_paths rounded up to a multiple of the first and last hops' candidate counts
//    (the two hosts' ports where they pick them), so that no port carries more of the flow than
//    another: a flow ends with its last subflow.
//
// Distances come from a BFS (over reversed up links) per destination anchor, cached: a
// single-homed host's anchor is its switch, so a fat-tree of any size needs one BFS per edge
// switch. Tables hold forwarding nodes only (a host that does not forward is never passed
// through; a source host's distance is one more than its nearest neighbour's): a fat-tree's
// hosts are most of its nodes, so its tables hold 5k^2/4 entries per anchor, not k^3/4 more
// (k=74, 101,306 hosts: 37 MB instead of 590 MB). Like a switch's forwarding table, the
// distances to every anchor are computed when the Router is built, if they fit
// kPrecomputeEntries (a k=74 fat-tree's 2,738 edge switches do, in about a second; a
// 10,000-node torus, one anchor per node, does not and is searched lazily). Any link state
// change drops the cache; searches are then lazy. route() is O(path length x node degree) over
// compact adjacency arrays (up links only).
//
// Resilient hashing (resilient_hashing): switches keep a flow on its next hop while that hop is
// up, so a restored link takes new flows only. Standard ECMP (the default) recomputes the hash
// buckets when a next hop comes back: the flows whose hash now picks it move (Fabric re-routes
// every flow whose route() changed).

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
  // true: flows stay on their paths when a link comes back up (resilient ECMP, e.g. Broadcom
  // "resilient hashing"); false: buckets are recomputed and flows move back.
  bool resilient_hashing = false;
};

class Router {
 public:
  Router(const Topology& topology, RoutingConfig config);

  void set_link_up(LinkId link, bool up);
  bool link_up(LinkId link) const { return up_[link] != 0; }
  const RoutingConfig& config() const { return config_; }

  // Subflows a flow from src to dst is split into (1 unless spraying or several QPs).
  // Spraying: O(path length x node degree), a walk of the first path.
  int subflow_count(NodeId src, NodeId dst);
  // Replaces `out` with the links of subflow `subflow` of the flow numbered `flow_number`.
  // False when dst is unreachable. src == dst gives an empty route.
  // channel >= 0 pins the NIC ports (ECMP and d-mod-k; spraying ignores it): the first hop
  // leaving src and the last hop into dst take candidate `channel mod n` of the n minimal ones,
  // in link order, i.e. port `channel` of a multi-port host while all its ports are up. NCCL
  // binds channel c to NIC c on both sides; hashing the channels instead lets two of them land
  // on one port while another idles. Between the two ends the switches hash as usual.
  // Spraying: `subflows` is the flow's subflow count (0: subflow_count(src, dst)); the routes of
  // all of them are computed together, O(subflows x path length) plus a sort of the subflows at
  // each hop, and kept for the last flow asked about, so routing subflows 0 .. P-1 of one flow
  // in turn costs that once (and O(path length) per subflow after). Re-routing after a failure
  // asks subflow by subflow; a flow's subflows sit together on a link (they are attached in a
  // row), so each flow's batch is computed about once per failure.
  bool route(NodeId src, NodeId dst, std::uint64_t flow_number, int subflow, std::vector<LinkId>& out,
             int channel = -1, int subflows = 0);
  // Minimal hop count (links), or -1 when unreachable.
  int hops(NodeId src, NodeId dst);
  // Distance tables computed at construction are capped at this many entries (2 B each).
  static constexpr std::size_t kPrecomputeEntries = std::size_t{32} << 20;

 private:
  static constexpr std::uint16_t kUnreached = UINT16_MAX;
  NodeId anchor_of(NodeId dst);
  NodeId find_anchor(NodeId dst) const;
  // Hop counts to the anchor, indexed by forwarder_index_ (forwarding nodes only).
  const std::vector<std::uint16_t>& distances(NodeId anchor);
  // Any node's hop count to the anchor (kUnreached if none), from its table d.
  std::uint16_t distance(NodeId v, NodeId anchor, const std::vector<std::uint16_t>& d) const;
  // The next hops from cur (d_cur hops from the anchor) towards dst into cand_[0, n); returns n.
  std::size_t candidates(NodeId cur, std::uint16_t d_cur, NodeId dst, NodeId anchor,
                         const std::vector<std::uint16_t>& d);

  const Topology& topology_;
  RoutingConfig config_;
  std::vector<std::uint8_t> up_;
  std::vector<std::uint32_t> cache_slot_;  // per node: index in cache_ or UINT32_MAX
  std::vector<std::vector<std::uint16_t>> cache_;
  std::vector<std::uint32_t> queue_;  // forwarder indices
  struct Hop {
    NodeId to;
    LinkId link;
  };
  std::vector<Hop> cand_;  // sized to the largest out-degree: filled without bounds checks
  // Compact adjacency of the up links, CSR: sources of each node's in-links (distance
  // searches), far ends and ids of its out-links (next hops); whether a node forwards. Rebuilt
  // lazily after a link changes state.
  void build_adjacency();
  void precompute();
  bool adjacency_stale_ = true;
  std::vector<std::uint32_t> in_start_;
  std::vector<NodeId> in_src_;
  std::vector<std::uint32_t> out_start_;
  std::vector<Hop> out_;
  std::vector<LinkId> in_link_;  // beside in_src_: the link of each in-link
  std::vector<std::uint32_t> fwd_start_;
  struct ForwardHop {
    NodeId to;
    LinkId link;
    std::uint32_t to_index;  // forwarder_index_[to]: where its distance is in a table
  };
  std::vector<ForwardHop> fwd_;  // out-links to nodes that forward (switches; every node when hosts route)
  std::vector<std::uint8_t> forwards_;
  // Forwarding nodes numbered densely: the distance tables hold only them (a fat-tree's hosts,
  // most of its nodes, never forward), and the BFS reads only in-links from them.
  static constexpr std::uint32_t kNotForwarder = UINT32_MAX;
  std::vector<std::uint32_t> forwarder_index_;
  std::vector<NodeId> forwarder_node_;
  std::uint32_t forwarder_count_ = 0;
  std::vector<std::uint32_t> fin_start_;
  std::vector<std::uint32_t> fin_src_;  // forwarder indices of the forwarding in-neighbours
  std::vector<NodeId> host_anchor_;  // anchor_of() per host, rebuilt with the adjacency

  // Spraying: the routes of every subflow of one flow, computed together (routing.cpp). False
  // when dst is unreachable.
  bool spray_batch(NodeId src, NodeId dst, std::uint64_t flow_number, int subflows);
  std::uint64_t link_epoch_ = 0;  // counts link state changes: a cached batch is stale after one
  struct SprayBatch {
    bool valid = false;
    bool routed = false;
    NodeId src = 0, dst = 0;
    std::uint64_t flow_number = 0;
    int subflows = 0;
    std::uint64_t epoch = 0;
    std::size_t hops = 0;
    std::vector<LinkId> links;  // subflow-major: subflow j's hop h at [j x hops + h]
  } spray_;
  // Scratch of spray_batch, per subflow and per candidate.
  std::vector<NodeId> spray_at_;
  std::vector<std::uint64_t> spray_radix_;
  std::vector<std::uint32_t> spray_order_;
  std::vector<std::uint32_t> spray_pick_;
  std::vector<Hop> spray_cand_;
  std::vector<std::uint32_t> spray_count_, spray_quota_, spray_seen_, spray_rank_;
};

}  // namespace dcsim::models::network
