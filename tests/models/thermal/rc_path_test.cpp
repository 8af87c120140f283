#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <Eigen/Dense>

#include "models/thermal/cooling_plant.hpp"
#include "models/thermal/outdoor_profile.hpp"
#include "models/thermal/rc_path.hpp"

using namespace dcsim::models::thermal;

TEST_CASE("one RC path settles at T_sink + q (R_dp + R_ps)", "[models][thermal]") {
  // Two resistances in series carry all of q at steady state (no heat stored any more).
  const double q = 560.0, r_dp = 0.03, r_ps = 0.025, sink = 30.0;
  double die = sink, plate = sink;
  for (int i = 0; i < 2000; ++i) {
    const auto a = rc_backward_euler(die, plate, q, 1 / r_dp, 1 / r_ps, 40.0, 400.0, 1.0);
    die = a.die0 + a.die1 * sink;
    plate = a.plate0 + a.plate1 * sink;
  }
  CHECK(die == Approx(sink + q * (r_dp + r_ps)).epsilon(1e-6));
  CHECK(plate == Approx(sink + q * r_ps).epsilon(1e-6));
}

TEST_CASE("backward Euler is stable and lands on the steady state for huge steps", "[models][thermal]") {
  // Time constants are seconds; a 10-minute step would blow up an explicit scheme.
  double die = 30.0, plate = 30.0;
  for (int i = 0; i < 5; ++i) {
    const auto a = rc_backward_euler(die, plate, 560.0, 1 / 0.03, 1 / 0.025, 40.0, 400.0, 600.0);
    die = a.die0 + a.die1 * 30.0;
    plate = a.plate0 + a.plate1 * 30.0;
    CHECK(die <= 30.0 + 560.0 * 0.055 + 1e-9);  // monotone approach, no overshoot
  }
  CHECK(die == Approx(30.0 + 560.0 * 0.055).epsilon(1e-6));
}

TEST_CASE("chiller COP rises with warmer supply and cooler outdoor air; economiser below approach",
          "[models][thermal]") {
  CoolingPlantConfig c;
  CHECK(chiller_cop(c, 7.0, 27.0) == Approx(0.6 * 278.15 / 30.0));  // ~5.6, ASHRAE's 6-7 range
  CHECK(chiller_cop(c, 25.0, 27.0) > chiller_cop(c, 7.0, 27.0));
  const auto cold = plant_state(c, 1e6, 10.0, 0.0);  // 10 + 6 K approach <= 25 C supply
  CHECK(cold.economiser);
  CHECK(cold.chiller_power_w == 0.0);
  const auto hot = plant_state(c, 1e6, 35.0, 0.0);
  CHECK_FALSE(hot.economiser);
  CHECK(hot.chiller_power_w > 0.0);
  c.chiller = false;
  CHECK(plant_state(c, 1e6, 35.0, 0.0).supply_c == Approx(41.0));  // floats up without a chiller
}

TEST_CASE("outdoor profiles: sinusoid peaks at the peak hour, series interpolates and repeats", "[models][thermal]") {
  OutdoorProfile p;
  p.kind = OutdoorProfile::Kind::kSinusoid;
  p.mean_c = 15;
  p.amplitude_c = 8;
  CHECK(p.temperature_c(dcsim::sim::Time::from_s(15 * 3600)) == Approx(23.0));
  CHECK(p.temperature_c(dcsim::sim::Time::from_s(3 * 3600)) == Approx(7.0));
  p.kind = OutdoorProfile::Kind::kSeries;
  p.series_c = {10.0, 20.0};
  CHECK(p.temperature_c(dcsim::sim::Time::from_s(1800)) == Approx(15.0));
  CHECK(p.temperature_c(dcsim::sim::Time::from_s(2 * 3600)) == Approx(10.0));
}

TEST_CASE("the inline 2x2 solve gives Eigen's doubles bit for bit", "[models][thermal]") {
  // rc_backward_euler spells out the closed form Matrix2d::inverse() uses; the facility's
  // fingerprints depend on every bit, so compare with Eigen itself over a spread of inputs.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const double die = 20 + 80 * u(rng), plate = 20 + 60 * u(rng), q = 1000 * u(rng);
    const double g_dp = 1 / (0.015 + 0.03 * u(rng)), g_ps = 1 / (0.01 + 0.1 * u(rng)) * u(rng);
    const double c_die = 40, c_plate = 400, dt = std::pow(10.0, -1 + 4 * u(rng));
    Eigen::Matrix2d a;
    a << c_die / dt + g_dp, -g_dp, -g_dp, c_plate / dt + g_dp + g_ps;
    const Eigen::Matrix2d inv = a.inverse();
    const Eigen::Vector2d x0 = inv * Eigen::Vector2d(c_die / dt * die + q, c_plate / dt * plate);
    const Eigen::Vector2d x1 = inv.col(1) * g_ps;
    const RcAffine r = rc_backward_euler(die, plate, q, g_dp, g_ps, c_die, c_plate, dt);
    REQUIRE(r.die0 == x0(0));
    REQUIRE(r.plate0 == x0(1));
    REQUIRE(r.die1 == x1(0));
    REQUIRE(r.plate1 == x1(1));
  }
}
