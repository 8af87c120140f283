#pragma once
// GPU board power from utilisation, clock factor and power limit (DVFS approximation).
//
//   P(u, f) = P_idle + (P_max - P_idle) * u * f^k          u in [0,1], f in (0,1]
//
// Dynamic CMOS power is C V^2 f; along a DVFS curve the voltage falls roughly linearly with the
// clock, so dynamic power scales as f^2..f^3. k (dvfs_exponent, default 2.5) is that documented
// approximation, not a fit. P_idle is drawn at the idle clock whatever the load.
//
// Power capping is a mechanism, not a clip: when the demand P(u, 1) exceeds the power limit the
// driver lowers the clock until P(u, f_cap) = limit, i.e.
//   f_cap = ((limit - P_idle) / ((P_max - P_idle) * u))^(1/k)       (1 when the demand fits).
// So the drawn power never exceeds the limit and the work slows by f_cap.

namespace dcsim::models::power {

struct GpuPowerConfig {
  double idle_power_w = 84.0;     // H100 SXM idle, 75-93 W measured (public-figures.md, nvidia-smi)
  double max_power_w = 700.0;     // H100 SXM board power at full load (public-figures.md)
  double power_limit_w = 700.0;   // configured cap, 200..700 W on H100 (public-figures.md)
  double dvfs_exponent = 2.5;     // k above: P_dyn ~ f V^2 with V ~ f gives 2..3 (assumption)
};

// Power at utilisation u and clock factor f (0 when the GPU is shut down: pass f = 0).
double gpu_power_w(const GpuPowerConfig& config, double utilization, double clock_factor);
// Clock factor the power limit imposes at utilisation u (1 when the demand fits under the cap).
double power_cap_clock_factor(const GpuPowerConfig& config, double utilization);

}  // namespace dcsim::models::power
