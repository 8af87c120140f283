#pragma once
// Topology: the physical fabric as a directed multigraph (Boost.Graph adjacency_list) of hosts
// and switches joined by links. Every cable is two directed links (full duplex: each direction
// is its own max-min constraint, as SimGrid's SPLITDUPLEX). Parallel cables between the same
// pair are either bundled into one link of n x bandwidth (link aggregation, ideal hashing inside
// the bundle) or kept as n separate links that ECMP chooses between.
//
// Nodes 0 .. host_count()-1 are hosts (GPU nodes), in builder order; switches follow. Links
// carry bandwidth (bits/s), latency (ns: cable propagation at 5 ns/m plus the port-to-port
// latency of the switch the link leaves, if any) and a tier (0: host <-> first switch; 1:
// first -> second switch tier; ...; direct topologies use tier 0 for every node-to-node link).
//
// Builders (topology_builders.hpp) fill a Topology from a TopologyConfig. Queries are O(1);
// out_links/in_links are CSR arrays built by finalize().

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "models/network/network_ids.hpp"

namespace dcsim::models::network {


// Propagation in fibre or copper: about 5 ns per metre (2/3 of c). [blog.ipspace.net 2021-04, B]
inline constexpr double kPropagationNsPerM = 5.0;

// Everything a topology builder may read. Each builder documents (in its registry ParamSpecs)
// which fields it uses; the others are ignored.
struct TopologyConfig {
  // fat_tree (fat_tree.hpp): k-ary, 2 or 3 tiers (0: the fewest that hold fat_tree_nodes; 3 for
  // the full tree of k^2/2 or k^3/4 host ports), sized to fat_tree_nodes hosts (scenario key
  // `nodes`; 0: the full tree).
  int k = 4;
  int tiers = 0;
  int fat_tree_nodes = 0;
  // leaf_spine / rail_optimized
  int leaves = 4;
  int hosts_per_leaf = 4;
  double oversubscription = 1.0;  // downlink / uplink bandwidth at the leaf, >= 1
  int nodes = 8;                  // rail_optimized, ring: number of hosts
  int nodes_per_rail_group = 0;   // rail_optimized: hosts per rail switch (0: all nodes, or derived
                                  // from the leaf radix when tier_radix is set)
  // Radix-bound Clos (clos.hpp; leaf_spine, rail_optimized, fat_tree): ports of the switch of
  // each tier (index 0: leaf/edge/rail, 1: spine, 2: core), counted at link_bandwidth_bps; 0
  // takes tier 0's. All 0: the legacy sizing, where a switch gets whatever ports its wiring
  // needs. With a radix the builders grow a third tier when the spines run out of ports.
  std::array<int, 3> tier_radix{0, 0, 0};
  std::array<std::string, 3> tier_model;  // switch preset names per tier, for the BOM ("" none)
  double spine_oversubscription = 1.0;  // tier-2 downlink / uplink bandwidth (three tiers), >= 1
  int spines = 0;         // tier-2 switches per pod (per fabric with two tiers); 0: derived
  // Independent copies of the switched fabric, each NIC with a port (nic_bandwidth_bps) on every
  // one (planes.hpp: Alibaba HPN's dual-plane); 1: one plane.
  int planes = 1;
  int nodes_per_pod = 0;  // hosts per pod of a three-tier fabric; 0: derived from the spine radix
  double core_cable_m = 0.0;  // spine-to-core cable length; 0: switch_cable_m
  // mesh / torus: sizes per dimension (ring uses `nodes`)
  std::vector<int> dims{4, 4};
  // Host attachment
  int nics_per_node = 1;          // NICs per host
  int links_per_node = 1;         // cables per NIC (or per neighbour in direct topologies)
  bool bundle_parallel_links = true;
  double link_bandwidth_bps = 100e9;  // switch-to-switch and direct links
  double nic_bandwidth_bps = 0.0;     // host-to-switch; 0: same as link_bandwidth_bps
  double host_cable_m = 2.0;
  double switch_cable_m = 20.0;
  std::int64_t switch_latency_ns = 0;  // port-to-port; 2012-era 250-850 ns [ipspace, B]
  std::int64_t link_latency_ns = -1;   // >= 0 overrides cable-derived latency of every link
};

enum class NodeKind : std::uint8_t { kHost, kSwitch };

struct NodeInfo {
  NodeKind kind = NodeKind::kHost;
  int tier = 0;       // 0 host; 1 leaf/edge/rail; 2 spine/aggregation; 3 core
  int ports = 0;      // physical ports wired (cables), filled by finalize()
  int radix = 0;      // ports the switch model has (>= ports)
  std::uint8_t model = 0;  // index in Topology::switch_models() (0: "" unnamed)
};

struct LinkInfo {
  NodeId src = 0;
  NodeId dst = 0;
  double bandwidth_bps = 0.0;
  std::int64_t latency_ns = 0;
  double cable_m = 0.0;
  int tier = 0;
  int cables = 1;     // > 1 when parallel cables are bundled into this link
  LinkId reverse = 0; // the other direction of the same cable(s)
};

class Topology {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                      boost::no_property, boost::property<boost::edge_index_t, LinkId>>;

  // Hosts must be added before any switch.
  NodeId add_host();
  NodeId add_switch(int tier, int radix, const std::string& model = {});
  // Adds `cables` parallel full-duplex cables between a and b: one bundled pair of links, or
  // `cables` pairs when not bundled. The latency is cable_m * 5 ns/m (or `latency_override_ns`
  // when >= 0) plus switch_latency_ns when the link leaves a switch.
  void connect(NodeId a, NodeId b, double bandwidth_bps, double cable_m, int tier, int cables,
               bool bundle, std::int64_t switch_latency_ns, std::int64_t latency_override_ns);
  // One more cable (or bundle) like an existing one, between a and b: `forward` is its a -> b
  // direction, `backward` its b -> a (speed, latency, length, tier and cables kept). For copies
  // of a fabric (planes.hpp).
  void copy_cable(NodeId a, NodeId b, const LinkInfo& forward, const LinkInfo& backward);
  // Builds the adjacency arrays; call once after the last connect().
  void finalize(bool hosts_are_routers);

  std::size_t host_count() const { return host_count_; }
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t link_count() const { return links_.size(); }
  const NodeInfo& node(NodeId n) const { return nodes_[n]; }
  const LinkInfo& link(LinkId l) const { return links_[l]; }
  const std::vector<LinkInfo>& links() const { return links_; }
  std::span<const LinkId> out_links(NodeId n) const {
    return {out_.data() + out_begin_[n], out_.data() + out_begin_[n + 1]};
  }
  std::span<const LinkId> in_links(NodeId n) const {
    return {in_.data() + in_begin_[n], in_.data() + in_begin_[n + 1]};
  }
  // Direct topologies (mesh, ring, torus): hosts forward traffic.
  bool hosts_are_routers() const { return hosts_are_routers_; }
  int max_tier() const { return max_tier_; }
  const Graph& graph() const { return graph_; }
  std::string node_name(NodeId n) const;
  // Switch model (preset) names; index 0 is "" (none given).
  const std::vector<std::string>& switch_models() const { return switch_models_; }
  const std::string& switch_model(NodeId n) const { return switch_models_[nodes_[n].model]; }

 private:
  Graph graph_;
  std::vector<NodeInfo> nodes_;
  std::vector<LinkInfo> links_;
  std::vector<LinkId> out_, in_;
  std::vector<std::uint32_t> out_begin_, in_begin_;
  std::size_t host_count_ = 0;
  bool hosts_are_routers_ = false;
  int max_tier_ = 0;
  std::vector<std::string> switch_models_{std::string()};
};

}  // namespace dcsim::models::network
