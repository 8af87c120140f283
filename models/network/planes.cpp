#include "models/network/planes.hpp"

#include <string>
#include <vector>

#include "sim/error.hpp"

namespace dcsim::models::network {

void check_planes(int planes) {
  if (planes < 1 || planes > kMaxPlanes) {
    throw sim::ConfigError("planes", "must be 1 to " + std::to_string(kMaxPlanes) + " (independent copies of the "
                                     "switches, a NIC port on each), got " + std::to_string(planes));
  }
}

TopologyConfig one_plane(const TopologyConfig& c) {
  TopologyConfig one = c;
  one.planes = 1;
  return one;
}

Topology replicate_planes(const Topology& plane, int planes) {
  check_planes(planes);
  if (planes == 1) return plane;
  if (plane.hosts_are_routers()) {
    throw sim::InternalError("replicate_planes: a direct topology has no switches to replicate (this is a bug)");
  }
  const std::size_t hosts = plane.host_count();
  const std::size_t switches = plane.node_count() - hosts;
  Topology out;
  for (std::size_t h = 0; h < hosts; ++h) out.add_host();
  std::vector<NodeId> copy(plane.node_count());
  for (std::size_t h = 0; h < hosts; ++h) copy[h] = static_cast<NodeId>(h);
  for (int p = 0; p < planes; ++p) {
    for (std::size_t s = 0; s < switches; ++s) {
      const auto n = static_cast<NodeId>(hosts + s);
      copy[n] = out.add_switch(plane.node(n).tier, plane.node(n).radix, plane.switch_model(n));
    }
    // Each cable once: the direction whose reverse comes after it.
    for (LinkId l = 0; l < plane.link_count(); ++l) {
      const LinkInfo& forward = plane.link(l);
      if (forward.reverse < l) continue;
      out.copy_cable(copy[forward.src], copy[forward.dst], forward, plane.link(forward.reverse));
    }
  }
  out.finalize(false);
  return out;
}

}  // namespace dcsim::models::network
