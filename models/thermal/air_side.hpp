#pragma once
// A zone's air side: rear-door heat exchangers (RDHx) in series with the rack exhaust, then the
// room air handlers (CRAH) on what the doors leave, with the room air as one lumped node.
//
// Series, not parallel: the racks' exhaust passes through the doors before it reaches the room,
// so a door captures heat first, with its effectiveness and up to its capacity; the air handlers
// see only the remainder and remove it through their coil, with their own capacity:
//   rack exhaust heat   R(T_a) = a0 + a1 T_a            (a1 <= 0: air-cooled heat sinks in air mode)
//   door                Q_d = min(cap_d, eps_d R(T_a'))
//   air handlers        Q_c = min(cap_c, G_c (T_a' - T_w)),  G_c = cap_c / approach
//   room air            C_a (T_a' - T_a) / dt = R(T_a') - Q_d - Q_c
// solved by backward Euler (every flux at the end of the step, so energy is conserved exactly):
// linear in T_a' for a given set of capped terms, re-solved when a term reaches its cap (the
// terms only ever cap as T_a' rises, so at most one re-solve per term).
//
// Steady state with nothing capped (hand-checkable): Q_d = eps R, Q_c = (1 - eps) R,
// T_a = T_w + (1 - eps) R / G_c.
//
// The door's fans move the air through its coil. Fan speed tracks the door's duty (EC fans
// modulate on the leaving-air temperature, so airflow ~ heat at a constant air temperature drop)
// and fan power follows the affinity law, power ~ speed^3 (fan laws, e.g. ASHRAE Handbook HVAC
// Systems and Equipment, "Fans"):
//   P_fan = P_fan,rated (Q_d / cap_d,rated)^3.
// With failed fans a door passes only the air the servers push through it: its duty falls to the
// passive door's share, Q_d = min(cap_p, eps_d (cap_p / cap_d) R) (heat at a given air-to-water
// difference is proportional to the air mass flow through the coil, and the capacities are rated
// at the same difference), and the air handlers take what it no longer does.

namespace dcsim::models::thermal {

struct AirSideInput {
  double dt_s = 0.0;
  double capacity_j_per_k = 0.0;   // room air + structure of the zone
  double air_c = 0.0;              // room air at the start of the step
  double water_c = 0.0;            // water feeding the doors and air handlers
  double exhaust0_w = 0.0;         // a0: heat in the racks' exhaust independent of T_a
  double exhaust1_w_per_k = 0.0;   // a1 (<= 0)
  double door_effectiveness = 0.0; // share of the exhaust heat the doors take below their cap
  double door_capacity_w = 0.0;    // all doors of the zone together (0: none, or cooling lost)
  double crah_capacity_w = 0.0;    // all air handlers of the zone together
  double crah_approach_k = 10.0;   // air above water at which the handlers reach capacity
};

struct AirSideResult {
  double air_c = 0.0;      // room air at the end of the step
  double exhaust_w = 0.0;  // R(T_a')
  double door_w = 0.0;
  double crah_w = 0.0;
  bool door_capped = false;
  bool crah_capped = false;
};

AirSideResult solve_air_side(const AirSideInput& in);

// Door fan power of `doors` active doors sharing `door_w`, each rated `rated_capacity_w` with
// fans drawing `rated_fan_w` at that duty (affinity law above).
double door_fan_power_w(double door_w, int doors, double rated_capacity_w, double rated_fan_w);

}  // namespace dcsim::models::thermal
