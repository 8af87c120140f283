#include "models/power/switch_power.hpp"

#include <algorithm>

namespace dcsim::models::power {

double switch_power_w(const SwitchPowerConfig& config, int active_ports, double port_speed_bps) {
  return config.base_w +
         config.port_400g_w * std::max(0, active_ports) * port_speed_bps / config.reference_speed_bps;
}

NetworkPower fabric_switch_power(const SwitchPowerConfig& config, const network::Topology& topology) {
  NetworkPower out;
  for (network::NodeId n = 0; n < topology.node_count(); ++n) {
    if (topology.node(n).kind != network::NodeKind::kSwitch) continue;
    ++out.switches;
    out.power_w += config.base_w;
    for (network::LinkId l : topology.out_links(n)) {
      const auto& link = topology.link(l);
      // A bundled link of k cables carries k x the cable's speed.
      const double per_cable_bps = link.bandwidth_bps / std::max(1, link.cables);
      out.active_ports += link.cables;
      out.power_w += config.port_400g_w * link.cables * per_cable_bps / config.reference_speed_bps;
    }
  }
  return out;
}

}  // namespace dcsim::models::power
