#pragma once
// Shared by the flow-mode collective tests: the platforms they run on.

#include <cstdint>

#include "models/collective/collective_estimator.hpp"
#include "models/network/topology_builders.hpp"

namespace dcsim::models::flow_mode_testing {

// The agreement band for flow vs analytic on an uncongested fabric.
inline constexpr double kAgreeTol = 0.02;

// Two leaves of nodes / 2 hosts each. A node's NICs are one bundled link of nics x 400G (ideal
// spreading over NICs); a leaf has 2 x nics x 400G / (oversubscription x 400G) spine links.
inline network::Topology leaf_spine(int nodes, int nics, double oversubscription,
                                    std::int64_t switch_latency_ns = 0) {
  network::TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = nodes / 2;
  c.nics_per_node = 1;
  c.links_per_node = nics;
  c.bundle_parallel_links = true;
  c.link_bandwidth_bps = 400e9;
  c.nic_bandwidth_bps = 400e9;
  c.oversubscription = oversubscription;
  c.switch_latency_ns = switch_latency_ns;
  c.link_latency_ns = 0;
  return network::build_leaf_spine(c);
}

// HGX H100 nodes: 8 GPUs, 8 x 400G NICs, no NVLS.
inline collective::CollectiveSystem hgx_nodes(int nodes) {
  collective::CollectiveSystem s;
  s.nodes = nodes;
  s.gpus_per_node = 8;
  s.nics_per_node = 8;
  s.nic_bandwidth_bps = 400e9;
  s.nvls = false;
  return s;
}

// The analytic model restricted to the Simple protocol, the one flow mode runs.
// Simple protocol, no size ramp (size_ramp.hpp: fewer channels for small messages, the NVLS
// pipeline fill, tree's size correction), which flows at link rates do not model: the closed
// forms and the flows then describe the same transfer.
inline collective::CollectiveTuning simple_only() {
  collective::CollectiveTuning t;
  for (int p = 0; p < 2; ++p) t.enable_protocol[p] = false;
  t.size_ramp = false;
  return t;
}

}  // namespace dcsim::models::flow_mode_testing
