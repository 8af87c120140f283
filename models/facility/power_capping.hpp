#pragma once
// Power-capping policies: what GPU power limit the GPUs of a rack get, so that the rack stays
// under its rated power (/facility/rack_limit). Decided whenever the rack's load changes (a
// node's utilisation) and at every facility tick. A lower limit lowers the clock (the driver's
// DVFS, gpu_power.hpp: f = ((L - P_idle) / ((P_max - P_idle) u))^(1/k)), which slows the jobs on
// the rack's nodes through the cluster's clock-factor path. Registered under the names scenarios
// use (`dcsim list "power capping"`); adding one touches its own files and one line in
// register_builtin.cpp.
//
//   log_only      no limit is lowered; rack crossings are logged in events/facility (the default)
//   rack_gpu_cap  every GPU of a rack that would cross (1 - headroom) x rack limit gets the highest
//                 common limit, between the GPU's minimum power limit and the configured one,
//                 that keeps the rack under it (bisection on the rack's power, which does not
//                 fall as the limit rises); a rack that cannot get under it even at the minimum
//                 limit is logged (rack_cap_insufficient) and runs at the minimum.

#include <functional>
#include <memory>

#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::facility {

struct RackPowerInput {
  double rack_limit_w = 0.0;
  double max_gpu_limit_w = 0.0;  // the configured GPU power limit (/facility/gpu_power_limit)
  double min_gpu_limit_w = 0.0;  // the lowest limit the driver accepts (200 W on H100)
  // The rack's power (nodes' AC power and its share of the network) were every GPU of the rack
  // limited to `gpu_limit_w`, at the rack's present utilisation and temperatures.
  std::function<double(double gpu_limit_w)> rack_power_w;
};

class PowerCappingPolicy {
 public:
  virtual ~PowerCappingPolicy() = default;
  // The power limit of every GPU of the rack, in [min_gpu_limit_w, max_gpu_limit_w].
  virtual double gpu_power_limit_w(const RackPowerInput& input) = 0;
};

using PowerCappingFactory = std::function<std::unique_ptr<PowerCappingPolicy>(const sim::Params&)>;

void register_power_capping(sim::Registry<PowerCappingFactory>& registry);

}  // namespace dcsim::models::facility
