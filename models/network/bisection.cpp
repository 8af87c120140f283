#include "models/network/bisection.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace dcsim::models::network {

double bisection_bandwidth_bps(const Topology& t) {
  if (t.hosts_are_routers() || t.host_count() < 2) return 0.0;
  const std::size_t half = t.host_count() / 2;
  // Side bits: 1 lower half, 2 upper half; a node below both is 3.
  std::vector<std::uint8_t> side(t.node_count(), 0);
  for (NodeId h = 0; h < t.host_count(); ++h) side[h] = h < half ? 1 : 2;
  const auto tier = [&](NodeId n) { return t.node(n).kind == NodeKind::kHost ? 0 : t.node(n).tier; };
  std::vector<double> lower(static_cast<std::size_t>(t.max_tier()) + 1, 0.0), upper(lower);
  for (int level = 0; level <= t.max_tier(); ++level) {
    for (const LinkInfo& link : t.links()) {
      if (tier(link.src) != level || tier(link.dst) <= level) continue;
      side[link.dst] |= side[link.src];
      if (side[link.src] == 1) lower[static_cast<std::size_t>(level)] += link.bandwidth_bps;
      if (side[link.src] == 2) upper[static_cast<std::size_t>(level)] += link.bandwidth_bps;
    }
  }
  double cut = std::numeric_limits<double>::infinity();
  for (std::size_t level = 0; level < lower.size(); ++level) {
    if (lower[level] == 0 && upper[level] == 0) continue;  // the top tier: nothing goes up
    cut = std::min(cut, std::min(lower[level], upper[level]));
  }
  return cut == std::numeric_limits<double>::infinity() ? 0.0 : cut;
}

}  // namespace dcsim::models::network
