#pragma once
// The seam through which placement policies see the facility: where each node sits in the
// cooling plant, how hot its GPUs run, and how much power its rack may still draw. A facility
// model implements it; without one the cluster reports no temperatures and unlimited racks.

namespace dcsim::models::seams {

class NodeConditions {
 public:
  virtual ~NodeConditions() = default;
  virtual int zone_of_node(int node) const = 0;
  // Hottest GPU die on the node now (C).
  virtual double gpu_temperature_c(int node) const = 0;
  // Rated rack power minus the rack's present draw (W); +inf when the rack has no rating.
  virtual double rack_power_headroom_w(int rack) const = 0;
};

}  // namespace dcsim::models::seams
