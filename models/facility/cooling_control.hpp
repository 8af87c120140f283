#pragma once
// Cooling-control policies: what speed (fraction of rated, in [min_speed, 1]) a zone's coolant
// pumps (D2C zones) or node fans (air zones) run at, decided at every telemetry tick from what an
// IPMI/BMC-like controller sees. Registered under the names scenarios use (`dcsim list "cooling
// control"`); adding one touches its own files and one line in register_builtin.cpp.

#include <functional>
#include <memory>

#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::facility {

struct CoolingControlInput {
  double max_gpu_c = 0.0;           // hottest GPU die in the zone
  double target_gpu_c = 65.0;       // the zone's setpoint (/facility/cooling/target_gpu or the zone's)
  double heat_load_fraction = 0.0;  // zone IT power / zone rated IT power
  double dt_s = 0.0;                // since the previous decision
};

class CoolingControl {
 public:
  virtual ~CoolingControl() = default;
  virtual double speed(const CoolingControlInput& input) = 0;
  // Speed before the first decision (the controller's floor).
  virtual double initial_speed() const = 0;
};

// Parameters as documented in the registration (sim/params.hpp): min_speed, and for pi_target
// gain_per_k and integral_time (seconds). The setpoint is an input, not a parameter: zones differ.
using CoolingControlFactory = std::function<std::unique_ptr<CoolingControl>(const sim::Params&)>;

// fixed_curve: speed = min + (1 - min) * load; pi_target: PI on the hottest GPU.
void register_cooling_controls(sim::Registry<CoolingControlFactory>& registry);

}  // namespace dcsim::models::facility
