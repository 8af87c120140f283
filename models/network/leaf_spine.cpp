#include <cmath>
#include <string>

#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
double nic_bw(const TopologyConfig& c) { return c.nic_bandwidth_bps > 0 ? c.nic_bandwidth_bps : c.link_bandwidth_bps; }

// Spines needed so that a leaf's uplink bandwidth is its downlink bandwidth / oversubscription.
int spines_for(const TopologyConfig& c, double down_bps) {
  if (!(c.oversubscription >= 1.0)) {
    throw sim::ConfigError("oversubscription", "must be >= 1 (1 = non-blocking), got " + std::to_string(c.oversubscription));
  }
  const double exact = down_bps / (c.oversubscription * c.link_bandwidth_bps);
  const double rounded = std::round(exact);
  if (rounded < 1 || std::abs(exact - rounded) > 1e-9 * exact) {
    throw sim::ConfigError("oversubscription", "a leaf's " + std::to_string(down_bps / 1e9) +
                                                   " Gb/s of host ports over " + std::to_string(c.oversubscription) +
                                                   " needs " + std::to_string(exact) +
                                                   " spine links: not a whole number");
  }
  return static_cast<int>(rounded);
}
}  // namespace

Topology build_leaf_spine(const TopologyConfig& c) {
  check_attachment(c);
  if (c.leaves < 1) throw sim::ConfigError("leaves", "must be a positive integer, got " + std::to_string(c.leaves));
  if (c.hosts_per_leaf < 1) {
    throw sim::ConfigError("hosts_per_leaf", "must be a positive integer, got " + std::to_string(c.hosts_per_leaf));
  }
  const int down_ports = c.hosts_per_leaf * c.nics_per_node * c.links_per_node;
  const int spines = spines_for(c, down_ports * nic_bw(c));
  Topology t;
  for (int h = 0; h < c.leaves * c.hosts_per_leaf; ++h) t.add_host();
  std::vector<NodeId> leaf, spine;
  for (int l = 0; l < c.leaves; ++l) leaf.push_back(t.add_switch(1, down_ports + spines));
  for (int s = 0; s < spines; ++s) spine.push_back(t.add_switch(2, c.leaves));
  for (int l = 0; l < c.leaves; ++l)
    for (int h = 0; h < c.hosts_per_leaf; ++h)
      for (int n = 0; n < c.nics_per_node; ++n)
        t.connect(static_cast<NodeId>(l * c.hosts_per_leaf + h), leaf[l], nic_bw(c), c.host_cable_m, 0,
                  c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  for (int l = 0; l < c.leaves; ++l)
    for (int s = 0; s < spines; ++s)
      t.connect(leaf[l], spine[s], c.link_bandwidth_bps, c.switch_cable_m, 1, 1, true, c.switch_latency_ns,
                c.link_latency_ns);
  t.finalize(false);
  return t;
}

Topology build_rail_optimized(const TopologyConfig& c) {
  check_attachment(c);
  if (c.nodes < 1) throw sim::ConfigError("nodes", "must be a positive integer, got " + std::to_string(c.nodes));
  const int group = c.nodes_per_rail_group > 0 ? c.nodes_per_rail_group : c.nodes;
  if (c.nodes % group != 0) {
    throw sim::ConfigError("nodes_per_rail_group", std::to_string(c.nodes) + " nodes do not split into groups of " +
                                                       std::to_string(group));
  }
  const int groups = c.nodes / group;
  const int rails = c.nics_per_node;
  const int spines = spines_for(c, group * c.links_per_node * nic_bw(c));
  Topology t;
  for (int h = 0; h < c.nodes; ++h) t.add_host();
  std::vector<NodeId> rail_switch, spine;
  for (int g = 0; g < groups; ++g)
    for (int r = 0; r < rails; ++r) rail_switch.push_back(t.add_switch(1, group * c.links_per_node + spines));
  for (int s = 0; s < spines; ++s) spine.push_back(t.add_switch(2, groups * rails));
  for (int h = 0; h < c.nodes; ++h)
    for (int r = 0; r < rails; ++r)
      t.connect(static_cast<NodeId>(h), rail_switch[(h / group) * rails + r], nic_bw(c), c.host_cable_m, 0,
                c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  for (NodeId leaf : rail_switch)
    for (NodeId s : spine)
      t.connect(leaf, s, c.link_bandwidth_bps, c.switch_cable_m, 1, 1, true, c.switch_latency_ns, c.link_latency_ns);
  t.finalize(false);
  return t;
}

}  // namespace dcsim::models::network
