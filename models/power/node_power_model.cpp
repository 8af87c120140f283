#include "models/power/node_power_model.hpp"

#include <algorithm>

namespace dcsim::models::power {

double psu_efficiency(const NodePowerConfig& config, double load_fraction) {
  const auto& c = config.psu_efficiency_curve;
  if (c.empty()) return 1.0;
  if (load_fraction <= c.front().first) return c.front().second;
  if (load_fraction >= c.back().first) return c.back().second;
  for (std::size_t i = 1; i < c.size(); ++i) {
    if (load_fraction <= c[i].first) {
      const double t = (load_fraction - c[i - 1].first) / (c[i].first - c[i - 1].first);
      return c[i - 1].second + t * (c[i].second - c[i - 1].second);
    }
  }
  return c.back().second;
}

double host_load(const NodePowerConfig& config, double utilization) {
  const double cores = static_cast<double>(config.cpu_sockets) * config.cpu_cores_per_socket;
  if (!(cores > 0.0)) return 0.0;
  const double busy = config.gpus * config.host_threads_per_gpu / cores;
  return std::clamp(std::clamp(utilization, 0.0, 1.0) * busy, 0.0, 1.0);
}

// O(gpus): called per node whose power changes.
NodePowerBreakdown node_power(const NodePowerConfig& config, const double* gpu_power_w,
                              double utilization, double fan_speed) {
  const double u = std::clamp(utilization, 0.0, 1.0);
  const double s = std::clamp(fan_speed, 0.0, 1.0);
  NodePowerBreakdown b;
  for (int g = 0; g < config.gpus; ++g) b.gpu_w += gpu_power_w[g];
  const double h = host_load(config, u);
  b.cpu_w = config.cpu_sockets * (config.cpu_idle_power_w + (config.cpu_max_power_w - config.cpu_idle_power_w) * h);
  b.other_w = config.dram_idle_power_w + (config.dram_max_power_w - config.dram_idle_power_w) * h +
              config.nics * (config.nic_power_w + config.nic_optic_power_w) +
              config.pcie_switches * config.pcie_switch_power_w + config.nvme_drives * config.nvme_power_w +
              config.switch_idle_power_w + (config.switch_max_power_w - config.switch_idle_power_w) * u;
  b.fan_w = config.fan_max_power_w * s * s * s;
  b.dc_w = b.gpu_w + b.cpu_w + b.other_w + b.fan_w;
  const double eta = psu_efficiency(config, config.psu_capacity_w > 0 ? b.dc_w / config.psu_capacity_w : 1.0);
  b.ac_w = b.dc_w / eta;
  b.psu_loss_w = b.ac_w - b.dc_w;
  return b;
}

}  // namespace dcsim::models::power
