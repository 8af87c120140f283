#pragma once
// FacilitySimulation's per-GPU, per-node and per-zone state (internal to the facility's
// translation units: the simulation in facility_simulation.cpp, its faults in
// facility_faults.cpp, the zone step in zone_heat_balance.cpp, throttling in gpu_throttling.cpp,
// cooling_shortfall.cpp).

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "models/facility/facility_simulation.hpp"
#include "models/facility/min_tree.hpp"

namespace dcsim::models::facility {

struct FacilitySimulation::Gpu {
  double die_c = 0.0, plate_c = 0.0;
  double g_die_plate = 0.0;
  double power_w = 0.0;
  double thermal_factor = 1.0;
  bool shutdown = false;
  // Heat flowing from die to plate now (W): the crossing estimate and its zone bounds share it.
  double die_plate_w() const { return g_die_plate * (die_c - plate_c); }
};

struct FacilitySimulation::Node {
  double utilization = 0.0;
  double cap_factor = 1.0;
  double power_limit_w = 0.0;  // of each of its GPUs: the configured one, or the capping policy's
  double clock = 1.0;
  double gpu_w = 0.0;
  double ac_w = 0.0;
  int zone = 0;
  std::size_t zone_slot = 0;  // its place in its zone's nodes (and crossing tree)
  std::size_t rack = 0;
  int thermal_state = 0;  // 0 nominal, 1 slowed, 2 a GPU shut down
};

struct FacilitySimulation::Zone {
  std::string name;
  std::vector<std::size_t> nodes;
  int racks = 0;
  double loop_c = 0.0, air_c = 0.0;
  double target_gpu_c = 65.0;  // the control's setpoint
  double speed = 1.0;
  double flow_fraction = 1.0;  // pump faults
  int cdus = 1;                // CDUs serving the zone
  int cdus_failed = 0;         // of them out of service (cdu_failure faults in progress)
  // The most the working CDUs pump, as a fraction of the zone's rated secondary flow.
  double cdu_flow_limit = 1.0;
  // Secondary flow delivered, as a fraction of rated: what the control and the pumps ask for,
  // capped by the working CDUs.
  double flow() const { return std::min(speed * flow_fraction, cdu_flow_limit); }
  bool rdhx_fans_failed = false;
  int cooling_losses = 0;  // scripted and random zone_cooling_loss faults in progress
  bool cooling_lost() const { return cooling_losses > 0; }
  double max_gpu_c = 0.0;  // after the last step (the supply temperature before the first)
  int hot_nodes = 0;       // of its nodes, those slowed or with a GPU shut down (thermal_state)
  double run_max_gpu_c = -std::numeric_limits<double>::infinity();  // over the run
  double liquid_w = 0.0, air_w = 0.0, rdhx_w = 0.0, crah_w = 0.0;
  // The zone's cooling (ZoneConfig overrides, else the facility-wide values).
  double capture = 0.0, rdhx_capacity_w = 0.0, secondary_flow_kg_per_s_per_rack = 0.0;
  double plate_flow_scale = 1.0;  // rated zone flow / facility-wide rated flow
  double crah_capacity_w = 0.0;   // the zone's air handlers (set, or sized for its air heat)
  std::unique_ptr<CoolingControl> control;
  std::vector<sim::SeriesId> series;  // max_gpu_c, coolant_c, air_c, speed, liquid_w, air_w
  CrossingSink crossing;              // as the node crossings were last derived with (gpu_throttling.cpp)
  // Zones are stepped on their own clock (advance_zone): a node's change steps its zone only.
  sim::Time last;                     // the time its state stands at
  ZoneStep last_step;                 // its IT power and its pumps' and fans' over the last step
  std::uint64_t stepped_in_call = 0;  // the advance_zones call that last stepped it
  double it_now_w = 0.0;              // its IT power now (nodes and network share), when not it_dirty
  bool it_dirty = true;               // a node's power changed since it_now_w was summed
  // Its nodes' earliest crossings, in seconds from `last` (by zone_slot), and whether a step
  // moved them all since the last check.
  MinTree crossings;
  bool crossings_all_stale = true;
  // Bounds on every one of its GPUs' terms of node_crossing_s, from its last step (and raised by
  // a node's new power since): the zone-wide test that no GPU can cross before the next tick
  // (gpu_throttling.cpp). Infinite until the first step: no bound, no skip.
  struct RiseBound {
    double die_w = std::numeric_limits<double>::infinity();         // max of share q - G_dp (T_d - T_p)
    double plate_w = std::numeric_limits<double>::infinity();       // max of G_dp (T_d - T_p) - G_ps (T_p - T_s)
    double plate_sink_k = std::numeric_limits<double>::infinity();  // max of |T_p - T_s|
    double g_ps = 0.0, share = 0.0, sink_c = 0.0;                   // what plate_w was taken at
  } rise;
  bool crossings_cleared = false;  // by that test, for the horizon cleared_for
  sim::Time cleared_for;
};

}  // namespace dcsim::models::facility
