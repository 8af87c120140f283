#include <string>

#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {

// Hosts on a grid; neighbours along each dimension wired NIC to NIC, links_per_node cables each.
Topology build_grid(const TopologyConfig& c, const std::vector<int>& dims, bool wrap) {
  check_attachment(c);
  std::size_t n = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 2) {
      throw sim::ConfigError("dims[" + std::to_string(d) + "]", "must be >= 2, got " + std::to_string(dims[d]));
    }
    n *= static_cast<std::size_t>(dims[d]);
  }
  Topology t;
  for (std::size_t h = 0; h < n; ++h) t.add_host();
  std::size_t stride = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const auto size = static_cast<std::size_t>(dims[d]);
    for (std::size_t h = 0; h < n; ++h) {
      const std::size_t x = (h / stride) % size;
      const bool last = x + 1 == size;
      // Wrap-around only when it is a new neighbour (a size-2 ring has one).
      if (last && !(wrap && size > 2)) continue;
      const std::size_t next = last ? h - x * stride : h + stride;
      // Each NIC is a host link, as in the switched builders: NIC r of a host is cabled to NIC r
      // of each neighbour, so a neighbour pair has nics_per_node x links_per_node cables.
      for (int nic = 0; nic < c.nics_per_node; ++nic) {
        t.connect(static_cast<NodeId>(h), static_cast<NodeId>(next), c.link_bandwidth_bps, c.host_cable_m, 0,
                  c.links_per_node, c.bundle_parallel_links, 0, c.link_latency_ns);
      }
    }
    stride *= size;
  }
  t.finalize(true);
  return t;
}

}  // namespace

Topology build_mesh(const TopologyConfig& c) {
  if (c.dims.empty() || c.dims.size() > 3) {
    throw sim::ConfigError("dims", "a mesh needs 1 to 3 dimensions, got " + std::to_string(c.dims.size()));
  }
  return build_grid(c, c.dims, false);
}

Topology build_ring(const TopologyConfig& c) {
  if (c.nodes < 2) throw sim::ConfigError("nodes", "a ring needs >= 2 nodes, got " + std::to_string(c.nodes));
  return build_grid(c, {c.nodes}, true);
}

Topology build_torus(const TopologyConfig& c) {
  if (c.dims.size() != 2 && c.dims.size() != 3) {
    throw sim::ConfigError("dims", "a torus needs 2 or 3 dimensions, got " + std::to_string(c.dims.size()));
  }
  return build_grid(c, c.dims, true);
}

}  // namespace dcsim::models::network
