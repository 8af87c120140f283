#include "models/network/topology_size.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "models/network/clos.hpp"
#include "models/network/fat_tree.hpp"
#include "models/network/planes.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {

// `planes` copies of one plane's switches and cables on the same hosts; a host with ports in
// several planes is its own routing anchor.
TopologySize planes_size(TopologySize one, int planes) {
  const double p = std::max(1, planes);
  one.switches *= p;
  one.cables *= p;
  one.forwarders *= p;
  if (planes > 1) one.anchors = one.hosts;
  return one;
}


double ports_per_host(const TopologyConfig& c) {
  return std::max(1.0, static_cast<double>(c.nics_per_node)) * std::max(1.0, static_cast<double>(c.links_per_node));
}

double nic_bandwidth(const TopologyConfig& c) {
  return c.nic_bandwidth_bps > 0 ? c.nic_bandwidth_bps : c.link_bandwidth_bps;
}

// As leaf_spine.cpp's spines_for, without its checks: at least one.
double spines_for(const TopologyConfig& c, double down_bps) {
  const double over = std::max(1.0, c.oversubscription);
  const double link = c.link_bandwidth_bps > 0 ? c.link_bandwidth_bps : 1.0;
  return std::max(1.0, std::ceil(down_bps / (over * link)));
}

TopologySize grid_size(const TopologyConfig& c, const std::vector<double>& dims) {
  double hosts = 1;
  for (double d : dims) hosts *= std::max(2.0, d);
  // At most one neighbour per host and dimension, wired NIC to NIC (direct_topologies.cpp).
  const double cables = hosts * static_cast<double>(dims.size()) * std::max(1.0, static_cast<double>(c.links_per_node)) *
                        std::max(1.0, static_cast<double>(c.nics_per_node));
  return {hosts, 0, cables, hosts, hosts};  // hosts forward, and each is its own anchor
}

std::vector<double> as_doubles(const std::vector<int>& dims) { return {dims.begin(), dims.end()}; }

}  // namespace

TopologySize fat_tree_size(const TopologyConfig& c) {
  if (c.planes > 1) return planes_size(fat_tree_size(one_plane(c)), c.planes);
  if (c.fat_tree_nodes > 0) {
    // Sized to its hosts (fat_tree.hpp): the shape's counts. A refused request falls through to
    // the full tree's formula, an upper bound (the builder then reports the error).
    try {
      const FatTreeShape s = fat_tree_shape(c);
      const ClosPlan& p = s.plan;
      const double half = c.k / 2;
      const double switches = s.edges + static_cast<double>(p.spines()) + p.cores();
      const double cables = s.hosts * ports_per_host(c) + s.edges * (p.spines_per_pod > 0 ? half : 0.0) +
                            static_cast<double>(p.spines()) * p.spine_up;
      return {static_cast<double>(s.hosts), switches, cables, switches,
              c.nics_per_node > 1 ? static_cast<double>(s.hosts) : static_cast<double>(s.edges)};
    } catch (const sim::ConfigError&) {
    }
  }
  const double k = std::max(2.0, static_cast<double>(c.k));
  const double half = std::floor(k / 2);
  const double hosts_per_edge = std::max(1.0, std::floor(half / ports_per_host(c)));
  const bool three = c.tiers != 2;
  const double edges = three ? k * half : k;
  const double hosts = edges * hosts_per_edge;
  const double switches = three ? edges + k * half + half * half : edges + half;
  const double cables = hosts * ports_per_host(c) + edges * half + (three ? k * half * half : 0);
  const double anchors = c.nics_per_node > 1 ? hosts : edges;  // multi-homed hosts anchor themselves
  return {hosts, switches, cables, switches, anchors};
}

// A radix-bound Clos (clos.hpp): the planner's counts. Empty when the request is refused or too
// large to plan (the legacy formula then bounds it; the builder reports the error).
std::optional<TopologySize> clos_size(const TopologyConfig& c, double hosts, double host_cables, double leaves,
                                      double leaf_up_bps, int pod_unit, int pod_leaves, double hosts_per_leaf,
                                      bool multi_homed) {
  // (the size field only words errors, which are swallowed here)
  if (!radix_bound(c) || leaves > 1e7 || !(c.link_bandwidth_bps > 0)) return std::nullopt;
  try {
    const int up = leaf_uplinks(c, leaf_up_bps);
    const ClosPlan p = plan_clos(c, static_cast<int>(leaves), up, pod_unit, pod_leaves, hosts_per_leaf);
    const double switches = leaves + p.spines() + p.cores();
    const double cables = host_cables + leaves * up + static_cast<double>(p.spines()) * p.spine_up;
    return TopologySize{hosts, switches, cables, switches, multi_homed ? hosts : leaves};
  } catch (const sim::ConfigError&) {
    return std::nullopt;
  }
}

TopologySize leaf_spine_size(const TopologyConfig& c) {
  if (c.planes > 1) return planes_size(leaf_spine_size(one_plane(c)), c.planes);
  const double leaves = std::max(1.0, static_cast<double>(c.leaves));
  if (c.hosts_per_leaf >= 1 && c.nics_per_node >= 1 && c.links_per_node >= 1) {
    const double per_leaf = c.hosts_per_leaf;
    const int pod = c.nodes_per_pod > 0 && c.nodes_per_pod % c.hosts_per_leaf == 0 ? c.nodes_per_pod / c.hosts_per_leaf : 0;
    if (auto s = clos_size(c, leaves * per_leaf, leaves * per_leaf * ports_per_host(c), leaves,
                           per_leaf * ports_per_host(c) * nic_bandwidth(c), 1, pod, per_leaf, c.nics_per_node > 1))
      return *s;
  }
  const double down_ports = std::max(1.0, static_cast<double>(c.hosts_per_leaf)) * ports_per_host(c);
  const double uplinks = spines_for(c, down_ports * nic_bandwidth(c));
  const double spines = c.spines > 0 ? c.spines : uplinks;  // as leaf_spine.cpp's spine_wiring
  const double hosts = leaves * std::max(1.0, static_cast<double>(c.hosts_per_leaf));
  const double anchors = c.nics_per_node > 1 ? hosts : leaves;
  return {hosts, leaves + spines, leaves * down_ports + leaves * uplinks, leaves + spines, anchors};
}

TopologySize rail_optimized_size(const TopologyConfig& c) {
  if (c.planes > 1) return planes_size(rail_optimized_size(one_plane(c)), c.planes);
  const double nodes = std::max(1.0, static_cast<double>(c.nodes));
  if (radix_bound(c) && c.nodes >= 1 && c.nics_per_node >= 1 && c.links_per_node >= 1) {
    // The builder's rail group (leaf_spine.cpp); a refused request falls through.
    try {
      const int g = rail_group_size(c);
      const int rails = c.nics_per_node;
      const double leaves = static_cast<double>(c.nodes / g) * rails;
      const int pod = c.nodes_per_pod > 0 && c.nodes_per_pod % g == 0 ? c.nodes_per_pod / g * rails : 0;
      if (auto s = clos_size(c, nodes, nodes * rails * c.links_per_node, leaves,
                             g * c.links_per_node * nic_bandwidth(c), rails, pod, static_cast<double>(g) / rails,
                             rails > 1))
        return *s;
    } catch (const sim::ConfigError&) {
    }
  }
  const double group = c.nodes_per_rail_group > 0 ? static_cast<double>(c.nodes_per_rail_group) : nodes;
  const double groups = std::max(1.0, std::ceil(nodes / group));
  const double rails = std::max(1.0, static_cast<double>(c.nics_per_node));
  const double links = std::max(1.0, static_cast<double>(c.links_per_node));
  const double uplinks = spines_for(c, group * links * nic_bandwidth(c));
  const double spines = c.spines > 0 ? c.spines : uplinks;  // as leaf_spine.cpp's spine_wiring
  const double rail_switches = groups * rails;
  const double anchors = rails > 1 ? nodes : rail_switches;
  return {nodes, rail_switches + spines, nodes * rails * links + rail_switches * uplinks, rail_switches + spines,
          anchors};
}

TopologySize mesh_size(const TopologyConfig& c) { return grid_size(c, as_doubles(c.dims)); }
TopologySize ring_size(const TopologyConfig& c) { return grid_size(c, {static_cast<double>(c.nodes)}); }
TopologySize torus_size(const TopologyConfig& c) { return grid_size(c, as_doubles(c.dims)); }

}  // namespace dcsim::models::network
