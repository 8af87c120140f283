#include "models/power/node_power.hpp"

#include <algorithm>

namespace dcsim::models::power {

double node_power_w(const hardware::NodeSpec& node, double gpu_utilization) {
  const double u = std::clamp(gpu_utilization, 0.0, 1.0);
  const double gpu_w = node.gpu.idle_power_w + (node.gpu.max_power_w - node.gpu.idle_power_w) * u;
  const double other_w = node.other_idle_power_w + (node.other_max_power_w - node.other_idle_power_w) * u;
  return node.gpus * gpu_w + other_w;
}

}  // namespace dcsim::models::power
