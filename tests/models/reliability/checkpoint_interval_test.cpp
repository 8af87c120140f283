#include <catch2/catch.hpp>
#include <cmath>

#include "models/reliability/checkpoint_interval.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::reliability;

TEST_CASE("Young's interval is sqrt(2 C M)", "[models][reliability][checkpoint]") {
  // C = 5 min, M = 3.09 h = 185.4 min (Llama 3's one unexpected interruption every 3.09 h):
  // sqrt(2 * 5 * 185.4) = sqrt(1854) = 43.058 min.
  CHECK(checkpoint_interval_young(5.0, 185.4) == Approx(43.058).epsilon(1e-4));
  // The same in seconds: 300 s and 11,124 s give 2,583.5 s.
  CHECK(checkpoint_interval_young(300.0, 3.09 * 3600.0) == Approx(2583.5).epsilon(1e-4));
}

TEST_CASE("Daly's interval reproduces his simulated optima and tends to Young's for C << M",
          "[models][reliability][checkpoint]") {
  // Daly 2006 (public-figures.md): C = 5 min; M = 24 h -> 117 min, 6 h -> 57 min, 15 min -> 9.1 min.
  // By hand for 24 h: sqrt(2*5*1440) = 120; x = 5/2880; 120 * (1 + sqrt(x)/3 + x/9) - 5 = 116.7.
  CHECK(checkpoint_interval_daly(5.0, 24 * 60.0) == Approx(116.7).margin(0.05));
  CHECK(std::round(checkpoint_interval_daly(5.0, 6 * 60.0)) == 57.0);
  CHECK(checkpoint_interval_daly(5.0, 15.0) == Approx(9.1).margin(0.05));
  // C >= 2M: checkpoint every M.
  CHECK(checkpoint_interval_daly(10.0, 4.0) == 4.0);
  // Relative gap (Daly - Young) / Young = sqrt(x)/3 + x/9 - sqrt(x) = -(2/3) sqrt(x) + x/9 with
  // x = C / 2M. C / M = 1e-8: x = 5e-9, gap 4.7e-5.
  const double young = checkpoint_interval_young(1.0, 1e8);
  CHECK(checkpoint_interval_daly(1.0, 1e8) == Approx(young).epsilon(1e-4));
  // And the gap shrinks with C / M.
  const auto gap = [](double m) {
    return std::abs(checkpoint_interval_daly(1.0, m) - checkpoint_interval_young(1.0, m)) /
           checkpoint_interval_young(1.0, m);
  };
  CHECK(gap(1e6) < gap(1e4));
  CHECK(gap(1e4) < gap(1e2));
}

TEST_CASE("checkpoint intervals refuse non-positive inputs", "[models][reliability][checkpoint]") {
  CHECK_THROWS_AS(checkpoint_interval_young(0.0, 10.0), dcsim::sim::ConfigError);
  CHECK_THROWS_AS(checkpoint_interval_daly(5.0, -1.0), dcsim::sim::ConfigError);
}
