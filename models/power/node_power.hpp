#pragma once
// Node power from GPU utilisation: the foundation's power model.
//
// P(u) = gpus * (P_gpu_idle + (P_gpu_max - P_gpu_idle) * u) + P_other_idle
//        + (P_other_max - P_other_idle) * u,      u in [0, 1]
//
// Linear in utilisation between the measured idle draw and the power limit: the usual first-order
// model (SPECpower-style), adequate for energy over hours; the facility issue replaces it with a
// clock- and temperature-aware model behind the same function.

#include "models/hardware/node_spec.hpp"

namespace dcsim::models::power {

double node_power_w(const hardware::NodeSpec& node, double gpu_utilization);

}  // namespace dcsim::models::power
