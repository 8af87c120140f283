#include <catch2/catch.hpp>

#include "models/power/gpu_power.hpp"
#include "models/power/node_power_model.hpp"

using namespace dcsim::models::power;

TEST_CASE("GPU power spans idle to max and the cap lowers the clock", "[models][power]") {
  GpuPowerConfig c;
  CHECK(gpu_power_w(c, 0.0, 1.0) == Approx(84.0));
  CHECK(gpu_power_w(c, 1.0, 1.0) == Approx(700.0));
  CHECK(power_cap_clock_factor(c, 1.0) == 1.0);  // demand fits the default 700 W limit
  for (double limit : {200.0, 350.0, 500.0, 650.0}) {
    c.power_limit_w = limit;
    for (double u : {0.3, 0.7, 1.0}) {
      const double f = power_cap_clock_factor(c, u);
      // Never above the limit; exactly at it when the demand exceeded it.
      CHECK(gpu_power_w(c, u, f) <= limit + 1e-9);
      if (gpu_power_w(c, u, 1.0) > limit) CHECK(gpu_power_w(c, u, f) == Approx(limit));
    }
  }
}

TEST_CASE("the DVFS exponent sets how much clock a watt buys", "[models][power]") {
  GpuPowerConfig c;
  c.power_limit_w = 400.0;
  const double f25 = power_cap_clock_factor(c, 1.0);
  c.dvfs_exponent = 2.0;
  const double f20 = power_cap_clock_factor(c, 1.0);
  // (316/616)^(1/k): a steeper power-clock curve keeps more clock under the same cap.
  CHECK(f25 > f20);
  CHECK(f20 == Approx(std::sqrt(316.0 / 616.0)));
}

TEST_CASE("PSU efficiency follows the 80 PLUS Titanium points and adds losses", "[models][power]") {
  NodePowerConfig c;
  CHECK(psu_efficiency(c, 0.05) == Approx(0.90));
  CHECK(psu_efficiency(c, 0.35) == Approx(0.95));  // halfway between 94% at 20% and 96% at 50%
  CHECK(psu_efficiency(c, 1.2) == Approx(0.91));
  double gpu[8];
  for (double& g : gpu) g = 700.0;
  const auto b = node_power(c, gpu, 1.0, 1.0);
  CHECK(b.ac_w > b.dc_w);
  CHECK(b.ac_w == Approx(b.dc_w / psu_efficiency(c, b.dc_w / c.psu_capacity_w)));
  CHECK(b.ac_w < 10'200.0 * 1.05);  // near the DGX H100 10.2 kW system maximum
  const auto slow_fans = node_power(c, gpu, 1.0, 0.5);
  CHECK(b.fan_w - slow_fans.fan_w == Approx(1500.0 * (1.0 - 0.125)));  // affinity law, speed^3
}

TEST_CASE("bottom-up node power at full load against the DGX H100 10.2 kW rating", "[models][power]") {
  // 10.2 kW is the system maximum the PSUs are sized for (public-figures.md): the bottom-up sum
  // at full GPU power with the fans at full speed must stay under it, but not far under (parts
  // left out would show as a gap). With cold plates the fans idle and the node draws ~2 kW less.
  NodePowerConfig c;
  double gpu[8];
  for (double& g : gpu) g = 700.0;
  const auto air = node_power(c, gpu, 1.0, 1.0);
  CHECK(air.ac_w <= 10'200.0);
  // Measured: 9.45 kW, 7% under the rating (PSU sizing margin; parts without a public figure,
  // e.g. BMC and board regulators, are left out rather than guessed).
  CHECK(air.ac_w >= 0.9 * 10'200.0);
  // Each corrected part acts: NIC optics and PCIe switches are in the DC load.
  NodePowerConfig bare = c;
  bare.nic_optic_power_w = 0.0;
  bare.pcie_switches = 0;
  CHECK(air.dc_w - node_power(bare, gpu, 1.0, 1.0).dc_w == Approx(10 * 8.0 + 4 * 54.0));
  const auto d2c = node_power(c, gpu, 1.0, 0.25);
  CHECK(d2c.ac_w < air.ac_w - 1'300.0);
}
