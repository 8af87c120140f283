#pragma once
// Config of the facility model (power delivery, cooling plant, zones, faults). Plain data; the
// scenario layer fills it from the scenario's "facility" section, FacilitySimulation checks what no
// single key says (a ConfigError names the member, e.g. "shutdown_c"; the scenario maps it back).

#include <optional>
#include <string>
#include <vector>

#include "models/facility/cooling_control.hpp"
#include "sim/params.hpp"
#include "models/power/node_power_model.hpp"
#include "models/power/switch_power.hpp"
#include "models/thermal/cooling_plant.hpp"
#include "models/thermal/outdoor_profile.hpp"
#include "models/thermal/rc_path.hpp"
#include "sim/time.hpp"

namespace dcsim::models::facility {

struct PlantFault {
  enum class Kind { kCduPumpFailure, kRdhxFanFailure, kChilledWaterRise, kZoneCoolingLoss, kCduFailure };
  Kind kind = Kind::kCduPumpFailure;
  sim::Time at = sim::Time::zero();
  sim::Time duration = sim::Time::max();  // max: never repaired
  int zone = 0;                           // -1: every zone (chilled-water rise is plant-wide)
  double flow_fraction = 0.0;             // pump failure: secondary flow left (redundant pumps)
  double delta_c = 5.0;                   // chilled-water rise
  int count = 1;                          // CDU failure: units out of service
};

// A zone is a group of racks with its own CDU, doors and air handling. Unset overrides take the
// facility-wide value (FacilityConfig); set ones make a weaker or stronger zone (an older row with
// passive-class doors, a CDU with less flow, a lower capture retrofit).
struct ZoneConfig {
  std::string name;
  std::vector<int> racks;
  std::optional<double> d2c_capture;                       // share of node heat into liquid
  std::optional<double> rdhx_capacity_w;                   // per active door
  // Rated secondary flow per rack. The cold plates' conductance is rated at the facility-wide
  // flow, so a zone with less flow per rack also has warmer plates (Dittus-Boelter, flow^0.8).
  std::optional<double> secondary_flow_kg_per_s_per_rack;
  std::optional<double> target_gpu_c;                      // closed-loop control target
  std::optional<int> cdus;                                 // CDUs serving the zone (else sized)
};

struct FacilityConfig {
  sim::Time tick = sim::Time::from_s(10);  // thermal step and control period (also at load events)
  power::NodePowerConfig node;
  // Power delivery between utility and node inlets (PUE overhead), power_delivery.hpp. UPS losses
  // as fractions of its rating: no-load + proportional x load + square-law x load^2 (Schneider
  // Electric White Paper 108, Avelar: no-load losses can be over 40% of all losses, square-law
  // 1-4% at high loads). Defaults: 4.2% of rating at full load (a double-conversion UPS at ~96%,
  // vendor range 95-97%) split 40/48/12 (assumption). PDU/transformer ~98-99% (vendor ranges).
  double ups_no_load_loss = 0.017;
  double ups_proportional_loss = 0.02;
  double ups_square_law_loss = 0.005;
  // UPS rating; unset: the cluster's full-load IT power (every node at full power plus the network).
  std::optional<double> ups_capacity_w;
  double pdu_efficiency = 0.985;
  double rack_limit_w = 60'000.0;    // a crossing is logged in facility/events
  // What keeps racks under rack_limit_w (power_capping.hpp): a registered policy and its
  // parameters (undocumented ones are a ConfigError "power_capping_params.<name>"). The lowest
  // GPU power limit it may set is the driver's (200 W on H100 SXM, public-figures.md).
  std::string power_capping = "log_only";
  sim::Params power_capping_params;
  double min_gpu_power_limit_w = 200.0;
  double spike_fraction = 0.25;      // rack power rising by this fraction ...
  sim::Time spike_window = sim::Time::from_s(1);  // ... within this window is logged as a spike

  enum class Mode { kD2c, kAir };
  Mode mode = Mode::kD2c;
  double d2c_capture = 0.8;          // share of node heat into liquid (0.7-0.95, public-figures.md)
  thermal::RcPathParams rc;
  double tim_spread = 0.05;          // relative spread (std dev) of the die-to-plate resistance
  // Thermal paths per node. kGpu: one per GPU, each with its own die-to-plate resistance (the
  // spread above). kNode: one per node standing for all its GPUs, with the largest of their drawn
  // resistances: the node's hottest die, which sets its clock (the node runs at its slowest GPU),
  // is the same as at kGpu under the same sink; heat in = heat out as before; its cooler GPUs
  // read as hot as it (thermal/throttled_gpu_s counts them with it). A tick then costs O(nodes)
  // instead of O(GPUs): site-scale runs (docs/models/facility.md).
  enum class ThermalResolution { kGpu, kNode };
  ThermalResolution thermal_resolution = ThermalResolution::kGpu;
  // Secondary (CDU) loop: rated flow per rack, CDU heat-exchanger effectiveness, lumped water
  // mass, pump power at rated flow. 1.5 L/min per kW of liquid heat is a common sizing rule
  // (assumption): ~1 kg/s per 40 kW rack. One CDU loop per zone, sized with its racks (flow,
  // water mass and pump power are per rack).
  double secondary_flow_kg_per_s_per_rack = 1.0;
  double cdu_effectiveness = 0.8;
  double loop_capacity_j_per_k_per_rack = 4.18e5;  // ~100 L of water per rack (assumption)
  double cdu_pump_power_w_per_rack = 400.0;        // at rated flow; affinity law ~ speed^3 (assumption)
  // The zone's loop is served by CDUs in parallel, each pumping at most cdu_rated_flow through its
  // own heat exchanger: the loop gets min(what the control asks, working CDUs x rated flow). A
  // zone's count (ZoneConfig::cdus) defaults to enough CDUs for its rated flow plus
  // cdu_redundant_units spares (N+1 is the usual design), so one CDU out (fault cdu_failure)
  // costs nothing there and a second one caps the flow. 24 kg/s carries ~1 MW at a 10 K rise, a
  // row-scale CDU (assumption); 0 spares: every CDU lost shows.
  double cdu_rated_flow_kg_per_s = 24.0;
  int cdu_redundant_units = 1;
  // Rear doors (RDHx), one per rack, in series with the rack exhaust (thermal/air_side.hpp): a
  // door takes `rdhx_effectiveness` of the exhaust heat up to its capacity; the air handlers get
  // the rest. Active doors have fans; a passive door (or an active one whose fans failed) has
  // the passive capacity.
  bool rdhx = true;
  bool rdhx_active = true;
  double rdhx_capacity_w = 50'000.0;      // HPE/Motivair 35-55 kW family (public-figures.md)
  double rdhx_passive_capacity_w = 20'000.0;  // passive doors up to ~35 kW (public-figures.md); 20 kW: a mid-size one
  // Share of the exhaust heat a door takes below its capacity. Vendors rate doors "room neutral"
  // at their capacity; 0.9 leaves a tenth to bypass and leakage around the door (assumption).
  double rdhx_effectiveness = 0.9;
  double rdhx_fan_power_w = 1'000.0;      // per door at rated duty: door fans 0.5-2 kW (public-figures.md)
  double coil_approach_k = 10.0;          // design air-to-water temperature difference (air handlers)
  // Room air handlers (CRAH) per zone, for what the doors leave: capacity and fan power per W of
  // heat they move. Unset capacity: sized to the zone's full-load air-side heat (every node at
  // full power with the doors off), so that losing the doors does not overload the room.
  std::optional<double> crah_capacity_w;
  double crah_fan_w_per_w = 0.05;         // ~5% of heat moved (assumption, legacy CRAH)
  double air_capacity_j_per_k_per_rack = 3e5;  // room air + structure per rack (assumption)
  double node_fan_min_speed = 0.25;       // D2C nodes still move some air (assumption)

  // Facility water flow per rack (the plant is sized with the cluster): ~1 kg/s carries a 41 kW
  // rack's heat at a 10 K rise, the same sizing rule as the secondary loop (assumption).
  double facility_water_flow_kg_per_s_per_rack = 1.0;
  // Chiller capacity; unset: the cluster's full-load heat (every node at full power plus the
  // network), a plant sized for the IT it serves.
  std::optional<double> chiller_capacity_w;
  // What a cooling shortfall does (a GPU die above its max operating temperature, room air above
  // ASHRAE's allowable 32 C, or heat the chiller cannot lift): always a facility event and a
  // summary warning; with this set, also an error that ends the run (exit 2).
  bool shortfall_is_error = false;

  thermal::CoolingPlantConfig plant;
  thermal::OutdoorProfile outdoor;
  std::string control = "pi_target";
  // The control's parameters (its registration documents them; missing ones take their
  // defaults, undocumented ones are a ConfigError "control_params.<name>").
  sim::Params control_params;
  double target_gpu_c = 65.0;  // closed loop: hold the hottest GPU here (issue 5 default)
  // Throttling (H100 SXM nvidia-smi, public-figures.md): clocks fall from max operating to the
  // slowdown temperature, hold at slowdown_clock above it, and the GPU shuts down at shutdown.
  double max_operating_c = 87.0;
  double slowdown_c = 89.0;
  double shutdown_c = 92.0;
  double slowdown_clock_factor = 0.5;   // HW slowdown halves the clock (assumption)
  double restart_below_c = 80.0;        // a shut-down GPU returns once cooled (assumption)

  // Network switches (switch_power.hpp): an IT load beside the nodes, air-cooled, its heat
  // shared by the zones' room air in proportion to their racks. The scenario layer fills these
  // from the fabric section's topology, or from /facility/network when there is no fabric.
  power::SwitchPowerConfig switch_power;
  int network_switches = 0;
  int network_active_ports = 0;
  double network_power_w = 0.0;

  std::vector<ZoneConfig> zones;  // empty: `halls` zones over every rack
  // Without `zones`: the racks split in rack order into this many zones of equal size (the first
  // ones one rack more when they do not divide), named hall-1 .. hall-N. A site's data halls, each
  // with its own CDUs, doors and air, without listing thousands of rack indices; 1: one zone "all".
  int halls = 1;
  std::vector<PlantFault> faults;
};

}  // namespace dcsim::models::facility
