#pragma once
// The uplink's config moved to its part (models/network/uplink_config.hpp); these names stay for
// the scenario layer until it includes that header.

#include "models/network/uplink_config.hpp"

namespace dcsim::models::datacenter {

using network::CheckpointCopies;
using network::UplinkConfig;
using network::UplinkGateway;
using network::UplinkStream;

}  // namespace dcsim::models::datacenter
