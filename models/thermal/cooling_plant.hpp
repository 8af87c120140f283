#pragma once
// Heat rejection from the facility water loop: dry cooler (free cooling / economiser) and chiller.
//
// The dry cooler can bring the facility water down to T_out + approach. When that is at or below
// the supply set point the chiller is off (economiser); otherwise, with a chiller, the dry cooler
// pre-cools the return water and the chiller trims the rest (partial economiser):
//   T_ret = T_sup + Q / (m_fw c_p),   x_chiller = clamp((T_out + approach - T_sup) / (T_ret - T_sup), 0, 1)
// Without a chiller the supply floats up to T_out + approach. A chiller lifts at most its
// capacity; what it cannot lift leaves the supply warmer by that heat over the flow's heat
// capacity (T_sup = T_set + Q_unmet / (m_fw c_p), one pass: the loop's own water mass is not
// modelled), which the facility reports as a cooling shortfall. Chiller COP is a fraction of the
// Carnot COP between evaporator (T_sup - 2 K) and condenser (T_out + condenser approach):
//   COP = eta_carnot * T_evap,K / (T_cond,K - T_evap,K), capped at cop_max.
// eta_carnot 0.6 gives COP ~6 at 7 C chilled water and 35 C condensing: the 6-7 quoted for
// water-cooled centrifugal chillers (public-figures.md, ASHRAE course notes).

namespace dcsim::models::thermal {

struct CoolingPlantConfig {
  double supply_c = 25.0;               // facility water supply set point
  bool chiller = true;
  bool dry_cooler = true;
  double carnot_fraction = 0.6;         // see above
  double cop_max = 15.0;                // compressor at minimal lift (assumption)
  double condenser_approach_k = 8.0;    // condensing above outdoor (assumption, air-cooled)
  double dry_cooler_approach_k = 6.0;   // water leaving the dry cooler above outdoor (assumption)
  // Dry cooler fans per W rejected (assumption: ~1-3% of heat for adiabatic-free dry coolers).
  double dry_cooler_fan_w_per_w = 0.015;
  // Facility water pumps per W transported (assumption: ~1-2%).
  double facility_pump_w_per_w = 0.01;
  // Facility water flow and chiller capacity: FacilitySimulation sizes both with the cluster
  // (FacilityConfig); these defaults only serve direct callers.
  double water_flow_kg_per_s = 10.0;
  double chiller_capacity_w = 1e12;
};

struct PlantState {
  double supply_c = 0.0;        // facility water actually delivered
  double chiller_heat_w = 0.0;  // heat the chiller lifts
  double chiller_power_w = 0.0;
  double dry_cooler_power_w = 0.0;
  double pump_power_w = 0.0;
  bool economiser = false;      // chiller off
  double unmet_w = 0.0;         // heat the chiller could not lift (over its capacity)
};

double chiller_cop(const CoolingPlantConfig& config, double supply_c, double outdoor_c);
// heat_w: heat the loop must reject; supply_offset_k: a fault raising the set point.
PlantState plant_state(const CoolingPlantConfig& config, double heat_w, double outdoor_c,
                       double supply_offset_k);

}  // namespace dcsim::models::thermal
