// Cooling shortfalls: the facility's cooling could not remove the heat. Never silent (issue 15,
// item 13: an undersized plant once reported 270 C GPUs and exited 0): each shortfall is a
// facility event, the run's summary carries a warning with the figures that explain it, and a
// scenario may make it an error that ends the run.

#include <algorithm>
#include <cmath>
#include <string>

#include <cstdio>
#include "models/facility/facility_simulation.hpp"
#include "models/facility/facility_state.hpp"

namespace dcsim::models::facility {

namespace {
// ASHRAE TC9.9 class A1 allowable inlet air: 15-32 C (public-figures.md). Room air above it
// means the doors and air handlers together cannot take the air-side heat.
constexpr double kAllowableInletMaxC = 32.0;
// Once short, the GPU cause holds until the hottest die is this far below max operating: a die
// that its own throttling holds at the limit would otherwise start and end a shortfall every few
// seconds (210 pairs of events in two hours of cdu-redundancy.json's row-b).
constexpr double kGpuShortfallHysteresisK = 1.0;

// A number with `digits` decimals (the models layer has no fmt).
std::string num(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The chiller's part of a shortfall message: only when it was short.
std::string chiller_short_text(double unmet_w, double capacity_w) {
  if (unmet_w <= 0.0) return "";
  return ", chiller short by up to " + num(unmet_w / 1e3, 1) + " of " + num(capacity_w / 1e3, 1) + " kW";
}

void add_cause(std::string& causes, const std::string& cause) {
  if (causes.find(cause) == std::string::npos) causes += (causes.empty() ? "" : "; ") + cause;
}
}  // namespace

CoolingShortfallError::CoolingShortfallError(const std::string& message)
    : sim::ConfigError("shortfall_is_error", message) {}

void FacilitySimulation::check_shortfall(double dt_s, double max_gpu_c) {
  const auto& c = config_;
  std::string causes;
  bool beyond_control = false;  // a cause other than the control's lag
  const auto add_plant_cause = [&](const std::string& cause) {
    add_cause(causes, cause);
    beyond_control = true;
  };
  double hottest_loop = -1e9, hottest_air = -1e9;
  for (const auto& z : zones_) {
    hottest_loop = std::max(hottest_loop, z.loop_c);
    hottest_air = std::max(hottest_air, z.air_c);
  }
  const double gpu_limit_c = gpu_short_ ? c.max_operating_c - kGpuShortfallHysteresisK : c.max_operating_c;
  gpu_short_ = max_gpu_c > gpu_limit_c;
  if (gpu_short_) {
    add_cause(causes, "GPU dies above their max operating " + num(c.max_operating_c, 0) + " C");
  }
  if (hottest_air > kAllowableInletMaxC) {
    add_plant_cause("room air above ASHRAE's allowable " + num(kAllowableInletMaxC, 0) +
                    " C (doors and air handlers short)");
  }
  if (plant_.unmet_w > 0.0) {
    add_plant_cause("heat beyond the chiller's capacity");
  }
  // What a zone's loop has lost, when the cooling is short: the reason is often a fault, not
  // the plant's size.
  for (const auto& z : zones_) {
    if (causes.empty()) break;
    if (z.cdus_failed > 0 && z.cdu_flow_limit < 1.0) {
      add_plant_cause("zone " + z.name + ": " + std::to_string(z.cdus_failed) + " of " + std::to_string(z.cdus) +
                      " CDUs out of service, the working ones pump " + num(100.0 * z.cdu_flow_limit, 0) +
                      "% of its rated flow");
    }
    if (z.flow_fraction < 1.0) {
      add_plant_cause("zone " + z.name + ": pumps at " + num(100.0 * z.flow_fraction, 0) + "% of rated flow");
    }
    // The control decides once per tick (and at load events, from temperatures the new load has
    // not raised yet): a load step runs until the next tick at the speed chosen for the load
    // before it. Hot dies in a zone whose pumps or fans were below full speed are that lag, not
    // a plant too small (the shipped TCO scenario at a 15 min tick: 87.5 C; at 1 min: 76 C).
    if (gpu_short_ && z.max_gpu_c > gpu_limit_c && z.speed < 1.0) {
      add_cause(causes, "zone " + z.name + ": " + (c.mode == FacilityConfig::Mode::kAir ? "fans" : "pumps") +
                            " below full speed, as the " + c.control + " control set them for the load before it "
                            "rose; it decides once per tick (" + num(c.tick.seconds(), 0) +
                            " s): a shorter /facility/tick follows load steps sooner");
    }
  }
  // Dies above max operating in a zone at full speed: the loop itself is too warm or too slow.
  // (Below it, within the hysteresis, they are still cooling down from the lag.)
  if (std::any_of(zones_.begin(), zones_.end(),
                  [&](const Zone& z) { return z.max_gpu_c > c.max_operating_c && z.speed >= 1.0; })) {
    beyond_control = true;
  }
  const bool short_now = !causes.empty();
  if (short_now) {
    shortfall_s_ += dt_s;
    if (first_shortfall_s_ < 0.0) first_shortfall_s_ = sim_.now().seconds();
    worst_loop_c_ = std::max(worst_loop_c_, hottest_loop);
    worst_air_c_ = std::max(worst_air_c_, hottest_air);
    worst_unmet_w_ = std::max(worst_unmet_w_, plant_.unmet_w);
    shortfall_beyond_control_ = shortfall_beyond_control_ || beyond_control;
    for (std::size_t at = 0; at < causes.size();) {
      const std::size_t end = std::min(causes.find("; ", at), causes.size());
      add_cause(shortfall_causes_, causes.substr(at, end - at));
      at = end + 2;
    }
  }
  if (short_now != short_now_) {
    short_now_ = short_now;
    log_event(short_now ? "cooling_shortfall" : "cooling_shortfall_end", -1, -1, -1,
              std::isfinite(max_gpu_c) ? max_gpu_c : 0.0, short_now ? causes : "cooling keeps up again");
    if (short_now && c.shortfall_is_error) {
      throw CoolingShortfallError(
          "the cooling cannot remove the heat at t = " + num(sim_.now().seconds(), 0) + " s: " + causes +
          " (hottest GPU " + num(max_gpu_c, 1) + " C, coolant loop " + num(hottest_loop, 1) + " C, room air " +
          num(hottest_air, 1) + " C" + chiller_short_text(plant_.unmet_w, c.plant.chiller_capacity_w) + "); facility water " +
          num(c.facility_water_flow_kg_per_s_per_rack, 3) + " kg/s per rack for " +
          std::to_string(rack_power_w_.size()) + " racks");
    }
  }
}

void FacilitySimulation::put_shortfall_summary() {
  sink_.set_summary("facility/cooling_shortfall_s",
                    sim::SummaryValue{shortfall_s_, "s",
                                      "time the cooling could not remove the heat (GPU dies above max operating, "
                                      "room air above 32 C, or the chiller short)"});
  if (shortfall_s_ <= 0.0) return;
  sink_.set_summary(
      "facility/cooling_warning",
      sim::SummaryValue{"cooling short for " + num(shortfall_s_, 0) + " s from t = " + num(first_shortfall_s_, 0) +
                            " s: " + shortfall_causes_ + "; hottest GPU " + num(max_gpu_c_, 1) + " C, coolant loop " +
                            num(worst_loop_c_, 1) + " C, room air " + num(worst_air_c_, 1) + " C" +
                            chiller_short_text(worst_unmet_w_, config_.plant.chiller_capacity_w) + "; facility water " +
                            num(config_.facility_water_flow_kg_per_s_per_rack, 3) + " kg/s per rack" +
                            (shortfall_beyond_control_
                                 ? ": size the plant (/facility/plant) and the CDUs (/facility/cooling, "
                                   "/facility/zones) before trusting these temperatures"
                                 : ""),
                        "", "why the cooling fell short (absent when it never did)"});
}

}  // namespace dcsim::models::facility
