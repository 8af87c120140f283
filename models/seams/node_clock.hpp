#pragma once
// The cluster as the facility drives it: the facility slows a node's GPUs (power cap, thermal
// slowdown, shutdown), says when a node's power changed for its own reasons, and ticks only
// while the cluster has work left. Exactly the calls the facility makes; the cluster implements it.

namespace dcsim::models::seams {

class NodeClock {
 public:
  virtual ~NodeClock() = default;
  // The node's GPUs run at `factor` (0 < factor <= 1) of their clock from now on: its jobs slow
  // down. O(jobs on the node).
  virtual void set_node_clock_factor(int node, double factor) = 0;
  // The node's power changed without a utilisation change (temperature, fans): the cluster reads
  // it again from its power source.
  virtual void refresh_node_power(int node) = 0;
  // Whether any job has yet to finish (an open-ended run ticks until then).
  virtual bool has_work_left() const = 0;
};

}  // namespace dcsim::models::seams
