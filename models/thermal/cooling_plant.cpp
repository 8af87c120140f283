#include "models/thermal/cooling_plant.hpp"

#include <algorithm>

namespace dcsim::models::thermal {

namespace {
constexpr double kWaterCpJPerKgK = 4180.0;
constexpr double kKelvin = 273.15;
}  // namespace

double chiller_cop(const CoolingPlantConfig& config, double supply_c, double outdoor_c) {
  const double evap_k = supply_c - 2.0 + kKelvin;
  const double cond_k = outdoor_c + config.condenser_approach_k + kKelvin;
  const double lift_k = cond_k - evap_k;
  if (lift_k <= 0.0) return config.cop_max;
  return std::min(config.cop_max, config.carnot_fraction * evap_k / lift_k);
}

PlantState plant_state(const CoolingPlantConfig& config, double heat_w, double outdoor_c,
                       double supply_offset_k) {
  PlantState s;
  const double set_c = config.supply_c + supply_offset_k;
  const double q = std::max(heat_w, 0.0);
  const double rise_k = q / (config.water_flow_kg_per_s * kWaterCpJPerKgK);
  s.pump_power_w = config.facility_pump_w_per_w * q;
  const double free_c = outdoor_c + config.dry_cooler_approach_k;
  if (config.dry_cooler) s.dry_cooler_power_w = config.dry_cooler_fan_w_per_w * q;
  if (config.dry_cooler && free_c <= set_c) {
    s.supply_c = set_c;
    s.economiser = true;
    return s;
  }
  if (!config.chiller) {
    // Only a dry cooler and it is too warm outside: the supply floats up.
    s.supply_c = config.dry_cooler ? free_c : set_c;
    s.economiser = config.dry_cooler;
    return s;
  }
  double fraction = 1.0;
  if (config.dry_cooler && rise_k > 0.0) fraction = std::clamp((free_c - set_c) / rise_k, 0.0, 1.0);
  const double needed_w = fraction * q;
  s.chiller_heat_w = std::min(needed_w, std::max(config.chiller_capacity_w, 0.0));
  s.unmet_w = needed_w - s.chiller_heat_w;
  s.supply_c = set_c + s.unmet_w / (config.water_flow_kg_per_s * kWaterCpJPerKgK);
  s.chiller_power_w = s.chiller_heat_w / chiller_cop(config, set_c, outdoor_c);
  return s;
}

}  // namespace dcsim::models::thermal
