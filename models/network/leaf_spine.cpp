#include <algorithm>
#include <cmath>
#include <string>

#include "models/network/clos.hpp"
#include "models/network/planes.hpp"
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

// How a leaf's `uplinks` reach the spines: `spines` > 0 spreads them over that many spines,
// uplinks / spines parallel cables to each (as the radix-bound builder wires them); 0: one spine
// per uplink.
struct SpineWiring {
  int spines = 0;
  int cables = 1;  // per leaf-spine pair
};

SpineWiring spine_wiring(const TopologyConfig& c, int uplinks) {
  if (c.spines < 0) throw sim::ConfigError("spines", "must be >= 0 (0: derived), got " + std::to_string(c.spines));
  if (c.spines == 0) return {uplinks, 1};
  if (uplinks % c.spines != 0) {
    throw sim::ConfigError("spines", std::to_string(c.spines) + " spines do not divide a leaf's " +
                                         std::to_string(uplinks) + " uplinks; try a divisor of " +
                                         std::to_string(uplinks));
  }
  return {c.spines, uplinks / c.spines};
}

std::string num(double x) {
  std::string s = std::to_string(x);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// Host ports at the NIC rate plus uplinks at the link rate must fit the leaf's ports (counted at
// the link rate: slower host ports are breakouts of one switch port).
bool leaf_fits(const TopologyConfig& c, double down_bps, int up) {
  return down_bps + up * c.link_bandwidth_bps <= tier_radix(c, 1) * c.link_bandwidth_bps * (1 + 1e-12);
}

std::string leaf_overflow(const TopologyConfig& c, double down_bps, int up) {
  return num(down_bps / 1e9) + " Gb/s of host ports and " + std::to_string(up) + " uplinks need " +
         num(down_bps / c.link_bandwidth_bps + up) + " ports of " + num(c.link_bandwidth_bps / 1e9) +
         " Gb/s; the leaf switch has " + std::to_string(tier_radix(c, 1));
}

// Leaves of pod size from nodes_per_pod (0: derived), hosts_per_leaf hosts under each leaf unit.
int pod_leaves(const TopologyConfig& c, int hosts, int hosts_per_unit, int leaves_per_unit) {
  if (c.nodes_per_pod < 0) {
    throw sim::ConfigError("nodes_per_pod", "must be >= 0 (0: derived), got " + std::to_string(c.nodes_per_pod));
  }
  if (c.nodes_per_pod == 0) return 0;
  if (c.nodes_per_pod % hosts_per_unit != 0 || hosts % c.nodes_per_pod != 0) {
    throw sim::ConfigError("nodes_per_pod", std::to_string(c.nodes_per_pod) + " hosts per pod must be a multiple of " +
                                                std::to_string(hosts_per_unit) + " (hosts under one leaf group) and divide the " +
                                                std::to_string(hosts) + " hosts");
  }
  return c.nodes_per_pod / hosts_per_unit * leaves_per_unit;
}

Topology build_leaf_spine_radix(const TopologyConfig& c) {
  const int down_ports = c.hosts_per_leaf * c.nics_per_node * c.links_per_node;
  const double down_bps = down_ports * nic_bw(c);
  const int up = leaf_uplinks(c, down_bps);
  if (!leaf_fits(c, down_bps, up)) throw sim::ConfigError("hosts_per_leaf", leaf_overflow(c, down_bps, up));
  const int hosts = c.leaves * c.hosts_per_leaf;
  const ClosPlan plan =
      plan_clos(c, c.leaves, up, 1, pod_leaves(c, hosts, c.hosts_per_leaf, 1), c.hosts_per_leaf);
  Topology t;
  for (int h = 0; h < hosts; ++h) t.add_host();
  std::vector<NodeId> leaf;
  for (int l = 0; l < c.leaves; ++l) leaf.push_back(t.add_switch(1, tier_radix(c, 1), c.tier_model[0]));
  for (int l = 0; l < c.leaves; ++l)
    for (int h = 0; h < c.hosts_per_leaf; ++h)
      for (int n = 0; n < c.nics_per_node; ++n)
        t.connect(static_cast<NodeId>(l * c.hosts_per_leaf + h), leaf[l], nic_bw(c), c.host_cable_m, 0,
                  c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  wire_clos(t, leaf, plan, c);
  t.finalize(false);
  return t;
}

}  // namespace

int rail_group_size(const TopologyConfig& c) {
  const double per_node_bps = c.links_per_node * nic_bw(c);
  if (c.nodes_per_rail_group > 0) {
    const int g = c.nodes_per_rail_group;
    if (c.nodes % g != 0) {
      throw sim::ConfigError("nodes_per_rail_group", std::to_string(c.nodes) + " nodes do not split into groups of " +
                                                         std::to_string(g));
    }
    const int up = leaf_uplinks(c, g * per_node_bps);
    if (!leaf_fits(c, g * per_node_bps, up)) {
      throw sim::ConfigError("nodes_per_rail_group", std::to_string(g) + " nodes per rail leaf: " +
                                                         leaf_overflow(c, g * per_node_bps, up));
    }
    return g;
  }
  const double g_max = tier_radix(c, 1) * c.link_bandwidth_bps / (per_node_bps * (1.0 + 1.0 / c.oversubscription));
  for (int g = static_cast<int>(std::min<double>(std::floor(g_max + 1e-9), c.nodes)); g >= 1; --g) {
    if (c.nodes % g != 0) continue;
    const double exact = g * per_node_bps / (c.oversubscription * c.link_bandwidth_bps);
    if (std::abs(exact - std::round(exact)) <= 1e-9 * exact && std::round(exact) >= 1 &&
        leaf_fits(c, g * per_node_bps, static_cast<int>(std::round(exact))))
      return g;
  }
  throw sim::ConfigError("oversubscription", "no rail group size divides the " + std::to_string(c.nodes) +
                                                 " nodes with a whole number of uplinks at oversubscription " +
                                                 num(c.oversubscription) + " on a " +
                                                 std::to_string(tier_radix(c, 1)) + "-port leaf");
}

namespace {

Topology build_rail_optimized_radix(const TopologyConfig& c) {
  const int group = rail_group_size(c);
  const int rails = c.nics_per_node;
  const int up = leaf_uplinks(c, group * c.links_per_node * nic_bw(c));
  if (static_cast<double>(c.nodes / group) * rails > 1e8) {
    throw sim::ConfigError("nodes", std::to_string(c.nodes) + " nodes in groups of " + std::to_string(group) +
                                        " make more rail switches than any fabric has");
  }
  const int leaves = c.nodes / group * rails;
  const ClosPlan plan = plan_clos(c, leaves, up, rails, pod_leaves(c, c.nodes, group, rails),
                                  static_cast<double>(group) / rails, "nodes");
  Topology t;
  for (int h = 0; h < c.nodes; ++h) t.add_host();
  std::vector<NodeId> leaf;
  for (int l = 0; l < leaves; ++l) leaf.push_back(t.add_switch(1, tier_radix(c, 1), c.tier_model[0]));
  for (int h = 0; h < c.nodes; ++h)
    for (int r = 0; r < rails; ++r)
      t.connect(static_cast<NodeId>(h), leaf[static_cast<std::size_t>((h / group) * rails + r)], nic_bw(c),
                c.host_cable_m, 0, c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  wire_clos(t, leaf, plan, c);
  t.finalize(false);
  return t;
}
}  // namespace

Topology build_leaf_spine(const TopologyConfig& c) {
  if (c.planes != 1) {
    check_planes(c.planes);
    return replicate_planes(build_leaf_spine(one_plane(c)), c.planes);
  }
  check_attachment(c);
  if (c.leaves < 1) throw sim::ConfigError("leaves", "must be a positive integer, got " + std::to_string(c.leaves));
  if (c.hosts_per_leaf < 1) {
    throw sim::ConfigError("hosts_per_leaf", "must be a positive integer, got " + std::to_string(c.hosts_per_leaf));
  }
  if (radix_bound(c)) return build_leaf_spine_radix(c);
  const int down_ports = c.hosts_per_leaf * c.nics_per_node * c.links_per_node;
  const int uplinks = spines_for(c, down_ports * nic_bw(c));
  const SpineWiring w = spine_wiring(c, uplinks);
  Topology t;
  for (int h = 0; h < c.leaves * c.hosts_per_leaf; ++h) t.add_host();
  std::vector<NodeId> leaf, spine;
  for (int l = 0; l < c.leaves; ++l) leaf.push_back(t.add_switch(1, down_ports + uplinks));
  for (int s = 0; s < w.spines; ++s) spine.push_back(t.add_switch(2, c.leaves * w.cables));
  for (int l = 0; l < c.leaves; ++l)
    for (int h = 0; h < c.hosts_per_leaf; ++h)
      for (int n = 0; n < c.nics_per_node; ++n)
        t.connect(static_cast<NodeId>(l * c.hosts_per_leaf + h), leaf[l], nic_bw(c), c.host_cable_m, 0,
                  c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  for (int l = 0; l < c.leaves; ++l)
    for (int s = 0; s < w.spines; ++s)
      t.connect(leaf[l], spine[s], c.link_bandwidth_bps, c.switch_cable_m, 1, w.cables, true, c.switch_latency_ns,
                c.link_latency_ns);
  t.finalize(false);
  return t;
}

Topology build_rail_optimized(const TopologyConfig& c) {
  if (c.planes != 1) {
    check_planes(c.planes);
    return replicate_planes(build_rail_optimized(one_plane(c)), c.planes);
  }
  check_attachment(c);
  if (c.nodes < 1) throw sim::ConfigError("nodes", "must be a positive integer, got " + std::to_string(c.nodes));
  const int group = c.nodes_per_rail_group > 0 ? c.nodes_per_rail_group : c.nodes;
  if (c.nodes % group != 0) {
    throw sim::ConfigError("nodes_per_rail_group", std::to_string(c.nodes) + " nodes do not split into groups of " +
                                                       std::to_string(group));
  }
  if (radix_bound(c)) return build_rail_optimized_radix(c);
  const int groups = c.nodes / group;
  const int rails = c.nics_per_node;
  const int uplinks = spines_for(c, group * c.links_per_node * nic_bw(c));
  const SpineWiring w = spine_wiring(c, uplinks);
  Topology t;
  for (int h = 0; h < c.nodes; ++h) t.add_host();
  std::vector<NodeId> rail_switch, spine;
  for (int g = 0; g < groups; ++g)
    for (int r = 0; r < rails; ++r) rail_switch.push_back(t.add_switch(1, group * c.links_per_node + uplinks));
  for (int s = 0; s < w.spines; ++s) spine.push_back(t.add_switch(2, groups * rails * w.cables));
  for (int h = 0; h < c.nodes; ++h)
    for (int r = 0; r < rails; ++r)
      t.connect(static_cast<NodeId>(h), rail_switch[(h / group) * rails + r], nic_bw(c), c.host_cable_m, 0,
                c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns, c.link_latency_ns);
  for (NodeId leaf : rail_switch)
    for (NodeId s : spine)
      t.connect(leaf, s, c.link_bandwidth_bps, c.switch_cable_m, 1, w.cables, true, c.switch_latency_ns,
                c.link_latency_ns);
  t.finalize(false);
  return t;
}

}  // namespace dcsim::models::network
