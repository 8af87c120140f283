#include <string>

#include "models/network/clos.hpp"
#include "models/network/planes.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
double nic_bw(const TopologyConfig& c) { return c.nic_bandwidth_bps > 0 ? c.nic_bandwidth_bps : c.link_bandwidth_bps; }
}  // namespace

void check_attachment(const TopologyConfig& c) {
  if (c.links_per_node < 1) {
    throw sim::ConfigError("links_per_node", "must be a positive integer, got " + std::to_string(c.links_per_node));
  }
  if (c.nics_per_node < 1) {
    throw sim::ConfigError("nics_per_node", "must be a positive integer, got " + std::to_string(c.nics_per_node));
  }
  if (!(c.link_bandwidth_bps > 0)) throw sim::ConfigError("link_bandwidth_bps", "must be positive");
  if (c.nic_bandwidth_bps < 0) throw sim::ConfigError("nic_bandwidth_bps", "must be positive (or 0: same as links)");
  if (c.host_cable_m < 0) throw sim::ConfigError("host_cable_m", "must not be negative");
  if (c.switch_cable_m < 0) throw sim::ConfigError("switch_cable_m", "must not be negative");
  if (c.switch_latency_ns < 0) throw sim::ConfigError("switch_latency_ns", "must not be negative");
}

Topology build_fat_tree(const TopologyConfig& c) {
  if (c.planes != 1) {
    check_planes(c.planes);
    return replicate_planes(build_fat_tree(one_plane(c)), c.planes);
  }
  if (c.k < 2 || c.k % 2 != 0) {
    throw sim::ConfigError("k", "must be an even integer >= 2, got " + std::to_string(c.k));
  }
  if (c.tiers != 2 && c.tiers != 3) {
    throw sim::ConfigError("tiers", "must be 2 or 3, got " + std::to_string(c.tiers));
  }
  check_attachment(c);
  // With switch radices (clos.hpp) every tier's switch must have k ports at the link rate.
  const bool bound = radix_bound(c);
  for (int tier = 1; bound && tier <= c.tiers; ++tier) {
    if (tier_radix(c, tier) < c.k) {
      throw sim::ConfigError("k", "a k=" + std::to_string(c.k) + " fat-tree needs " + std::to_string(c.k) +
                                      "-port switches; tier " + std::to_string(tier) + "'s switch has " +
                                      std::to_string(tier_radix(c, tier)) + " ports at the link rate: use k <= " +
                                      std::to_string(tier_radix(c, tier)) + " or a larger switch");
    }
  }
  const auto radix = [&](int tier) { return bound ? tier_radix(c, tier) : c.k; };
  const auto model = [&](int tier) { return c.tier_model[static_cast<std::size_t>(tier - 1)]; };
  const int half = c.k / 2;
  const int ports_per_host = c.nics_per_node * c.links_per_node;
  if (half % ports_per_host != 0) {
    throw sim::ConfigError("nics_per_node",
                           std::to_string(c.nics_per_node) + " NICs x " + std::to_string(c.links_per_node) +
                               " links per node cannot be wired to the " + std::to_string(half) +
                               " host ports of a k=" + std::to_string(c.k) + " edge switch");
  }
  const int hosts_per_edge = half / ports_per_host;
  const int edges = c.tiers == 3 ? c.k * half : c.k;
  Topology t;
  for (int h = 0; h < edges * hosts_per_edge; ++h) t.add_host();
  std::vector<NodeId> edge(edges), agg, core;
  for (int e = 0; e < edges; ++e) edge[e] = t.add_switch(1, radix(1), model(1));
  if (c.tiers == 3) {
    for (int a = 0; a < c.k * half; ++a) agg.push_back(t.add_switch(2, radix(2), model(2)));
    for (int x = 0; x < half * half; ++x) core.push_back(t.add_switch(3, radix(3), model(3)));
  } else {
    for (int s = 0; s < half; ++s) agg.push_back(t.add_switch(2, radix(2), model(2)));
  }
  for (int e = 0; e < edges; ++e) {
    for (int h = 0; h < hosts_per_edge; ++h) {
      const auto host = static_cast<NodeId>(e * hosts_per_edge + h);
      for (int n = 0; n < c.nics_per_node; ++n) {
        t.connect(host, edge[e], nic_bw(c), c.host_cable_m, 0, c.links_per_node, c.bundle_parallel_links,
                  c.switch_latency_ns, c.link_latency_ns);
      }
    }
  }
  if (c.tiers == 2) {
    for (int e = 0; e < edges; ++e)
      for (int s = 0; s < half; ++s)
        t.connect(edge[e], agg[s], c.link_bandwidth_bps, c.switch_cable_m, 1, 1, true, c.switch_latency_ns,
                  c.link_latency_ns);
  } else {
    // Pod p: edges p*half .. p*half+half-1, all wired to aggregations p*half .. ; aggregation a
    // of a pod (a = 0 .. half-1) reaches cores a*half .. a*half+half-1.
    for (int p = 0; p < c.k; ++p)
      for (int e = 0; e < half; ++e)
        for (int a = 0; a < half; ++a)
          t.connect(edge[p * half + e], agg[p * half + a], c.link_bandwidth_bps, c.switch_cable_m, 1, 1, true,
                    c.switch_latency_ns, c.link_latency_ns);
    const double core_m = c.core_cable_m > 0 ? c.core_cable_m : c.switch_cable_m;
    for (int p = 0; p < c.k; ++p)
      for (int a = 0; a < half; ++a)
        for (int j = 0; j < half; ++j)
          t.connect(agg[p * half + a], core[a * half + j], c.link_bandwidth_bps, core_m, 2, 1, true,
                    c.switch_latency_ns, c.link_latency_ns);
  }
  t.finalize(false);
  return t;
}

}  // namespace dcsim::models::network
