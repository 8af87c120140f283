#pragma once
// The seam between the cluster (owner of jobs) and a facility model (owner of node power when a
// scenario has a facility section). ClusterSimulation integrates whatever power the source
// reports, so one run has one IT power: the cluster's power/energy series and the facility's PUE
// use the same numbers. Without a source the cluster uses power::node_power_w (linear in
// utilisation).
//
// Protocol: when a node's GPU utilisation changes the cluster calls on_node_utilization, then
// reads node_power_w. The source may call NodeClock::set_node_clock_factor (node_clock.hpp) from
// inside on_node_utilization (a power cap slows the clock) and calls NodeClock::refresh_node_power
// whenever the node's power changes for its own reasons (temperature throttling, fans).

namespace dcsim::models::seams {

class NodePowerSource {
 public:
  virtual ~NodePowerSource() = default;
  virtual void on_node_utilization(int node, double utilization) = 0;
  // AC power the node draws now (W): constant until the next utilisation change or refresh.
  virtual double node_power_w(int node) const = 0;
};

}  // namespace dcsim::models::seams
