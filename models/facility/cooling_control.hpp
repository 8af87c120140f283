#pragma once
// Cooling-control policies: what speed (fraction of rated, in [min_speed, 1]) a zone's coolant
// pumps (D2C zones) or node fans (air zones) run at, decided at every telemetry tick from what an
// IPMI/BMC-like controller sees. Registered under the names scenarios use (`dcsim list "cooling
// control"`); adding one touches its own files and one line in register_builtin.cpp.

#include <functional>
#include <memory>

#include "sim/registry.hpp"

namespace dcsim::models::facility {

struct CoolingControlInput {
  double max_gpu_c = 0.0;           // hottest GPU die in the zone
  double heat_load_fraction = 0.0;  // zone IT power / zone rated IT power
  double dt_s = 0.0;                // since the previous decision
};

struct CoolingControlParams {
  double target_gpu_c = 65.0;  // closed loop: hold the hottest GPU here (issue 5 default)
  double min_speed = 0.3;      // pumps/fans below ~30% stall or lose head (assumption)
  double gain_per_k = 0.05;    // PI proportional gain, speed per K of error (assumption)
  double integral_time_s = 120.0;  // PI integral time (assumption: minutes-scale plant)
};

class CoolingControl {
 public:
  virtual ~CoolingControl() = default;
  virtual double speed(const CoolingControlInput& input) = 0;
};

using CoolingControlFactory = std::function<std::unique_ptr<CoolingControl>(const CoolingControlParams&)>;

// fixed_curve: speed = min + (1 - min) * load; pi_target: PI on the hottest GPU.
void register_cooling_controls(sim::Registry<CoolingControlFactory>& registry);

}  // namespace dcsim::models::facility
