#include "models/network/topology_size.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::network {

namespace {

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

TopologySize leaf_spine_size(const TopologyConfig& c) {
  const double leaves = std::max(1.0, static_cast<double>(c.leaves));
  const double down_ports = std::max(1.0, static_cast<double>(c.hosts_per_leaf)) * ports_per_host(c);
  const double spines = spines_for(c, down_ports * nic_bandwidth(c));
  const double hosts = leaves * std::max(1.0, static_cast<double>(c.hosts_per_leaf));
  const double anchors = c.nics_per_node > 1 ? hosts : leaves;
  return {hosts, leaves + spines, leaves * down_ports + leaves * spines, leaves + spines, anchors};
}

TopologySize rail_optimized_size(const TopologyConfig& c) {
  const double nodes = std::max(1.0, static_cast<double>(c.nodes));
  const double group = c.nodes_per_rail_group > 0 ? static_cast<double>(c.nodes_per_rail_group) : nodes;
  const double groups = std::max(1.0, std::ceil(nodes / group));
  const double rails = std::max(1.0, static_cast<double>(c.nics_per_node));
  const double links = std::max(1.0, static_cast<double>(c.links_per_node));
  const double spines = spines_for(c, group * links * nic_bandwidth(c));
  const double rail_switches = groups * rails;
  const double anchors = rails > 1 ? nodes : rail_switches;
  return {nodes, rail_switches + spines, nodes * rails * links + rail_switches * spines, rail_switches + spines,
          anchors};
}

TopologySize mesh_size(const TopologyConfig& c) { return grid_size(c, as_doubles(c.dims)); }
TopologySize ring_size(const TopologyConfig& c) { return grid_size(c, {static_cast<double>(c.nodes)}); }
TopologySize torus_size(const TopologyConfig& c) { return grid_size(c, as_doubles(c.dims)); }

}  // namespace dcsim::models::network
