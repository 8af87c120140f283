#include "models/facility/cooling_control.hpp"

#include <algorithm>

namespace dcsim::models::facility {

namespace {

// Open loop: speed follows the heat load (a fan curve in a BMC table); blind to temperature.
class FixedCurve final : public CoolingControl {
 public:
  explicit FixedCurve(CoolingControlParams p) : p_(p) {}
  double speed(const CoolingControlInput& in) override {
    return std::clamp(p_.min_speed + (1.0 - p_.min_speed) * in.heat_load_fraction, p_.min_speed, 1.0);
  }

 private:
  CoolingControlParams p_;
};

// Closed loop: a PI controller on the hottest GPU, with the integral clamped to the actuator's
// range (anti-windup), so a saturated pump does not keep winding up during a fault.
class PiTarget final : public CoolingControl {
 public:
  explicit PiTarget(CoolingControlParams p) : p_(p), integral_(p.min_speed) {}
  double speed(const CoolingControlInput& in) override {
    const double error_k = in.max_gpu_c - p_.target_gpu_c;
    // A decision period longer than the integral time would make the discrete integrator
    // overshoot (explicit in time): its weight is capped at one integral time per decision.
    const double weight = std::min(in.dt_s / p_.integral_time_s, 1.0);
    integral_ = std::clamp(integral_ + p_.gain_per_k * error_k * weight, p_.min_speed, 1.0);
    return std::clamp(integral_ + p_.gain_per_k * error_k, p_.min_speed, 1.0);
  }

 private:
  CoolingControlParams p_;
  double integral_;
};

const std::vector<sim::ParamSpec> kCommonParams = {
    {"min_speed", "", "0.3", "0 < x <= 1", "lowest pump/fan speed fraction"},
};

}  // namespace

void register_cooling_controls(sim::Registry<CoolingControlFactory>& registry) {
  registry.add({"fixed_curve", "pump/fan speed rises linearly with the zone's heat load, min_speed at idle",
                kCommonParams,
                [](const CoolingControlParams& p) { return std::make_unique<FixedCurve>(p); }});
  auto pi_params = kCommonParams;
  pi_params.push_back({"target_gpu", "temperature", "\"65 C\"", "", "hottest GPU die held here"});
  pi_params.push_back({"gain_per_k", "", "0.05", "x > 0", "proportional gain, speed fraction per K"});
  pi_params.push_back({"integral_time", "duration", "\"120 s\"", "x > 0", "PI integral time"});
  registry.add({"pi_target", "PI controller on the zone's hottest GPU die, holding it at target_gpu",
                pi_params, [](const CoolingControlParams& p) { return std::make_unique<PiTarget>(p); }});
}

}  // namespace dcsim::models::facility
