// FacilitySimulation's plant faults: scripted ones (/facility/faults) and random zone cooling
// losses from the reliability model, both logged in /events/facility.

#include <string>

#include "models/facility/facility_simulation.hpp"
#include "models/facility/facility_state.hpp"
#include "sim/error.hpp"

namespace dcsim::models::facility {

void FacilitySimulation::apply_fault(std::size_t index, bool begin) {
  advance();
  const auto& f = config_.faults[index];
  static const char* kNames[] = {"cdu_pump_failure", "rdhx_fan_failure", "chilled_water_rise", "zone_cooling_loss",
                                 "cdu_failure"};
  for (std::size_t z = 0; z < zones_.size(); ++z) {
    if (f.zone >= 0 && static_cast<std::size_t>(f.zone) != z) continue;
    auto& zone = zones_[z];
    switch (f.kind) {
      case PlantFault::Kind::kCduPumpFailure: zone.flow_fraction = begin ? f.flow_fraction : 1.0; break;
      case PlantFault::Kind::kRdhxFanFailure: zone.rdhx_fans_failed = begin; break;
      case PlantFault::Kind::kZoneCoolingLoss: zone.cooling_losses += begin ? 1 : -1; break;
      case PlantFault::Kind::kChilledWaterRise: break;
      case PlantFault::Kind::kCduFailure:
        zone.cdus_failed += begin ? f.count : -f.count;
        update_cdu_limit(zone);
        break;
    }
  }
  if (f.kind == PlantFault::Kind::kChilledWaterRise) supply_offset_k_ += begin ? f.delta_c : -f.delta_c;
  const double value = f.kind == PlantFault::Kind::kCduPumpFailure ? f.flow_fraction
                       : f.kind == PlantFault::Kind::kChilledWaterRise ? f.delta_c
                       : f.kind == PlantFault::Kind::kCduFailure        ? f.count
                                                                        : 0.0;
  log_event(kNames[static_cast<int>(f.kind)], f.zone, -1, -1, value,
            begin ? "plant fault begins (scripted)" : "plant fault repaired (scripted)");
  schedule_threshold_check();
}

void FacilitySimulation::set_zone_cooling_lost(int zone, bool lost, const std::string& cause) {
  if (zone < 0 || static_cast<std::size_t>(zone) >= zones_.size()) {
    throw sim::InternalError("set_zone_cooling_lost: no zone " + std::to_string(zone) + " (this is a bug)");
  }
  advance();
  auto& z = zones_[static_cast<std::size_t>(zone)];
  if (!lost && z.cooling_losses == 0) return;
  z.cooling_losses += lost ? 1 : -1;
  log_event("zone_cooling_loss", zone, -1, -1, 0.0, (lost ? "random fault begins: " : "random fault repaired: ") + cause);
  schedule_threshold_check();
}

namespace {

// The unit of an event's value, by its kind: the value column mixes powers, temperatures and
// fractions, so each row says which (a spreadsheet would otherwise guess).
std::string value_unit(const std::string& kind) {
  if (kind == "cdu_pump_failure" || kind == "power_cap" || kind == "power_cap_end") return "fraction";
  if (kind == "cdu_failure") return "CDUs";
  if (kind == "chilled_water_rise") return "K";
  if (kind.rfind("rack_", 0) == 0 || kind == "power_spike") return "W";
  if (kind.rfind("thermal_", 0) == 0 || kind == "gpu_shutdown" || kind.rfind("cooling_shortfall", 0) == 0) return "C";
  return "";  // rdhx_fan_failure, zone_cooling_loss: no value
}

}  // namespace

void FacilitySimulation::log_event(const std::string& kind, int zone, int rack, int node, double value,
                                   const std::string& detail) {
  sink_.append_row(events_, {sim_.now().seconds(), kind, std::int64_t{zone}, std::int64_t{rack},
                             std::int64_t{node}, value, value_unit(kind), detail});
}

}  // namespace dcsim::models::facility
