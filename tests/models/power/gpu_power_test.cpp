#include <catch2/catch.hpp>

#include "models/hardware/node_presets.hpp"
#include "models/power/gpu_power.hpp"
#include "models/power/node_power.hpp"
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
  // at full GPU power with the host at full load too and the fans at full speed must stay under
  // it, but not far under (parts left out would show as a gap). With cold plates the fans idle
  // and the node draws ~2 kW less.
  NodePowerConfig c;
  double gpu[8];
  for (double& g : gpu) g = 700.0;
  NodePowerConfig host_at_full = c;
  host_at_full.host_threads_per_gpu = 14.0;  // 8 x 14 = all 112 cores busy
  const auto rated = node_power(host_at_full, gpu, 1.0, 1.0);
  CHECK(rated.ac_w <= 10'200.0);
  // Measured: 9.45 kW, 7% under the rating (PSU sizing margin; parts without a public figure,
  // e.g. BMC and board regulators, are left out rather than guessed).
  CHECK(rated.ac_w >= 0.9 * 10'200.0);
  // Each corrected part acts: NIC optics and PCIe switches are in the DC load.
  NodePowerConfig bare = c;
  bare.nic_optic_power_w = 0.0;
  bare.pcie_switches = 0;
  const auto air = node_power(c, gpu, 1.0, 1.0);
  CHECK(air.dc_w - node_power(bare, gpu, 1.0, 1.0).dc_w == Approx(10 * 8.0 + 4 * 54.0));
  const auto d2c = node_power(c, gpu, 1.0, 0.25);
  CHECK(d2c.ac_w < air.ac_w - 1'300.0);
}

TEST_CASE("a GPU job loads the host by its busy threads, not to the CPUs' TDP", "[models][power]") {
  NodePowerConfig c;
  // 8 GPUs x 2 threads (launch, NCCL proxy) on 2 x 56 cores: h = 16 / 112 at full GPU activity,
  // half that at half.
  CHECK(host_load(c, 1.0) == Approx(16.0 / 112.0));
  CHECK(host_load(c, 0.5) == Approx(8.0 / 112.0));
  CHECK(host_load(c, 0.0) == 0.0);
  double gpu[8];
  for (double& g : gpu) g = 700.0;
  const auto b = node_power(c, gpu, 1.0, 1.0);
  // By hand: CPUs 2 x (100 + 250 h) = 271.43 W; DRAM 100 + 150 h = 121.43 W; NICs and optics
  // 10 x 28, PCIe switches 4 x 54, NVMe 8 x 12, NVSwitches 400, fans 1,500: 8,484.86 W DC at
  // 42.85% of the 19.8 kW PSUs, 95.52% efficient (between 94% at 20% and 96% at 50%): 8,882.5 W.
  const double h = 16.0 / 112.0;
  CHECK(b.cpu_w == Approx(2.0 * (100.0 + 250.0 * h)));
  const double dc_w = 5600.0 + 2.0 * (100.0 + 250.0 * h) + 100.0 + 150.0 * h + 280.0 + 216.0 + 96.0 + 400.0 + 1500.0;
  CHECK(b.dc_w == Approx(dc_w));
  CHECK(b.ac_w == Approx(dc_w / (0.94 + 0.02 * (dc_w / 19'800.0 - 0.2) / 0.3)));
  CHECK(b.ac_w == Approx(8882.5).margin(0.5));
  // Latif et al., "Empirical Measurements of AI Training Power Demand on a GPU-Accelerated Node"
  // (arXiv 2412.08602, 2024): 8.4 kW the most an air-cooled 8 x H100 HGX node drew training
  // Llama 2 13B, "GPUs near full utilization". Every GPU at its 700 W limit with the fans at full
  // speed bounds that from above, within 6%; the CPUs at their TDP (the old reading) did not.
  CHECK(b.ac_w > 8'400.0);
  CHECK(b.ac_w < 8'400.0 * 1.06);
  NodePowerConfig host_follows_gpus = c;
  host_follows_gpus.host_threads_per_gpu = 14.0;
  CHECK(node_power(host_follows_gpus, gpu, 1.0, 1.0).ac_w > 8'400.0 * 1.12);
}

TEST_CASE("the HGX H100 preset's linear model draws what the bottom-up model does at full load", "[models][power]") {
  // Without a facility the cluster uses node_power.hpp's linear model; its full-load point is
  // the bottom-up model's with the host at a GPU job's load and the fans at full speed.
  double gpu[8];
  for (double& g : gpu) g = 700.0;
  const dcsim::models::hardware::NodeSpec node = dcsim::models::hardware::hgx_h100();
  CHECK(node_power_w(node, 1.0) == Approx(node_power(NodePowerConfig{}, gpu, 1.0, 1.0).ac_w).margin(0.5));
}
