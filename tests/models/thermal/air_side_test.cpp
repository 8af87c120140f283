#include <catch2/catch.hpp>

#include "models/thermal/air_side.hpp"

using dcsim::models::thermal::AirSideInput;
using dcsim::models::thermal::door_fan_power_w;
using dcsim::models::thermal::solve_air_side;

namespace {

// A zone of two racks: 8 kW of exhaust heat (20% of two ~20 kW racks' heat), 25 C water, doors
// of 50 kW each taking 90%, air handlers of 60 kW reaching capacity 10 K above the water
// (G = 6 kW/K). A step of 1e9 s puts backward Euler at the steady state (C/dt = 3e-4 W/K).
AirSideInput zone() {
  AirSideInput in;
  in.dt_s = 1e9;
  in.capacity_j_per_k = 3e5;
  in.air_c = 25.0;
  in.water_c = 25.0;
  in.exhaust0_w = 8'000.0;
  in.door_effectiveness = 0.9;
  in.door_capacity_w = 100'000.0;
  in.crah_capacity_w = 60'000.0;
  in.crah_approach_k = 10.0;
  return in;
}

}  // namespace

TEST_CASE("air side: doors take their share of the exhaust first, the air handlers the rest (steady state by hand)",
          "[models][thermal][air]") {
  // Q_d = 0.9 x 8000 = 7200 W; the room keeps 800 W, so T_a = 25 + 800 / 6000 = 25.1333 C and
  // the handlers remove 6000 x 0.1333 = 800 W: heat in (8000) = heat out (7200 + 800).
  const auto r = solve_air_side(zone());
  CHECK(r.door_w == Approx(7'200.0).epsilon(1e-6));
  CHECK(r.air_c == Approx(25.0 + 800.0 / 6'000.0).epsilon(1e-6));
  CHECK(r.crah_w == Approx(800.0).epsilon(1e-5));
  CHECK(r.door_w + r.crah_w == Approx(8'000.0).epsilon(1e-6));
  CHECK_FALSE(r.door_capped);
  CHECK_FALSE(r.crah_capped);
}

TEST_CASE("air side: without doors the air handlers take all the exhaust heat, the room runs warmer",
          "[models][thermal][air]") {
  auto in = zone();
  in.door_capacity_w = 0.0;
  const auto r = solve_air_side(in);
  // T_a = 25 + 8000 / 6000 = 26.333 C: ten times the doors-on rise.
  CHECK(r.door_w == 0.0);
  CHECK(r.crah_w == Approx(8'000.0).epsilon(1e-6));
  CHECK(r.air_c == Approx(25.0 + 8'000.0 / 6'000.0).epsilon(1e-6));
}

TEST_CASE("air side: a door at its capacity passes the excess to the room", "[models][thermal][air]") {
  auto in = zone();
  in.exhaust0_w = 60'000.0;
  in.door_capacity_w = 50'000.0;
  // 0.9 x 60 kW = 54 kW > 50 kW: the door takes 50 kW, the handlers 10 kW at T_a = 25 + 10/6.
  const auto r = solve_air_side(in);
  CHECK(r.door_capped);
  CHECK(r.door_w == Approx(50'000.0));
  CHECK(r.crah_w == Approx(10'000.0).epsilon(1e-6));
  CHECK(r.air_c == Approx(25.0 + 10'000.0 / 6'000.0).epsilon(1e-6));
}

TEST_CASE("air side: heat beyond the air handlers' capacity warms the room at C dT/dt = excess",
          "[models][thermal][air]") {
  auto in = zone();
  in.door_capacity_w = 0.0;
  in.crah_capacity_w = 5'000.0;  // G = 500 W/K: uncapped it would need T_a = 41 C
  in.dt_s = 100.0;
  in.air_c = 40.0;  // near the 41 C the handlers would need: they run at capacity
  // Capped at 5 kW, 3 kW stays in the room: 3000 x 100 / 3e5 = 1 K per 100 s.
  const auto r = solve_air_side(in);
  CHECK(r.crah_capped);
  CHECK(r.crah_w == Approx(5'000.0));
  CHECK(r.air_c == Approx(41.0).epsilon(1e-9));
}

TEST_CASE("air side: air-cooled heat sinks (exhaust falling with room temperature) balance by hand",
          "[models][thermal][air]") {
  // R = 100 (60 - T_a); doors take half; G = 1 kW/K on 25 C water:
  // 0.5 x 100 (60 - T) = 1000 (T - 25) -> T = 28000 / 1050 = 26.667 C, each side 1666.7 W.
  auto in = zone();
  in.exhaust0_w = 6'000.0;
  in.exhaust1_w_per_k = -100.0;
  in.door_effectiveness = 0.5;
  in.crah_capacity_w = 10'000.0;
  const auto r = solve_air_side(in);
  CHECK(r.air_c == Approx(28'000.0 / 1'050.0).epsilon(1e-6));
  CHECK(r.door_w == Approx(1'666.667).epsilon(1e-5));
  CHECK(r.crah_w == Approx(1'666.667).epsilon(1e-5));
}

TEST_CASE("door fans follow the affinity law: half duty draws an eighth of rated power", "[models][thermal][air]") {
  CHECK(door_fan_power_w(25'000.0, 1, 50'000.0, 1'000.0) == Approx(125.0));
  CHECK(door_fan_power_w(50'000.0, 2, 50'000.0, 1'000.0) == Approx(250.0));  // two doors at half duty
  CHECK(door_fan_power_w(100'000.0, 2, 50'000.0, 1'000.0) == Approx(2'000.0));
  CHECK(door_fan_power_w(0.0, 2, 50'000.0, 1'000.0) == 0.0);
}
