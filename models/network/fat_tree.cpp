#include "models/network/fat_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "models/network/planes.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
double nic_bw(const TopologyConfig& c) { return c.nic_bandwidth_bps > 0 ? c.nic_bandwidth_bps : c.link_bandwidth_bps; }

// The smallest divisor of n that is at least `at_least` (n itself when none is smaller).
// O(sqrt(n)): divisors come in pairs (d, n / d).
int smallest_divisor_from(int n, std::int64_t at_least) {
  int best = n;
  for (int d = 1; static_cast<std::int64_t>(d) * d <= n; ++d) {
    if (n % d != 0) continue;
    if (d >= at_least) best = std::min(best, d);
    if (n / d >= at_least) best = std::min(best, n / d);
  }
  return best;
}

std::string str(std::int64_t x) { return std::to_string(x); }
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

FatTreeShape fat_tree_shape(const TopologyConfig& c) {
  if (c.k < 2 || c.k % 2 != 0) {
    throw sim::ConfigError("k", "must be an even integer >= 2, got " + std::to_string(c.k));
  }
  if (c.tiers != 0 && c.tiers != 2 && c.tiers != 3) {
    throw sim::ConfigError("tiers", "must be 2 or 3, got " + std::to_string(c.tiers));
  }
  if (c.fat_tree_nodes < 0) {
    throw sim::ConfigError("fat_tree_nodes", "must be >= 0 (0: the full k-ary tree), got " +
                                                 std::to_string(c.fat_tree_nodes));
  }
  check_attachment(c);
  const int k = c.k;
  const int half = k / 2;
  const std::int64_t ports = static_cast<std::int64_t>(c.nics_per_node) * c.links_per_node;
  if (half % ports != 0) {
    throw sim::ConfigError("nics_per_node",
                           std::to_string(c.nics_per_node) + " NICs x " + std::to_string(c.links_per_node) +
                               " links per node cannot be wired to the " + std::to_string(half) +
                               " host ports of a k=" + std::to_string(k) + " edge switch");
  }
  FatTreeShape s;
  s.hosts_per_edge = static_cast<int>(half / ports);
  const std::int64_t h = s.hosts_per_edge;
  if (c.fat_tree_nodes == 0) {
    s.tiers = c.tiers == 0 ? 3 : c.tiers;
    s.edges = s.tiers == 3 ? k * half : k;
    s.hosts = s.edges * s.hosts_per_edge;
    return s;
  }
  s.full = false;
  const std::int64_t nodes = c.fat_tree_nodes;
  const std::int64_t edges = (nodes + h - 1) / h;
  const std::int64_t two_tier_nodes = static_cast<std::int64_t>(k) * h;
  const std::int64_t three_tier_nodes = static_cast<std::int64_t>(k) * half * h;
  s.hosts = c.fat_tree_nodes;
  s.edges = static_cast<int>(edges);
  if (c.tiers == 2 && edges > k) {
    throw sim::ConfigError("tiers", "two tiers of " + str(k) + "-port switches hold " + str(k) + " edges of " + str(h) +
                                        " nodes (" + str(two_tier_nodes) + " nodes); " + str(nodes) + " nodes need " +
                                        str(edges) + " edges: use 3 tiers (or leave tiers out) or a switch of higher radix");
  }
  s.tiers = c.tiers != 0 ? c.tiers : edges == 1 ? 1 : edges <= k ? 2 : 3;
  ClosPlan& p = s.plan;
  p.leaves = s.edges;
  p.leaf_up = half;
  if (s.tiers < 3) {
    // Two tiers (one edge: no spines at all).
    p.tiers = 2;
    p.leaves_per_pod = s.edges;
    p.pods = 1;
    p.spines_per_pod = s.tiers == 1 ? 0 : smallest_divisor_from(half, (edges * half + k - 1) / k);
    p.leaf_spine_cables = p.spines_per_pod == 0 ? 0 : half / p.spines_per_pod;
    return s;
  }
  const std::int64_t pods = (edges + half - 1) / half;
  if (pods > k) {
    throw sim::ConfigError("fat_tree_nodes",
                           str(nodes) + " nodes need " + str(pods) + " pods of " + str(half) + " edges of " + str(h) +
                               " nodes; three tiers of " + str(k) + "-port switches hold at most " + str(k) +
                               " pods (" + str(three_tier_nodes) +
                               " nodes): choose a switch of higher radix, fewer nodes, or an oversubscribed "
                               "leaf_spine or rail_optimized fabric (spine_oversubscription)");
  }
  p.tiers = 3;
  p.leaves_per_pod = half;
  p.pods = static_cast<int>(pods);
  p.spines_per_pod = half;
  p.leaf_spine_cables = 1;
  p.spine_up = half;
  p.cores_per_plane = smallest_divisor_from(half, (pods * half + k - 1) / k);
  p.spine_core_cables = half / p.cores_per_plane;
  return s;
}

Topology build_fat_tree(const TopologyConfig& c) {
  if (c.planes != 1) {
    check_planes(c.planes);
    return replicate_planes(build_fat_tree(one_plane(c)), c.planes);
  }
  const FatTreeShape shape = fat_tree_shape(c);
  // With switch radices (clos.hpp) every tier's switch must have k ports at the link rate.
  const bool bound = radix_bound(c);
  for (int tier = 1; bound && tier <= shape.tiers; ++tier) {
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
  const int hosts_per_edge = shape.hosts_per_edge;
  const int edges = shape.edges;
  Topology t;
  for (int h = 0; h < shape.hosts; ++h) t.add_host();
  std::vector<NodeId> edge(static_cast<std::size_t>(edges));
  for (int e = 0; e < edges; ++e) edge[static_cast<std::size_t>(e)] = t.add_switch(1, radix(1), model(1));
  const auto attach_hosts = [&] {
    for (int host = 0; host < shape.hosts; ++host)
      for (int n = 0; n < c.nics_per_node; ++n)
        t.connect(static_cast<NodeId>(host), edge[static_cast<std::size_t>(host / hosts_per_edge)], nic_bw(c),
                  c.host_cable_m, 0, c.links_per_node, c.bundle_parallel_links, c.switch_latency_ns,
                  c.link_latency_ns);
  };
  if (!shape.full) {
    // Sized to its hosts: the spines (and cores) of the plan, k ports each.
    attach_hosts();
    TopologyConfig wiring = c;
    if (!bound) wiring.tier_radix = {c.k, c.k, c.k};
    wire_clos(t, edge, shape.plan, wiring);
    t.finalize(false);
    return t;
  }
  std::vector<NodeId> agg, core;
  if (shape.tiers == 3) {
    for (int a = 0; a < c.k * half; ++a) agg.push_back(t.add_switch(2, radix(2), model(2)));
    for (int x = 0; x < half * half; ++x) core.push_back(t.add_switch(3, radix(3), model(3)));
  } else {
    for (int s = 0; s < half; ++s) agg.push_back(t.add_switch(2, radix(2), model(2)));
  }
  attach_hosts();
  if (shape.tiers == 2) {
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
